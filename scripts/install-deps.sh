#!/usr/bin/env bash
# Installs the Debian 12 packages graphsolve needs (skipped when all are present).
set -euo pipefail
packages=(cmake g++ make ninja-build libeigen3-dev libsuitesparse-dev libmetis-dev libopenblas-dev
          libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev python3 python3-matplotlib
          liburdfdom-dev libconsole-bridge-dev libtinyxml-dev libmujoco-dev locales pkgconf
          clang libclang-rt-14-dev)  # clang: the sanitizer build of scripts/test.sh and the fuzzers
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
