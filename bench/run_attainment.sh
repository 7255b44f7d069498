#!/usr/bin/env bash
# Asserts what `roofline run` must show on this machine (docs/tour.md):
#   - axpy-fp64 at L1, L2 and DRAM size reaches ≥ 0.60, 0.70 and 0.80 of the roof it is judged
#     on; at L1/L2 size it moves up; a point above its roof states why (above_roof_cause);
#   - fp16 vs fp32 axpy at DRAM size: intensity doubles and the point moves right (and up);
#   - the naive triple-loop gemm is far below every roof ("far-below");
#   - the tiled gemm moves up (and its traffic out of L3 is set by its tile);
#   - OpenBLAS dgemm and sgemm reach ≥ 0.70 of the fp64 / fp32 FMA roof, on the flat roof.
# The roofs come from `roofline measure` (or MACHINE=FILE). The suite runs RUNS times (default
# 3) and every figure asserted is the median over the runs: the machines this runs on are shared.
# Usage: bench/run_attainment.sh [path/to/roofline]   (default build/release/bin/roofline)
# Environment: KEEP=DIR keeps machine.json, pointsN.json and tableN.txt of every run in DIR;
#              MACHINE=FILE uses that machine document instead of measuring the roofs;
#              RUNS=N runs of the suite; TOUCHING=T the touching threshold (default 0.7).
set -euo pipefail
BIN=${1:-build/release/bin/roofline}
[[ -x "$BIN" ]] || { echo "run_attainment: no roofline binary at $BIN (build first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- roofs -----------------------------------------------------------------------------------
if [[ -n "${MACHINE:-}" ]]; then
  echo "== roofs: $MACHINE"
  cp "$MACHINE" "$work/machine.json"
else
  echo "== roofs: roofline measure"
  "$BIN" measure --no-progress -o "$work/machine.json" >"$work/measure.txt"
fi

# ---- points ----------------------------------------------------------------------------------
runs=${RUNS:-3}
# The issue's criterion for the BLAS gemm is "≥ 0.70 of the FMA roof, diagnosis compute-bound":
# the suite is judged with a touching threshold of 0.70 (the tool's default is 0.8).
touching=${TOUCHING:-0.7}
for r in $(seq 1 "$runs"); do
  echo "== points: roofline run ($r of $runs)"
  # axpy at every level; the gemm family at its default levels (naive: L2, L3; the others: L3,
  # DRAM), so the naive and tiled gemm share the L3-size order n.
  "$BIN" run axpy --levels L1,L2,L3,DRAM --machine "$work/machine.json" --touching "$touching" \
    -o "$work/axpy$r.json" \
    2>/dev/null | tee "$work/table$r.txt"
  "$BIN" run gemm-naive gemm-tiled gemm-blas-fp64 gemm-blas-fp32 --machine "$work/machine.json" \
    --touching "$touching" -o "$work/gemm$r.json" 2>/dev/null | tee -a "$work/table$r.txt"
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); a["points"]+=b["points"]; json.dump(a,open(sys.argv[3],"w"),indent=1)' \
    "$work/axpy$r.json" "$work/gemm$r.json" "$work/points$r.json"
done
if [[ -n "${KEEP:-}" ]]; then
  mkdir -p "$KEEP" && cp "$work"/machine.json "$work"/points*.json "$work"/table*.txt "$KEEP/"
fi

# ---- assertions ------------------------------------------------------------------------------
python3 - "$work" "$runs" <<'EOF'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
mach = json.load(open(f"{work}/machine.json"))
all_runs = [{p["name"]: p for p in json.load(open(f"{work}/points{r}.json"))["points"]}
            for r in range(1, runs + 1)]
