#!/usr/bin/env bash
# Benchmark (not a test): `roofline measure` against likwid-bench, measured in the same run on the
# same working sets and thread counts, and the agreement of consecutive `roofline measure` runs.
#   bash bench/measure_vs_likwid.sh [RUNS]     (RUNS consecutive measure runs, default 5)
# Prints, per roof: ours (median of repetitions), likwid-bench (median of 3 runs), ratio; ours /
# theoretical for compute roofs; then the max deviation of each roof over RUNS runs.
# Byte convention: both count the bytes the code names (likwid-bench's per-kernel byte counts
# exclude write-allocate, as our "named" convention does).
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

echo "== roofline measure"
/usr/bin/time -f "%e" -o "$work/time0" "$bin" measure --no-progress -o "$work/m0.json" >"$work/summary0"
cat "$work/summary0"
echo "wall time: $(cat "$work/time0") s"

threads=$(python3 -c "import json;print(json.load(open('$work/m0.json'))['info']['threads'])")
avx512=0
grep -qw avx512f /proc/cpuinfo && avx512=1

# likwid-bench: median of 3 runs of one test; prints MFlops/s or MByte/s (×1e6 → SI).
lw() {  # test size_bytes metric
  local t=$1 size=$2 metric=$3 vals=()
  local kb=$(( (size + 999) / 1000 ))
  for _ in 1 2 3; do
    v=$(likwid-bench -t "$t" -W "N:${kb}kB:${threads}" 2>/dev/null | awk -v m="$metric" -F'\t+' '$1 == m":" {print $2}')
    [ -n "$v" ] && vals+=("$v")
  done
  printf '%s\n' "${vals[@]:-0}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] * 1e6}'
}

echo
echo "== ours / likwid-bench (medians), $threads threads"
printf '%-28s %14s %14s %8s %12s\n' roof ours likwid ratio ours/theory
wide=256; sfx=avx_fma
[ $avx512 = 1 ] && wide=512 && sfx=avx512_fma
for prec in fp64 fp32; do
  test=peakflops_$sfx; [ $prec = fp32 ] && test=peakflops_sp_$sfx
  # Compute kernels fit in L1: 32 kB per thread.
  theirs=$(lw "$test" $((32000 * threads)) "MFlops/s")
  python3 - "$work/m0.json" "$prec $wide-bit fma" "$theirs" "$test" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); name, theirs, test = sys.argv[2], float(sys.argv[3]), sys.argv[4]
r = next(c for c in m["compute"] if c["name"] == name)
ours = r["stats"]["median"]
th = r.get("theoretical")
print(f"{name + ' (' + test + ')':<28.28} {ours/1e9:10.2f} G/s {theirs/1e9:10.2f} G/s {ours/theirs if theirs else 0:8.3f} {ours/th if th else float('nan'):12.3f}")
PY
done
vec=avx; [ $avx512 = 1 ] && vec=avx512
for level in $(python3 -c "import json;print(' '.join(json.load(open('$work/m0.json'))['measurement']['memory']))"); do
  ws=$(python3 -c "import json;print(int(json.load(open('$work/m0.json'))['measurement']['memory']['$level']['working_set']))")
  for pair in load:load_$vec update:update_$vec daxpy:daxpy_$vec triad:stream_$vec copy:copy_$vec copy_nt:copy_mem_$vec; do
    ours_mix=${pair%%:*}; test=${pair#*:}
    theirs=$(lw "$test" "$ws" "MByte/s")
    python3 - "$work/m0.json" "$level" "$ours_mix" "$theirs" "$test" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); level, mix, theirs, test = sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
ours = m["measurement"]["memory"][level]["mix_stats"][mix]["median"]
print(f"{level + ' ' + mix + ' (' + test + ')':<28.28} {ours/1e9:10.2f} GB/s{theirs/1e9:9.2f} GB/s{ours/theirs if theirs else 0:8.3f}")
PY
  done
  python3 - "$work/m0.json" "$level" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); level = sys.argv[2]
roof = next(r for r in m["memory"] if r["level"] == level)
print(f"{level + ' roof (best mix)':<28} {roof['bandwidth']/1e9:10.2f} GB/s")
PY
done

echo
echo "== $runs consecutive runs of roofline measure: max deviation per roof"
for i in $(seq 1 "$runs"); do
  /usr/bin/time -f "%e" -o "$work/time$i" "$bin" measure --no-progress -o "$work/r$i.json" >/dev/null
  echo "run $i: $(cat "$work/time$i") s"
done
python3 - "$work" "$runs" <<'PY'
import json, sys
work, runs = sys.argv[1], int(sys.argv[2])
docs = [json.load(open(f"{work}/r{i}.json")) for i in range(1, runs + 1)]
rows = {}
for d in docs:
    for c in d["compute"]: rows.setdefault(c["name"], []).append(c["peak"])
    for m in d["memory"]: rows.setdefault(m["level"] + " bandwidth", []).append(m["bandwidth"])
worst = 0
for name, v in rows.items():
    med = sorted(v)[len(v) // 2]
    dev = max(abs(x - med) / med for x in v)
    worst = max(worst, dev)
    print(f"{name:<28} median {med:12.4g}  max deviation {100*dev:6.2f}%  {'OK' if dev <= 0.03 else 'over 3%'}")
print(f"worst: {100*worst:.2f}%")
PY
