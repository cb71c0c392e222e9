"""Run one fuzz target of ``fuzz/targets.py`` under atheris (libFuzzer, coverage-guided).

    python fuzz/run.py TARGET [--seconds N] [--corpus DIR] [libFuzzer/atheris args ...]

TARGET is ``notation``, ``record``, ``setup``, ``batch``, ``board`` (board files), ``engine``
(commands into ``plateau engine``) or ``referee`` (a fuzzed engine against the arena). The run
starts from the seed inputs in ``fuzz/corpus/TARGET/`` (read only) and keeps the new inputs it
finds in ``--corpus DIR`` (default: ``$TMPDIR/plateau-fuzz/TARGET``, kept between runs, so
later runs go on from the coverage earlier ones reached). ``--seconds N`` bounds the run
(``-max_total_time``); without it libFuzzer runs until it finds a failure or is interrupted.
A failure (a ``ContractViolation`` naming the broken check, or any other uncaught exception)
stops the run with the traceback and a non-zero exit status, and libFuzzer saves the input as
``crash-<sha1>`` under ``-artifact_prefix`` (default: ``$TMPDIR/plateau-fuzz/artifacts/``);
replay it with ``python fuzz/run.py TARGET path/to/crash-...``, and add it to
``fuzz/corpus/TARGET/`` once fixed (``tests/test_fuzz.py`` replays that directory). Other
arguments go to libFuzzer as they are (``-runs=N``, ``-max_len=N``, ``-jobs=N``, ...).

The ``plateau`` package is imported under ``atheris.instrument_imports()``, so the fuzzer sees
the coverage of its Python code (the compiled kernels are not instrumented). Examples:

    python fuzz/run.py record --seconds 30          # what CI does for each target
    python fuzz/run.py record --seconds 3600        # a long run
    python fuzz/run.py batch --corpus /tmp/batch-corpus -max_len=2048
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGET_NAMES = ("notation", "record", "setup", "batch", "board", "engine", "referee")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Fuzz one plateau target with atheris.",
        epilog="Other arguments are passed to libFuzzer (e.g. -runs=1000, -max_len=4096).",
    )
    parser.add_argument("target", choices=TARGET_NAMES)
    parser.add_argument("--seconds", type=int, default=None, help="stop after N seconds")
    parser.add_argument(
        "--corpus", default=None, help="directory for the inputs found (default: a temp dir)"
    )
    args, rest = parser.parse_known_args(argv)

    # the "fuzz" extra (pip install ".[fuzz]"); atheris has no type information
    atheris: Any = importlib.import_module("atheris")

    sys.path.insert(0, str(HERE))
    with atheris.instrument_imports(include=["plateau", "targets"]):
        import targets

        import plateau  # noqa: F401  (instrumented for coverage)

    target = targets.TARGET_FUNCTIONS[args.target]

    def test_one_input(data: bytes) -> None:
        target(data)

    work = Path(tempfile.gettempdir()) / "plateau-fuzz"
    replaying = any(Path(a).is_file() for a in rest if not a.startswith("-"))
    libfuzzer = [sys.argv[0], *rest]
    if not any(a.startswith("-artifact_prefix=") for a in rest):
        artifacts = work / "artifacts"
        artifacts.mkdir(parents=True, exist_ok=True)
        libfuzzer.append(f"-artifact_prefix={artifacts}{os.sep}")
    if not any(a.startswith("-timeout=") for a in rest):
        libfuzzer.append("-timeout=60")
    if not any(a.startswith("-max_len=") for a in rest):
        libfuzzer.append("-max_len=4096")
    if args.seconds is not None:
        libfuzzer.append(f"-max_total_time={args.seconds}")
    if not replaying:
        corpus = Path(args.corpus) if args.corpus else work / args.target
        corpus.mkdir(parents=True, exist_ok=True)
        libfuzzer.append(str(corpus))  # the first directory receives the new inputs
        seeds = HERE / "corpus" / args.target
        if seeds.is_dir():
            libfuzzer.append(str(seeds))
    atheris.Setup(libfuzzer, test_one_input)
    atheris.Fuzz()  # exits the process when done
    return 0


if __name__ == "__main__":
    sys.exit(main())
