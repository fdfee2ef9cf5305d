#!/usr/bin/env bash
# Installs the Python package with pip, offline, into a fresh virtual environment that
# sees Debian's packages (pytest, setuptools): the native module is the one this build
# made (GAMESOLVER_BUILD_DIR), so nothing is compiled again.
#   tests/python/install.sh PYTHON SOURCE_DIR BUILD_DIR VENV_DIR
set -euo pipefail
python=$1 source=$2 build=$3
venv=$(realpath -m "$4")
rm -rf "$venv"
"$python" -m venv --system-site-packages "$venv"
GAMESOLVER_BUILD_DIR=$build GAMESOLVER_SETUPTOOLS_DIR=$build/python/setuptools \
  "$venv/bin/python" -m pip install --no-build-isolation --no-index --no-deps --quiet \
  --disable-pip-version-check "$source"
# The package imports from the environment, not from the source tree.
cd "$venv"
"$venv/bin/python" -c '
import sys, gamesolver
assert gamesolver.__file__.startswith(sys.prefix), gamesolver.__file__
print("installed", gamesolver.__file__)'
