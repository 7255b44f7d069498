#!/usr/bin/env bash
# What `roofline profile --instrument` costs: each workload runs as an uninstrumented binary (the
# peer, measured in the same run) and as the same source built with the flopcount plugin, in each
# of the plugin's modes, and under the cache simulator. Prints median wall times of REPS runs and
# their ratios to the uninstrumented binary's median.
#
#   bench/instrument_overhead.sh [REPS]     (after /work/tools/rbuild release or scripts/build.sh)
#
# Modes: off (the program as shipped with the plugin: one load and branch per call of a counted
# function), time (the native timing run: CPU-time sampling every 500 µs), count (the counted
# clones), callgrind (cache simulation, LL = the machine's last level; one run: its slowdown is far
# beyond the noise).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
build=build/release
plugin=$build/lib/RooflineFlopCount.so
runtime=$build/lib/libroofline_flopcount.a
clang=${CLANG:-/usr/lib/llvm-14/bin/clang}
for f in "$plugin" "$runtime" "$clang"; do
  [ -e "$f" ] || { echo "instrument_overhead: $f missing (build first; needs llvm-14-dev clang-14)" >&2; exit 1; }
done
command -v valgrind >/dev/null || { echo "instrument_overhead: valgrind missing" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=tests/instrument/programs/fc_kernels.c
flags=(-O2 -march=x86-64-v3)
"$clang" "${flags[@]}" "$src" "$runtime" -lpthread -ldl -lm -o "$tmp/plain"
"$clang" "${flags[@]}" -fpass-plugin="$plugin" "$src" "$runtime" -lpthread -ldl -lm -o "$tmp/instrumented"

# LL geometry for the simulator: this machine's last level, as --instrument would take it.
ll=$(for d in /sys/devices/system/cpu/cpu0/cache/index*; do
  [ "$(cat "$d/type")" = Instruction ] && continue
  echo "$(cat "$d/level") $(cat "$d/size") $(cat "$d/ways_of_associativity") $(cat "$d/coherency_line_size")"
done | sort -n | tail -1)
read -r _ llsize llways llline <<<"$ll"
case $llsize in *K) llbytes=$((${llsize%K} * 1024)) ;; *M) llbytes=$((${llsize%M} * 1048576)) ;; *) llbytes=$llsize ;; esac

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
# seconds for one run of "$@"
timed() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || { echo "instrument_overhead: failed: $*" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f\n", b - a}'
}
# median of REPS runs
med() { for _ in $(seq "$reps"); do timed "$@"; done | median; }

workloads=(
  "axpy-L1:axpy 2048 400000"
  "axpy-DRAM:axpy 8000000 12"
  "gemm-tiled:gemm_tiled 640 32"
  "gemm-ijk:gemm 300 300 300"
  "stencil3d:stencil3d 320 320 320"
)
printf '%-11s %10s %10s %10s %10s %12s\n' workload "plain s" "off ×" "time ×" "count ×" "callgrind ×"
for w in "${workloads[@]}"; do
  name=${w%%:*}
  read -r -a args <<<"${w#*:}"
  plain=$(med "$tmp/plain" "${args[@]}")
  off=$(med "$tmp/instrumented" "${args[@]}")
  time=$(med env ROOFLINE_FLOPCOUNT=time ROOFLINE_FLOPCOUNT_DIR="$tmp" "$tmp/instrumented" "${args[@]}")
  count=$(med env ROOFLINE_FLOPCOUNT=count ROOFLINE_FLOPCOUNT_DIR="$tmp" "$tmp/instrumented" "${args[@]}")
  cg=$(timed valgrind --tool=callgrind --cache-sim=yes --simulate-wb=yes \
    --LL="$llbytes,$llways,$llline" --callgrind-out-file="$tmp/cg.out" --log-file=/dev/null \
    "$tmp/instrumented" "${args[@]}")
  rm -f "$tmp"/flopcount-*.json
  ratio() { awk -v a="$1" -v b="$plain" 'BEGIN {print a / b}'; }
  printf '%-11s %10.3f %10.3f %10.3f %10.3f %12.1f\n' "$name" "$plain" \
    "$(ratio "$off")" "$(ratio "$time")" "$(ratio "$count")" "$(ratio "$cg")"
done
echo "medians of $reps runs (callgrind: one run, LL ${llbytes} B ${llways}-way); clang ${flags[*]}"
