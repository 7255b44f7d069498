#!/usr/bin/env bash
# Browser check of the HTML report: renders a report with the built CLI from the fixture machine
# and points, loads it in headless Chromium, checks the DOM after the page's script ran (points,
# roofs, tooltip, tables, the script's ready flag), that the console shows no errors, and that a
# screenshot was taken. Also validates the SVG with xmllint and the PNG export. Installs nothing
# (scripts/deps.d/charts.txt lists the packages).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=build/release/bin/roofline
data=tests/data/report
fail() { echo "charts: FAIL: $*" >&2; exit 1; }
for tool in chromium xmllint rsvg-convert; do
  command -v "$tool" >/dev/null || fail "$tool not installed (bash scripts/setup.sh)"
done
[ -x "$bin" ] || fail "$bin not built"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" plot "$data/machine.json" "$data/points.json" --at 2 --no-overlap \
  --compare "$data/other_machine.json" -o "$work/report.html"
"$bin" plot "$data/machine.json" "$data/points.json" --at 2 --no-overlap -o "$work/chart.svg"
"$bin" plot "$data/machine.json" "$data/points.json" -o "$work/chart.png"
xmllint --noout "$work/chart.svg" || fail "chart.svg is not well-formed XML"
[ "$(head -c 8 "$work/chart.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
  fail "chart.png is not a PNG"
if grep -Eqi '(src|href)=["'"'"']?(https?:)?//' "$work/report.html"; then
  fail "report.html references an external resource"
fi

chrome() {
  timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-dev-shm-usage --user-data-dir="$(mktemp -d -p "$work")" "$@"
}
chrome --enable-logging=stderr --v=0 --virtual-time-budget=3000 --dump-dom \
  "file://$work/report.html" >"$work/dom.html" 2>"$work/console.log" || {
  cat "$work/console.log" >&2
  fail "chromium --dump-dom failed"
}
chrome --hide-scrollbars --window-size=1200,1500 --virtual-time-budget=3000 \
  --screenshot="$work/screenshot.png" "file://$work/report.html" >/dev/null 2>>"$work/console.log" ||
  fail "chromium --screenshot failed"

count() { grep -o "$1" "$work/dom.html" | wc -l; }
[ "$(count 'class="point verdict-')" -eq 5 ] || fail "expected 5 points in the DOM"
[ "$(count 'class="roof ')" -ge 6 ] || fail "expected the roofs in the DOM"
[ "$(count 'id="tooltip"')" -eq 1 ] || fail "tooltip element missing"
[ "$(count 'class="roof-row"')" -eq 8 ] || fail "expected 8 rows in the roofs table"
grep -q 'data-ready="true"' "$work/dom.html" || fail "the page's script did not finish"
# The page writes nothing to the console: any console message from it (an uncaught exception,
# console.error, a blocked resource) fails the check.
if grep -E ':CONSOLE[:(]' "$work/console.log" | grep -q 'report.html'; then
  grep -E ':CONSOLE[:(]' "$work/console.log" >&2
  fail "console messages from the page"
fi
[ -s "$work/screenshot.png" ] || fail "no screenshot"
size=$(stat -c %s "$work/screenshot.png")
[ "$size" -gt 20000 ] || fail "screenshot suspiciously small ($size bytes)"
if [ -n "${CHARTS_KEEP:-}" ]; then cp "$work/screenshot.png" "$work/chart.png" "$work/report.html" "$CHARTS_KEEP/"; fi
echo "charts: OK (5 points, roofs, tooltip and tables in the DOM; no console errors; screenshot $size bytes)"
