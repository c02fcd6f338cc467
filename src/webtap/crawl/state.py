"""A crawl's journal: what makes it resumable after any stop, SIGKILL included.

One SQLite file (``OUT.crawl/state.sqlite3``, WAL) holds every URL the crawl knows (queued,
written, or visited without a row of its own), every row written, the content digests that
tell a page served under two URLs, and each URL pattern's count. A page's outcome is one
transaction: its row, its state, the links it adds to the queue. A kill before the commit
loses only the pages in flight (the next run fetches them); a kill after it loses nothing,
and the next run never fetches that page again. OUT itself is written from the journal
(:mod:`webtap.crawl.output`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from webtap.crawl.urls import pattern
from webtap.sqlite import Migrations, connect

__all__ = ["QUEUED", "SKIPPED", "WRITTEN", "Queued", "State"]

QUEUED, WRITTEN, SKIPPED = "queued", "written", "skipped"


def _initial(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(
        "CREATE TABLE urls (key TEXT PRIMARY KEY, url TEXT NOT NULL, depth INTEGER NOT NULL,"
        " state TEXT NOT NULL, via TEXT, seq INTEGER NOT NULL, why TEXT)"
    )
    db.execute("CREATE INDEX urls_queue ON urls (state, depth, seq)")
    db.execute("CREATE TABLE rows (n INTEGER PRIMARY KEY, key TEXT NOT NULL, record TEXT NOT NULL)")
    db.execute("CREATE TABLE digests (digest TEXT PRIMARY KEY, url TEXT NOT NULL)")
    db.execute("CREATE TABLE patterns (pattern TEXT PRIMARY KEY, count INTEGER NOT NULL)")


MIGRATIONS: Migrations = [("m001_initial", _initial)]


class Queued(NamedTuple):
    """A URL waiting for its visit: ``via`` is the URL first asked for, when a redirect or a
    canonical link led here."""

    key: str
    url: str
    depth: int
    via: str | None = None


class State:
    """The journal of the crawl that writes ``target`` (one writer: the crawl's loop)."""

    def __init__(self, target: Path) -> None:
        self.folder = target.with_name(target.name + ".crawl")
        self.db = connect(self.folder / "state.sqlite3", MIGRATIONS, busy_timeout=10.0)
        self._seq = self.db.execute("SELECT coalesce(max(seq), 0) FROM urls").fetchone()[0]

    def close(self) -> None:
        self.db.close()

    # -- what the run was ---------------------------------------------------------------------

    def settings(self) -> dict[str, Any] | None:
        row = self.db.execute("SELECT value FROM meta WHERE name = 'settings'").fetchone()
        return json.loads(row[0]) if row else None

    def remember(self, settings: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO meta (name, value) VALUES ('settings', ?)",
            (json.dumps(settings, sort_keys=True),),
        )

    # -- reading --------------------------------------------------------------------------------

    def queued(self) -> list[Queued]:
        rows = self.db.execute(
            "SELECT key, url, depth, via FROM urls WHERE state = ? ORDER BY depth, seq", (QUEUED,)
        )
        return [Queued(*row) for row in rows]

    def state_of(self, key: str) -> str | None:
        row = self.db.execute("SELECT state FROM urls WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def visited(self) -> int:
        row = self.db.execute("SELECT count(*) FROM urls WHERE state != ?", (QUEUED,)).fetchone()
        return int(row[0])

    def counts(self) -> dict[str, int]:
        rows = self.db.execute("SELECT state, count(*) FROM urls GROUP BY state")
        return {state: int(count) for state, count in rows}

    def written(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM rows").fetchone()[0])

    def errors(self) -> int:
        row = self.db.execute(
            "SELECT count(*) FROM rows WHERE json_extract(record, '$.error_code') IS NOT NULL"
        ).fetchone()
        return int(row[0])

    def records(self) -> Iterator[dict[str, Any]]:
        for (record,) in self.db.execute("SELECT record FROM rows ORDER BY n"):
            yield json.loads(record)

    def digest_owner(self, digest: str) -> str | None:
        row = self.db.execute("SELECT url FROM digests WHERE digest = ?", (digest,)).fetchone()
        return row[0] if row else None

    # -- one page's outcome, in one transaction ---------------------------------------------------

    def add(
        self, found: Iterable[Queued], per_pattern: int | None
    ) -> tuple[list[Queued], list[str]]:
        """Queue the URLs of ``found`` not known yet (each pattern at most ``per_pattern``
        times): the ones queued, and the keys of those the pattern limit left out."""
        with self._transaction():
            return self._add(found, per_pattern)

    def finish(
        self,
        key: str,
        record: dict[str, Any] | None,
        found: Iterable[Queued],
        per_pattern: int | None,
        *,
        digest: str | None = None,
        why: str | None = None,
    ) -> tuple[list[Queued], list[str]]:
        """``key`` visited: its row (None: no row of its own, ``why``), its content's digest,
        and the URLs it leads to queued (see :meth:`add`)."""
        with self._transaction():
            state = WRITTEN if record is not None else SKIPPED
            self.db.execute("UPDATE urls SET state = ?, why = ? WHERE key = ?", (state, why, key))
            if record is not None:
                self.db.execute(
                    "INSERT INTO rows (key, record) VALUES (?, ?)",
                    (key, json.dumps(record, ensure_ascii=False)),
                )
            if digest is not None and record is not None:
                self.db.execute(
                    "INSERT OR IGNORE INTO digests (digest, url) VALUES (?, ?)",
                    (digest, record["url"]),
                )
            return self._add(found, per_pattern)

    def _add(
        self, found: Iterable[Queued], per_pattern: int | None
    ) -> tuple[list[Queued], list[str]]:
        added: list[Queued] = []
        cut: list[str] = []
        for item in found:
            if self.db.execute("SELECT 1 FROM urls WHERE key = ?", (item.key,)).fetchone():
                continue
            shape = pattern(item.url)
            row = self.db.execute("SELECT count FROM patterns WHERE pattern = ?", (shape,))
            count = (row.fetchone() or (0,))[0]
            if per_pattern is not None and count >= per_pattern:
                cut.append(item.key)  # known from now on, so that it is left out (and counted) once
                self._seq += 1
                self.db.execute(
                    "INSERT INTO urls (key, url, depth, state, via, seq, why) "
                    "VALUES (?, ?, ?, ?, ?, ?, 'pattern limit')",
                    (item.key, item.url, item.depth, SKIPPED, item.via, self._seq),
                )
                continue
            self.db.execute(
                "INSERT INTO patterns (pattern, count) VALUES (?, 1) ON CONFLICT (pattern) "
                "DO UPDATE SET count = count + 1",
                (shape,),
            )
            self._seq += 1
            self.db.execute(
                "INSERT INTO urls (key, url, depth, state, via, seq) VALUES (?, ?, ?, ?, ?, ?)",
                (item.key, item.url, item.depth, QUEUED, item.via, self._seq),
            )
            added.append(item)
        return added, cut

    class _Tx:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> None:
            self.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, kind: object, *rest: object) -> None:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")

    def _transaction(self) -> State._Tx:
        return State._Tx(self.db)
