"""Build the compiled core (plateau_core/*.pyx) with Cython.

Set PLATEAU_DEBUG=1 to build with bounds checks, wraparound and initialisation checks on
(slower, but every out-of-range index in a kernel raises instead of corrupting memory).
"""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PLATEAU_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}

if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    compile_args = ["-O0", "-g"] if DEBUG else ["-O3", "-mpopcnt"]

MODULES = ["_common", "x"]

extensions = [
    Extension(
        f"plateau_core.{name}",
        [f"plateau_core/{name}.pyx"],
        include_dirs=["plateau_core"],
        extra_compile_args=compile_args,
    )
    for name in MODULES
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
