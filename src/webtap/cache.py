"""Caches in the user cache folder (decision: Caches): small key–value stores in SQLite.

Converted pages and search results are kept so that paging through a long page costs one
request and an identical search one provider call. A cache only ever saves work: a folder that
cannot be made, a file that is corrupt, locked, planted as a symlink or on a read-only disk
turns lookups into misses and stores into no-ops, never into an error. A corrupt file is
replaced. ``WEBTAP_CACHE=off`` turns every cache off; ``WEBTAP_CACHE_DIR`` moves the folder
(default: the platform's user cache folder for ``webtap``). Each file is bounded in bytes and
the oldest entries leave first. Callers decide what a key is made of and must keep secrets out
of it: keys are stored as SHA-256 digests, values as JSON text.

Every tool call imports this module, and with the caches off one uses none of SQLite, pathlib,
hashlib or platformdirs: each is imported inside the function that first needs it.

    >>> pages = Cache("pages", max_bytes=64 * 1024 * 1024)
    >>> pages.put("https://example.com/|main", {"markdown": "# Example"})
    >>> pages.get("https://example.com/|main").value
    {'markdown': '# Example'}
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, NamedTuple

from webtap.settings import CACHE, CACHE_DIR

if TYPE_CHECKING:
    import sqlite3
    from pathlib import Path

    from webtap.sqlite import Migrations

__all__ = [
    "MIGRATIONS",
    "Cache",
    "Entry",
    "cache_dir",
    "enabled",
    "open_cache",
]

_BUSY_TIMEOUT = 0.5  # seconds a lookup waits on a lock before it counts as a miss


def enabled() -> bool:
    """False when ``WEBTAP_CACHE`` turns caching off (``off``, ``0``, ``false``, ``no``)."""
    return CACHE.get()


def cache_dir() -> Path:
    """``WEBTAP_CACHE_DIR``, else the user cache folder for ``webtap`` (platformdirs)."""
    from pathlib import Path  # here: a tool call with the caches off never needs it

    override = CACHE_DIR.get()
    if override:
        return Path(override).expanduser()
    return Path(_user_cache_dir())


def _user_cache_dir() -> str:
    """platformdirs' ``user_cache_dir("webtap")``. On Linux its rule (XDG) is spelled here:
    importing platformdirs costs a tool call some 5 ms (it loads ``tempfile`` and ``shutil``);
    a test pins the two to the same answer."""
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        if not os.path.isabs(base):
            base = os.path.expanduser("~/.cache")
        return os.path.join(base, "webtap")
    from platformdirs import user_cache_dir  # not Linux: see above

    return user_cache_dir("webtap")


class Entry(NamedTuple):
    """A cached value and when it was stored (``time.time()``)."""

    value: Any
    stored_at: float

    def age(self) -> float:
        """Seconds since the entry was stored (0 if the clock went back)."""
        return max(0.0, time.time() - self.stored_at)


class Cache:
    """One SQLite file of JSON values under string keys, safe across threads and processes.

    Opened lazily on first use; every failure after that is a miss (``get`` → None) or a
    no-op (``put``). ``folder`` defaults to :func:`cache_dir`; with :func:`enabled` false the
    cache is always empty.
    """

    def __init__(self, name: str, *, max_bytes: int, folder: Path | None = None) -> None:
        self.name = name
        self.max_bytes = max_bytes
        self._folder = folder
        self._db: sqlite3.Connection | None = None
        self._unusable = not enabled()
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        return (self._folder or cache_dir()) / f"{self.name}.sqlite3"

    def get(self, key: str) -> Entry | None:
        """The entry stored under ``key``, or None (absent, or the cache is unusable)."""
        row = self._run(
            lambda db: db.execute(
                "SELECT value, stored_at FROM entries WHERE key = ?", (_digest(key),)
            ).fetchone()
        )
        if row is None:
            return None
        try:
            return Entry(json.loads(row[0]), float(row[1]))
        except (ValueError, TypeError):  # a row some other writer garbled: a miss
            return None

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` (JSON-serialisable) under ``key``; oldest entries go past the bound."""
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.max_bytes:
            return

        def store(db: sqlite3.Connection) -> None:
            with db:
                db.execute(
                    "INSERT OR REPLACE INTO entries (key, value, size, stored_at)"
                    " VALUES (?, ?, ?, ?)",
                    (_digest(key), text, size, time.time()),
                )
                _evict(db, self.max_bytes)

        self._run(store)

    def delete(self, key: str) -> None:
        """Forget ``key`` (a no-op when absent or unusable)."""

        def remove(db: sqlite3.Connection) -> None:
            with db:
                db.execute("DELETE FROM entries WHERE key = ?", (_digest(key),))

        self._run(remove)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                with contextlib.suppress(Exception):
                    self._db.close()
                self._db = None

    def _run(self, operation: Any) -> Any:
        import sqlite3  # the module's docstring says why here

        with self._lock:
            if self._unusable:
                return None
            try:
                if self._db is None:
                    self._db = self._open()
                return operation(self._db)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    return None  # someone else is writing: this once, a miss
                self._give_up()
            except (sqlite3.Error, OSError, ValueError):
                self._give_up()
            return None

    def _give_up(self) -> None:
        if self._db is not None:
            with contextlib.suppress(Exception):
                self._db.close()
        self._db = None
        self._unusable = True

    def _open(self) -> sqlite3.Connection:
        import sqlite3  # the module's docstring says why here

        from webtap.sqlite import connect

        path = self.path
        try:
            return connect(path, MIGRATIONS, busy_timeout=_BUSY_TIMEOUT)
        except sqlite3.DatabaseError as exc:
            if "not a database" not in str(exc) and "malformed" not in str(exc):
                raise
        # A corrupt file holds nothing worth keeping: start a new one in its place.
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{path}{suffix}")
        return connect(path, MIGRATIONS, busy_timeout=_BUSY_TIMEOUT)


