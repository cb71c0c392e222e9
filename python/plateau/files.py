"""The user's files, read and written safely.

Reading: a file the user names (a game record, an arena's results, an opening or suite file, a
board) is opened by :func:`open_input`: a regular file, or a pipe (``/dev/stdin`` when input is
piped, a shell's ``<(...)``, a named pipe, read as ``cat`` reads it: once its writer writes).
Anything else (a device such as ``/dev/zero``, a directory, a socket) is refused before it is
opened, so it is neither read without end nor opened for its side effects.
:func:`read_bytes_limited` and :func:`read_text_limited` read such a file whole, never more than
a set number of bytes, and refuse text that is not UTF-8 naming the first bad byte.

Writing: a file the library rewrites (an arena's results on ``--resume``, a page, a picture, an
opening file, a saved game) is written whole to a temporary file beside it and renamed over it,
so that a failed write (a full disk, a file-size limit, an interrupt) leaves the old file as it
was, never a truncated one."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
import tempfile
from typing import BinaryIO

#: The biggest record, opening or suite file read whole, and the longest line of an arena's
#: results (read line by line, as many lines as the file holds); more is refused rather than
#: read into memory. A board file has its own, smaller cap.
MAX_INPUT_FILE_BYTES = 256 << 20

_CHUNK = 1 << 20


def open_input(
    path: str | os.PathLike[str], error: type[ValueError], pipes: bool = True, named: bool = True
) -> BinaryIO:
    """``path`` opened for reading bytes, after checking what it is: a regular file, or (with
    ``pipes``) a pipe. Anything else is refused (``error``; its message starts with the path
    unless not ``named``) before it is opened. A file that cannot be opened raises the
    ``OSError`` of ``os.stat`` or ``os.open`` (``FileNotFoundError``, ``PermissionError``)."""
    where = f"{os.fspath(path)}: " if named else ""
    what = "a regular file or a pipe" if pipes else "a regular file"
    mode = os.stat(path).st_mode
    if not (stat.S_ISREG(mode) or (pipes and stat.S_ISFIFO(mode))):
        raise error(f"{where}not {what}")
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0)
    if not stat.S_ISFIFO(mode):  # (something swapped in since opens at once, refused below)
        flags |= getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        now = os.fstat(fd).st_mode
        if not (stat.S_ISREG(now) or (stat.S_ISFIFO(now) and stat.S_ISFIFO(mode))):
            raise error(f"{where}not {what}")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes_limited(
    path: str | os.PathLike[str],
    error: type[ValueError],
    limit: int | None = None,
    named: bool = True,
    pipes: bool = True,
) -> bytes:
    """The bytes of ``path`` (as :func:`open_input` opens it), at most ``limit`` of them
    (None: :data:`MAX_INPUT_FILE_BYTES`): more is refused (``error``), a regular file by its
    size before any is read, a pipe once it has given ``limit`` + 1 bytes. Memory grows with
    what is read, not with ``limit``."""
    where = f"{os.fspath(path)}: " if named else ""
    limit = MAX_INPUT_FILE_BYTES if limit is None else limit
    with open_input(path, error, pipes, named) as f:
        st = os.fstat(f.fileno())
        if stat.S_ISREG(st.st_mode) and st.st_size > limit:
            raise error(f"{where}more than {limit} bytes")
        parts = []
        got = 0
        while got <= limit:
            part = f.read(min(_CHUNK, limit + 1 - got))
            if not part:
                break
            parts.append(part)
            got += len(part)
    if got > limit:
        raise error(f"{where}more than {limit} bytes")
    return b"".join(parts)


def read_text_limited(
    path: str | os.PathLike[str], error: type[ValueError], limit: int | None = None
) -> str:
    """The text of ``path``, as :func:`read_bytes_limited` reads it, decoded as UTF-8
    (``error`` naming the file and its first bad byte if it is not)."""
    raw = read_bytes_limited(path, error, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{os.fspath(path)}: not UTF-8 text (byte {e.start})") from None


_FD_PATH = re.compile(r"/(?:dev/fd|proc/(?:self|thread-self|[0-9]+)/fd)/([0-9]+)")
_STD_PATH = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def descriptor_of(name: str) -> int | None:
    """The open file descriptor that ``name`` stands for (``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N``, or a link to one of them), or None. Such a path is no file of its own:
    it is whatever the descriptor is open on, a pipe, a terminal or a file opened for
    appending."""
    here = os.path.abspath(name)
    for _ in range(40):  # (the kernel's own bound on links followed)
        if here in _STD_PATH:
            return _STD_PATH[here]
        m = _FD_PATH.fullmatch(here)
        if m is not None:
            mine = m.group(0).split("/")[2] in ("self", "thread-self", str(os.getpid()))
            return int(m.group(1)) if mine or here.startswith("/dev/fd/") else None
        # (the folders resolved first: a link to /dev/fd, then "link/1", is a descriptor too)
        here = os.path.join(os.path.realpath(os.path.dirname(here)), os.path.basename(here))
        if here in _STD_PATH or _FD_PATH.fullmatch(here):
            continue
        if not os.path.islink(here):
            return None
        here = os.path.normpath(os.path.join(os.path.dirname(here), os.readlink(here)))
    return None


def _write_descriptor(fd: int, raw: bytes) -> None:
    """Write ``raw`` to the open descriptor ``fd`` where it stands (after what this program
    already wrote through ``sys.stdout`` or ``sys.stderr``), leaving it open."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            if stream is not None and stream.fileno() == fd:
                stream.flush()
    view = memoryview(raw)
    while view:
        view = view[os.write(fd, view) :]


def replace_file(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` all at once: to a temporary file in the same
    folder, flushed to disk, then renamed over ``path`` (``os.replace``, atomic). On any error
    ``path`` is unchanged and the temporary file removed. A symbolic link is written through
    (its target is replaced); an existing file keeps its permissions, a new one gets the
    umask's. What is not a regular file (a named pipe, a terminal) is written in place, and a
    path that names an open descriptor (``/dev/stdout``, ``/dev/fd/N``) is written to that
    descriptor where it stands: ``--out /dev/stdout >> log`` appends to the log, as it would
    have been emptied or replaced by a file opened or renamed through the link."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    name = os.fspath(path)
    if not name:  # (realpath would make it the current folder)
        raise FileNotFoundError(errno.ENOENT, "no file name given", "")
    fd = descriptor_of(name)
    if fd is not None:
        try:
            _write_descriptor(fd, raw)
        except OSError as e:  # (a descriptor not open: named by the path given)
            raise OSError(e.errno, e.strerror, name) from None
        return
    folder = os.path.dirname(name)
    if folder and not os.path.isdir(folder):
        # (as open() would refuse it: realpath would read "nodir/../out" as "out")
        raise FileNotFoundError(errno.ENOENT, "no such folder", name)
    target = os.path.realpath(name)
    try:
        kind = os.stat(target).st_mode
    except FileNotFoundError:
        kind = None
    if kind is not None and stat.S_ISDIR(kind):
        raise IsADirectoryError(errno.EISDIR, "is a folder", name)
    if kind is not None and not stat.S_ISREG(kind):
        with open(path, "wb") as stream:
            stream.write(raw)
        return
    fd, tmp = tempfile.mkstemp(
        dir=os.path.dirname(target), prefix=f".{os.path.basename(target)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mask = os.umask(0o22)
            os.umask(mask)
            mode = 0o666 & ~mask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
