#!/usr/bin/env bash
# Benchmark (not a test): what `roofline measure` reports on a noisy machine. Measures this
# machine as it is, then again while `stress-ng --cpu 1` loads one core, and prints each roof
# (sustained rate and cv) from both runs with the ratio, the clock, the wall time, the retries
# and the noise warnings of the loaded run.
#   bash bench/measure_under_load.sh [KEEP_DIR]   (KEEP_DIR keeps the two machine documents)
# Expected: the idle run flags at most a quarter of its roofs noisy; the loaded run flags the
# roofs the load disturbed (every roof more than 5% below its idle value is noisy or
# unconfirmed), and its FMA roofs stay close to the idle ones (rounds give them undisturbed
# samples).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v stress-ng >/dev/null; then
  echo "installing stress-ng (Debian package)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends stress-ng >/dev/null
fi
bin=./build/release/bin/roofline
[ -x "$bin" ] || bash scripts/build.sh release
work=${1:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${1:-}" ] || trap 'rm -rf "$work"' EXIT

echo "== idle"
"$bin" measure --no-progress -o "$work/idle.json" >"$work/idle.txt"
echo "== one core loaded by stress-ng --cpu 1"
stress-ng --cpu 1 --timeout 120s >/dev/null 2>&1 &
stress=$!
trap 'kill $stress 2>/dev/null || true; [ -n "${1:-}" ] || rm -rf "$work"' EXIT
sleep 1
"$bin" measure --no-progress -o "$work/loaded.json" >"$work/loaded.txt"
kill $stress 2>/dev/null || true

python3 - "$work/idle.json" "$work/loaded.json" <<'PY'
import json, sys
idle, loaded = (json.load(open(p)) for p in sys.argv[1:3])
def roofs(d):
    r = {c["name"]: (c["peak"], c["stats"]) for c in d["compute"]}
    r.update({m["level"]: (m["bandwidth"], m["stats"]) for m in d["memory"]})
    return r
a, b = roofs(idle), roofs(loaded)
def flag(s):
    return "noisy" if s.get("noisy") else ""
print(f"{'roof':28s} {'idle':>11s} {'spread':>7s} {'':6s} {'loaded':>11s} {'spread':>7s} {'':6s} {'loaded/idle':>11s}")
missed = []
for name, (v, s) in a.items():
    if name not in b:
        continue
    w, t = b[name]
    ratio = w / v
    print(f"{name:28s} {v:11.4g} {100*s.get('iqr', 0):6.1f}% {flag(s):6s} {w:11.4g} {100*t.get('iqr', 0):6.1f}% "
          f"{flag(t):6s} {ratio:11.3f}")
    if ratio < 0.95 and not t.get("noisy") and t.get("confirmed", True):
        missed.append(name)
for label, d in (("idle", idle), ("loaded", loaded)):
    m = d["measurement"]
    total = len(d["compute"]) + len(d["memory"])
    print(f"{label}: clock {m['clock']['all_cores_hz']/1e9:.3f} GHz, {m['seconds']:.1f} s, "
          f"{m['retries_for_noise']} retries, {m['noisy_roofs']} of {total} roofs noisy, "
          f"unconfirmed: {', '.join(m['unconfirmed_roofs']) or 'none'}")
idle_noisy = idle["measurement"]["noisy_roofs"]
idle_total = len(idle["compute"]) + len(idle["memory"])
print(f"{'PASS' if 4 * idle_noisy <= idle_total else 'MISS'}  idle: at most a quarter of the roofs noisy ({idle_noisy} of {idle_total})")
print(f"{'PASS' if not missed else 'MISS'}  loaded: every roof more than 5% below idle is flagged"
      + (f" (not flagged: {', '.join(missed)})" if missed else ""))
for w in loaded["measurement"]["warnings"]:
    print("loaded warning:", w)
PY
