#!/usr/bin/env bash
# GPU acceptance check for the CUDA backend on an NVIDIA H200 (issue 9). Builds the release
# preset, measures the GPU's roofs (bench/cuda_roofs), keeps the JSON and the report under
# $OUT (default: build/gpu-check), and prints each figure against its H200 target:
#   HBM ≥ 0.90 × 4.8 TB/s; bf16 dense tensor ≥ 0.80 × 989 TFLOP/s;
#   fp64 ≥ 0.85 × 67 TFLOP/s (fp64 tensor) and ≥ 0.85 × 34 TFLOP/s (fp64 CUDA cores);
#   the whole GPU measurement ≤ 60 s.
# Exit status: 0 when every target is met, 1 when one is missed, 3 when there is no GPU.
# Usage: bash bench/gpu_h200_check.sh [--no-build] [--quick] [--device N]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-build/gpu-check}"
mkdir -p "$out"
build=1
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) build=0 ;;
    --quick) args+=(--quick) ;;
    --device) args+=(--device "$2"); shift ;;
    *) echo "usage: $0 [--no-build] [--quick] [--device N]"; exit 2 ;;
  esac
  shift
done

if [[ $build -eq 1 ]]; then
  cmake --preset release >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
  grep "roofline: CUDA backend" "$out/configure.log" || true
  cmake --build --preset release -j"$(nproc)" --target cuda_roofs >"$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
  --format=csv >"$out/nvidia-smi.csv" 2>&1 || true
cat "$out/nvidia-smi.csv" || true

set +e
start=$(date +%s.%N)
build/release/bench/cuda_roofs "${args[@]}" --json "$out/h200.json" 2>"$out/progress.log" | tee "$out/report.txt"
rc=${PIPESTATUS[0]}
end=$(date +%s.%N)
set -e
if [[ $rc -ne 0 ]]; then
  tail -5 "$out/progress.log"
  echo "gpu_h200_check: the measurement failed (exit $rc)"
  exit "$rc"
fi
wall=$(python3 -c "print(f'{$end - $start:.1f}')")

python3 - "$out/h200.json" "$wall" <<'PY' | tee "$out/targets.txt"
import json, sys
doc = json.load(open(sys.argv[1]))
wall = float(sys.argv[2])
compute = {r["name"]: r for r in doc["compute"]}
memory = {r["level"]: r for r in doc["memory"]}
meas = doc.get("measurement", {})
def measured(table, key, field):
    r = table.get(key)
    if r is None or r.get("provenance") != "measured":
        return None
    return r[field]
checks = [
    ("HBM bandwidth", measured(memory, "HBM", "bandwidth"), 0.90 * 4.8e12, "B/s", 4.8e12),
    ("bf16 dense tensor", measured(compute, "bf16 tensor", "peak"), 0.80 * 989e12, "FLOP/s", 989e12),
    ("fp64 tensor", measured(compute, "fp64 tensor", "peak"), 0.85 * 67e12, "FLOP/s", 67e12),
    ("fp64 CUDA cores", measured(compute, "fp64 cuda cores", "peak"), 0.85 * 34e12, "FLOP/s", 34e12),
]
ok = True
print(f"{'figure':20} {'measured':>14} {'datasheet':>12} {'ratio':>7} {'target':>7}  result")
for name, value, target, unit, sheet in checks:
    if value is None:
        print(f"{name:20} {'not measured':>14} {sheet:12.4g} {'-':>7} {target/sheet:7.2f}  MISS")
        ok = False
        continue
    good = value >= target
    ok &= good
    print(f"{name:20} {value:14.4g} {sheet:12.4g} {value/sheet:7.3f} {target/sheet:7.2f}  {'ok' if good else 'MISS'}")
seconds = meas.get("seconds", wall)
good = seconds <= 60
ok &= good
print(f"{'measurement time':20} {seconds:13.1f}s {60:11d}s {'':>7} {'':>7}  {'ok' if good else 'MISS'} (wall {wall} s incl. start-up)")
for part in meas.get("parts", []):
    print(f"  {part['part']:40} {part['seconds']:6.2f} s (budget {part['budget_s']} s)")
for u in meas.get("unavailable", []):
    print(f"  not measured: {u}")
clocks = doc.get("device", {}).get("clocks", {}).get("under_load", {})
if clocks.get("available"):
    print(f"  SM clock under load {clocks.get('sm_clock_mhz')} MHz of max {clocks.get('sm_clock_max_mhz')} MHz;"
          f" reasons: {', '.join(clocks.get('clock_event_reasons', [])) or 'none'}")
print("gpu_h200_check:", "PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
