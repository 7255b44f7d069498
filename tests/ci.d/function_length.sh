#!/usr/bin/env bash
# The function-length rule (docs/architecture.md): tools/check_function_length.py on this tree
# must pass, and on a copy with planted long functions it must fail, naming each: a free function
# and a member function of 101 lines, a function template whose parameter list has a default
# (`class U = int`) and one with a trailing return type in parentheses (`-> decltype(x)`), of 113
# lines each.
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
  echo "template <class T, class U = int>"
  echo "T planted_defaulted(T x) {"
  for ((i = 0; i < 110; i++)); do echo "  x += T(U($i));"; done
  echo "}"
  echo "auto planted_trailing(int x) -> decltype(x) {"
  for ((i = 0; i < 111; i++)); do echo "  x += $i;"; done
  echo "}"
} >>"$work/src/core/quantity.cpp"
if python3 tools/check_function_length.py "$work" 2>"$work/err"; then
  echo "function_length: the planted long functions were not caught" >&2
  exit 1
fi
for planted in 'planted_long_function is 101 lines' 'planted_member is 101 lines' \
  'planted_defaulted is 113 lines' 'planted_trailing is 113 lines'; do
  grep -q "src/core/quantity.cpp:.*$planted" "$work/err" || {
    echo "function_length: the failure did not name $planted:" >&2
    cat "$work/err" >&2
    exit 1
  }
done
echo "function_length: ok (planted long functions are caught: free, member, a template with a"
echo "                 default, a trailing return type with parentheses)"
