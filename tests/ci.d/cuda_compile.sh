#!/usr/bin/env bash
# Compile-only check of the CUDA backend (there may be no GPU): configures a build with
# ROOFLINE_CUDA=ON, compiles the roofline_cuda kernels and the host code that drives them, and
# verifies with ptxas that every kernel compiles for sm_90 (H100/H200) without register spills,
# that each FMA kernel's loop holds its 256 FMAs fully unrolled, that the occupancy arithmetic
# agrees with the toolkit's cuda_occupancy.h, and that the GPU check's measuring program
# (bench/gpu_prepare.sh) builds with -Werror and needs no library beyond libc/libm/libstdc++.
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

# The GPU check's measuring program builds in a folder of its own (bench/gpu_prepare.sh): it
# starts now and builds beside the checks below, which are mostly single-threaded nvcc runs.
mkdir -p build
bash bench/gpu_prepare.sh >build/cuda-ci.gpu_prepare.log 2>&1 &
prepare_pid=$!
trap 'kill "$prepare_pid" 2>/dev/null || true' EXIT

# Reuse the release build when it already has the CUDA backend (scripts/test.sh builds it first);
# otherwise configure a build of our own.
build=build/cuda-ci
mkdir -p build
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
# `roofline_measure`): only those objects, not the whole layer.
objects=()
for f in src/measure/cuda/device/*.cpp; do
  objects+=("src/CMakeFiles/roofline_measure.dir/${f#src/}.o")
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
# The FMA kernels: every FMA of a loop iteration unrolled (kFmaChains × kFmaSteps = 256), so the
# loop's own instructions take about 1% of the issue slots (PTX: the loop is the FMAs between
# the kernel's entry and the next).
ptx="$("$NVCC" -std=c++17 -O3 -arch=sm_90 -ptx src/measure/cuda/device/compute_kernels.cu -o - 2>&1)" || {
  echo "$ptx"; echo "cuda_compile: FAIL: compute_kernels.cu gives no PTX"; exit 1; }
for k in "fma_kernelIfE:fma.rn.f32" "fma_kernelIdE:fma.rn.f64" "fma_f16x2:fma.rn.f16x2"; do
  kernel=${k%%:*} op=${k#*:}
  n=$(awk -v k="$kernel" '/\.entry/ { inside = ($0 ~ k) } inside' <<<"$ptx" | grep -c "$op" || true)
  if [[ "$n" -ne 256 ]]; then echo "cuda_compile: FAIL: $kernel has $n $op (want 256, unrolled)"; status=1;
  else echo "cuda_compile: $kernel: 256 $op per loop iteration, unrolled"; fi
done

# Occupancy arithmetic against NVIDIA's calculator (cuda_occupancy.h, host code; no GPU).
# The toolkit's include folder as nvcc itself names it (its --dryrun INCLUDES line): nvcc on PATH
# may be a wrapper script outside the toolkit (/usr/local/bin/nvcc exec'ing the real one), so a
# path derived from where nvcc lies is not the toolkit's.
cuda_include="$("$NVCC" --dryrun -c tests/cuda/empty.cu -o /dev/null 2>&1 |
  sed -n 's/^#\$ INCLUDES="-I\([^"]*\)".*/\1/p' | head -1)"
if [[ ! -f "$cuda_include/cuda_occupancy.h" ]]; then
  echo "cuda_compile: FAIL: nvcc names no include folder with cuda_occupancy.h (got '$cuda_include')"
  exit 1
fi
occ="$build/occupancy_calculator_check"
if c++ -std=c++20 -O1 -I"$cuda_include" -Iinclude -Isrc tests/cuda/occupancy_calculator_check.cpp \
    src/measure/cuda/occupancy.cpp src/core/statistics.cpp -o "$occ"; then
  "$occ" | sed 's/^/cuda_compile: /' || status=1
else
  echo "cuda_compile: FAIL: the occupancy check does not build"; status=1
fi

# The GPU check's measuring program: builds with -Werror, needs only libc/libm/libstdc++.
if wait "$prepare_pid"; then
  grep "^gpu_prepare: .*bytes" build/cuda-ci.gpu_prepare.log | sed 's/^/cuda_compile: /'
else
  tail -30 build/cuda-ci.gpu_prepare.log; echo "cuda_compile: FAIL: bench/gpu_prepare.sh"; status=1
fi

[[ $status -eq 0 ]] && echo "cuda_compile: PASS"
exit $status
