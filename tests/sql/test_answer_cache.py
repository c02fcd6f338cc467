"""The answer cache answers a question only when everything that shapes the answer matches,
keeps no key, and lives on the store's named migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.anthropic import API_KEY, FakeAnthropic

DEFAULT = "claude-sonnet-5-5"
BRAVE_KEY = "BSA-answer-cache-test-key-0042"


def tools(body: dict[str, Any]) -> list[str]:
    return [tool["name"] for tool in body.get("tools", [])]


CHANGES = {
    # name: (SQL run between the two questions, the tools the second request must offer)
    "search turned on": (f"SELECT stps_set_brave_api_key('{BRAVE_KEY}')", ["web_search"]),
    "another tool-call limit": ("SELECT stps_set_max_tool_calls(3)", ["web_fetch"]),
    "both": (
        f"SELECT stps_set_brave_api_key('{BRAVE_KEY}'), stps_set_max_tool_calls(3)",
        ["web_search", "web_fetch"],
    ),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_an_answer_made_without_search_is_not_served_with_search(
    con: Any, anthropic_api: FakeAnthropic, tmp_path: Path, change: str
) -> None:
    """Issue 12, break 1: the cache key must hold the search provider and the tool-call limit."""
    setting, offered = CHANGES[change]
    con.execute(f"SELECT stps_set_cache('{tmp_path / 'answers.sqlite'}')")
    assert con.one("SELECT stps_get_search_provider()") == "none"

    first = con.one("SELECT stps_ask_ai('c', 'q')")
    con.execute(setting)
    second = con.one("SELECT stps_ask_ai('c', 'q')")
    third = con.one("SELECT stps_ask_ai('c', 'q')")

    assert not first.startswith("ERROR") and second == third == first
    # The second question was asked of the model, with the tools it now has...
    assert len(anthropic_api.requests) == 2
    assert "web_search" not in tools(anthropic_api.bodies[0])
    assert all(name in tools(anthropic_api.bodies[1]) for name in offered)
    # ...and the third, identical to it, came from the cache.
    assert len(con.functions.cache) == 2


def test_search_turned_on_within_one_transaction_asks_again(
    con: Any, anthropic_api: FakeAnthropic
) -> None:
    """Identical rows are asked once per query (a transaction): the provider is part of what
    makes them identical."""
    con.execute("BEGIN")
    con.one("SELECT stps_ask_ai('c', 'q')")
    con.execute(f"SELECT stps_set_brave_api_key('{BRAVE_KEY}')")
    con.one("SELECT stps_ask_ai('c', 'q')")
    con.execute("COMMIT")

    assert [tools(body) for body in anthropic_api.bodies] == [
        ["web_fetch"],
        ["web_search", "web_fetch"],
    ]


def test_webtap_sql_runs_with_and_without_search_share_no_answer(
    run_exe: Any, anthropic_api: FakeAnthropic, tmp_path: Path
) -> None:
    cache = str(tmp_path / "answers.sqlite")
    query = "SELECT stps_ask_ai('c', 'q') AS answer"

    plain = run_exe("webtap", "sql", "--csv", "--cache", cache, query)
    searching = run_exe(
        "webtap", "sql", "--csv", "--cache", cache, query, env={"BRAVE_API_KEY": BRAVE_KEY}
    )
    again = run_exe("webtap", "sql", "--csv", "--cache", cache, query)

    assert (plain.returncode, searching.returncode, again.returncode) == (0, 0, 0)
    assert [tools(body) for body in anthropic_api.bodies] == [
        ["web_fetch"],
        ["web_search", "web_fetch"],
    ]  # the third run came from the cache


def test_the_cache_file_holds_no_key(
    con: Any, anthropic_api: FakeAnthropic, tmp_path: Path
) -> None:
    path = tmp_path / "answers.sqlite"
    con.execute(f"SELECT stps_set_cache('{path}'), stps_set_brave_api_key('{BRAVE_KEY}')")

    # The model echoes the context, and this context holds a key.
    answer = con.one(f"SELECT stps_ask_ai('the key is {BRAVE_KEY}', 'q')")
    con.execute("SELECT stps_set_cache(NULL)")  # closed: everything is in the file

    assert BRAVE_KEY not in answer and "the key is ***" in answer
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"the key is ***" in stored
    for key in (BRAVE_KEY, API_KEY):
        assert key.encode() not in stored


def test_the_cache_is_migrated_like_the_store(con: Any, tmp_path: Path) -> None:
    from webtap.sql.cache import MIGRATIONS

    path = tmp_path / "answers.sqlite"
    con.execute(f"SELECT stps_set_cache('{path}')")
    con.execute("SELECT stps_set_cache(NULL)")

    with sqlite3.connect(path) as db:
        applied = [name for (name,) in db.execute("SELECT name FROM _migrations ORDER BY name")]
    assert applied == [name for name, _ in MIGRATIONS] == ["m001_answers"]


def test_a_cache_file_from_before_migrations_still_answers(
    con: Any, anthropic_api: FakeAnthropic, tmp_path: Path
) -> None:
    from webtap.sql import AnswerCache

    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:  # the file as earlier versions wrote it
        db.execute(
            "CREATE TABLE answers (key TEXT PRIMARY KEY, model TEXT NOT NULL,"
            " answer TEXT NOT NULL, created_at REAL NOT NULL)"
        )
        key = AnswerCache.key(DEFAULT, 1000, "c", "q", "none", 1)
        db.execute("INSERT INTO answers VALUES (?, ?, 'kept from before', 0)", (key, DEFAULT))
    db.close()

    assert con.one(f"SELECT stps_set_cache('{path}')").endswith("(1 answers)")
    assert con.one("SELECT stps_ask_ai('c', 'q')") == "kept from before"
    assert anthropic_api.requests == []
