#!/usr/bin/env bash
# Benchmark (not a test): `roofline measure` against likwid-bench (Debian's likwid), measured in
# the same run on the same machine, interleaved (one measure run, then one round of likwid-bench
# tests, RUNS times) so that both see the same stretches of a shared machine.
#   bash bench/measure_vs_likwid.sh [RUNS]     (default 3)
# likwid-bench tests, with the thread count of our measurement:
#   - peakflops_avx512_fma / peakflops_sp_avx512_fma (avx_fma without AVX-512), L1-size data;
#   - at each cache level's working set (the one our measurement used): load, update, daxpy,
#     stream (triad), copy, copy_mem (non-temporal stores), stream_mem;
#   - DRAM at a 2 GB working set: the same mixes.
# Targets (medians over the runs; ours / likwid-bench of the same run):
#   widest fp64 and fp32 FMA ≥ 1.03× likwid peakflops and ≥ 0.97× theory;
#   DRAM roof ≥ 1.00× likwid's best mix at 2 GB; L1, L2, L3 roofs ≥ 1.00× their best likwid mix;
#   every compute roof within 3% and every memory roof within 5% of its median over the runs;
#   at most a quarter of the roofs noisy in each run; `roofline measure` ≤ 10 s.
# Byte convention: both count the bytes the code names (likwid-bench's per-kernel byte counts
# exclude write-allocate, as our "named" convention does).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
if ! command -v likwid-bench >/dev/null; then
  echo "installing likwid (Debian package)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends likwid >/dev/null
fi
bin=./build/release/bin/roofline
[ -x "$bin" ] || bash scripts/build.sh release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

vec=avx
grep -qw avx512f /proc/cpuinfo && vec=avx512
wide=256
[ $vec = avx512 ] && wide=512

# One likwid-bench test at a working set: the MFlops/s or MByte/s it reports (×1e6 → SI).
lw() {  # test size_bytes threads metric
  local kb=$((($2 + 999) / 1000))
  likwid-bench -t "$1" -W "N:${kb}kB:$3" 2>/dev/null | awk -v m="$4" -F'\t+' '$1 == m":" {print $2 * 1e6}'
}

