#!/usr/bin/env bash
# The layer rule (docs/architecture.md): tools/check_layers.py on this tree must pass, and on a
# copy with each kind of forbidden include planted in turn it must fail, naming what was planted.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/check_layers.py .
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The check on the copy must fail, naming what was planted: expect_caught WHAT NAMED PATTERN.
expect_caught() {
  if python3 tools/check_layers.py "$work" >/dev/null 2>"$work/err"; then
    echo "layers: $1 was not caught" >&2
    exit 1
  fi
  grep -q "$3" "$work/err" || {
    echo "layers: the failure did not name $2:" >&2
    cat "$work/err" >&2
    exit 1
  }
}
# plant FILE TEXT WHAT PATTERN: the copy's FILE with the line TEXT appended must fail, naming
# PATTERN; then FILE is restored.
plant() {
  printf '%s\n' "$2" >>"$work/$1"
  expect_caught "$3" "the planted line" "$4"
  cp "$1" "$work/$1"
}
mkdir -p "$work/src" "$work/include" "$work/docs" "$work/apps/roofline" "$work/python" "$work/tests"
cp -r src/. "$work/src/"
cp -r include/. "$work/include/"
cp docs/architecture.md "$work/docs/"
cp apps/roofline/CMakeLists.txt "$work/apps/roofline/"
cp python/CMakeLists.txt "$work/python/"
cp tests/CMakeLists.txt "$work/tests/"
python3 tools/check_layers.py "$work" >/dev/null || { echo "layers: the copy fails unplanted" >&2; exit 1; }

sed -i '0,/#include "roofline\/quantity.hpp"/s//#include "roofline\/quantity.hpp"\n#include "roofline\/io.hpp"/' \
  "$work/src/core/quantity.cpp"
grep -q '"roofline/io.hpp"' "$work/src/core/quantity.cpp" || { echo "layers: could not plant the include" >&2; exit 1; }
expect_caught "a core source including io" "the planted include" \
  'src/core/quantity.cpp: includes "roofline/io.hpp" (io)'
cp src/core/quantity.cpp "$work/src/core/quantity.cpp"

# Our headers however written: in angle brackets, by a path relative to the including file.
plant src/core/quantity.cpp '#include <roofline/io.hpp>' "core including io in angle brackets" \
  'src/core/quantity.cpp: includes <roofline/io.hpp> (io); layer core may use nothing of ours'
plant src/core/quantity.cpp '#include "../io/json_fields.hpp"' "core including io by a relative path" \
  'src/core/quantity.cpp: includes "../io/json_fields.hpp" (io); layer core may use nothing of ours'
plant include/roofline/point.hpp '#include "../../src/report/chart.hpp"' \
  "a core public header including report by a relative path" \
  'include/roofline/point.hpp: includes "../../src/report/chart.hpp" (report); layer core'
# Third-party headers where the layer does not link the library.
plant src/core/quantity.cpp '#include <nlohmann/json.hpp>' "core including nlohmann/json" \
  'src/core/quantity.cpp: includes <nlohmann/json.hpp> (nlohmann_json); layer core links no'
plant src/core/strings.cpp '#include "nlohmann/json.hpp"' "core including nlohmann/json in quotes" \
  'src/core/strings.cpp: includes "nlohmann/json.hpp" (nlohmann_json); layer core links no'
plant include/roofline/units.hpp '#include <nlohmann/json.hpp>' "a core public header including nlohmann/json" \
  'include/roofline/units.hpp: includes <nlohmann/json.hpp> (nlohmann_json)'
plant src/core/quantity.cpp '#include <CLI/CLI.hpp>' "core including CLI11" \
  'src/core/quantity.cpp: includes <CLI/CLI.hpp> (CLI11); only files outside src/ and include/ may'
plant src/io/files.cpp '#include <CLI/CLI.hpp>' "io including CLI11" \
  'src/io/files.cpp: includes <CLI/CLI.hpp> (CLI11)'
plant src/probe/topology.cpp '#include <cblas.h>' "probe including OpenBLAS" \
  'src/probe/topology.cpp: includes <cblas.h> (OpenBLAS); only src/measure/suite/ may'
plant src/measure/engine/team.cpp '#include <hwloc.h>' "measure including hwloc" \
  'src/measure/engine/team.cpp: includes <hwloc.h> (hwloc); only src/probe/ may'
