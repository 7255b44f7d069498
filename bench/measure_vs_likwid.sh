#!/usr/bin/env bash
# Benchmark (not a test): `roofline measure` against likwid-bench (Debian's likwid), measured in
# the same run on the same working sets and thread counts.
#   bash bench/measure_vs_likwid.sh [RUNS]     (RUNS runs of each, default 5)
# 1. RUNS consecutive `roofline measure` runs: wall time of each, and each roof's deviation from
#    its median over the runs (target: every roof within 3%).
# 2. likwid-bench, RUNS runs per test: peakflops (fp64/fp32 FMA, widest vectors the CPU has) and
#    load, update, daxpy, stream (triad), copy, copy_mem (non-temporal) at each level's working set.
# 3. Ratios of medians: ours (the roof each run reports) / likwid-bench (the rate each run
#    reports), and ours / theoretical. Targets: FMA roofs ≥ 1.00 of likwid and ≥ 0.92 of theory;
#    DRAM roof ≥ 0.95 of likwid's best mix.
# Byte convention: both count the bytes the code names (likwid-bench's per-kernel byte counts
# exclude write-allocate, as our "named" convention does). Medians, because the machines this
# runs on are shared: a single run of either tool can land in someone else's busy second.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
if ! command -v likwid-bench >/dev/null; then
  echo "installing likwid (Debian package)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends likwid >/dev/null
fi
bin=./build/release/bin/roofline
[ -x "$bin" ] || bash scripts/build.sh release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== $runs runs of roofline measure"
for i in $(seq 1 "$runs"); do
  /usr/bin/time -f "%e" -o "$work/time$i" "$bin" measure --no-progress -o "$work/r$i.json" \
    >"$work/summary$i"
  echo "run $i: $(cat "$work/time$i") s"
done
echo "-- summary of run 1:"
cat "$work/summary1"

threads=$(python3 -c "import json;print(json.load(open('$work/r1.json'))['info']['threads'])")
vec=avx
grep -qw avx512f /proc/cpuinfo && vec=avx512
wide=256
[ $vec = avx512 ] && wide=512

# likwid-bench: RUNS runs of one test at a working set; prints each run's MFlops/s or MByte/s
# (×1e6 → SI) on one line.
lw() {  # test size_bytes metric
  local t=$1 size=$2 metric=$3 vals=()
  local kb=$(((size + 999) / 1000))
  for _ in $(seq 1 "$runs"); do
    v=$(likwid-bench -t "$t" -W "N:${kb}kB:${threads}" 2>/dev/null |
      awk -v m="$metric" -F'\t+' '$1 == m":" {print $2 * 1e6}')
    [ -n "$v" ] && vals+=("$v")
  done
  echo "${vals[*]:-}"
}

echo
echo "== likwid-bench, $threads threads, $runs runs per test"
{
  # Compute kernels fit in L1: 32 kB per thread.
  echo "compute fp64 $wide-bit fma|peakflops_${vec}_fma|$(lw "peakflops_${vec}_fma" $((32000 * threads)) MFlops/s)"
  echo "compute fp32 $wide-bit fma|peakflops_sp_${vec}_fma|$(lw "peakflops_sp_${vec}_fma" $((32000 * threads)) MFlops/s)"
  for level in $(python3 -c "import json;print(' '.join(json.load(open('$work/r1.json'))['measurement']['memory']))"); do
    ws=$(python3 -c "import json;print(int(json.load(open('$work/r1.json'))['measurement']['memory']['$level']['working_set']))")
    for pair in load:load update:update daxpy:daxpy triad:stream copy:copy copy_nt:copy_mem; do
      test=${pair#*:}_$vec
      echo "memory $level ${pair%%:*}|$test|$(lw "$test" "$ws" MByte/s)"
    done
  done
} >"$work/likwid.txt"

python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
docs = [json.load(open(f"{work}/r{i}.json")) for i in range(1, runs + 1)]
med = statistics.median

def ours_compute(name):
    v = [c["peak"] for d in docs for c in d["compute"] if c["name"] == name]
    th = [c.get("theoretical") for d in docs for c in d["compute"] if c["name"] == name]
    return (med(v) if v else None), (med([t for t in th if t]) if any(th) else None)

def ours_mix(level, mix):
    v = [d["memory_named"][level][mix] for d in docs if level in d["memory_named"] and mix in d["memory_named"][level]]
    return med(v) if v else None

for d in docs:
    d["memory_named"] = {m["level"]: m.get("mixes", {}) for m in d["memory"]}

print(f"{'roof':<30} {'ours':>12} {'likwid':>12} {'ours/likwid':>12} {'ours/theory':>12}")
best_likwid = {}
checks = []
for line in open(f"{work}/likwid.txt"):
    label, test, vals = line.rstrip("\n").split("|")
    theirs = [float(x) for x in vals.split()] if vals.strip() else []
    t = med(theirs) if theirs else None
    kind, rest = label.split(" ", 1)
    if kind == "compute":
        ours, th = ours_compute(rest)
        unit = "FLOP/s"
        ratio = ours / t if ours and t else None
        rt = ours / th if ours and th else None
        print(f"{rest + ' (' + test + ')':<30.30} {ours/1e9 if ours else 0:9.2f} G  {(t or 0)/1e9:9.2f} G  {ratio or 0:12.3f} {rt or float('nan'):12.3f}")
        checks.append((f"{rest}: ours/likwid >= 1.00", ratio is not None and ratio >= 1.00, ratio))
        checks.append((f"{rest}: ours/theory >= 0.92", rt is not None and rt >= 0.92, rt))
    else:
        level, mix = rest.split(" ")
        ours = ours_mix(level, mix)
        ratio = ours / t if ours and t else None
        if t: best_likwid[level] = max(best_likwid.get(level, 0), t)
        print(f"{level + ' ' + mix + ' (' + test + ')':<30.30} {(ours or 0)/1e9:9.2f} GB {(t or 0)/1e9:9.2f} GB {ratio or 0:12.3f}")
for level, b in best_likwid.items():
    v = [m["bandwidth"] for d in docs for m in d["memory"] if m["level"] == level]
    roof = med(v)
    print(f"{level + ' roof / best likwid mix':<30} {roof/1e9:9.2f} GB {b/1e9:9.2f} GB {roof/b:12.3f}")
    if level == "DRAM":
        checks.append(("DRAM roof / best likwid mix >= 0.95", roof / b >= 0.95, roof / b))

print()
print(f"== agreement of the {runs} roofline measure runs (max deviation from the median)")
rows = {}
for d in docs:
    for c in d["compute"]: rows.setdefault(c["name"], []).append(c["peak"])
    for m in d["memory"]: rows.setdefault(m["level"] + " bandwidth", []).append(m["bandwidth"])
worst = 0
for name, v in rows.items():
    m = med(v)
    dev = max(abs(x - m) / m for x in v)
    worst = max(worst, dev)
    print(f"{name:<28} median {m:12.4g}  max deviation {100*dev:6.2f}%  {'OK' if dev <= 0.03 else 'over 3%'}")
print(f"worst: {100*worst:.2f}%")
times = [float(open(f"{work}/time{i}").read()) for i in range(1, runs + 1)]
print(f"wall time: median {med(times):.2f} s, max {max(times):.2f} s")
checks.append(("median wall time <= 20 s", med(times) <= 20, med(times)))
checks.append(("every roof within 3% over the runs", worst <= 0.03, worst))
print()
for what, ok, value in checks:
    print(f"{'PASS' if ok else 'MISS'}  {what}  ({value if value is None else round(value, 3)})")
PY
