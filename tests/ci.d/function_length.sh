#!/usr/bin/env bash
# The function-length rule (docs/architecture.md): tools/check_function_length.py on this tree
# must pass, and on a copy with one planted function of 101 lines it must fail, naming it.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/check_function_length.py .
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for top in src apps python include; do cp -r "$top" "$work/"; done
{
  echo "int planted_long_function(int x) {"
  for ((i = 0; i < 99; i++)); do echo "  x += $i;"; done
  echo "}"
} >>"$work/src/core/quantity.cpp"
if python3 tools/check_function_length.py "$work" 2>"$work/err"; then
  echo "function_length: the planted 101-line function was not caught" >&2
  exit 1
fi
grep -q 'src/core/quantity.cpp:.*planted_long_function is 101 lines' "$work/err" || {
  echo "function_length: the failure did not name the planted function:" >&2
  cat "$work/err" >&2
  exit 1
}
echo "function_length: ok (a planted 101-line function is caught)"
