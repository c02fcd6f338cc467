"""The answer cache: successful ``stps_ask_ai`` answers in a SQLite file a person names.

The file is opened by :func:`webtap.sqlite.open_database` with its own named migrations, the
one migration mechanism of webtap. A row is keyed by a SHA-256 digest of everything that shapes
the answer (:meth:`Question.cache_key`), never by a key; answers are redacted before they are
stored. Once open, a cache only ever saves work: a lookup or store that fails is a miss.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

from webtap.sqlite import Migrations, open_database

__all__ = ["MIGRATIONS", "AnswerCache", "Question"]


class Question(NamedTuple):
    """One row's request, with everything that shapes its answer.

    Identical questions are asked once per query, and the cache answers a question only when
    all of it matches: an answer made without search never answers a question with search.
    """

    context: str
    prompt: str
    model: str
    max_tokens: int
    search_provider: str  # "none" when the model gets no search
    max_tool_calls: int
    kind: str = ""  # "cited" (stps_ask_ai_cited) or "json" (stps_ask_ai_json): JSON answers
    schema: str = ""  # a typed answer's JSON Schema, as canonical JSON text
    address: str = ""  # an OpenAI-compatible server's base URL ("" for Anthropic)

    @property
    def cited(self) -> bool:
        return self.kind == "cited"

    def cache_key(self) -> str:
        # This order is the key of files written by earlier versions: keep it.
        parts: tuple[Any, ...] = (
            self.model,
            self.max_tokens,
            self.context,
            self.prompt,
            self.search_provider,
            self.max_tool_calls,
        )
        if self.address:  # after them: the keys of files written before stay as they were
            parts += (self.address,)
        return (
            AnswerCache.key(*parts, self.kind, self.schema)
            if self.kind
            else AnswerCache.key(*parts)
        )


def _m001_answers(db: sqlite3.Connection) -> None:
    # IF NOT EXISTS: files made before migrations have the table and no _migrations.
    db.execute(
        "CREATE TABLE IF NOT EXISTS answers ("
        " key TEXT PRIMARY KEY, model TEXT NOT NULL, answer TEXT NOT NULL,"
        " created_at REAL NOT NULL)"
    )


# Ordered; a name, once released, never changes meaning. Append only.
MIGRATIONS: Migrations = [("m001_answers", _m001_answers)]

REMEDY = "Give --cache or stps_set_cache() the path of a file webtap may create and write."


class AnswerCache:
    """Successful answers in a SQLite file, keyed by everything that shapes the answer."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self._lock = threading.Lock()
        self._db = open_database(self.path, MIGRATIONS, what="the answer cache", remedy=REMEDY)

    @staticmethod
    def key(*parts: Any) -> str:
        return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()

    def get(self, key: str) -> str | None:
        """The answer stored under ``key``; None when absent or the file cannot be read now."""
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT answer FROM answers WHERE key = ?", (key,)
                ).fetchone()
        except sqlite3.Error:  # locked past the busy timeout, closed by stps_set_cache: a miss
            return None
        return row[0] if row else None

    def put(self, key: str, model: str, answer: str) -> None:
        """Keep ``answer`` (already redacted by the caller); a failed write is skipped."""
        try:
            with self._lock:
                self._db.execute(
                    "INSERT OR REPLACE INTO answers (key, model, answer, created_at) "
                    "VALUES (?, ?, ?, ?)",
                    (key, model, answer, time.time()),
                )
        except sqlite3.Error:
            pass  # the answer is still returned; only the saving is lost

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM answers").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
