"""Opening a SQLite file for webtap: the one opener of every store and cache.

:func:`connect` makes the folder (private), creates the file exclusively (never through a link
someone planted: :func:`webtap.files.create_private`), opens it in autocommit mode with a busy
timeout, turns on WAL, and applies the file's ordered, named migrations (recorded in its
``_migrations`` table). Callers decide what a failure means: the events store and the SQL answer
cache make it one :class:`~webtap.errors.ConfigError` (:func:`open_database`); the
caches of :mod:`webtap.cache` turn it into misses.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

from webtap.errors import ConfigError
from webtap.files import create_private

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Migrations", "connect", "migrate", "now", "open_database", "retry", "usable_file"]

T = TypeVar("T")

BUSY_TIMEOUT = 10.0  # seconds SQLite itself waits for a lock
RETRIES = 8  # then webtap retries a write that still finds the database busy

Migrations = list[tuple[str, Callable[[sqlite3.Connection], None]]]


def connect(
    path: Path, migrations: Migrations, *, busy_timeout: float, retries: int = 1
) -> sqlite3.Connection:
    """``path`` opened: created private, WAL, ``migrations`` applied.

    ``busy_timeout``: seconds SQLite waits for another writer's lock. ``retries``: how many
    times a step that still finds the file busy is tried (:func:`retry`). Raises what SQLite
    and the file system raise (``sqlite3.Error``, ``OSError``, ``ValueError`` for a NUL).
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    create_private(path)
    # Autocommit mode: transactions are explicit (BEGIN IMMEDIATE), so that a writer takes
    # the lock up front and busy waits happen where the busy timeout handles them.
    db = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    try:
        retry(lambda: db.execute("PRAGMA journal_mode=WAL"), retries)
        db.execute("PRAGMA synchronous=NORMAL")
        retry(lambda: migrate(db, migrations), retries)
    except BaseException:
        db.close()
        raise
    return db


def migrate(db: sqlite3.Connection, migrations: Migrations) -> None:
    """Apply the ``migrations`` not yet recorded in the file's ``_migrations`` table, in order,
    in one transaction (a concurrent opener waits, then finds them applied)."""
    db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    applied = {row[0] for row in db.execute("SELECT name FROM _migrations")}
    if all(name in applied for name, _ in migrations):
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        applied = {row[0] for row in db.execute("SELECT name FROM _migrations")}
        for name, migration in migrations:
            if name not in applied:
                migration(db)
                db.execute(
                    "INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (name, now())
                )
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def retry(operation: Callable[[], T], attempts: int) -> T:
    """Run ``operation``, up to ``attempts`` times while SQLite says busy or locked, with
    jittered back-off between tries."""
    for attempt in range(attempts):
        try:
            return operation()
        except sqlite3.OperationalError as exc:
            message = str(exc).lower()
            if ("locked" not in message and "busy" not in message) or attempt == attempts - 1:
                raise
            import random  # only when a writer waits: a tool call opening a cache never does

            time.sleep(min(0.05 * 2**attempt, 1.0) * (0.5 + random.random()))
    raise AssertionError("unreachable")


def now() -> str:
    """The time as the stores write it: UTC, ISO 8601, milliseconds, ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


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
