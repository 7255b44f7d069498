#!/usr/bin/env bash
# Builds, on a development machine with the CUDA toolkit, what the GPU check carries to a
# machine that has only the NVIDIA driver and the CUDA toolkit (docs/cuda.md, "On a GPU"):
#   build/gpu-carry/roofline_gpu_check      the measuring program (bench/gpu_check), -Werror
#   build/gpu-carry/include/nlohmann/       nlohmann/json's header, for a rebuild over there
# and checks that the program needs no shared library beyond libc, libm, libstdc++, libgcc_s
# and the loader (the CUDA runtime is static; cuBLASLt, cuBLAS and NVML are opened at run time).
# Prints the program's size, its ldd and the newest glibc symbol version it needs.
# Usage: bash bench/gpu_prepare.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/gpu-check-bin
carry=build/gpu-carry

NVCC="$(command -v nvcc || true)"
if [[ -z "$NVCC" && -x /usr/local/cuda/bin/nvcc ]]; then NVCC=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$NVCC" ]]; then
  echo "gpu_prepare: nvcc not found (no CUDA toolkit): the measuring program cannot be built" >&2
  exit 3
fi
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S bench/gpu_check -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DROOFLINE_WERROR=ON \
  -DROOFLINE_STATIC_LIBSTDCXX=OFF -DCMAKE_CUDA_COMPILER="$NVCC" "${launcher[@]}" >"$build.log" 2>&1 || { cat "$build.log"; exit 1; }
grep "roofline_gpu_check: CUDA backend on" "$build.log" || {
  cat "$build.log"; echo "gpu_prepare: FAIL: the CUDA backend is not on" >&2; exit 1; }
ninja -C "$build" -j "${GPU_PREPARE_JOBS:-2}" roofline_gpu_check
bin="$build/roofline_gpu_check"

# Only libc, libm, libstdc++/libgcc_s (when not linked statically), libdl/libpthread/librt
# (empty on glibc ≥ 2.34) and the loader: nothing the machine with only a driver lacks.
allowed='^(libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-x86-64\.so\.2)$'
needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
bad=$(grep -Ev "$allowed" <<<"$needed" || true)
if [[ -n "$bad" ]]; then
  echo "gpu_prepare: FAIL: $bin needs shared libraries a driver-only machine lacks:" >&2
  echo "$bad" >&2
  exit 1
fi

mkdir -p "$carry/include"
cp "$bin" "$carry/roofline_gpu_check"
json_dir=$(sed -n 's/^ROOFLINE_JSON_INCLUDE_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
[[ -n "$json_dir" && -f "$json_dir/nlohmann/json.hpp" ]] || json_dir=/usr/include
rm -rf "$carry/include/nlohmann"
cp -r "$json_dir/nlohmann" "$carry/include/nlohmann"

glibc=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1 || true)
glibcxx=$(objdump -T "$bin" | grep -o 'GLIBCXX_[0-9.]*' | sort -uV | tail -1 || true)
echo "gpu_prepare: $carry/roofline_gpu_check: $(stat -c %s "$bin") bytes, needs ${glibc:-no GLIBC version} ${glibcxx:-(libstdc++ static)}"
echo "gpu_prepare: NEEDED: $(tr '\n' ' ' <<<"$needed")"
ldd "$bin" | sed 's/^/gpu_prepare: ldd: /'
echo "gpu_prepare: carry $carry ($(du -sh "$carry" | cut -f1)): bash bench/gpu_h200_check.sh"
