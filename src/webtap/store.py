"""The events store: the ``_event``s tools raise, kept for the person in SQLite.

One ``messages`` table (``id, session_id, kind, content, data, created_at``; ``data`` is JSON)
in ``webtap.db`` under the user's data folder, or the file ``WEBTAP_DB`` names. Many tool runs
may record at once, from threads and processes: the database is in WAL mode, waits on a busy
lock, and retries a write that still finds it busy. Schema changes are ordered, named
migrations recorded in ``_migrations`` and applied when the store is opened
(:func:`open_database`, which the SQL answer cache uses too, with its own list).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from webtap.errors import ConfigError, clip
from webtap.protocol import loads_json
from webtap.sqlite import Migrations, connect, migrate, now, retry

__all__ = [
    "MIGRATIONS",
    "EventStore",
    "Migrations",
    "default_path",
    "migrate",
    "open_database",
    "record_event",
    "usable_file",
]

BUSY_TIMEOUT = 10.0  # seconds SQLite itself waits for a lock
RETRIES = 8  # then webtap retries a write that still finds the database busy


def _m001_messages(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT,
            kind TEXT NOT NULL,
            content TEXT NOT NULL DEFAULT '',
            data TEXT,
            created_at TEXT NOT NULL
        )
        """
    )


def _m002_messages_session_index(db: sqlite3.Connection) -> None:
    db.execute("CREATE INDEX messages_session ON messages (session_id, id)")


# Ordered; a name, once released, never changes meaning. Append only.
MIGRATIONS: Migrations = [
    ("m001_messages", _m001_messages),
    ("m002_messages_session_index", _m002_messages_session_index),
]


def default_path() -> Path:
    """``WEBTAP_DB``, else ``webtap.db`` in the user's data folder."""
    override = os.environ.get("WEBTAP_DB", "").strip()
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("webtap")) / "webtap.db"


@contextlib.contextmanager
def usable_file(path: Path, what: str, remedy: str) -> Iterator[None]:
    """Opening a SQLite file: any failure becomes one :class:`ConfigError` naming the file.

    ``what`` says what the file is for ("the events store"), ``remedy`` what to do about it.
    Shared by the events store and the answer cache, whose files a person names.
    """
    try:
        yield
    except (OSError, sqlite3.Error, ValueError) as exc:  # ValueError: a NUL in the path
        raise ConfigError(f"Cannot use {path} as {what}: {_reason(exc)}. {remedy}") from None


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValueError) and not isinstance(exc, sqlite3.Error):
        return "the path contains a NUL character" if "null" in str(exc) else str(exc)
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    text = str(exc)
    if "not a database" in text:
        return "it exists and is not a SQLite database"
    if "unable to open" in text:
        return "SQLite cannot open or create it there"
    return text


def open_database(
    path: Path, migrations: Migrations, *, what: str, remedy: str
) -> sqlite3.Connection:
    """A SQLite file opened for webtap (:func:`webtap.sqlite.connect`: created private, WAL,
    its ``migrations`` applied), waiting and retrying while another writer holds it.

    Shared by the events store and the SQL answer cache (each file has its own list). Any
    failure is one :class:`ConfigError` naming the file (see :func:`usable_file`).
    """
    with usable_file(path, what, remedy):
        return connect(path, migrations, busy_timeout=BUSY_TIMEOUT, retries=RETRIES)


class EventStore:
    """The messages table. Open, use, close (or ``with EventStore() as store``)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        remedy = "Set WEBTAP_DB to the path of a file webtap may create and write."
        self.db = open_database(self.path, MIGRATIONS, what="the events store", remedy=remedy)
        self.db.row_factory = sqlite3.Row

    def add(self, event: dict[str, Any], session_id: str | None = None) -> int:
        """Store one ``_event``; returns its row id."""
        kind, content, data = _fields(event)

        def insert() -> int:
            cursor = self.db.execute(
                "INSERT INTO messages (session_id, kind, content, data, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (session_id, kind, content, data, now()),
            )
            return int(cursor.lastrowid or 0)

        return retry(insert, RETRIES)

    def list(self, session_id: str | None = None) -> list[dict[str, Any]]:
        """Stored events, oldest first, as dicts with ``data`` decoded."""
        query = "SELECT id, session_id, kind, content, data, created_at FROM messages"
        params: tuple[Any, ...] = ()
        if session_id is not None:
            query += " WHERE session_id = ?"
            params = (session_id,)
        rows = retry(lambda: self.db.execute(query + " ORDER BY id", params).fetchall(), RETRIES)
        return [_row(row) for row in rows]

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def record_event(
    event: dict[str, Any], session_id: str | None = None, *, path: str | Path | None = None
) -> int:
    """Store one ``_event`` in the store at ``path`` (default: :func:`default_path`)."""
    with EventStore(path) as store:
        return store.add(event, session_id)


# An event is a few lines for a person (setup steps, a quota reset); a tool that sends megabytes
# gets its first 64 KiB kept, not a table that grows without bound.
MAX_EVENT_CONTENT = 64 * 1024


def _fields(event: dict[str, Any]) -> tuple[str, str, str | None]:
    if not isinstance(event, dict):
        raise TypeError(f"an event is a dict with kind, content and data, got {type(event)}")
    kind = clip(str(event.get("kind") or "event"))
    content = event.get("content")
    content = "" if content is None else clip(str(content), MAX_EVENT_CONTENT)
    data = event.get("data")
    return kind, content, None if data is None else json.dumps(data, ensure_ascii=False)


def _row(row: sqlite3.Row) -> dict[str, Any]:
    item = dict(row)
    if item["data"] is not None:
        # Written by something else: then show it as it is.
        with contextlib.suppress(ValueError):
            item["data"] = loads_json(item["data"])
    return item
