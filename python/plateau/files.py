"""Writing the user's files safely: a file the library rewrites (an arena's results on
``--resume``, a page, a picture, an opening file, a saved game) is written whole to a temporary
file beside it and renamed over it, so that a failed write (a full disk, a file-size limit, an
interrupt) leaves the old file as it was, never a truncated one."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile


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
