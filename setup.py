"""Build the compiled core (plateau_core/*.pyx and plateau_core/<game>/*.pyx) with Cython.

Set PLATEAU_DEBUG=1 to build with bounds checks, wraparound and initialisation checks on
(slower, but every out-of-range index in a kernel raises instead of corrupting memory).
Set PLATEAU_SANITIZE=1 to compile and link with AddressSanitizer and UndefinedBehaviorSanitizer
(gcc or clang; -O1 -g, every report fatal). It leaves the Cython directives alone (without
PLATEAU_DEBUG: no bounds checks, as released), so the sanitizers watch the kernels' raw C memory.
The Python interpreter is not sanitized, so the runtimes must be preloaded: `bash .ci/sanitize`
builds this way and runs tests under them.
On x86-64 the kernels use the POPCNT instruction (every x86-64 CPU since about 2008);
set PLATEAU_PORTABLE=1 to build without it.
Where the CPU has SSE2 (every x86-64), Empire Plateau's byte scans take sixteen dots at a time
(plateau_core/bytes16.h); set PLATEAU_NO_SIMD=1 to build them as elsewhere, eight at a time by
word operations (the sanitizer build does, so that its run covers that path).
"""

import os
import platform
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PLATEAU_DEBUG", "") not in ("", "0")
SANITIZE = os.environ.get("PLATEAU_SANITIZE", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}

PORTABLE = os.environ.get("PLATEAU_PORTABLE", "") not in ("", "0")
NO_SIMD = os.environ.get("PLATEAU_NO_SIMD", "") not in ("", "0")
X86_64 = platform.machine().lower() in ("x86_64", "amd64")

link_args: list[str] = []
if SANITIZE:
    if sys.platform == "win32":
        sys.exit("PLATEAU_SANITIZE=1 needs gcc or clang")
    sanitizers = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    compile_args = ["-O1", "-g", "-fno-omit-frame-pointer", *sanitizers]
    link_args = sanitizers
elif sys.platform == "win32":
    compile_args = ["/O2"]
elif DEBUG:
    compile_args = ["-O0", "-g"]
else:
    compile_args = ["-O3"] + (["-mpopcnt"] if X86_64 and not PORTABLE else [])

#: the compiled modules: what every game shares, then one folder per game (its kernel and wrapper
#: class in ``core``, its StateBatch hooks in ``batch``)
MODULES = ["_common", "_batch"] + [
    f"{game}.{part}" for game in ("x", "albea", "empire") for part in ("core", "batch")
]

extensions = [
    Extension(
        f"plateau_core.{name}",
        [f"plateau_core/{name.replace('.', '/')}.pyx"],
        include_dirs=["plateau_core", numpy.get_include()],
        # numpy's C API (plateau_core._common.new_array), built against numpy >= 2 for runtimes
        # back to the oldest numpy the package supports
        define_macros=[
            ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
            ("NPY_TARGET_VERSION", "NPY_1_23_API_VERSION"),
            *([("PLATEAU_NO_SIMD", "1")] if NO_SIMD else []),
        ],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )
    for name in MODULES
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
