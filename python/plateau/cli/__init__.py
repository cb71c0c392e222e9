"""The ``plateau`` command line: one module per command, each with ``add_parser`` (its
arguments) and ``run`` (what it does); :mod:`plateau.cli.common` holds what they share. With no
arguments it runs the demo: a seeded random game of the standard variant printed move by move,
the final ranking, and perft of the start position.

The library's errors (:class:`plateau.PlateauError`: bad actions, records, options, arguments)
and files that cannot be read or written end a command with one line ``plateau: error: ...`` and
exit status 2; any other exception is a bug and shows its traceback. Ctrl-C and SIGTERM/SIGHUP
end it with 130 and 128 + the signal's number, after what was under way is cleaned up (a
temporary file of an output removed, an arena's workers and engines stopped).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence

from plateau import __version__
from plateau.cli import (
    arena,
    arena_report,
    bench,
    demo,
    engine,
    legal,
    openings,
    perft,
    play,
    playouts,
    render,
    show,
    solve,
    suite,
    view,
)
from plateau.cli.common import RESUME_HINT, parse_option
from plateau.engine import printable
from plateau.errors import PlateauError
from plateau.signals import ending_signals_raise

__all__ = ["build_parser", "main", "parse_option"]

#: the commands, in the order ``plateau --help`` lists them
COMMANDS = (
    demo,
    perft,
    legal,
    show,
    render,
    view,
    playouts,
    arena,
    openings,
    arena_report,
    solve,
    suite,
    play,
    engine,
    bench,
)


#: the longest error message the command line prints (a longer one is cut in the middle)
MAX_ERROR = 2000


def error_text(e: BaseException) -> str:
    r"""The message of ``e`` as the command line prints it: what it quotes of a file or an
    engine may hold anything, so every character that is not printable but a line break is
    escaped (no terminal escape reaches the terminal), and the whole is cut to ``MAX_ERROR``
    characters.

    >>> error_text(ValueError("unknown field 'x\x1b]0;PWNED\x07'"))
    "unknown field 'x\\x1b]0;PWNED\\x07'"
    """
    text = "\n".join(printable(line) for line in str(e).split("\n"))
    if len(text) > MAX_ERROR:
        cut = len(text) - MAX_ERROR + 40
        text = f"{text[: MAX_ERROR // 2]}...<{cut:,} characters>...{text[-(MAX_ERROR // 2 - 40) :]}"
    return text


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command (each command module adds its own)."""
    parser = argparse.ArgumentParser(
        prog="plateau",
        description="Rules engines for the Plateau board games. With no command: the demo.",
    )
    parser.add_argument("--version", action="version", version=f"plateau {__version__}")
    sub = parser.add_subparsers(dest="command")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # bots of your own by import path (--bots mybots:MyBot) are found in the current directory,
    # as `python -m` would find them
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "human", 0) is None:
        args.human = [0]
    if args.command is None:
        args = parser.parse_args(["demo", *(argv or [])])
    try:
        with ending_signals_raise():  # (SIGTERM, SIGHUP: a temporary file is removed, ...)
            return int(args.func(args))
    except BrokenPipeError:  # `plateau show | head`: the reader left; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (PlateauError, OSError) as e:  # the library refused input, or a file: one line
        print(f"plateau: error: {error_text(e)}", file=sys.stderr)
        return 2
    # anything else is a bug: its traceback shows
    except (KeyboardInterrupt, SystemExit) as e:  # Ctrl-C, or SIGTERM/SIGHUP (any command)
        signum = getattr(e, "signum", None)  # plateau.signals.Terminated: SIGTERM, SIGHUP
        if isinstance(e, SystemExit) and not isinstance(signum, int):
            raise
        hint = RESUME_HINT
        resumable = args.command == "arena" and getattr(args, "out", None)
        what = "interrupted" if signum is None else f"terminated by {signal.Signals(signum).name}"
        print(f"\nplateau: {what}{hint if resumable else ''}", file=sys.stderr)
        return 130 if signum is None else 128 + signum
