#!/usr/bin/env bash
# Compile-only check of the CUDA backend (there may be no GPU): configures a build with
# ROOFLINE_CUDA=ON, compiles the roofline_cuda kernels and the host code that drives them, and
# verifies with ptxas that every kernel compiles for sm_90 (H100/H200) without register spills.
# Skips, successfully, when nvcc is absent.
set -euo pipefail
cd "$(dirname "$0")/../.."

NVCC="$(command -v nvcc || true)"
if [[ -z "$NVCC" && -x /usr/local/cuda/bin/nvcc ]]; then NVCC=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$NVCC" ]]; then
  echo "cuda_compile: SKIP: nvcc not found (no CUDA toolkit); the CUDA backend is not built"
  exit 0
fi
echo "cuda_compile: $("$NVCC" --version | tail -1)"

# Reuse the release build when it already has the CUDA backend (scripts/test.sh builds it first);
# otherwise configure a build of our own.
build=build/cuda-ci
if grep -q "^ROOFLINE_CUDA:BOOL=ON" build/release/CMakeCache.txt 2>/dev/null && \
   [ -f build/release/src/libroofline_cuda.a ]; then
  build=build/release
fi
[ "$build" = build/release ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DROOFLINE_WERROR=ON \
  -DROOFLINE_CUDA=ON -DROOFLINE_TESTS=OFF -DROOFLINE_BENCH=OFF \
  -DCMAKE_CUDA_COMPILER="$NVCC" >"$build.log" 2>&1 || { cat "$build.log"; exit 1; }
if [ "$build" != build/release ] && ! grep -q "roofline: CUDA backend on" "$build.log"; then
  cat "$build.log"
  echo "cuda_compile: FAIL: nvcc is present but CMake did not turn the CUDA backend on"
  exit 1
fi
[ "$build" = build/release ] || grep "roofline: CUDA backend on" "$build.log"
# The kernels library, and the host code that drives them (device/*.cpp, built into
# `roofline`): only those objects, not the whole library.
objects=()
for f in src/measure/cuda/device/*.cpp; do
  objects+=("src/CMakeFiles/roofline.dir/${f#src/}.o")
done
ninja -C "$build" roofline_cuda "${objects[@]}"

status=0
# The built objects carry sm_90 code (the fatbinary names each architecture it holds).
for obj in "$build"/src/CMakeFiles/roofline_cuda.dir/measure/cuda/device/*.cu.o; do
  if ! grep -a -q "sm_90" "$obj"; then echo "cuda_compile: FAIL: no sm_90 code in $obj"; status=1; fi
done
# Every __global__ kernel compiled for sm_90, without spills.
for cu in src/measure/cuda/device/*.cu; do
  report="$("$NVCC" -std=c++17 -O3 -arch=sm_90 -Xptxas -v -c "$cu" -o /dev/null 2>&1)" || {
    echo "$report"; echo "cuda_compile: FAIL: $cu does not compile for sm_90"; exit 1; }
  kernels=$(grep -c "Compiling entry function .* for 'sm_90'" <<<"$report" || true)
  spills=$(grep -E "[1-9][0-9]* bytes spill (stores|loads)" <<<"$report" || true)
  if [[ "$kernels" -eq 0 ]]; then echo "cuda_compile: FAIL: no sm_90 kernel in $cu"; status=1; fi
  if [[ -n "$spills" ]]; then echo "cuda_compile: FAIL: register spills in $cu:"; echo "$spills"; status=1; fi
  echo "cuda_compile: $cu: $kernels kernels for sm_90, no spills"
done
[[ $status -eq 0 ]] && echo "cuda_compile: PASS"
exit $status
