#!/usr/bin/env bash
# Installs what is needed, builds, and runs the main job: `roofline measure` measures this
# machine's roofs (compute per precision and instruction class, bandwidth per memory level, the
# empirical curve), prints the summary and writes roofline-report/machine.json and the
# interactive report roofline-report/report.html.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release
bin=./build/release/bin/roofline
mkdir -p roofline-report
$bin measure -o roofline-report/machine.json --report roofline-report/report.html "$@"
