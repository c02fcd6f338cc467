"""The events store: the ``_event``s tools raise, kept for the person in SQLite.

One ``messages`` table (``id, session_id, kind, content, data, created_at``; ``data`` is JSON)
in ``webtap.db`` under the user's data folder, or the file ``WEBTAP_DB`` names. Many tool runs
may record at once, from threads and processes: the database is in WAL mode, waits on a busy
lock, and retries a write that still finds it busy. Schema changes are ordered, named
migrations recorded in ``_migrations`` and applied when the store is opened
(:func:`webtap.sqlite.open_database`).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from webtap.errors import clip
from webtap.protocol import MAX_EVENT_CONTENT, loads_json
from webtap.settings import DB
from webtap.sqlite import RETRIES, Migrations, migrate, now, open_database, retry

__all__ = [
    "MAX_EVENT_CONTENT",
    "MIGRATIONS",
    "EventStore",
    "default_path",
    "migrate",
    "record_event",
]


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
    override = DB.get()
    if override:
        return Path(override).expanduser()
    return Path(user_data_dir("webtap")) / "webtap.db"


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
