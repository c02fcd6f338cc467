"""Answers that cite what they read (issue 28): pages and search results go to the Messages API
as ``search_result`` blocks, the API's citations come back as citations, each quote checked
against the snapshot of exactly what the model was given."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.anthropic import FakeAnthropic, cited, message, search_results, text, tool_use
from tests.fakes.brave import FakeBrave

from webtap.agent import ask
from webtap.snapshots import Snapshots, blocks, digest

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

PAGE = """<html><head><title>Harbour report</title></head><body><main>
<h1>The harbour in 2025</h1>
<p>The ferry carried 41,300 passengers in 2025, up from 38,900 the year before.</p>
<p>The new pier did not open in spring; it opened in September.</p>
<ul><li>Boats: 7</li><li>Crew: 52</li></ul>
</main></body></html>"""


@pytest.fixture
def page_url(httpserver: Any, allow_private: None) -> str:
    httpserver.expect_request("/harbour").respond_with_data(PAGE, content_type="text/html")
    return f"http://127.0.0.1:{httpserver.port}/harbour"


def fetch_then(anthropic_api: FakeAnthropic, url: str, *answer: Any) -> None:
    """The model fetches ``url``, then answers with the blocks ``answer(body)`` makes."""
    anthropic_api.queue(
        message(tool_use("web_fetch", {"url": url}), stop_reason="tool_use"),
        lambda body: message(*(part(body) if callable(part) else part for part in answer)),
    )


def test_a_fetched_page_goes_as_citable_blocks_and_its_citation_is_verified(
    anthropic_api: FakeAnthropic, page_url: str
) -> None:
    fetch_then(
        anthropic_api,
        page_url,
        text("Ridership grew: "),
        lambda body: cited(body, "41,300 passengers rode in 2025.", 0, 1),
    )

    answer = ask("How many passengers?", citations=True)

    sent = search_results(anthropic_api.bodies[1])
    assert [result["source"] for result in sent] == [page_url]
    assert sent[0]["title"] == "Harbour report"
    assert sent[0]["citations"] == {"enabled": True}
    parts = [part["text"] for part in sent[0]["content"]]
    assert parts[0] == "# The harbour in 2025"
    assert parts[1].startswith("The ferry carried 41,300 passengers")
    assert "- Boats: 7" in parts and "- Crew: 52" in parts  # a list item is a block of its own
    (citation,) = answer.citations
    assert citation.verified is True
    assert citation.url == page_url
    assert citation.title == "Harbour report"
    assert citation.quote == parts[1]
    snapshot = Snapshots().get(citation.snapshot)
    assert snapshot is not None
    assert snapshot.text[citation.start : citation.end] == parts[1]
    assert citation.snapshot == hashlib.sha256(snapshot.text.encode()).hexdigest()
    assert answer.text[citation.answer_start : citation.answer_end] == (
        "41,300 passengers rode in 2025."
    )
    assert anthropic_api.violations == []


def test_the_note_beside_a_page_says_where_it_goes_on(
    anthropic_api: FakeAnthropic, page_url: str
) -> None:
    fetch_then(anthropic_api, page_url, text("ok"))
    ask("q", citations=True)
    (result,) = anthropic_api.bodies[1]["messages"][-1]["content"]
    note = json.loads(result["content"][-1]["text"])
    assert note["url"] == page_url
    assert note["total_lines"] >= 4
    assert "content" not in note


def test_a_citation_whose_quote_is_not_in_the_snapshot_is_kept_and_marked(
    anthropic_api: FakeAnthropic, page_url: str
) -> None:
    def forged(body: dict[str, Any]) -> dict[str, Any]:
        block = cited(body, "It opened in spring.", 0, 2)
        block["citations"][0]["cited_text"] = "The new pier opened in spring."
        return block

    fetch_then(anthropic_api, page_url, forged)

    (citation,) = ask("When did the pier open?", citations=True).citations
    assert citation.verified is False
    assert citation.quote == "The new pier opened in spring."
    assert (citation.start, citation.end) == (None, None)


def test_a_search_cites_its_results(
    anthropic_api: FakeAnthropic, brave: FakeBrave, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", FakeBrave.KEY)
    brave.answer()
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "duckdb"}), stop_reason="tool_use"),
        lambda body: message(cited(body, "DuckDB is in-process.", 1)),
    )

    answer = ask("What is DuckDB?", citations=True)

    sent = search_results(anthropic_api.bodies[1])
    assert 1 < len(sent) <= 5
    (citation,) = answer.citations
    assert citation.url == sent[1]["source"]
    assert citation.verified is True
    assert citation.quote == sent[1]["content"][0]["text"]


def test_without_citations_the_tool_results_are_the_specs_text(
    anthropic_api: FakeAnthropic, page_url: str
) -> None:
    fetch_then(anthropic_api, page_url, text("41,300."))
    answer = ask("q")
    (result,) = anthropic_api.bodies[1]["messages"][-1]["content"]
    assert isinstance(result["content"], str)
    assert json.loads(result["content"])["title"] == "Harbour report"
    assert answer.citations == ()


def test_what_a_question_read_is_kept_as_a_snapshot_named_by_its_hash(
    anthropic_api: FakeAnthropic, page_url: str
) -> None:
    fetch_then(anthropic_api, page_url, text("ok"))
    ask("q", citations=True)
    latest = Snapshots().latest(page_url)
    assert latest is not None
    assert latest.hash == digest(latest.text)
    assert "41,300 passengers" in latest.text
    assert latest.title == "Harbour report"


def test_a_snapshot_is_never_rewritten(tmp_path: Path) -> None:
    store = Snapshots()
    first = store.take("https://a.example/", "A", "one text")
    again = store.take("https://a.example/", "A again", "one text")
    changed = store.take("https://a.example/", "A", "another text")
    assert again == first
    assert changed.hash != first.hash
    assert Snapshots().get(first.hash) == first
    assert Snapshots().latest("https://a.example/") == changed


def test_with_the_caches_off_snapshots_stay_in_the_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEBTAP_CACHE", "off")
    store = Snapshots()
    kept = store.take("https://a.example/", "A", "private text")
    assert store.get(kept.hash) == kept
    assert Snapshots().get(kept.hash) is None


def test_no_key_reaches_a_snapshot_or_a_citation(
    anthropic_api: FakeAnthropic, page_url: str, tmp_path: Path
) -> None:
    fetch_then(anthropic_api, page_url, lambda body: cited(body, "41,300.", 0, 1))
    answer = ask("q", citations=True)
    from tests.fakes.anthropic import API_KEY

    assert API_KEY not in json.dumps(answer.to_dict())
    store = Snapshots()
    snapshot = store.get(answer.citations[0].snapshot)
    assert snapshot is not None and API_KEY not in "".join(snapshot)


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("one line\nstill one\n\nnext", ["one line\nstill one", "next"]),
        ("# Title\ntext", ["# Title", "text"]),
        ("- a\n- b\n\n1. c", ["- a", "- b", "1. c"]),
        ("| x | y |\n| 1 | 2 |", ["| x | y |", "| 1 | 2 |"]),
        ("  indented  \n\n\n", ["indented"]),
        ("", []),
    ],
)
def test_blocks_are_paragraphs_list_items_table_rows_and_headings(
    markdown: str, expected: list[str]
) -> None:
    assert [markdown[a:b] for a, b in blocks(markdown)] == expected


def test_the_snapshot_file_is_the_page_caches(tmp_path: Path) -> None:
    Snapshots().take("https://a.example/", "A", "kept")
    from webtap.cache import cache_dir

    with sqlite3.connect(cache_dir() / "pages.sqlite3") as db:
        (count,) = db.execute("SELECT COUNT(*) FROM snapshots").fetchone()
    assert count == 1