def _m001_entries(db: sqlite3.Connection) -> None:
    # IF NOT EXISTS: files made before migrations have the table and no _migrations.
    db.execute(
        "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value TEXT NOT NULL,"
        " size INTEGER NOT NULL, stored_at REAL NOT NULL)"
    )
    db.execute("CREATE INDEX IF NOT EXISTS entries_age ON entries (stored_at)")


# Every cache file's schema (:func:`webtap.sqlite.connect` applies it). Append only.
MIGRATIONS: Migrations = [("m001_entries", _m001_entries)]

_OPENED: dict[tuple[str, str, int], Cache] = {}
_OPENED_LOCK = threading.Lock()


def open_cache(name: str, max_bytes: int) -> Cache:
    """The process's :class:`Cache` called ``name`` in the folder the environment names now,
    bounded by ``max_bytes``: one per file and bound, however often it is asked for (the MCP
    server and the ask loop ask on every call), opened on first use."""
    folder = cache_dir()
    memo = (name, str(folder), max_bytes)
    with _OPENED_LOCK:
        cache = _OPENED.get(memo)
        if cache is None:
            cache = _OPENED[memo] = Cache(name, max_bytes=max_bytes, folder=folder)
        return cache


def _evict(db: sqlite3.Connection, max_bytes: int) -> None:
    """Delete the oldest entries until the file's values fit in ``max_bytes``."""
    (total,) = db.execute("SELECT COALESCE(SUM(size), 0) FROM entries").fetchone()
    excess = total - max_bytes
    if excess <= 0:
        return
    doomed = []
    for key, size in db.execute("SELECT key, size FROM entries ORDER BY stored_at"):
        doomed.append((key,))
        excess -= size
        if excess <= 0:
            break
    db.executemany("DELETE FROM entries WHERE key = ?", doomed)


def _digest(key: str) -> str:
    import hashlib  # here: with the caches off a tool call never hashes a key

    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
