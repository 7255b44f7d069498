#!/usr/bin/env bash
# Every C, C++ and CUDA source is formatted with the repository's .clang-format.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v clang-format >/dev/null; then
  echo "format: clang-format missing (scripts/deps.d/core.txt lists it)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh')
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/format.$$; then
  grep -E '^[^ ]+:[0-9]+:[0-9]+: error' /tmp/format.$$ | cut -d: -f1 | sort -u | sed 's/^/format: not formatted: /' >&2
  rm -f /tmp/format.$$
  exit 1
fi
rm -f /tmp/format.$$
echo "format: ${#files[@]} files formatted"
