"""Writing files safely in folders other people can plant things in (a cloned project, a cache).

Every file webtap writes goes through :func:`write_atomic`: the new content is written to a
temporary file created exclusively in the target's own folder (``O_CREAT | O_EXCL``, so a link
planted under any name is never opened, let alone written through), then renamed over the
target. A rename replaces a symlink at the target itself; it never writes where the link points.
Files that are opened in place rather than replaced (SQLite stores and caches) are created with
:func:`create_private`, which refuses a link it did not make.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

__all__ = ["create_private", "write_atomic"]


def write_atomic(path: str | Path, data: bytes | str, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` (UTF-8 for text), all at once, with permissions ``mode``.

    Readers see the old file or the new one, never half of it; concurrent writers each write
    their own temporary file and the last rename wins. Raises ``OSError`` (the temporary file
    is removed) when the folder is not writable.
    """
    import tempfile  # here: a tool call that only opens a cache (create_private) never needs it

    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    # mkstemp opens with O_CREAT | O_EXCL and a random name: it never follows a link.
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(payload)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def create_private(path: str | Path, mode: int = 0o600) -> None:
    """Make sure ``path`` is a regular file webtap may open in place, creating it if missing.

    A missing file is created exclusively with ``mode``; an existing file is left as it is; a
    symbolic link at ``path`` raises ``OSError`` naming it, because opening it would write
    wherever the link points.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        os.close(os.open(path, flags, mode))
        return
    except FileExistsError:
        pass
    except IsADirectoryError:
        return  # the caller's own open names that problem in its words
    if stat.S_ISLNK(os.lstat(path).st_mode):
        raise OSError(f"{path} is a symbolic link; webtap will not write through it (remove it)")