for i in $(seq 1 "$runs"); do
  /usr/bin/time -f "%e" -o "$work/time$i" "$bin" measure --no-progress -o "$work/r$i.json" \
    >"$work/summary$i"
  echo "run $i: roofline measure $(cat "$work/time$i") s"
  read -r threads levels < <(python3 -c "
import json; d = json.load(open('$work/r$i.json'))
print(d['info']['threads'], ' '.join(l for l in d['measurement']['memory'] if l != 'DRAM'))")
  {
    echo "compute fp64 $wide-bit fma|peakflops_${vec}_fma|$(lw "peakflops_${vec}_fma" $((32000 * threads)) "$threads" MFlops/s)"
    echo "compute fp32 $wide-bit fma|peakflops_sp_${vec}_fma|$(lw "peakflops_sp_${vec}_fma" $((32000 * threads)) "$threads" MFlops/s)"
    for level in $levels DRAM; do
      if [ "$level" = DRAM ]; then
        ws=2000000000
      else
        ws=$(python3 -c "import json;print(int(json.load(open('$work/r$i.json'))['measurement']['memory']['$level']['working_set']))")
      fi
      for pair in load:load update:update daxpy:daxpy triad:stream copy:copy copy_nt:copy_mem triad_nt:stream_mem; do
        t=${pair#*:}_$vec
        echo "memory $level ${pair%%:*}|$t|$(lw "$t" "$ws" "$threads" MByte/s)"
      done
    done
  } >"$work/likwid$i.txt"
done
echo "-- summary of run 1:"
cat "$work/summary1"

python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
med = statistics.median
docs = [json.load(open(f"{work}/r{i}.json")) for i in range(1, runs + 1)]
likwid = []  # per run: {label: value}
for i in range(1, runs + 1):
    d = {}
    for line in open(f"{work}/likwid{i}.txt"):
        label, test, val = line.rstrip("\n").split("|")
        if val.strip():
            d[label] = (test, float(val))
    likwid.append(d)
checks = []
def check(ok, what, value):
    checks.append((ok, what, value))

print(f"\n== ours / likwid-bench, medians over {runs} interleaved runs")
print(f"{'roof':<34} {'ours':>11} {'likwid':>11} {'ours/likwid':>12} {'ours/theory':>12}")
for prec in ("fp64", "fp32"):
    fmas = [c["name"] for c in docs[0]["compute"]
            if c["precision"] == prec and c["name"].endswith("-bit fma")]
    name = max(fmas, key=lambda n: int(n.split()[1].split("-")[0]), default=None)
    if not name: continue
    label = f"compute {name}"
    ours = [next(c["peak"] for c in d["compute"] if c["name"] == name) for d in docs]
    th = [next(c.get("theoretical", 0) for c in d["compute"] if c["name"] == name) for d in docs]
    theirs = [l[label][1] for l in likwid if label in l]
    r_l = med([o / t for o, t in zip(ours, theirs)]) if theirs else float("nan")
    r_t = med([o / t for o, t in zip(ours, th) if t]) if any(th) else float("nan")
    print(f"{name + ' (' + (likwid[0].get(label, ('-',))[0]) + ')':<34.34} {med(ours)/1e9:9.2f} G {med(theirs)/1e9 if theirs else 0:9.2f} G {r_l:12.3f} {r_t:12.3f}")
    check(r_l >= 1.03, f"{name}: ours/likwid >= 1.03", r_l)
    check(r_t >= 0.97, f"{name}: ours/theory >= 0.97", r_t)

levels = [m["level"] for m in docs[0]["memory"]]
for level in levels:
    ratios, best_theirs = [], []
    for d, l in zip(docs, likwid):
        roof = next(m["bandwidth"] for m in d["memory"] if m["level"] == level)
        theirs = [v for k, (t, v) in l.items() if k.startswith(f"memory {level} ")]
        if theirs:
            ratios.append(roof / max(theirs))
            best_theirs.append(max(theirs))
    for mix in ("load", "update", "daxpy", "triad", "copy", "copy_nt", "triad_nt"):
        label = f"memory {level} {mix}"
        pairs = [(next(m for m in d["memory"] if m["level"] == level)["mixes"].get(mix), l[label][1])
                 for d, l in zip(docs, likwid) if label in l]
        pairs = [(o, t) for o, t in pairs if o]
        if pairs:
            print(f"{level + ' ' + mix + ' (' + likwid[0].get(label, ('-',))[0] + ')':<34.34} {med([o for o, _ in pairs])/1e9:9.2f} GB {med([t for _, t in pairs])/1e9:8.2f} GB {med([o / t for o, t in pairs]):12.3f}")
    if ratios:
        roofs = [next(m["bandwidth"] for m in d["memory"] if m["level"] == level) for d in docs]
        print(f"{level + ' roof / best likwid mix':<34} {med(roofs)/1e9:9.2f} GB {med(best_theirs)/1e9:8.2f} GB {med(ratios):12.3f}")
        check(med(ratios) >= 1.00, f"{level} roof / best likwid mix >= 1.00" + (" (likwid at 2 GB)" if level == "DRAM" else ""), med(ratios))

print(f"\n== agreement of the {runs} roofline measure runs (largest deviation from the median)")
rows = {}
for d in docs:
    for c in d["compute"]: rows.setdefault(("compute", c["name"]), []).append(c["peak"])
    for m in d["memory"]: rows.setdefault(("memory", m["level"]), []).append(m["bandwidth"])
worst = {"compute": 0, "memory": 0}
for (kind, name), v in rows.items():
    m = med(v)
    dev = max(abs(x - m) / m for x in v)
    worst[kind] = max(worst[kind], dev)
    limit = 0.03 if kind == "compute" else 0.05
    print(f"{name:<28} median {m:12.4g}  max deviation {100*dev:6.2f}%  {'OK' if dev <= limit else 'over ' + str(int(limit*100)) + '%'}")
check(worst["compute"] <= 0.03, "every compute roof within 3% of its median", worst["compute"])
check(worst["memory"] <= 0.05, "every memory roof within 5% of its median", worst["memory"])
for i, d in enumerate(docs, 1):
    m = d["measurement"]
    total = len(d["compute"]) + len(d["memory"])
    print(f"run {i}: {m['noisy_roofs']} of {total} roofs noisy ({', '.join(m.get('noisy_roof_names', [])) or 'none'}), "
          f"unconfirmed: {', '.join(m['unconfirmed_roofs']) or 'none'}, {m['retries_for_noise']} retries")
    check(4 * m["noisy_roofs"] <= total, f"run {i}: at most a quarter of the roofs noisy", m["noisy_roofs"] / total)
times = [float(open(f"{work}/time{i}").read()) for i in range(1, runs + 1)]
print(f"wall time: median {med(times):.2f} s, max {max(times):.2f} s")
check(med(times) <= 10, "median wall time of roofline measure <= 10 s", med(times))
print()
for ok, what, value in checks:
    print(f"{'PASS' if ok else 'MISS'}  {what}  ({value if value is None else round(value, 3)})")
PY