# The run whose axpy-fp64 @DRAM attainment is the median stands for all (verdicts, levels); P and
# attainment are medians over the runs.
def attain(run, name): return run[name]["diagnosis"]["attainment"] if "diagnosis" in run[name] else 0
order = sorted(range(runs), key=lambda r: attain(all_runs[r], "axpy-fp64 @DRAM"))
by = all_runs[order[runs // 2]]
pts = list(by.values())
print(f"medians over {runs} runs of the suite")
failures = []
def check(ok, what):
    print(("PASS " if ok else "FAIL ") + what)
    if not ok: failures.append(what)
def perf(p):  # median over the runs of the point's P = W/T
    return statistics.median(r[p["name"]]["work"] / r[p["name"]]["time"] for r in all_runs)
def level(p, lvl):
    def one(q):
        for l in q["diagnosis"]["levels"]:
            if l["level"] == lvl: return l
        raise KeyError(lvl)
    l = dict(one(p))
    l["attainment"] = statistics.median(one(r[p["name"]])["attainment"] for r in all_runs)
    return l
def verdict(p):  # the verdict most runs gave
    return statistics.mode(r[p["name"]]["diagnosis"]["verdict"] for r in all_runs)
def peak(name):
    return next(c["peak"] for c in mach["compute"] if c["name"] == name)

d = by["axpy-fp64 @DRAM"]
a = level(d, "DRAM")["attainment"]
check(0.80 <= a <= 1.05, f"axpy-fp64 at DRAM size: attainment {a:.3f} of the measured DRAM roof (0.80 to 1.05)")
check(verdict(d) == "memory-bound" and d["diagnosis"]["binding_level"] == "DRAM",
      f"axpy-fp64 at DRAM size is on the DRAM roof ({verdict(d)}, {d['diagnosis']['binding_level']})")
for small, floor in (("L1", 0.60), ("L2", 0.70)):
    p = by[f"axpy-fp64 @{small}"]
    a = level(p, small)["attainment"]
    check(a >= floor, f"axpy-fp64 at {small} size: attainment {a:.3f} of the measured {small} roof (>= {floor})")
    r = perf(p) / perf(d)
    check(r >= 1.5, f"axpy-fp64 at {small} size moves up: {r:.2f}x the DRAM-size P (>= 1.5)")
    check(p["diagnosis"]["binding_level"] == small, f"axpy-fp64 at {small} size is judged on the {small} roof")
h, s = by["axpy-fp16 @DRAM"], by["axpy-fp32 @DRAM"]
ih, is_ = level(h, "DRAM")["intensity"], level(s, "DRAM")["intensity"]
check(abs(ih / is_ - 2) < 1e-9, f"fp16 vs fp32 axpy: intensity {ih:.4g} vs {is_:.4g} (x{ih/is_:.3f}, = 2)")
check(perf(h) / perf(s) >= 1.3, f"fp16 axpy moves up along the DRAM roof too: P x{perf(h)/perf(s):.2f} (>= 1.3)")
naive = [p for n, p in by.items() if n.startswith("gemm-naive")]
for p in naive:
    check(verdict(p) == "far-below",
          f"{p['name']}: {verdict(p)} at {statistics.median(r[p['name']]['diagnosis']['attainment'] for r in all_runs):.3f} of attainable (far-below)")
for lvl in ("L3",):
    n, t = by[f"gemm-naive @{lvl}"], by[f"gemm-tiled @{lvl}"]
    check(perf(t) / perf(n) >= 3, f"tiled gemm moves up at {lvl} size: {perf(t)/perf(n):.1f}x naive (>= 3)")
    check(level(t, "L3")["intensity"] > level(n, "L1")["intensity"],
          f"tiled gemm's L3 intensity {level(t,'L3')['intensity']:.3g} is right of naive's L1 intensity {level(n,'L1')['intensity']:.3g}")
for prec in ("fp64", "fp32"):
    for lvl in ("L3", "DRAM"):
        p = by.get(f"gemm-blas-{prec} @{lvl}")
        if p is None: continue
        try: pk = peak(p["diagnosis"]["compute_roof"])
        except StopIteration: pk = None
        frac = perf(p) / pk if pk else 0
        check(0.70 <= frac <= 1.05, f"OpenBLAS {prec} gemm at {lvl} size: {frac:.3f} of the '{p['diagnosis']['compute_roof']}' roof (0.70 to 1.05)")
        check(p["diagnosis"]["binding_roof"] == "compute" and
              verdict(p) in ("compute-bound", "faster-unit-unused"),
              f"OpenBLAS {prec} gemm at {lvl} size sits on the flat roof ({verdict(p)})")
for r in all_runs:
    for p in r.values():
        check(p["run"]["check"] == "passed", f"{p['name']}: result check {p['run']['check']}")
        if "diagnosis" in p and p["diagnosis"]["attainment"] > 1.0:
            check(bool(p.get("above_roof_cause")),
                  f"{p['name']}: {p['diagnosis']['attainment']:.3f} of its roof, cause stated: {p.get('above_roof_cause', 'NONE')}")
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
EOF
