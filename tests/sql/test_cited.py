"""stps_ask_ai_cited (issue 28): the answer and its checked citations as a STRUCT, concurrent and
cached like stps_ask_ai, every failure a value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.anthropic import (
    API_KEY,
    FakeAnthropic,
    Reply,
    cited,
    message,
    search_results,
    text,
    tool_use,
)

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

PAGE = "<html><head><title>Town</title></head><body><p>{} has 5,120 residents.</p></body></html>"


@pytest.fixture
def town(httpserver: Any, allow_private: None) -> str:
    for name in ("alpha", "beta", "gamma"):
        httpserver.expect_request(f"/{name}").respond_with_data(
            PAGE.format(name.title()), content_type="text/html"
        )
    return f"http://127.0.0.1:{httpserver.port}"


def citing(town: str, forged: set[str] = frozenset()) -> Any:  # type: ignore[assignment]
    """A model that fetches the page its context names, then cites it (a forged quote for the
    contexts in ``forged``)."""

    def respond(body: dict[str, Any]) -> Reply:
        name = body["messages"][0]["content"].split("\n")[0].removeprefix("Context: ")
        if len(body["messages"]) == 1:
            use = tool_use("web_fetch", {"url": f"{town}/{name}"})
            return message(use, stop_reason="tool_use")
        block = cited(body, f"{name} is small.", 0)
        if name in forged:
            block["citations"][0]["cited_text"] = f"{name.title()} has 9,999 residents."
        return message(block)

    return respond


def test_each_row_is_a_struct_of_the_answer_and_its_citations(
    con: Any, anthropic_api: FakeAnthropic, town: str
) -> None:
    anthropic_api.responder = citing(town, forged={"gamma"})
    rows = con.execute(
        "SELECT c, r.answer, r.citations FROM (SELECT c, stps_ask_ai_cited(c, 'How big?') AS r"
        " FROM (VALUES ('alpha'), ('beta'), ('gamma')) t(c)) ORDER BY c"
    ).fetchall()

    assert [row[1] for row in rows] == ["alpha is small.", "beta is small.", "gamma is small."]
    for name, _, citations in rows:
        (citation,) = citations
        assert citation["url"] == f"{town}/{name}"
        assert citation["title"] == "Town"
        assert citation["verified"] is (name != "gamma")
    assert rows[2][2][0]["quote"] == "Gamma has 9,999 residents."
    assert rows[0][2][0]["quote"] == "Alpha has 5,120 residents."
    assert anthropic_api.violations == []
    # The documents went as citable blocks in every row's second call.
    assert all(search_results(b) for b in anthropic_api.bodies if len(b["messages"]) > 1)


def test_the_struct_type_is_the_issues(con: Any, anthropic_api: FakeAnthropic) -> None:
    kind = con.one("SELECT typeof(stps_ask_ai_cited('c', 'q'))").replace(
        '"', ""
    )  # quote is a keyword
    assert kind == (
        "STRUCT(answer VARCHAR, citations STRUCT(url VARCHAR, title VARCHAR, quote VARCHAR, "
        "verified BOOLEAN)[])"
    )


def test_an_answer_without_sources_has_no_citations(con: Any, anthropic_api: FakeAnthropic) -> None:
    anthropic_api.responder = lambda body: message(text("From memory."))
    assert con.one("SELECT stps_ask_ai_cited('c', 'q')") == {
        "answer": "From memory.",
        "citations": [],
    }


def test_null_in_null_out_and_a_failure_is_a_value(
    con: Any, anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert con.one("SELECT stps_ask_ai_cited(NULL, 'q')") is None
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-wrong-0000000000")
    failed = con.one("SELECT stps_ask_ai_cited('c', 'q')")
    assert failed["answer"].startswith("ERROR: ")
    assert failed["citations"] == []
    assert "sk-ant-wrong" not in json.dumps(failed)


def test_cited_answers_are_cached_apart_from_plain_ones(
    con: Any, anthropic_api: FakeAnthropic, town: str, tmp_path: Path
) -> None:
    anthropic_api.responder = citing(town)
    con.execute(f"SELECT stps_set_cache('{tmp_path / 'answers.db'}')")
    first = con.one("SELECT stps_ask_ai_cited('alpha', 'q')")
    calls = len(anthropic_api.requests)
    again = con.one("SELECT stps_ask_ai_cited('alpha', 'q')")
    assert again == first
    assert len(anthropic_api.requests) == calls  # the cache answered
    con.one("SELECT stps_ask_ai('alpha', 'q')")
    assert len(anthropic_api.requests) > calls  # a plain answer is not a cited one
    assert API_KEY not in (tmp_path / "answers.db").read_bytes().decode("latin-1")


def test_through_webtap_sql(run_exe: Any, anthropic_api: FakeAnthropic, town: str) -> None:
    anthropic_api.responder = citing(town, forged={"beta"})
    query = (
        "SELECT c, r.answer, r.citations[1].quote AS quote, r.citations[1].verified AS ok"
        " FROM (SELECT c, stps_ask_ai_cited(c, 'q') AS r FROM (VALUES ('alpha'), ('beta')) t(c))"
        " ORDER BY c"
    )
    run = run_exe("webtap", "sql", "--json", query)

    assert run.returncode == 0, run.stderr
    assert run.json == [
        {
            "c": "alpha",
            "answer": "alpha is small.",
            "quote": "Alpha has 5,120 residents.",
            "ok": True,
        },
        {
            "c": "beta",
            "answer": "beta is small.",
            "quote": "Beta has 9,999 residents.",
            "ok": False,
        },
    ]
