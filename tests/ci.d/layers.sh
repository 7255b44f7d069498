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
