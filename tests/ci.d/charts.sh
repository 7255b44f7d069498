#!/usr/bin/env bash
# Browser check of the HTML report: renders a report with the built CLI from the fixture machine
# and points, loads it in headless Chromium, checks the DOM after the page's script ran (points,
# roofs, tooltip, tables, the script's ready flag), that the console shows no errors, and that a
# screenshot was taken. Also validates the SVG with xmllint and the PNG export.
# Then the report of a real measurement (tests/data/report/real/: 20+ roofs and points, two
# points of long and escaped names from tests/data/report/long_names.points.json, and the points
# of not_drawn.points.json the machine has no roof for, said in a line under the subtitle) at
# 1200 px and at 390 px (a phone): fails when two label boxes intersect, or a label covers a
# point (measured from the browser's DOM, in the default view and with every roof shown), when a
# label in the plot runs past its edge, when the page scrolls sideways or a table is wider than
# the page, or when the line of points not drawn overlaps a text or runs off the chart, or when
# any text of the chart runs past its left or right edge. Then four more pages at 1200 px: an
# LLM model that does not fit in memory and a sweep whose large batches do not (the lines of
# warnings under the subtitle must meet no other text), a default compute roof of a
# 50-character name (its label cut within the canvas) and three machines compared (the
# subtitle shortened). The screenshots stay for a person to look at: their paths are printed and they are copied to build/ci-artifacts/charts/.
# Installs nothing (scripts/deps.d/charts.txt lists the packages).
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

# --- the report of a real measurement, at a desktop's and a phone's width --------------------
real=$data/real
artifacts=build/ci-artifacts/charts
mkdir -p "$artifacts"
# With two points of hard names (long_names.points.json): 154 characters without a space, which
# must break in the points table rather than widen the page, and control and bidirectional
# characters, drawn escaped and so much wider than the raw name (the real points' names are all
# short, so the check passed while such a name made the page scroll sideways).
# And with the points of not_drawn.points.json, four of which the machine has no roof for (fp8,
# fp16, a level L4; names long and escaped): the line under the subtitle that says them must
# stay within the chart and clear of every other text.
"$bin" plot "$real/zen4-genoa-2vcpu.machine.json" "$real/zen4-genoa-2vcpu.points.json" \
  "$data/long_names.points.json" "$data/not_drawn.points.json" -o "$work/real.html"
"$bin" plot "$real/zen4-genoa-2vcpu.machine.json" "$real/zen4-genoa-2vcpu.points.json" \
  "$data/not_drawn.points.json" -o "$artifacts/real-chart.png"
"$bin" plot "$real/zen4-genoa-2vcpu.machine.json" "$real/zen4-genoa-2vcpu.points.json" \
  "$data/not_drawn.points.json" --terminal --width 100 >"$artifacts/real-terminal.txt"
# Eight: those four, and the four copy runs of the real points (W = 0: bandwidth runs, no point).
grep -q "8 points not drawn: " "$artifacts/real-terminal.txt" ||
  fail "the terminal plot's legend does not say the 8 points not drawn"
# A copy of the page with the layout check appended (the page allows inline scripts).
awk -v f=tests/ci.d/charts_layout_check.js \
  '/<\/body>/ { print "<script>"; while ((getline l < f) > 0) print l; print "</script>" } { print }' \
  "$work/real.html" >"$work/real-check.html"
# Headless Chromium's window is at least 500 px wide: each width is a frame of exactly that
# width in a wrapper page, which writes what the check reports into its own DOM.
frame() {  # frame WIDTH HEIGHT URL > wrapper.html
  cat <<HTML
<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0}iframe{border:0;display:block}</style></head>
<body><iframe src="$3" width="$1" height="$2"></iframe><pre id="result"></pre>
<script>window.addEventListener('message', function (e) {
  document.getElementById('result').textContent = '\n' + e.data.split('\n').map(function (l) { return 'layout ' + l; }).join('\n') + '\n';
});</script></body></html>
HTML
}
failed=0
for width in 1200 390; do
  tall=$([ "$width" = 390 ] && echo 3400 || echo 2200)
  frame "$width" "$tall" "file://$work/real-check.html" >"$work/frame-$width.html"
  frame "$width" "$tall" "file://$work/real-check.html#all" >"$work/frame-$width-all.html"
  chrome --window-size=$((width + 20)),$tall --virtual-time-budget=5000 --dump-dom \
    "file://$work/frame-$width.html" >"$work/real-$width.html" 2>>"$work/console.log" ||
    fail "chromium --dump-dom at $width px failed"
  result=$(sed -n 's/^layout //p' "$work/real-$width.html")
  [ -n "$result" ] || fail "the layout check did not run at $width px"
  echo "charts: real report at $width px:"
  echo "$result" | sed 's/^/  /'
  # The check must have looked at something: labels in both views, points, roofs.
  read -r shown_labels all_labels < <(echo "$result" | sed -n 's/^labels: //p')
  [ "${shown_labels:-0}" -ge 20 ] && [ "${all_labels:-0}" -gt "$shown_labels" ] ||
    fail "$width px: too few labels checked (${shown_labels:-0} / ${all_labels:-0})"
  [ "$(echo "$result" | sed -n 's/^markers: //p')" -ge 10 ] || fail "$width px: too few points"
  grep -q "^hscroll: [01] ([0-9]* px in $width)" <<<"$result" ||
    fail "$width px: the page was not laid out $width px wide"
  if ! grep -q '^overlaps: 0$' <<<"$result"; then
    echo "charts: FAIL: $width px: label boxes intersect" >&2; failed=1
  fi
  if ! grep -q '^clipped: 0$' <<<"$result"; then
    echo "charts: FAIL: $width px: a label runs past the plot's edge" >&2; failed=1
  fi
  if ! grep -q '^hscroll: 0 ' <<<"$result"; then
    echo "charts: FAIL: $width px: the page scrolls sideways" >&2; failed=1
  fi
  [ "$(echo "$result" | sed -n 's/^not_drawn: //p')" = "1 1" ] ||
    fail "$width px: the line of points not drawn was not checked in both views"
  if ! grep -q '^not_drawn_faults: 0$' <<<"$result"; then
    echo "charts: FAIL: $width px: the line of points not drawn overlaps a text or runs off the chart" >&2
    failed=1
  fi
  if ! grep -q '^wide_tables: 0$' <<<"$result"; then
    echo "charts: FAIL: $width px: a table is wider than the page" >&2; failed=1
  fi
  if ! grep -q '^off_canvas: 0$' <<<"$result"; then
    echo "charts: FAIL: $width px: a text runs past the chart's edge" >&2; failed=1
  fi
  for view in default all; do
    shot="$artifacts/real-$width-$view.png"
    page=$([ "$view" = all ] && echo "frame-$width-all.html" || echo "frame-$width.html")
    chrome --hide-scrollbars --window-size=$width,$tall --virtual-time-budget=5000 \
      --screenshot="$shot" "file://$work/$page" >/dev/null 2>>"$work/console.log" ||
      fail "chromium --screenshot at $width px failed"
    [ "$(stat -c %s "$shot")" -gt 20000 ] || fail "$shot: screenshot suspiciously small"
    echo "charts: screenshot $(realpath "$shot")"
  done
