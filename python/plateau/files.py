"""The user's files, read and written safely.

Reading: a file someone else made (a game record, an arena's results, an opening or suite file,
a board) is read by :func:`read_bytes_limited` or :func:`read_text_limited`: only a regular file,
opened without waiting for a writer (a named pipe is refused at once, not waited on), never more
than a set number of bytes (a device such as ``/dev/zero`` is refused, not read without end), and
text that is not UTF-8 is refused with the position of the first bad byte.

Writing: a file the library rewrites (an arena's results on ``--resume``, a page, a picture, an
opening file, a saved game) is written whole to a temporary file beside it and renamed over it,
so that a failed write (a full disk, a file-size limit, an interrupt) leaves the old file as it
was, never a truncated one."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

#: The biggest record, results, opening or suite file read (an arena of some 10,000 long games);
#: a bigger one is refused rather than read into memory. A board file has its own, smaller cap.
MAX_INPUT_FILE_BYTES = 256 << 20


def read_bytes_limited(
    path: str | os.PathLike[str],
    error: type[ValueError],
    limit: int | None = None,
    named: bool = True,
) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them. A named pipe, a
    device or a directory is refused (``error``; its message starts with the path unless not
    ``named``) without waiting for a writer or reading without end, and so is a file of more
    than ``limit`` bytes (None: :data:`MAX_INPUT_FILE_BYTES`). A file that cannot be opened
    raises the ``OSError`` of ``os.open`` (``FileNotFoundError``, ``PermissionError``)."""
    where = f"{os.fspath(path)}: " if named else ""
    limit = MAX_INPUT_FILE_BYTES if limit is None else limit
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opens at once
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise error(f"{where}not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(limit + 1)
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise error(f"{where}more than {limit} bytes")
    return raw


def read_text_limited(
    path: str | os.PathLike[str], error: type[ValueError], limit: int | None = None
) -> str:
    """The text of the regular file at ``path``, as :func:`read_bytes_limited` reads it,
    decoded as UTF-8 (``error`` naming the file and its first bad byte if it is not)."""
    raw = read_bytes_limited(path, error, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{os.fspath(path)}: not UTF-8 text (byte {e.start})") from None


def replace_file(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` all at once: to a temporary file in the same
    folder, flushed to disk, then renamed over ``path`` (``os.replace``, atomic). On any error
    ``path`` is unchanged and the temporary file removed. A symbolic link is written through
    (its target is replaced); an existing file keeps its permissions, a new one gets the
    umask's. What is not a regular file (``/dev/stdout``, a named pipe) is written in place."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = os.path.realpath(os.fspath(path))
    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISREG(os.stat(target).st_mode):
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
