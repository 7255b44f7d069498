#!/usr/bin/env bash
# The docs' examples stay true (tools/check_docs.py): every `roofline ...` command line of
# README.md and docs/*.md names flags the built CLI has; every ```console block that needs no
# measurement runs (catalogue machines, files of examples/ and tests/data/, llm on catalogue
# models) and prints what the doc shows, with the exit status it shows; the `>>>` examples of
# docs/python.md run with the built module and give what they show. Then, on a copy of the docs
# with planted drift, the check must fail naming each: a wrong figure, a removed flag (in a run
# example and in a synopsis that is not run), a non-zero exit the doc does not show, a file the
# command cannot find, a `$ roofline` example outside a console block (it would not run), a wrong
# figure in a Python example. Takes ~10 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=build/release/bin/roofline
pymod=build/release/python
[ -x "$bin" ] || { echo "docs: $bin not built" >&2; exit 1; }
# The module is built for Debian's interpreter (docs/python.md), which CMake prefers.
python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3
pyargs=()
compgen -G "$pymod/roofline/_roofline*.so" >/dev/null && pyargs=(--python-path "$pymod")
[ -n "${pyargs[*]}" ] || echo "docs: no Python package in $pymod: the >>> examples are not run"
"$python" tools/check_docs.py . --bin "$bin" "${pyargs[@]}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/docs"
cp README.md "$work/"
cp docs/*.md "$work/docs/"
for d in tests examples data build; do ln -s "$PWD/$d" "$work/$d"; done
"$python" tools/check_docs.py "$work" --bin "$bin" "${pyargs[@]}" >/dev/null 2>"$work/err" ||
  { cat "$work/err" >&2; echo "docs: the unplanted copy fails" >&2; exit 1; }

# plant FILE FROM TO: replaces the first FROM in the copy's FILE by TO (the text must be there).
plant() {
  FROM="$2" TO="$3" "$python" - "$work/$1" <<'PY'
import os, sys
path, old, new = sys.argv[1], os.environ["FROM"], os.environ["TO"]
text = open(path, encoding="utf-8").read()
if old not in text:
    sys.exit(f"docs: cannot plant: {old!r} is not in {path}")
open(path, "w", encoding="utf-8").write(text.replace(old, new, 1))
PY
}
plant README.md '  W = 200 MFLOP  [2·n]' '  W = 201 MFLOP  [2·n]'
plant README.md 'roofline llm --model llama-2-7b --hw a100-80gb --batch 1 --context 2048' \
  'roofline llm --model llama-2-7b --hw a100-80gb --batch 1 --context 2048 --no-such-flag'
plant docs/tour.md '[--quick] [--size BYTES]' '[--quick] [--sizes BYTES]'
plant docs/charts.md $'vpmaddwd)\n$ echo $?\n2\n' $'vpmaddwd)\n'
plant docs/custom-rooflines.md 'examples/custom/web/points.json' 'examples/custom/web/point.json'
plant docs/python.md "('2·n', '3·n·s" "('2·m', '3·n·s"
plant docs/check.md $'```console\n$ roofline diff' $'```\n$ roofline diff'
if "$python" tools/check_docs.py "$work" --bin "$bin" "${pyargs[@]}" >/dev/null 2>"$work/err"; then
  echo "docs: the planted drift was not caught" >&2
  exit 1
fi
# expect [-E] WHAT PATTERN: the failure names PATTERN (-E: a regular expression, for a line
# number that moves as the doc grows).
expect() {
  local mode=-F
  [ "$1" = -E ] && { mode=-E; shift; }
  grep -q "$mode" -- "$2" "$work/err" || {
    echo "docs: the failure did not name $1:" >&2
    cat "$work/err" >&2
    exit 1
  }
}
expect -E "the wrong figure" 'README\.md:[0-9]+: `roofline kernel saxpy'
expect "the wrong figure's line" "doc:   W = 201 MFLOP"
expect "the removed flag of a run example" "\`roofline llm\` has no flag --no-such-flag"
expect -E "the removed flag of a synopsis" 'docs/tour\.md:[0-9]+: `roofline run` has no flag --sizes'
expect "the exit status not shown" "exits 2, which the doc does not show"
expect "the file not found" "web/point.json: no such file"
expect "an example that escapes the run" "a \`\$ roofline\` example outside a \`\`\`console block"
if [ -n "${pyargs[*]}" ]; then
  expect -E "the wrong figure of a Python example" 'docs/python\.md:[0-9]+: `k\.work_formula'
fi
echo "docs: ok (planted drift is caught: a wrong figure, a removed flag in an example and in a"
echo "      synopsis, an exit status not shown, a missing file, an example outside a console block$([ -n "${pyargs[*]}" ] && echo ', a wrong Python result'))"
