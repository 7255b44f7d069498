#!/usr/bin/env bash
# GPU acceptance check of the CUDA backend on an NVIDIA H200, as one prepared script
# (docs/cuda.md, "On a GPU"). Runs the measuring program that bench/gpu_prepare.sh built on a
# development machine (build/gpu-carry/roofline_gpu_check); where it is missing or cannot use
# the GPU the driver shows, builds it there from bench/gpu_check with the machine's nvcc (no
# tests, warnings not fatal) and stops if that build does not turn the CUDA backend on.
#
# The measurement runs under `timeout`, writes each result to records.jsonl as it is measured,
# and ends with a table of every roof (HBM, L2, L1, shared, fp64/fp32/fp16 FMA, each tensor
# precision): measured, theory at the SM clock it ran, measured/theory, cuBLAS's rate in the
# same run, the target, and a verdict. It fails when a roof is above 1.02 × its theory, when an
# H200 target is missed (HBM ≥ 0.90 × 4.8 TB/s; bf16 dense ≥ 0.80 × 989.4 TFLOP/s and at least
# cuBLAS's rate; fp64 tensor ≥ 0.85 × 67 and fp64 CUDA cores ≥ 0.85 × 34 TFLOP/s), or when the
# measurement takes over 60 s. Clocks are only read (nvidia-smi queries, NVML), never set.
#
# Everything goes to $OUT (default build/gpu-check): env.txt (machine, driver, the program's
# libraries, SASS of the FMA kernels), report.txt, progress.log, records.jsonl, h200.json,
# clocks.csv, and build.log when it had to build.
# Usage: bash bench/gpu_h200_check.sh [--quick] [--device N] [--timeout S]
# Exit status: 0 every check passed, 1 a check failed, 2 bad usage, 3 no GPU or no CUDA
# backend (nothing measured), 4 the measurement failed, 124 it was stopped by the timeout
# (what it measured until then is judged and printed).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out="${OUT:-build/gpu-check}"
carry="${GPU_CARRY:-build/gpu-carry}"
limit=120       # seconds for the measuring program; it is designed for ≤ 60
build_limit=${GPU_BUILD_LIMIT:-240} # seconds to configure and build it here, when needed
# Worst case: build 240 + measurement 120 + 10 to stop it + ~20 for the rest: under 6.5 minutes.
device=0
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) args+=(--quick) ;;
    --device) device="$2"; shift ;;
    --timeout) limit="$2"; shift ;;
    *) echo "usage: $0 [--quick] [--device N] [--timeout S]"; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
say() { echo "gpu_h200_check: $*"; }
t0=$(date +%s)

# ---- the machine (read-only queries) ----
gpu_seen=""
{
  echo "== $(date -u +%FT%TZ) $(uname -srm)"
  if command -v nvidia-smi >/dev/null; then
    gpu_seen=$(nvidia-smi -L 2>/dev/null | head -1)
    nvidia-smi --query-gpu=name,pci.bus_id,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.draw,power.limit,temperature.gpu,clocks_event_reasons.active \
      --format=csv 2>&1
  else
    echo "nvidia-smi: not found"
  fi
  command -v nvcc >/dev/null && nvcc --version | tail -2
  command -v cmake >/dev/null && cmake --version | head -1
  echo "glibc: $(ldd --version 2>&1 | head -1)"
} >"$out/env.txt" 2>&1
say "GPU: ${gpu_seen:-none seen by nvidia-smi}"

probe() { # $1 = program; prints its probe into env.txt, returns its exit status
  echo "== $1 --probe" >>"$out/env.txt"
  ldd "$1" >>"$out/env.txt" 2>&1
  timeout 60 "$1" --probe --device "$device" >>"$out/env.txt" 2>&1
}

bin="$carry/roofline_gpu_check"
need_build=0
if [[ -x "$bin" ]]; then
  probe "$bin"
  rc=$?
  grep -E "^(roofline_gpu_check|device):" "$out/env.txt" | tail -2 | sed 's/^/gpu_h200_check: /'
  if [[ $rc -eq 0 ]] && ! grep -q "^roofline_gpu_check: CUDA backend on" "$out/env.txt"; then
    say "the carried program does not say the CUDA backend is on: building it here"
    rc=5
  fi
  if [[ $rc -eq 3 && -z "$gpu_seen" ]]; then
    say "no GPU here: nothing measured (the program says why above; nvidia-smi sees none)"
    exit 3
  elif [[ $rc -ne 0 ]]; then
    say "the carried program cannot measure here (exit $rc; env.txt says why): building it here"
    need_build=1
  fi
else
  say "no carried program at $bin (bench/gpu_prepare.sh makes it)"
  need_build=1
fi

