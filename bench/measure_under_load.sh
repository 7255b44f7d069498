#!/usr/bin/env bash
# Benchmark (not a test): what `roofline measure` reports on a noisy machine. Measures this
# machine as it is, then again while `stress-ng --cpu 1` loads one core, and prints each roof
# (sustained rate and cv) from both runs with the ratio, the clock, the wall time, the retries
# and the noise warnings of the loaded run.
#   bash bench/measure_under_load.sh [KEEP_DIR]   (KEEP_DIR keeps the two machine documents)
# Expected: the loaded run flags its roofs noisy, names the unconfirmed ones, and its FMA roofs
# stay close to the idle ones (rounds give them undisturbed samples).
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
    r = {c["name"]: c["stats"] for c in d["compute"]}
    r.update({m["level"]: m["stats"] for m in d["memory"]})
    return r
a, b = roofs(idle), roofs(loaded)
print(f"{'roof':28s} {'idle':>12s} {'cv':>6s} {'loaded':>12s} {'cv':>6s} {'loaded/idle':>11s}")
for name, s in a.items():
    if name not in b:
        continue
    t = b[name]
    print(f"{name:28s} {s['sustained']:12.4g} {100*s['cv']:5.1f}% {t['sustained']:12.4g} "
          f"{100*t['cv']:5.1f}% {t['sustained']/s['sustained']:11.3f}"
          f"{'  noisy' if t['noisy'] else ''}")
for label, d in (("idle", idle), ("loaded", loaded)):
    m = d["measurement"]
    print(f"{label}: clock {m['clock']['all_cores_hz']/1e9:.3f} GHz, {m['seconds']:.1f} s, "
          f"{m['retries_for_noise']} retries, {m['noisy_roofs']} noisy roofs, "
          f"unconfirmed: {', '.join(m['unconfirmed_roofs']) or 'none'}")
for w in loaded["measurement"]["warnings"]:
    print("loaded warning:", w)
PY
