#!/usr/bin/env bash
# The main job: a short side-by-side benchmark of graphsolve against UMFPACK,
# KLU, CHOLMOD and Eigen (a few sizes, well under a minute), printed as tables,
# then a short simulation of a looped mechanism with its summary.
# Usage: scripts/quick-bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build/release}
out="$build/quick-bench.json"
"$build/bin/graphsolve_bench" --quick --benchmark_min_time=0.05 --benchmark_repetitions=3 \
  --benchmark_format=json --benchmark_out="$out" > /dev/null
python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3  # Debian's, with python3-matplotlib
"$python" "$(dirname "$0")/../bench/report.py" "$out" --print
echo
echo "Simulation: 1000 steps of a chain of five four-link loops (dynamics simulate):"
"$build/bin/dynamics" simulate four-link-chain --param k=5 --steps 1000
echo
echo "Contacts: a cube dropped on the ground, 200 steps (dynamics simulate box-drop):"
"$build/bin/dynamics" simulate box-drop --steps 200
