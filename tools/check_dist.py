"""Check what a built sdist or wheel of plateau holds: everything a user (or a build) needs and
none of the build's leftovers. Used by ``tools/build_wheels.sh``; exits 1 naming each fault.

    python tools/check_dist.py dist/plateau-0.1.0.tar.gz dist/plateau-0.1.0-cp311-*.whl
"""

from __future__ import annotations

import fnmatch
import sys
import tarfile
import zipfile
from pathlib import PurePosixPath

#: the compiled modules (setup.py's MODULES)
MODULES = ["_common", "_batch"] + [
    f"{game}/{part}" for game in ("x", "albea", "empire") for part in ("core", "batch")
]
BOARDS = ["ep16.json", "ep24.json"]
#: the test-position suites shipped (plateau.suites), by game package
SUITES = [
    "x/suites/plateau-x-mini.jsonl",
    "x/suites/plateau-x-double.jsonl",
    "albea/suites/albea-plateau-standard.jsonl",
    "empire/suites/empire-plateau-duel.jsonl",
]

#: in every wheel: the compiled modules with their stubs, the typing markers, the board files,
#: the command line's entry point
WHEEL_NEEDS = (
    [f"plateau_core/{m}.cpython-*.so" for m in MODULES]
    + [f"plateau_core/{m}.pyi" for m in MODULES]
    + ["plateau/py.typed", "plateau_core/py.typed", "plateau/__init__.py", "plateau/cli/*.py"]
    + [f"plateau/games/empire/boards/{b}" for b in BOARDS]
    + [f"plateau/games/{s}" for s in SUITES]
    + ["plateau-*.dist-info/entry_points.txt", "plateau-*.dist-info/METADATA"]
)
#: in the sdist: what a build needs (sources, headers, stubs, board files, build files)
SDIST_NEEDS = (
    ["pyproject.toml", "setup.py", "README.md", "CHANGELOG.md", "plateau_core/bits.h"]
    + ["plateau_core/bytes16.h"]
    + [f"plateau_core/{m}.pyx" for m in MODULES]
    + [f"plateau_core/{m}.pyi" for m in MODULES]
    + ["plateau_core/_common.pxd", "plateau_core/*/kernel.pxi", "plateau_core/*/core.pxd"]
    + ["python/plateau/py.typed", "python/plateau/__init__.py"]
    + [f"python/plateau/games/empire/boards/{b}" for b in BOARDS]
    + [f"python/plateau/games/{s}" for s in SUITES]
)
#: never in either: generated C, objects, compiled modules in an sdist, caches, editable-build
#: leftovers, the repository's own tooling
NEVER = ["*.c", "*.o", "*.pyc", "*/__pycache__/*", "build/*", ".ci/*", ".git*", "tools/*"]
NEVER_IN_SDIST = ["*.so", "tests/*", "bench/*", "fuzz/*", "docs/*"]
#: (an sdist has setuptools' egg-info, by design; a wheel keeps the .pyx sources beside the
#: compiled modules, so that a traceback through the core shows its source lines)
NEVER_IN_WHEEL = ["*.egg-info/*"]


def names_in(path: str) -> list[str]:
    if path.endswith(".whl"):
        with zipfile.ZipFile(path) as z:
            return [n for n in z.namelist() if not n.endswith("/")]
    with tarfile.open(path) as t:
        # drop the top folder (plateau-0.1.0/)
        return [str(PurePosixPath(*PurePosixPath(m.name).parts[1:])) for m in t if m.isfile()]


def check(path: str) -> list[str]:
    names = names_in(path)
    wheel = path.endswith(".whl")
    needs = WHEEL_NEEDS if wheel else SDIST_NEEDS
    never = NEVER + (NEVER_IN_WHEEL if wheel else NEVER_IN_SDIST)
    faults = [f"missing {p}" for p in needs if not fnmatch.filter(names, p)]
    for pattern in never:
        faults += [f"should not hold {n}" for n in fnmatch.filter(names, pattern)]
    return faults


def main(paths: list[str]) -> int:
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0
    for path in paths:
        faults = check(path)
        print(f"{path}: {'ok' if not faults else f'{len(faults)} faults'}")
        for fault in faults:
            print(f"  {fault}")
        bad += bool(faults)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