plant src/cluster/aggregate.cpp '#include <mpi.h>' "cluster including MPI outside its module" \
  'src/cluster/aggregate.cpp: includes <mpi.h> (MPI)'
plant src/llm/step.cpp '#include <cuda_runtime.h>' "llm including CUDA" \
  'src/llm/step.cpp: includes <cuda_runtime.h> (CUDA)'
plant src/report/svg.cpp '#include <pybind11/pybind11.h>' "report including pybind11" \
  'src/report/svg.cpp: includes <pybind11/pybind11.h> (pybind11)'
plant src/io/files.cpp '#include <boost/any.hpp>' "a header no list names" \
  'src/io/files.cpp: includes <boost/any.hpp>, a header the check does not know'
# Core: the standard library only, without I/O.
plant src/core/quantity.cpp '#include <unistd.h>' "core including a system header" \
  'src/core/quantity.cpp: includes <unistd.h>: core uses the C++ standard library only'
plant src/core/quantity.cpp '#include <fstream>' "core including a stream header" \
  'src/core/quantity.cpp: includes <fstream>: core uses the standard library without I/O'
plant src/core/quantity.cpp 'bool planted_no_color() { return std::getenv("NO_COLOR") != nullptr; }' \
  "core reading the environment" 'src/core/quantity.cpp:[0-9]*: getenv: core reads no environment'
# The suite includes no JSON, directly or through our headers; the CPU backend neither io nor JSON
# directly.
plant src/measure/suite/blas.cpp '#include "roofline/io.hpp"' "the suite including io.hpp" \
  'src/measure/suite/blas.cpp: includes "roofline/io.hpp", which brings nlohmann_json: the suite builds'
plant src/measure/suite/runner.cpp '#include "measure/engine/sampler.hpp"' \
  "the suite reaching JSON through the engine's header" \
  'src/measure/suite/runner.cpp: includes "measure/engine/sampler.hpp", which brings nlohmann_json'
plant src/measure/suite/loops.cpp '#include <nlohmann/json.hpp>' "the suite including nlohmann/json" \
  'src/measure/suite/loops.cpp: includes <nlohmann/json.hpp> (nlohmann_json): the suite builds'
plant src/measure/cpu/plan.cpp '#include <nlohmann/json.hpp>' "the CPU backend including nlohmann/json" \
  'src/measure/cpu/plan.cpp: includes <nlohmann/json.hpp> (nlohmann_json): the CPU backend'
# The doc's list of public headers carrying nlohmann/json follows the includes.
plant include/roofline/llm.hpp '#include "roofline/io.hpp"' "a public header newly carrying nlohmann/json" \
  "docs/architecture.md: 'The public headers that carry nlohmann/json' lacks roofline/llm.hpp"
echo "layers: ok (planted includes of ours in any spelling, third-party and system headers, core I/O and"
echo "        the doc's JSON header list are caught)"

# A library's headers follow the build: with hwloc no longer linked by probe in the copy, the
# check asks for its entry to be brought up to date.
sed -i 's/PkgConfig::HWLOC/PkgConfig::NOHWLOC/' "$work/src/probe/layer.cmake"
expect_caught "hwloc unlinked from probe" "the hwloc entry" \
  "THIRD_PARTY: src/probe/layer.cmake no longer has 'PkgConfig::HWLOC' (hwloc)"
cp src/probe/layer.cmake "$work/src/probe/layer.cmake"

# The rule is the build's: with probe struck from what measure may use in the copy's
# src/CMakeLists.txt, measure's includes of probe headers fail.
sed -i 's/^set(ROOFLINE_LAYER_USES_measure io probe)$/set(ROOFLINE_LAYER_USES_measure io)/' "$work/src/CMakeLists.txt"
grep -q '^set(ROOFLINE_LAYER_USES_measure io)$' "$work/src/CMakeLists.txt" || {
  echo "layers: could not strike probe from measure's uses" >&2; exit 1; }
expect_caught "measure including probe, once the build no longer allows it" \
  "a measure file including probe" '^layers: src/measure/.*(probe); layer measure may use core, io$'
echo "layers: ok (the rule is read from src/CMakeLists.txt)"
