#!/usr/bin/env bash
# The layer rule (docs/architecture.md): tools/check_layers.py on this tree must pass, and on a
# copy with one wrong-way include added (core including io) it must fail, naming that file.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/check_layers.py .
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/include"
cp -r src/. "$work/src/"
cp -r include/. "$work/include/"
sed -i '0,/#include "roofline\/quantity.hpp"/s//#include "roofline\/quantity.hpp"\n#include "roofline\/io.hpp"/' \
  "$work/src/core/quantity.cpp"
grep -q '"roofline/io.hpp"' "$work/src/core/quantity.cpp" || { echo "layers: could not plant the include" >&2; exit 1; }
if python3 tools/check_layers.py "$work" 2>"$work/err"; then
  echo "layers: a core source including io was not caught" >&2
  exit 1
fi
grep -q 'src/core/quantity.cpp: includes "roofline/io.hpp" (io)' "$work/err" || {
  echo "layers: the failure did not name the planted include:" >&2
  cat "$work/err" >&2
  exit 1
}
echo "layers: ok (a planted wrong-way include is caught)"

# The rule is the build's: with probe struck from what measure may use in the copy's
# src/CMakeLists.txt (and the planted include gone), measure's includes of probe headers fail.
cp src/core/quantity.cpp "$work/src/core/quantity.cpp"
sed -i 's/^set(ROOFLINE_LAYER_USES_measure io probe)$/set(ROOFLINE_LAYER_USES_measure io)/' "$work/src/CMakeLists.txt"
grep -q '^set(ROOFLINE_LAYER_USES_measure io)$' "$work/src/CMakeLists.txt" || {
  echo "layers: could not strike probe from measure's uses" >&2; exit 1; }
if python3 tools/check_layers.py "$work" 2>"$work/err"; then
  echo "layers: measure including probe was not caught once the build no longer allows it" >&2
  exit 1
fi
grep -q '^layers: src/measure/.*(probe); layer measure may use core, io$' "$work/err" || {
  echo "layers: the failure did not name a measure file including probe:" >&2
  cat "$work/err" >&2
  exit 1
}
echo "layers: ok (the rule is read from src/CMakeLists.txt)"
