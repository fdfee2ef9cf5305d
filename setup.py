"""Builds the native module of the Python package gamesolver with CMake (pyproject.toml).

With GAMESOLVER_BUILD_DIR set to a CMake build directory of this repository in which the
module was built (target gamesolver_python), the module is copied from there: the test
suite builds it once. Otherwise CMake configures a build of its own under setuptools'
build directory and builds only the module.
"""

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        build_dir = os.environ.get("GAMESOLVER_BUILD_DIR")
        if build_dir:
            build = Path(build_dir).resolve()
        else:
            build = Path(self.build_temp).resolve() / "cmake"
            subprocess.run(
                ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                 "-DGAMESOLVER_TESTS=OFF", "-DGAMESOLVER_BENCH=OFF",
                 f"-DPython3_EXECUTABLE={sys.executable}"],
                check=True)
            jobs = str(os.cpu_count() or 1)
            subprocess.run(["cmake", "--build", str(build), "--target", "gamesolver_python", "-j", jobs],
                           check=True)
        suffix = target.name[len("_gamesolver"):]
        built = build / "python" / ("_gamesolver" + suffix)
        if not built.exists():
            found = glob.glob(str(build / "python" / "_gamesolver*.so"))
            raise RuntimeError(
                f"no native module {built.name} for this Python in {build / 'python'} (found: {found}); "
                "build the CMake target gamesolver_python with the same Python")
        shutil.copyfile(built, target)


build_base = os.environ.get("GAMESOLVER_SETUPTOOLS_DIR", str(ROOT / "build" / "setuptools"))
os.makedirs(build_base, exist_ok=True)
setup(
    packages=["gamesolver"],
    package_dir={"": "python"},
    ext_modules=[CMakeExtension("gamesolver._gamesolver")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": build_base}, "egg_info": {"egg_base": build_base}},
    zip_safe=False,
)
