#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan + libFuzzer) and runs each for a bounded
# time on a seed corpus from tests/data plus every input that once failed (fuzz/found/<target>/,
# replayed first). Any crash, leak or sanitizer report fails the check.
# FUZZ_SECONDS (default 15) sets the time per target. FUZZ_SEED (default 1) fixes libFuzzer's
# random seed, so CI replays one sequence of inputs: a slower machine tries a shorter prefix of
# it, never other inputs, and a failure reproduces. FUZZ_SEED=0 draws a new seed per run, for
# exploring (e.g. FUZZ_SEED=0 FUZZ_SECONDS=600); what it finds goes to fuzz/found/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${FUZZ_SECONDS:-15}"
seed="${FUZZ_SEED:-1}"
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ missing (scripts/deps.d/fuzz.txt lists it)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The fuzz targets live in the ASan+UBSan build (clang), which scripts/test.sh has built by now:
# only the fuzz targets (and the layers they link) are built here, not the CLI or the tests. A
# failed build shows its log.
targets=$(for f in fuzz/fuzz_*.cpp; do basename "$f" .cpp; done)
if ! { cmake --preset asan && cmake --build --preset asan -j "$(nproc)" --target $targets; } \
  >"$work/build.log" 2>&1; then
  echo "fuzz: building the targets FAILED" >&2
  grep -E -A6 'error|FAILED' "$work/build.log" | head -60 >&2
  exit 1
fi
# fuzz_one TARGET: seeds its corpus, fuzzes it, and writes its verdict to $work/NAME.result
# (the first line "ok" or "FAILED", then what to show).
fuzz_one() {
  local target=$1 name corpus log artifacts runs
  name=$(basename "$target")
  corpus="$work/$name"
  mkdir -p "$corpus"
  # Seeds: tests/data/<area>/ files named in fuzz/seeds/<target>.txt (globs), else all JSON.
  if [ -f "fuzz/seeds/$name.txt" ]; then
    while read -r pattern; do
      [ -z "$pattern" ] && continue
      for f in $pattern; do [ -f "$f" ] && cp "$f" "$corpus/"; done
    done < "fuzz/seeds/$name.txt"
  fi
  if [ -z "$(ls -A "$corpus")" ]; then
    find tests/data -name '*.json' -size -64k -exec cp {} "$corpus/" \; 2>/dev/null || true
  fi
  for f in "fuzz/found/$name"/*; do [ -f "$f" ] && cp "$f" "$corpus/found-$(basename "$f")"; done
  log="$work/$name.log"
  artifacts=build/asan/fuzz-artifacts/$name
  mkdir -p "$artifacts"
  if "$target" -seed="$seed" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1; then
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
    printf 'ok\nfuzz: %s ok (%s runs in %ss, seed %s)\n' "$name" "$runs" "$seconds" "$seed" \
      >"$work/$name.result"
  else
    {
      echo FAILED
      echo "fuzz: $name FAILED"
      grep -v '^    #' "$log" | tail -25
      for a in "$artifacts"/*; do
        [ -f "$a" ] && echo "fuzz: input kept in $a (base64: $(head -c 512 "$a" | base64 -w0))"
      done
    } >"$work/$name.result"
  fi
}
# One target per CPU at a time (each fuzzer is one thread); the verdicts print in name order.
names=()
for target in build/asan/fuzz/fuzz_*; do
  [ -x "$target" ] || continue
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  fuzz_one "$target" &
  names+=("$(basename "$target")")
done
wait
status=0
for name in "${names[@]}"; do
  result="$work/$name.result"
  if [ -f "$result" ] && [ "$(head -1 "$result")" = ok ]; then
    tail -n +2 "$result"
  else
    [ -f "$result" ] && tail -n +2 "$result" >&2 || echo "fuzz: $name gave no verdict" >&2
    status=1
  fi
done
if [ "${#names[@]}" -eq 0 ]; then
  echo "fuzz: no targets were built" >&2
  exit 1
fi
exit $status
