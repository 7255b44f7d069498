#!/usr/bin/env bash
# The cluster roofline on 2 MPI ranks on localhost (docs/cluster.md):
#  1. a quick run writes a cluster document with two nodes, per-roof aggregates and the network
#     roofs, which `point` (and `plot`, when the build has it) accept as a machine;
#  2. a mismatched rank count and 3. a failing rank give a clear error on every rank, a non-zero
#     exit, and no document;
#  4. the docs' distributed example on both ranks keeps its InfiniBand roof (kind network);
#  5. nodes of no common compute roof fail the assembly, said once and blaming no rank;
#  6. two ranks on one host each giving a document of that host are warned of (summed as given).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=build/release/bin/roofline
[ -x "$bin" ] || { echo "mpi: $bin not built" >&2; exit 1; }
command -v mpiexec >/dev/null || { echo "mpi: mpiexec not found (scripts/deps.d/cluster.txt)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Open MPI refuses to run as root without these; MPICH ignores them.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NO_COLOR=1
mpirun2() { timeout 120 mpiexec -n 2 "$bin" "$@"; }
fail() { echo "mpi: FAIL: $*" >&2; exit 1; }

echo "mpi: 2-rank quick cluster run (roofline measure --mpi)"
mpirun2 measure --mpi --quick -o "$tmp/cluster.json" >"$tmp/run.out" 2>"$tmp/run.err" \
  || { cat "$tmp/run.out" "$tmp/run.err" >&2; fail "cluster run exited non-zero"; }
cat "$tmp/run.out"
python3 - "$tmp/cluster.json" <<'PY' || fail "cluster document check"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cluster"]
assert d["schema"] == "roofline.machine", d["schema"]
assert c["ranks"] == 2 and len(c["nodes"]) == 2, "expected two nodes"
assert [n["rank"] for n in c["nodes"]] == [0, 1]
levels = {m["level"]: m for m in d["memory"]}
for level in ("network", "allreduce"):
    assert level in levels and levels[level]["kind"] == "network", "missing network roof " + level
    assert levels[level]["bandwidth"] > 0
assert d["compute"] and d["compute"][0]["peak"] > 0, "no compute roof"
net = c["network"]
assert net["ranks"] == 2 and net["pairs"] == [[0, 1]] and net["latency_seconds"] > 0
for s in net["allreduce"]:  # n = 2: busbw = algbw x 2(2-1)/2 = algbw
    assert abs(s["busbw"] - s["algbw"]) <= 1e-9 * s["algbw"], s
for a in c["roofs"]:
    vals = [p["value"] for p in a["per_node"]]
    assert len(vals) == 2 and abs(a["sum"] - sum(vals)) <= 1e-9 * a["sum"], a
    assert a["min"] == min(vals) and a["max"] == max(vals), a
print("mpi: document ok: %d nodes, roofs %s, network %s" % (
    len(c["nodes"]), [r["name"] for r in d["compute"]], sorted(levels)))
PY
# The document is a machine: a distributed step placed against node compute and the allreduce roof.
"$bin" point --machine "$tmp/cluster.json" --work 1e9 --traffic-at allreduce=4e8 --time 1 \
  >"$tmp/point.out" || fail "point against the cluster document"
grep -q "allreduce" "$tmp/point.out" || fail "point output does not name the allreduce roof"
if "$bin" --help | grep -qE "^  plot( |$)"; then
  "$bin" plot "$tmp/cluster.json" -o "$tmp/cluster.svg" || fail "plot of the cluster document"
  [ -s "$tmp/cluster.svg" ] || fail "empty chart"
  echo "mpi: chart ok"
else
  echo "mpi: no plot command in this build: chart not checked"
fi

echo "mpi: mismatched rank count"
if mpirun2 cluster --quick --expect-ranks 3 -o "$tmp/bad.json" >"$tmp/bad.out" 2>"$tmp/bad.err"; then
  fail "a 2-rank run with --expect-ranks 3 succeeded"
fi
[ ! -e "$tmp/bad.json" ] || fail "a document was written despite the wrong rank count"
n=$(grep -c "roofline: error: cluster measurement failed while checking the run" "$tmp/bad.err" || true)
[ "$n" -eq 2 ] || { cat "$tmp/bad.err" >&2; fail "expected the error on both ranks (got $n)"; }
grep -q "expected 3 ranks (--expect-ranks) but this run has 2" "$tmp/bad.err" \
  || { cat "$tmp/bad.err" >&2; fail "rank-count error unclear"; }
for r in 0 1; do
  grep -q "(reported by rank $r of 2)" "$tmp/bad.err" || { cat "$tmp/bad.err" >&2; fail "rank $r did not report"; }
done

echo "mpi: a failing rank"
# Rank 0 reads a valid node document; rank 1's is missing, so rank 1 fails while measuring.
cat >"$tmp/node0.json" <<'JSON'
{"schema": "roofline.machine", "version": 1, "name": "n0",
 "compute": [{"name": "fp64", "precision": "fp64", "peak": 1e11}],
 "memory": [{"level": "DRAM", "bandwidth": 2e10}]}
JSON
if mpirun2 cluster --quick --node-machine "$tmp/node{rank}.json" -o "$tmp/bad.json" \
     >"$tmp/fail.out" 2>"$tmp/fail.err"; then
  fail "a run with a failing rank succeeded"
fi
[ ! -e "$tmp/bad.json" ] || fail "a document was written despite a failing rank"
n=$(grep -c "roofline: error: cluster measurement failed while measuring the nodes" "$tmp/fail.err" || true)
[ "$n" -eq 2 ] || { cat "$tmp/fail.err" >&2; fail "expected the error on both ranks (got $n)"; }
n=$(grep -c "rank 1 (.*): .*node1.json" "$tmp/fail.err" || true)
[ "$n" -eq 2 ] || { cat "$tmp/fail.err" >&2; fail "both ranks should name rank 1 and its file (got $n)"; }
for r in 0 1; do
  grep -q "(reported by rank $r of 2)" "$tmp/fail.err" || { cat "$tmp/fail.err" >&2; fail "rank $r did not report"; }
done
cat "$tmp/fail.err"

echo "mpi: the nodes' own network roofs (docs/cluster.md: examples/custom/distributed/ on both ranks)"
# InfiniBand (kind network, the example's default memory) is a roof every node has: it was dropped,
# and the example's points were then refused.
example=examples/custom/distributed
mpirun2 cluster --node-machine "$example/machine.json" --no-network -o "$tmp/ib.json" \
  >"$tmp/ib.out" 2>"$tmp/ib.err" || { cat "$tmp/ib.out" "$tmp/ib.err" >&2; fail "cluster of the example"; }
python3 - "$tmp/ib.json" <<'PY' || fail "the example's cluster document"
import json, sys
d = json.load(open(sys.argv[1]))
levels = {m["level"]: m for m in d["memory"]}
assert sorted(levels) == ["InfiniBand", "NVLink"], sorted(levels)
assert levels["InfiniBand"]["kind"] == "network" and levels["InfiniBand"]["bandwidth"] == 50e9
assert d["default_memory"] == "InfiniBand", d.get("default_memory")
assert not any("no default memory roof" in n for n in d["cluster"]["notes"]), d["cluster"]["notes"]
PY
"$bin" point --machine "$tmp/ib.json" --points "$example/points.json" >"$tmp/ib-points.out" \
  || fail "the example's points against its cluster document"
grep -q "InfiniBand" "$tmp/ib-points.out" || fail "the example's points do not name InfiniBand"
echo "mpi: an assembly failure is the step's, said once"
cat >"$tmp/apart1.json" <<'JSON'
{"schema": "roofline.machine", "version": 1, "name": "n1",
 "compute": [{"name": "fp32", "precision": "fp32", "peak": 1e11}],
 "memory": [{"level": "DRAM", "bandwidth": 2e10}]}
JSON
cp "$tmp/node0.json" "$tmp/apart0.json"
if mpirun2 cluster --node-machine "$tmp/apart{rank}.json" --no-network -o "$tmp/bad.json" \
     >"$tmp/apart.out" 2>"$tmp/apart.err"; then
  fail "nodes of no common compute roof were assembled"
fi
[ ! -e "$tmp/bad.json" ] || fail "a document was written despite the failed assembly"
n=$(grep -c "the nodes share no compute roof" "$tmp/apart.err" || true)
[ "$n" -eq 1 ] || { cat "$tmp/apart.err" >&2; fail "expected the reason once (got $n)"; }
n=$(grep -c "roofline: error: cluster measurement failed while assembling the cluster document" \
  "$tmp/apart.err" || true)
[ "$n" -eq 2 ] || { cat "$tmp/apart.err" >&2; fail "expected both ranks to fail (got $n)"; }
! grep -q "rank 0 (" "$tmp/apart.err" || { cat "$tmp/apart.err" >&2; fail "a rank was blamed"; }

echo "mpi: documents of one host on two of its ranks"
# Named as the host (MPI's processor name, the host name), as `roofline measure` names its
# document: the sums count the host twice, and the summary says so.
sed "s/\"name\": \"n0\"/\"name\": \"$(hostname)\"/" "$tmp/node0.json" >"$tmp/host.json"
mpirun2 cluster --node-machine "$tmp/host.json" --no-network >"$tmp/host.out" 2>"$tmp/host.err" \
  || { cat "$tmp/host.out" "$tmp/host.err" >&2; fail "cluster of one host's document"; }
grep -q "warning: ranks 0, 1 share host '.*' and each gives a document of that whole host" \
  "$tmp/host.out" || { cat "$tmp/host.out" >&2; fail "no warning of the host counted twice"; }
grep -q "note: several ranks share a host: their machine documents were given" "$tmp/host.out" \
  || { cat "$tmp/host.out" >&2; fail "the note does not say the documents were given"; }
! grep -q "each rank measured its share" "$tmp/host.out" \
  || { cat "$tmp/host.out" >&2; fail "the note says the ranks measured"; }
echo "mpi: ok"
