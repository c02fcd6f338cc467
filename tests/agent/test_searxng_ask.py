"""SearXNG behind the ask loop's web_search, in the library, the CLI and SQL; the order "Which
search" decides."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.fakes.anthropic import FakeAnthropic, message, text, tool_use
from tests.fakes.searxng import FakeSearxng

from webtap.agent import AskSettings, ask
from webtap.credentials import Keys

SEARXNG_RESULTS = {
    "query": "duckdb",
    "results": [
        {"url": f"https://site{n}.example/", "title": f"Result {n}", "content": f"About {n}"}
        for n in range(1, 9)
    ],
    "unresponsive_engines": [],
}


@pytest.fixture
def searxng(searxng: FakeSearxng) -> FakeSearxng:
    """The suite's fake SearXNG, answering eight results, its address in SEARXNG_URL."""
    return searxng.answer(SEARXNG_RESULTS)


def search_then_answer(api: FakeAnthropic) -> None:
    api.queue(
        message(tool_use("web_search", {"query": "duckdb"}), stop_reason="tool_use"),
        message(text("DuckDB is a database.")),
    )


def tool_result(api: FakeAnthropic) -> dict[str, Any]:
    (result,) = [b for b in api.bodies[1]["messages"][-1]["content"] if b["type"] == "tool_result"]
    return result


def test_searxng_alone_backs_web_search(anthropic_api: FakeAnthropic, searxng: Any) -> None:
    search_then_answer(anthropic_api)
    answer = ask("What is DuckDB?")
    assert answer.text == "DuckDB is a database."
    assert [t["name"] for t in anthropic_api.bodies[0]["tools"]] == ["web_search", "web_fetch"]
    (request, _) = searxng.log[0]
    assert (request.args["q"], request.args["format"]) == ("duckdb", "json")
    content = tool_result(anthropic_api)["content"]
    assert content.startswith("Search Results:\n\n1. Result 1\n   https://site1.example/\n")
    assert content.count("\n\n") == 5  # the spec's top 5


@pytest.mark.parametrize(
    ("configured", "expected"),
    [
        ({"brave", "searxng", "google"}, "brave"),
        ({"searxng", "google"}, "searxng"),
        ({"google"}, "google"),
        ({"brave", "google"}, "brave"),
        (set(), None),
    ],
)
def test_the_first_configured_provider_in_design_7s_order(
    monkeypatch: pytest.MonkeyPatch, configured: set[str], expected: str | None
) -> None:
    values = {
        "brave": {"BRAVE_API_KEY": "BSA-k"},
        "searxng": {"SEARXNG_URL": "http://127.0.0.1:8888"},
        "google": {"GOOGLE_SEARCH_API_KEY": "AIza-k", "GOOGLE_SEARCH_ENGINE_ID": "cx"},
    }
    for name in configured:
        for variable, value in values[name].items():
            monkeypatch.setenv(variable, value)
    from webtap.cli.search import default_provider

    assert Keys().resolve().search_provider() == expected
    assert default_provider() == (expected or "brave")


def test_a_chosen_provider_wins(
    anthropic_api: FakeAnthropic, searxng: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", "BSA-unused-key")
    search_then_answer(anthropic_api)
    ask("q", settings=AskSettings(search_provider="searxng"))
    assert len(searxng.log) == 1


def test_the_cli_provider_option(
    anthropic_api: FakeAnthropic, searxng: Any, run_exe: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", "BSA-unused-key")
    search_then_answer(anthropic_api)
    run = run_exe("webtap", "ask", "What is DuckDB?", "--provider", "searxng")
    assert run.returncode == 0, run.stderr
    assert "DuckDB is a database." in run.stdout
    assert len(searxng.log) == 1


def test_webtap_search_uses_searxng_when_it_is_the_one_set_up(searxng: Any, run_exe: Any) -> None:
    run = run_exe("webtap", "search", "duckdb", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["count"] == 8


def test_sql_chooses_searxng(anthropic_api: FakeAnthropic, searxng: Any) -> None:
    import duckdb

    import webtap.sql

    connection = duckdb.connect()
    functions = webtap.sql.register(connection, progress=False)
    try:
        one = lambda sql: connection.execute(sql).fetchone()[0]  # noqa: E731
        assert one("SELECT stps_get_search_provider()") == "searxng"
        assert one("SELECT stps_set_search_provider('searxng')") == "Search provider set to searxng"
        search_then_answer(anthropic_api)
        assert one("SELECT stps_ask_ai('databases', 'What is DuckDB?')") == "DuckDB is a database."
    finally:
        functions.close()
        connection.close()
    assert len(searxng.log) == 1


def test_sql_sets_the_searxng_address(
    anthropic_api: FakeAnthropic, provider_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import duckdb

    import webtap.sql

    instance = FakeSearxng(provider_server).answer(SEARXNG_RESULTS)  # not in SEARXNG_URL
    connection = duckdb.connect()
    functions = webtap.sql.register(connection, progress=False)
    try:
        one = lambda sql: connection.execute(sql).fetchone()[0]  # noqa: E731
        assert one("SELECT stps_get_search_provider()") == "none"
        url = instance.address()
        assert one(f"SELECT stps_set_searxng_url('{url}')") == "SearXNG URL set"
        assert one("SELECT stps_get_search_provider()") == "searxng"
        search_then_answer(anthropic_api)
        one("SELECT stps_ask_ai('databases', 'What is DuckDB?')")
    finally:
        functions.close()
        connection.close()
    assert len(instance.log) == 1
