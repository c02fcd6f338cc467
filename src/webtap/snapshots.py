"""What a question read, kept: snapshots addressed by the SHA-256 of the exact text
(decision: Checkable answers).

Every page the ask loop gives the model (and every search result it shows it) is kept as a
:class:`Snapshot`: the text, its URL, its title and when it was read, named by the SHA-256 of
the text's UTF-8 bytes. A citation names a snapshot and a span in it, so that anyone can check
later what the model was given. A snapshot is never rewritten: the same text is the same
snapshot, and a later fetch of the same URL that reads differently is a new one.

Snapshots live in the page cache's file (``pages.sqlite3`` in the user cache folder, their own
table), shared by every process; ``WEBTAP_CACHE=off`` keeps them in the :class:`Snapshots`
object only, for the question that took them. Like every cache, a file that cannot be used
turns storing into a no-op (the question's own copy still verifies its citations), never into
an error. The file is bounded by ``WEBTAP_FETCH_CACHE_MAX_BYTES`` too: the oldest snapshots
leave first.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from datetime import UTC, datetime
from typing import NamedTuple

from webtap.cache import cache_dir, enabled
from webtap.settings import FETCH_CACHE_MAX_BYTES
from webtap.sqlite import Migrations, connect

__all__ = [
    "MIGRATIONS",
    "Snapshot",
    "Snapshots",
    "blocks",
    "digest",
]

FILE = "pages.sqlite3"  # the page cache's file (webtap.fetch.page_cache)
_BUSY_TIMEOUT = 0.5  # seconds: a snapshot that cannot be kept at once is kept by the question


class Snapshot(NamedTuple):
    """The exact text a model was given, where it came from and when."""

    hash: str  # SHA-256 of text's UTF-8 bytes, hex
    url: str
    title: str
    taken_at: str  # ISO 8601, UTC
    text: str


def digest(text: str) -> str:
    """The name of ``text``'s snapshot: the hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _m001_snapshots(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE snapshots (
            hash TEXT PRIMARY KEY,
            url TEXT NOT NULL,
            title TEXT NOT NULL,
            taken_at TEXT NOT NULL,
            text TEXT NOT NULL,
            size INTEGER NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX snapshots_url ON snapshots (url, taken_at)")


# Named apart from the key-value caches' own migrations, which share the file.
MIGRATIONS: Migrations = [("snapshots_m001", _m001_snapshots)]


class Snapshots:
    """One question's snapshots: kept in memory for the question, and in the shared file unless
    ``WEBTAP_CACHE=off`` (or ``persist=False``)."""

    def __init__(self, *, persist: bool | None = None) -> None:
        self._taken: dict[str, Snapshot] = {}
        self._persist = enabled() if persist is None else persist
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def take(self, url: str, title: str, text: str) -> Snapshot:
        """Keep ``text`` as read from ``url``; the snapshot it is (an earlier one when the text
        is the same: never rewritten)."""
        name = digest(text)
        with self._lock:
            known = self._taken.get(name)
            if known is not None:
                return known
            snapshot = Snapshot(name, url, title, _now(), text)
            self._taken[name] = snapshot
            self._store(snapshot)
            return snapshot

    def get(self, name: str) -> Snapshot | None:
        """The snapshot named ``name``: this question's, else the shared file's."""
        with self._lock:
            if name in self._taken:
                return self._taken[name]
            row = self._query("SELECT * FROM snapshots WHERE hash = ?", (name,))
        return _snapshot(row)

    def latest(self, url: str) -> Snapshot | None:
        """The newest snapshot of ``url``, this question's first."""
        with self._lock:
            mine = [s for s in self._taken.values() if s.url == url]
            if mine:
                return max(mine, key=lambda s: s.taken_at)
            row = self._query(
                "SELECT * FROM snapshots WHERE url = ? ORDER BY taken_at DESC LIMIT 1", (url,)
            )
        return _snapshot(row)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # --- the shared file: a no-op when it cannot be used ----------------------------------------

    def _open(self) -> sqlite3.Connection | None:
        if not self._persist:
            return None
        if self._db is None:
            try:
                self._db = connect(cache_dir() / FILE, MIGRATIONS, busy_timeout=_BUSY_TIMEOUT)
            except (sqlite3.Error, OSError, ValueError):
                self._persist = False  # kept by the question alone from now on
                return None
        return self._db

    def _store(self, snapshot: Snapshot) -> None:
        db = self._open()
        if db is None:
            return
        size = len(snapshot.text.encode("utf-8", "surrogatepass"))
        try:
            db.execute(
                "INSERT OR IGNORE INTO snapshots (hash, url, title, taken_at, text, size)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (*snapshot[:4], snapshot.text, size),
            )
            _evict(db, FETCH_CACHE_MAX_BYTES.get())
        except sqlite3.Error:
            pass  # a busy or broken file: the question still has its own copy

    def _query(self, sql: str, args: tuple[str, ...]) -> tuple[str, ...] | None:
        db = self._open()
        if db is None:
            return None
        try:
            row: tuple[str, ...] | None = db.execute(sql, args).fetchone()
        except sqlite3.Error:
            return None
        return row


def _snapshot(row: tuple[str, ...] | None) -> Snapshot | None:
    if row is None:
        return None
    name, url, title, taken_at, text = row[:5]
    return Snapshot(name, url, title, taken_at, text)


def _evict(db: sqlite3.Connection, max_bytes: int) -> None:
    """The oldest snapshots leave until the table's texts fit in ``max_bytes``."""
    (total,) = db.execute("SELECT COALESCE(SUM(size), 0) FROM snapshots").fetchone()
    if total <= max_bytes:
        return
    over, doomed = total - max_bytes, []
    for name, size in db.execute("SELECT hash, size FROM snapshots ORDER BY taken_at, hash"):
        if over <= 0:
            break
        doomed.append((name,))
        over -= size
    db.executemany("DELETE FROM snapshots WHERE hash = ?", doomed)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


# --- the blocks a citation can point at --------------------------------------------------------

_OWN_LINE = re.compile(r"\s*(?:[-*+]\s|\d{1,9}[.)]\s|#{1,6}\s|\||>)")


def blocks(text: str) -> list[tuple[int, int]]:
    """``text`` cut into the units a citation can point at, as ``(start, end)`` code-point
    spans: paragraphs (lines up to a blank line), and each list item, table row, heading and
    quote line on its own. Spans hold no leading or trailing whitespace; together they cover
    every non-blank character of ``text``."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    end = 0
    position = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        line_start = position + (len(line) - len(line.lstrip()))
        line_end = position + len(line.rstrip())
        position += len(line)
        if not stripped:
            if start is not None:
                spans.append((start, end))
                start = None
            continue
        if _OWN_LINE.match(line):
            if start is not None:
                spans.append((start, end))
            spans.append((line_start, line_end))
            start = None
            continue
        if start is None:
            start = line_start
        end = line_end
    if start is not None:
        spans.append((start, end))
    return spans
