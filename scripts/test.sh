#!/usr/bin/env bash
# Installs what is needed, builds, and runs the whole test suite: the release build, the
# ASan+UBSan build, the ThreadSanitizer build, then the extra checks in tests/ci.d/*.sh (browser,
# MPI, CUDA compile, fuzzing, formatting, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
status=0
# Sanitizer builds: warnings are errors only in the release build (GCC's -Wmaybe-uninitialized
# gives false positives under -fsanitize at -O2); leaks inside third-party libraries (MPICH keeps
# its allocations until exit) are suppressed by tests/lsan.supp, ours are not.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1"
# ThreadSanitizer: OpenBLAS's own threads synchronise in an uninstrumented library, so it runs
# single-threaded there; the kernel suite runs without OpenMP in that build (src/measure/suite).
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
for preset in release asan tsan; do
  echo "== build and test: $preset"
  bash scripts/build.sh "$preset"
  if [ "$preset" = tsan ]; then
    if ! OPENBLAS_NUM_THREADS=1 ctest --preset "$preset"; then status=1; fi
  elif ! ctest --preset "$preset"; then
    status=1
  fi
done
shopt -s nullglob
extra_pass=0
extra_fail=0
for check in tests/ci.d/*.sh; do
  echo "== check: $check"
  if bash "$check"; then extra_pass=$((extra_pass + 1)); else extra_fail=$((extra_fail + 1)); status=1; fi
done
echo "checks: $extra_pass passed, $extra_fail failed"
exit $status
