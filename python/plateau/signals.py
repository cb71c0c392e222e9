"""The signals that end a process (SIGTERM, SIGHUP) turned into an exception while the library
runs a command or an arena in the main thread: so that what is under way is undone on the way
out (a temporary file removed, workers and engines stopped), as on Ctrl-C."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Generator

#: the signals that end a command or an arena, which stops its workers and engines on the way
#: out (SIGINT is Python's KeyboardInterrupt already)
ENDING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Terminated(SystemExit):
    """The process was told to end by a signal (SIGTERM, SIGHUP): raised in the main thread
    while an arena (:func:`plateau.arena.run`) or a command runs, so that its workers,
    engines and temporary files are cleaned up on the way out, as on Ctrl-C. A ``SystemExit``
    with the code ``128 + signum``: uncaught, the process exits with it, without a
    traceback."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def ending_signals_raise() -> Generator[None, None, None]:
    """While this runs in the main thread, the :data:`ENDING_SIGNALS` that would end the
    process at once (left at their default) raise :class:`Terminated` instead; handlers of
    the caller's own and ignored signals (``nohup``) are left alone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for signum in ENDING_SIGNALS:
        if signal.getsignal(signum) == signal.SIG_DFL:
            previous[signum] = signal.signal(signum, _raise_terminated)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
