#!/usr/bin/env bash
# Installs what is needed, builds, and runs the whole test suite: the release build, the
# ASan+UBSan build, the ThreadSanitizer build, then the extra checks in tests/ci.d/*.sh (browser,
# MPI, CUDA compile, fuzzing, formatting, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's duration goes to the log, and a table of them at the end, so a slow step shows.
durations=()
step_start=$SECONDS
step_done() {  # step_done NAME RESULT: records the time since the last step
  local took=$((SECONDS - step_start))
  durations+=("$(printf '%-32s %-6s %5d s' "$1" "$2" "$took")")
  echo "== $1: $2 in ${took} s"
  step_start=$SECONDS
}
bash scripts/setup.sh
step_done setup ok
status=0
# Sanitizer builds: warnings are errors only in the release build (GCC's -Wmaybe-uninitialized
# gives false positives under -fsanitize at -O2); leaks inside third-party libraries (MPICH keeps
# its allocations until exit) are suppressed by tests/lsan.supp, ours are not.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1"
# ThreadSanitizer: OpenBLAS's own threads synchronise in an uninstrumented library, so it runs
# single-threaded there (OPENBLAS_NUM_THREADS=1, and the suite asks OpenBLAS for one thread in
# that build: blas_thread_count); the kernel suite runs on the engine's thread team everywhere.
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
# sanitized_tests PRESET: the untimed tests in one shard per CPU, side by side (the release
# leg's ctest runs them side by side too), then the tests that judge timing alone in one
# process (tests/CMakeLists.txt writes their filter to timed_tests.txt). The shards are filters
# of whole test suites dealt in turn, not gtest's GTEST_SHARD_* variables: the tests that start
# the test program again (a marker child, a profiled helper) would inherit those and run only
# their shard of it. Each shard's output is shown after it ends, so shards do not interleave.
sanitized_tests() (
  cd "build/$1/tests"
  if [ "$1" = tsan ]; then export OPENBLAS_NUM_THREADS=1; fi
  timed=$(cat timed_tests.txt)
  shards=$(nproc)
  mapfile -t filters < <(./roofline_tests --gtest_list_tests --gtest_filter="-$timed" |
    awk -v n="$shards" '/^[^ ]/ && $1 ~ /\.$/ { k = i++ % n; f[k] = f[k] ":" $1 "*" }
      END { for (k = 0; k < n; k++) print substr(f[k], 2) }')
  # A program that lists no untimed suite (it failed to start, or the filter is wrong) would
  # otherwise pass with none of them run.
  if [ -z "${filters[0]:-}" ]; then
    echo "sanitized_tests: $1: the test program listed no untimed test suite" >&2
    return 1
  fi
  pids=()
  for ((i = 0; i < shards; i++)); do
    [ -n "${filters[i]:-}" ] || continue
    timeout 1800 ./roofline_tests --gtest_brief=1 --gtest_filter="${filters[i]}-$timed" \
      >"shard$i.log" 2>&1 &
    pids[i]=$!
  done
  rc=0
  for i in "${!pids[@]}"; do
    wait "${pids[i]}" || rc=1
    echo "-- shard $((i + 1)) of $shards (untimed tests)"
    cat "shard$i.log"
  done
  echo "-- the tests that judge timing, alone"
  timeout 1800 ./roofline_tests --gtest_brief=1 --gtest_filter="$timed" || rc=1
  return $rc
)
for preset in release asan tsan; do
  echo "== build and test: $preset"
  bash scripts/build.sh "$preset"
  step_done "build $preset" ok
  result=ok
  if [ "$preset" = release ]; then
    # Every test in a process of its own (ctest), so no test leans on another's state; as many
    # at once as there are CPUs, but those that judge timing alone (tests/CMakeLists.txt).
    if ! ctest --preset "$preset" -j "$(nproc)"; then result=FAILED; fi
  else
    # The sanitizer legs run their tests in a few processes rather than one per test (the ASan
    # leg every test, the TSan leg those of the threaded code: tests/CMakeLists.txt): a
    # sanitized process takes ~0.75 s (ASan) or ~0.17 s (TSan) to start against 0.03 s in
    # release, so a process per test spent most of these legs starting processes (613 s and
    # 404 s for 589 tests on a 2-vCPU Zen 5). The release leg above keeps them isolated.
    if ! sanitized_tests "$preset"; then result=FAILED; fi
  fi
  [ "$result" = ok ] || status=1
  step_done "test $preset" "$result"
done
shopt -s nullglob
extra_pass=0
extra_fail=0
for check in tests/ci.d/*.sh; do
  echo "== check: $check"
  if bash "$check"; then
    extra_pass=$((extra_pass + 1))
    step_done "check $(basename "$check" .sh)" ok
  else
    extra_fail=$((extra_fail + 1))
    status=1
    step_done "check $(basename "$check" .sh)" FAILED
  fi
done
echo "checks: $extra_pass passed, $extra_fail failed"
echo "== durations (total ${SECONDS} s)"
printf '%s\n' "${durations[@]}"
exit $status