if [[ $need_build -eq 1 ]]; then
  if [[ -z "$gpu_seen" ]]; then
    say "no GPU here (nvidia-smi sees none): nothing to build for, nothing measured"
    exit 3
  fi
  NVCC="$(command -v nvcc || true)"
  [[ -z "$NVCC" && -x /usr/local/cuda/bin/nvcc ]] && NVCC=/usr/local/cuda/bin/nvcc
  if [[ -z "$NVCC" ]]; then say "no nvcc here: cannot build the measuring program"; exit 3; fi
  json=/usr/include
  [[ -f "$carry/include/nlohmann/json.hpp" ]] && json="$(cd "$carry/include" && pwd)"
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i "$device" 2>/dev/null | head -1 | tr -d ' .')
  archs=()
  [[ "$cc" =~ ^[0-9]+$ ]] && archs=(-DROOFLINE_CUDA_ARCHS="${cc}-real")
  gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  dir=/tmp/roofline-gpu-check-build
  say "building with $NVCC for sm_${cc:-?} (warnings not fatal, no tests)"
  timeout 120 cmake -S bench/gpu_check -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DROOFLINE_WERROR=OFF -DROOFLINE_STATIC_LIBSTDCXX=OFF -DCMAKE_CUDA_COMPILER="$NVCC" \
    -DROOFLINE_JSON_INCLUDE_DIR="$json" "${archs[@]}" >"$out/build.log" 2>&1
  if ! grep -q "roofline_gpu_check: CUDA backend on" "$out/build.log"; then
    tail -20 "$out/build.log"
    say "the build did not turn the CUDA backend on: stopping, nothing measured"
    exit 3
  fi
  grep "roofline_gpu_check: CUDA backend on" "$out/build.log" | sed 's/^-- /gpu_h200_check: /'
  left=$((build_limit - ($(date +%s) - t0)))
  ((left < 30)) && left=30
  timeout "$left" cmake --build "$dir" -j "$(nproc)" >>"$out/build.log" 2>&1
  brc=$?
  if [[ $brc -eq 124 ]]; then
    say "the build did not finish in ${left} s (build.log): nothing measured"
    exit 4
  elif [[ $brc -ne 0 ]]; then
    grep -E "error|Error" "$out/build.log" | head -20
    say "the build failed (build.log): nothing measured"
    exit 4
  fi
  bin="$dir/roofline_gpu_check"
  probe "$bin"
  rc=$?
  grep -E "^device:" "$out/env.txt" | tail -1 | sed 's/^/gpu_h200_check: /'
  if [[ $rc -ne 0 ]]; then say "the program built here finds no GPU either (exit $rc): nothing measured"; exit 3; fi
fi

# What the compiler made of the FMA kernels (SASS): FMA instructions out of all in each.
if command -v cuobjdump >/dev/null; then
  {
    echo "== SASS of the FMA kernels (sm_90): FMA instructions / all instructions"
    timeout 60 cuobjdump --dump-sass "$bin" 2>/dev/null | awk '
      /Function :/ { name = $3; inside = (name ~ /fma_kernel|fma_f16x2/) }
      /arch = sm_/ { arch = $3 }
      inside && arch == "sm_90" && /\/\*[0-9a-f]+\*\/ / {
        n[name]++; if ($0 ~ /[DHF]FMA|HFMA2/) f[name]++ }
      END { for (k in n) printf "%s: %d / %d\n", k, f[k], n[k] }'
  } >>"$out/env.txt" 2>&1
fi

# ---- the measurement ----
mon=""
if [[ -n "$gpu_seen" ]]; then
  nvidia-smi -i "$device" --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active \
    --format=csv -lms 250 >"$out/clocks.csv" 2>&1 &
  mon=$!
fi
say "measuring (timeout ${limit} s; results in $out/records.jsonl as they come)"
timeout -k 10 "$limit" "$bin" --device "$device" --records "$out/records.jsonl" \
  --json "$out/h200.json" --targets h200 --deadline $((limit * 2 / 3)) "${args[@]}" \
  2>"$out/progress.log" | tee "$out/report.txt"
rc=${PIPESTATUS[0]}
[[ -n "$mon" ]] && kill "$mon" 2>/dev/null
if [[ $rc -eq 124 || $rc -eq 137 ]]; then
  say "the measurement was stopped after ${limit} s (exit $rc); judging what it recorded:"
  "$bin" --report "$out/records.jsonl" --targets h200 | tee -a "$out/report.txt"
  tail -3 "$out/progress.log"
  rc=124
elif [[ $rc -ne 0 && $rc -ne 1 ]]; then
  tail -5 "$out/progress.log"
fi
say "exit $rc after $(($(date +%s) - t0)) s; files in $out: $(ls "$out" | tr '\n' ' ')"
exit "$rc"
