#!/usr/bin/env bash
# The function-length rule (docs/architecture.md): tools/check_function_length.py on this tree
# must pass, and on a copy with a planted free function and member function of 101 lines each
# it must fail, naming both.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/check_function_length.py .
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for top in src apps python include tools bench fuzz examples; do [ -d "$top" ] && cp -r "$top" "$work/"; done
{
  echo "int planted_long_function(int x) {"
  for ((i = 0; i < 99; i++)); do echo "  x += $i;"; done
  echo "}"
  # A member function in a class body (its template line counts), with a comment and a string
  # holding braces.
  echo "struct Planted {"
  echo "  template <typename T>"
  echo "  T planted_member(T x) const {  // {"
  for ((i = 0; i < 97; i++)); do echo "    x += T(sizeof(\"}{\"));"; done
  echo "    return x;"
  echo "  }"
  echo "};"
} >>"$work/src/core/quantity.cpp"
if python3 tools/check_function_length.py "$work" 2>"$work/err"; then
  echo "function_length: the planted 101-line function was not caught" >&2
  exit 1
fi
for planted in 'planted_long_function is 101 lines' 'planted_member is 101 lines'; do
  grep -q "src/core/quantity.cpp:.*$planted" "$work/err" || {
    echo "function_length: the failure did not name $planted:" >&2
    cat "$work/err" >&2
    exit 1
  }
done
echo "function_length: ok (a planted 101-line function and member function are caught)"
