#!/usr/bin/env bash
# Installs what is needed, builds, and runs the main job. Until `roofline measure` lands this
# shows the seed's worked examples: SAXPY and GEMM counted by hand and placed on an A100's roofs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release
bin=./build/release/bin/roofline
$bin kernel saxpy --n 1e8 --peak 19.5T --bandwidth "2 TB/s"
$bin kernel gemm --m 1024 --n 1024 --k 1024 --peak 19.5T --bandwidth "2 TB/s"
