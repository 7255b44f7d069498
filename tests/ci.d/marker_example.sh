#!/usr/bin/env bash
# The marker API from outside: install roofline into a temporary prefix, build examples/marker
# against it with find_package(roofline) and with pkg-config, run the programs under
# `roofline profile`, and check that each marked region becomes a point with its declared W, Q.
set -euo pipefail
cd "$(dirname "$0")/../.."
roofline=build/release/bin/roofline
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install build/release --prefix "$tmp/prefix" >/dev/null
# 1. CMake package
cmake -S examples/marker -B "$tmp/build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
"$roofline" profile --events none --json -o "$tmp/points.json" -- "$tmp/build/marker_solver" 2000000 >/dev/null
python3 - "$tmp/points.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
pts = {p["name"]: p for p in doc["points"]}
n = 2000000
assert doc["run"]["exit_status"] == 0, doc["run"]
assert set(pts) == {"saxpy", "dot"}, pts.keys()
assert pts["saxpy"]["work"] == 5 * 2 * n, pts["saxpy"]
assert pts["saxpy"]["traffic"][0]["bytes"] == 5 * 12 * n, pts["saxpy"]
assert pts["dot"]["work"] == 2 * n and pts["dot"]["traffic"][0]["bytes"] == 8 * n, pts["dot"]
assert pts["saxpy"]["time"] > 0 and pts["saxpy"]["source"] == "marker"
print("marker example (find_package): saxpy I = %.4f FLOP/byte, P = %.3g FLOP/s" %
      (pts["saxpy"]["work"] / pts["saxpy"]["traffic"][0]["bytes"], pts["saxpy"]["work"] / pts["saxpy"]["time"]))
PY
# Without roofline profile the markers are off and the program runs unchanged.
"$tmp/build/marker_solver" 1000 | grep -q "markers off"
# 2. pkg-config, a C program
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig:$tmp/prefix/lib64/pkgconfig:$tmp/prefix/lib/x86_64-linux-gnu/pkgconfig"
cc -std=c11 -Wall -Werror examples/marker/saxpy.c -o "$tmp/saxpy_c" $(pkg-config --cflags --libs roofline)
out=$(ROOFLINE_MARKERS=1 "$tmp/saxpy_c" 1000 2>&1)
echo "$out" | grep -q '"name": "saxpy-c", "calls": 1' || { echo "$out"; exit 1; }
echo "$out" | grep -q '"flops": 2000,' || { echo "$out"; exit 1; }
"$roofline" profile --events none -- "$tmp/saxpy_c" 100000 | grep -q "saxpy-c"
echo "marker example (pkg-config, C): ok"
