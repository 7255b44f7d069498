#!/usr/bin/env bash
# The layer rule (docs/architecture.md): tools/check_layers.py on this tree must pass, and on a
# copy with one wrong-way include added (core including io) it must fail, naming that file.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/check_layers.py .
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The check on the copy must fail, naming what was planted: expect_caught WHAT NAMED PATTERN.
expect_caught() {
  if python3 tools/check_layers.py "$work" 2>"$work/err"; then
    echo "layers: $1 was not caught" >&2
    exit 1
  fi
  grep -q "$3" "$work/err" || {
    echo "layers: the failure did not name $2:" >&2
    cat "$work/err" >&2
    exit 1
  }
}
mkdir -p "$work/src" "$work/include"
cp -r src/. "$work/src/"
cp -r include/. "$work/include/"
sed -i '0,/#include "roofline\/quantity.hpp"/s//#include "roofline\/quantity.hpp"\n#include "roofline\/io.hpp"/' \
  "$work/src/core/quantity.cpp"
grep -q '"roofline/io.hpp"' "$work/src/core/quantity.cpp" || { echo "layers: could not plant the include" >&2; exit 1; }
expect_caught "a core source including io" "the planted include" \
  'src/core/quantity.cpp: includes "roofline/io.hpp" (io)'
echo "layers: ok (a planted wrong-way include is caught)"

# The rule is the build's: with probe struck from what measure may use in the copy's
# src/CMakeLists.txt (and the planted include gone), measure's includes of probe headers fail.
cp src/core/quantity.cpp "$work/src/core/quantity.cpp"
sed -i 's/^set(ROOFLINE_LAYER_USES_measure io probe)$/set(ROOFLINE_LAYER_USES_measure io)/' "$work/src/CMakeLists.txt"
grep -q '^set(ROOFLINE_LAYER_USES_measure io)$' "$work/src/CMakeLists.txt" || {
  echo "layers: could not strike probe from measure's uses" >&2; exit 1; }
expect_caught "measure including probe, once the build no longer allows it" \
  "a measure file including probe" '^layers: src/measure/.*(probe); layer measure may use core, io$'
echo "layers: ok (the rule is read from src/CMakeLists.txt)"
