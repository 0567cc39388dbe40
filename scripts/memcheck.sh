#!/usr/bin/env bash
# Runs the test suites under Valgrind's memcheck, which finds what the
# sanitizer builds of scripts/test.sh cannot: reads of uninitialized memory
# (MemorySanitizer would need every dependency rebuilt with it). Not part of
# CI: 12-15 minutes on this project's 2-core machine, 9-11 of them the
# simulator's suite.
#
# Usage: scripts/memcheck.sh [BUILD_DIR]   (default build/release; a build of
# the test suites, any build type; debug information gives better reports)
#
# Valgrind 3.19 (Debian 12) cannot decode every AVX2 instruction of graphsolve's
# wide kernels, so the suites run with the portable kernels
# (GRAPHSOLVE_PORTABLE_KERNELS=1), and the Kernels.* tests, which switch the wide
# kernels on, are left out. Tests that start the command-line programs run them
# outside Valgrind (it does not follow child processes here); the programs
# themselves are checked on a few runs at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
bin="$build/bin"
if ! command -v valgrind > /dev/null; then
  echo "memcheck.sh: valgrind is not installed (sudo apt-get install valgrind)" >&2
  exit 2
fi
for program in graphsolve_tests dynamics_tests graphsolve dynamics; do
  if [ ! -x "$bin/$program" ]; then
    echo "memcheck.sh: $bin/$program not found: build the tree first (see README)" >&2
    exit 2
  fi
done
export OPENBLAS_NUM_THREADS=1 GRAPHSOLVE_PORTABLE_KERNELS=1
memcheck=(valgrind --tool=memcheck --error-exitcode=9 --num-callers=30 -q)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run() {
  echo "memcheck: $*" >&2
  "${memcheck[@]}" "$@"
}

run "$bin/graphsolve_tests" --gtest_brief=1 --gtest_filter='-Kernels.*'
run "$bin/dynamics_tests" --gtest_brief=1
if [ -x "$bin/dynamics_mujoco_tests" ]; then run "$bin/dynamics_mujoco_tests" --gtest_brief=1; fi

# The programs: a solve read from files, and simulations with loops, contacts
# and URDF models.
cat > "$scratch/a.mtx" << 'EOF'
%%MatrixMarket matrix coordinate real general
4 4 8
1 1 4
2 2 5
3 3 6
4 4 7
1 2 1
2 1 -1
3 4 0.5
4 2 2
EOF
cat > "$scratch/b.mtx" << 'EOF'
%%MatrixMarket matrix array real general
4 1
1
2
3
4
EOF
run "$bin/graphsolve" solve "$scratch/a.mtx" --rhs "$scratch/b.mtx" --out "$scratch/x.mtx" --refine 1 > /dev/null
run "$bin/graphsolve" demo > /dev/null
run "$bin/dynamics" simulate double-four-bar --steps 100 --json > /dev/null
run "$bin/dynamics" simulate box-drop --steps 100 --param friction=cone --json > /dev/null
run "$bin/dynamics" simulate sphere-chain --steps 30 --out "$scratch/traj.csv" > /dev/null
# Two of the URDF fuzzer's named seeds: a limit with collision boxes (the
# ground moved below their reach, so they stay contact rows of the interior
# point method), and a loop joint projected from coordinates that break it.
urdf=fuzz/corpus/urdf
run "$bin/dynamics" simulate "$urdf/double-pendulum-limits.urdf" --q0 j1=0.9,j2=0.5 --ground 0,0,1,-2.5 \
  --steps 200 --json > /dev/null
run "$bin/dynamics" simulate "$urdf/four-bar-loop-joint.urdf" --no-contacts --q0 j1=0.5 --steps 200 --json > /dev/null
echo "memcheck: no errors"
