"""The events store: migrations, round trips, and no event lost under concurrency."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from webtap.errors import ConfigError
from webtap.host import discover, run_tool
from webtap.host.event_store import MIGRATIONS, EventStore, default_path, record_event

EVENT = {
    "kind": "config_required",
    "content": "Brave Search needs an API key",
    "data": {"tool": "web_search_brave", "env_var": "BRAVE_API_KEY"},
}


def test_default_path_follows_webtap_db_then_the_data_folder(monkeypatch, isolated_env) -> None:
    assert default_path() == Path(os.environ["WEBTAP_DB"])
    monkeypatch.delenv("WEBTAP_DB")
    path = default_path()
    assert path.name == "webtap.db"
    assert Path(os.environ["XDG_DATA_HOME"]) in path.parents


def test_record_and_list(tmp_path: Path) -> None:
    first = record_event(EVENT, "s1")
    second = record_event({"kind": "rate_limited", "content": "slow down"}, "s2")
    third = record_event({"content": "no kind"})
    assert first < second < third
    with EventStore() as store:
        rows = store.list()
        assert [row["id"] for row in rows] == [first, second, third]
        assert rows[0]["session_id"] == "s1"
        assert rows[0]["kind"] == "config_required"
        assert rows[0]["content"] == "Brave Search needs an API key"
        assert rows[0]["data"] == EVENT["data"]
        assert rows[0]["created_at"].endswith("Z")
        assert rows[1]["data"] is None
        assert rows[2]["kind"] == "event"
        assert [row["id"] for row in store.list("s2")] == [second]
        assert store.list("nobody") == []
    assert Path(os.environ["WEBTAP_DB"]).exists()
    other = tmp_path / "elsewhere.db"
    record_event(EVENT, path=other)
    assert len(EventStore(other).list()) == 1


def test_table_shape_wal_and_migrations(tmp_path: Path) -> None:
    path = tmp_path / "events.db"
    EventStore(path).close()
    EventStore(path).close()  # applying twice changes nothing
    db = sqlite3.connect(path)
    columns = [row[1] for row in db.execute("PRAGMA table_info(messages)")]
    assert columns == ["id", "session_id", "kind", "content", "data", "created_at"]
    applied = [row[0] for row in db.execute("SELECT name FROM _migrations ORDER BY rowid")]
    assert applied == [name for name, _ in MIGRATIONS]
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_new_migration_is_applied_on_open(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "events.db"
    record_event(EVENT, path=path)

    def m999_extra(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE messages ADD COLUMN extra TEXT")

    monkeypatch.setattr(
        "webtap.host.event_store.MIGRATIONS", [*MIGRATIONS, ("m999_extra", m999_extra)]
    )
    with EventStore(path) as store:
        columns = [row[1] for row in store.db.execute("PRAGMA table_info(messages)")]
        names = [row[0] for row in store.db.execute("SELECT name FROM _migrations")]
        assert len(store.list()) == 1
    assert columns[-1] == "extra"
    assert names[-1] == "m999_extra"


def test_100_concurrent_runs_store_100_events(folders) -> None:
    body = (
        "input=$(cat)\n"
        'printf \'{"success": true, "_event": {"kind": "ran", "content": "run %s", '
        '"data": %s}}\' "$$" "$input"\n'
    )
    folders.tool("project", "eventful-tool", body=body)
    tool = discover().get("eventful")

    def one(index: int) -> int:
        result = run_tool(tool, {"text": str(index)})
        assert result.success and "_event" not in result.result
        return record_event(result.event, "many")

    with ThreadPoolExecutor(max_workers=25) as pool:
        ids = list(pool.map(one, range(100)))

    assert len(set(ids)) == 100
    rows = EventStore().list("many")
    assert len(rows) == 100
    assert sorted(int(row["data"]["text"]) for row in rows) == list(range(100))


def test_many_processes_write_at_once(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    script = (
        "import sys\n"
        "from webtap.host.event_store import record_event\n"
        "for i in range(25):\n"
        "    record_event({'kind': 'k', 'content': f'{sys.argv[1]}-{i}'}, 'p', path=sys.argv[2])\n"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(n), str(path)], stderr=subprocess.PIPE)
        for n in range(8)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
    contents = {row["content"] for row in EventStore(path).list()}
    assert contents == {f"{n}-{i}" for n in range(8) for i in range(25)}


def test_a_file_that_is_not_sqlite_is_a_config_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my notes, not a database\n" * 200)
    with pytest.raises(ConfigError) as error:
        EventStore(path)
    assert error.value.message == (
        f"Cannot use {path} as the events store: it exists and is not a SQLite database. "
        "Set WEBTAP_DB to the path of a file webtap may create and write."
    )
    assert path.read_text() == "my notes, not a database\n" * 200  # left as it was


def test_an_event_of_megabytes_keeps_its_first_64_kib(tmp_path: Path) -> None:
    from webtap.host.event_store import MAX_EVENT_CONTENT

    path = tmp_path / "events.db"
    record_event({"kind": "k" * 1000, "content": "x" * 3_000_000, "data": {}}, "s", path=path)
    (row,) = EventStore(path).list("s")
    assert len(row["content"]) == MAX_EVENT_CONTENT
    assert row["content"].endswith("xx...")
    assert len(row["kind"]) == 200
