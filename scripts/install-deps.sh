#!/usr/bin/env bash
# Installs the Debian packages gamesolver needs, those that are missing only.
#   scripts/install-deps.sh          what building and testing need
#   scripts/install-deps.sh --fuzz   also clang and libFuzzer, for bench/fuzz.sh
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libcli11-dev libfmt-dev libxxhash-dev libzstd-dev
  nlohmann-json3-dev libsqlite3-dev sqlite3 libgtest-dev libgmock-dev libbenchmark-dev time clang-format clang-tidy
  libcpp-httplib-dev chromium libopenmpi-dev openmpi-bin
  pybind11-dev python3-dev python3-venv python3-setuptools python3-pytest)
if [ "${1:-}" = "--fuzz" ]; then packages+=(clang libclang-rt-14-dev); fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]} > 0)); then
  echo "installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# Node and npm for the explorer's browser test (playwright-core wants Node 20 or later).
if ! command -v npm >/dev/null; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends nodejs npm
fi
