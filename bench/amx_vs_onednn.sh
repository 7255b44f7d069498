#!/usr/bin/env bash
# Benchmark (not a test): roofline's AMX roofs against oneDNN's matmul (Debian's libdnnl-dev),
# the library whose AMX kernels frameworks run on these CPUs, measured in the same run on the same
# machine, interleaved RUNS times (one `roofline measure --precisions bf16,int8`, then oneDNN's
# bf16 and int8 matmuls at 512, 1024 and 2048, on as many OpenMP threads as the roofs' threads).
#   bash bench/amx_vs_onednn.sh [RUNS]     (default 3)
# A roof is an upper bound: no multiply may exceed it. Target (medians over the runs): each AMX
# roof ≥ 1.00 × oneDNN's best matmul rate of the same type; the ratio printed says how far the
# library's GEMM stays below the tile unit's issue rate. On a CPU without AMX (or where Linux does
# not grant the tile state) it says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
if [ ! -e /usr/include/oneapi/dnnl/dnnl.hpp ]; then
  echo "installing libdnnl-dev (Debian package)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends libdnnl-dev g++ >/dev/null
fi
bin=./build/release/bin/roofline
[ -x "$bin" ] || bash scripts/build.sh release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O2 -std=c++17 bench/amx_onednn/matmul.cpp -o "$work/matmul" -ldnnl

for i in $(seq 1 "$runs"); do
  "$bin" measure --no-progress --precisions bf16,int8 --levels L1 --no-curve --no-single-core \
    -o "$work/m$i.json" >"$work/summary$i"
  threads=$(python3 -c "import json; print(json.load(open('$work/m$i.json'))['info']['threads'])")
  for n in 512 1024 2048; do
    OMP_NUM_THREADS=$threads OMP_PROC_BIND=close OMP_PLACES=cores "$work/matmul" "$n" 20 |
      sed "s/^/$n /" >>"$work/onednn$i"
  done
  echo "run $i: measured on $threads threads"
done

python3 - "$work" "$runs" <<'EOF'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
ours, peer, impl = {"bf16": [], "int8": []}, {"bf16": [], "int8": []}, {}
for i in range(1, runs + 1):
    doc = json.load(open(f"{work}/m{i}.json"))
    for c in doc["compute"]:
        if c.get("unit") == "AMX tile dot":
            ours[c["precision"]].append(c["peak"])
    best = {}
    for line in open(f"{work}/onednn{i}"):
        size, kind, *fields = line.split()
        f = dict(x.split("=", 1) for x in fields)
        impl[kind] = f["impl"]
        best[kind] = max(best.get(kind, 0), float(f["best"]))
        if i == 1:
            print(f"oneDNN {kind} {size}: {f['impl']}, median {float(f['median']):.4g}, "
                  f"best {float(f['best']):.4g}")
    for k, v in best.items():
        peer[k].append(v)
if not ours["bf16"] and not ours["int8"]:
    print("no AMX roof was measured (no AMX on this CPU, or Linux did not grant the tile state):"
          " nothing to compare")
    sys.exit(0)
print("\n== ours / oneDNN's best matmul, medians over %d interleaved runs" % runs)
print("%-6s %14s %14s %8s  %s" % ("type", "AMX roof", "oneDNN best", "ratio", "oneDNN kernel"))
ok = True
for k in ("bf16", "int8"):
    if not ours[k]:
        continue
    o, p = statistics.median(ours[k]), statistics.median(peer[k])
    amx = "amx" in impl.get(k, "")
    print("%-6s %14.4g %14.4g %8.3f  %s" % (k, o, p, o / p, impl.get(k, "?")))
    if not amx:
        print(f"  note: oneDNN did not pick an AMX kernel for {k}: the ratio compares units")
    ok = ok and o >= p
print("\n%s  every AMX roof >= oneDNN's best matmul of its type" % ("PASS" if ok else "MISS"))
EOF