done
if grep -E ':CONSOLE[:(]' "$work/console.log" | grep -q 'real'; then
  grep -E ':CONSOLE[:(]' "$work/console.log" >&2
  fail "console messages from the real report"
fi
echo "charts: chart PNG $(realpath "$artifacts/real-chart.png"), terminal plot $(realpath "$artifacts/real-terminal.txt")"
[ "$failed" -eq 0 ] || fail "the real report's layout (see above and the screenshots)"

# --- charts that say warnings, cut roof labels and shorten the subtitle ----------------------
# An LLM model that does not fit in memory (lines of warnings under the subtitle, every point
# hollow), a sweep whose large batches do not fit, a machine whose default compute roof has a
# 50-character name (its label cut in the 960 px canvas) and three machines compared (the
# subtitle shortened): no label overlaps another or a point, the warnings' lines meet no other
# text and stay in the chart, and no text runs past the chart's edge.
export ROOFLINE_HW_PATH="${ROOFLINE_HW_PATH:-$PWD/data/hardware}"
"$bin" llm --model llama-2-70b --hw l4 --batch 1 --context 2048 --report "$work/llm-l4.html" >/dev/null
"$bin" llm --model llama-2-7b --hw a100-80gb --batch 1,8,64,256 --context 2048 \
  --report "$work/llm-sweep.html" >/dev/null
python3 - "$work/long-roof.json" <<'PY'
import json, sys
d = json.load(open("data/hardware/epyc-9654.json"))
name = "fp32 sapphire-rapids amx-tile bf16 dot-product acc"
d["compute"][0]["name"] = d["default_compute"] = name
d["memory"] = [dict(level=l, kind="memory", bandwidth=b, provenance="theoretical")
               for l, b in (("L1", 8e12), ("L2", 4e12), ("L3", 2e12), ("DRAM", 460.8e9))]
json.dump(d, open(sys.argv[1], "w"))
PY
"$bin" plot "$work/long-roof.json" --compare h100-sxm -o "$work/long-roof.html"
"$bin" plot a100-80gb --compare h100-sxm --compare mi300x --at 50 -o "$work/compare3.html"
for page in llm-l4 llm-sweep long-roof compare3; do
  awk -v f=tests/ci.d/charts_layout_check.js \
    '/<\/body>/ { print "<script>"; while ((getline l < f) > 0) print l; print "</script>" } { print }' \
    "$work/$page.html" >"$work/$page-check.html"
  frame 1200 2200 "file://$work/$page-check.html" >"$work/frame-$page.html"
  chrome --window-size=1220,2200 --virtual-time-budget=5000 --dump-dom \
    "file://$work/frame-$page.html" >"$work/$page-dom.html" 2>>"$work/console.log" ||
    fail "chromium --dump-dom of $page failed"
  result=$(sed -n 's/^layout //p' "$work/$page-dom.html")
  [ -n "$result" ] || fail "the layout check did not run on $page"
  echo "charts: $page at 1200 px:"
  echo "$result" | sed 's/^/  /'
  for key in overlaps clipped warning_faults off_canvas; do
    grep -q "^$key: 0$" <<<"$result" || { echo "charts: FAIL: $page: $key" >&2; failed=1; }
  done
  case $page in
    llm-*) [ "$(echo "$result" | sed -n 's/^warning_lines: //p' | cut -d' ' -f1)" -ge 1 ] ||
      fail "$page: no line of warnings checked" ;;
  esac
  chrome --hide-scrollbars --window-size=1200,2200 --virtual-time-budget=5000 \
    --screenshot="$artifacts/$page.png" "file://$work/frame-$page.html" >/dev/null 2>>"$work/console.log" ||
    fail "chromium --screenshot of $page failed"
  echo "charts: screenshot $(realpath "$artifacts/$page.png")"
done
[ "$failed" -eq 0 ] || fail "the layout of the LLM, long-label or compared charts (see above)"
echo "charts: OK (real report: no label intersects another or a point or runs past the plot, no sideways scroll, tables fit, at 1200 and 390 px; LLM, long-label and compared charts: warnings said clear of other text, no text past the chart's edge)"
