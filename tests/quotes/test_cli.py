"""``webtap verify``: the real executable, on a file's text, on JSON lines, and on a page served
on 127.0.0.1 (read as web_fetch gives it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.site import Site

from webtap.convert import convert

PAGE = """<html><head><title>Harbour</title></head><body>
<nav><a href="/a">Home</a> <a href="/b">News</a></nav>
<main><article><h1>The harbour at dawn</h1>
<p>The tide came in <b>slowly</b>, and the harbour, quiet all morning, filled with boats.</p>
<p>It didn’t freeze in 1963; the water fell to −5 °C and the gulls stayed away.</p>
</article></main></body></html>"""


@pytest.fixture
def site() -> Iterator[Site]:
    with Site.running() as server:
        yield server


@pytest.fixture
def verify(run_exe: Any) -> Any:
    def run(*args: str, stdin: Any = b"", env: dict[str, str] | None = None) -> Any:
        result = run_exe("webtap", "verify", *args, stdin=stdin, env=env, timeout=60)
        assert "Traceback" not in result.stderr
        return result

    return run


@pytest.fixture
def page_text(tmp_path: Path) -> Path:
    path = tmp_path / "page.md"
    path.write_text("The tide came in slowly, and the harbour filled with boats in 1963.\n")
    return path


def test_a_verified_quote_is_shown_where_it_stands(verify: Any, page_text: Path) -> None:
    result = verify("--text", str(page_text), "the harbour filled with boats")
    assert result.returncode == 0
    assert result.stdout == (
        "✓ verified: characters 29–58 of the text\n"
        "  The tide came in slowly, and »the harbour filled with boats« in 1963.\n"
    )


def test_a_refused_quote_shows_the_nearest_passage_and_what_differs(
    verify: Any, page_text: Path
) -> None:
    result = verify("--text", str(page_text), "the harbour filled with boats in 1964")
    assert result.returncode == 1
    assert result.stdout == (
        "✗ not verified (score 0.86)\n"
        "  nearest passage: the harbour filled with boats in 1963\n"
        "  what differs:\n"
        "  - “1964” where the text has “1963” (a number)\n"
    )


def test_text_from_stdin(verify: Any) -> None:
    result = verify("--text", "-", "came in slowly", stdin="The tide came in slowly.")
    assert (result.returncode, result.stdout.splitlines()[0]) == (
        0,
        "✓ verified: characters 9–23 of the text",
    )


def test_what_cannot_be_checked_is_one_line_and_status_2(verify: Any, tmp_path: Path) -> None:
    empty = tmp_path / "empty.md"
    empty.write_text("")
    result = verify("--text", str(empty), "anything")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "webtap: the text to look in is empty; give the page's text [INVALID_INPUT]\n"
    )
    result = verify("--text", str(tmp_path / "missing.md"), "anything")
    assert result.returncode == 2 and "cannot read" in result.stderr
    result = verify("--text", "-", "…", stdin="some text")
    assert result.returncode == 2 and "has no words to look for" in result.stderr
    assert verify("only-a-url").returncode == 2
    assert verify("--jsonl", "extra").returncode == 2


def test_jsonl_answers_each_line_in_order(verify: Any) -> None:
    lines = [
        {"text": "The tide came in.", "quotes": ["the tide came in.", "The tide went out", ""]},
        "not json",
        {"text": "", "quotes": ["a"]},
        {"quotes": ["a"]},
        {"text": "Boats, boats.", "quotes": []},
    ]
    stdin = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    result = verify("--jsonl", stdin=stdin.encode() + b"\xff\xfe\n")
    assert result.returncode == 0
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 6
    assert answers[0]["results"][0] == {
        "verified": True,
        "start": 0,
        "end": 16,
        "exact": "The tide came in",
        "score": 1.0,
    }
    assert answers[0]["results"][1]["verified"] is False
    assert answers[0]["results"][1]["exact"] is None
    assert answers[0]["results"][2]["error"] == "the quote is empty; give the words to look for"
    assert answers[1]["error"].startswith("not JSON")
    assert answers[2] == {"error": "the text to look in is empty; give the page's text"}
    assert answers[3] == {"error": 'give either "text" or "url", not both and not neither'}
    assert answers[4] == {"results": []}
    assert answers[5]["error"].startswith("not UTF-8")


def test_a_url_is_checked_against_what_web_fetch_gives(
    verify: Any, site: Site, allow_private: None, run_exe: Any
) -> None:
    url = site.page("/harbour", PAGE)
    markdown = convert(PAGE, base_url=url, main_content=True).markdown
    assert "Home" not in markdown  # the main content, as a model is given it
    result = verify(url, "It didn't freeze in 1963; the water fell to -5 °C")
    assert result.returncode == 0
    assert "»It didn’t freeze in 1963; the water fell to −5 °C«" in result.stdout
    assert verify(url, "It did freeze in 1963").returncode == 1
    assert verify(url, "Home News").returncode == 1  # the menu is not what the model read
    stdin = json.dumps({"url": url, "quotes": ["filled with boats", "filled with cars"]}) + "\n"
    [answer] = [json.loads(line) for line in verify("--jsonl", stdin=stdin).stdout.splitlines()]
    first, second = answer["results"]
    assert markdown[first["start"] : first["end"]] == first["exact"] == "filled with boats"
    assert second["verified"] is False


def test_a_url_that_cannot_be_read(verify: Any, site: Site) -> None:
    url = site.page("/harbour", PAGE)  # private networks not allowed: the guard refuses it
    result = verify(url, "filled with boats")
    assert result.returncode == 2 and "[URL_NOT_ALLOWED]" in result.stderr
    stdin = json.dumps({"url": url, "quotes": ["x"]}) + "\n"
    [answer] = [json.loads(line) for line in verify("--jsonl", stdin=stdin).stdout.splitlines()]
    assert "WEBTAP_ALLOW_PRIVATE_NETWORKS" in answer["error"]


def test_a_url_with_a_snapshot_is_checked_against_what_the_model_was_given(
    run_exe: Any, isolated_env: Any
) -> None:
    from webtap.snapshots import Snapshots

    url = "https://snapshot.example/report"  # never fetched: its snapshot answers
    store = Snapshots()
    store.take(url, "Report", "The ferry carried 41,300 passengers in 2025.")
    store.close()
    line = json.dumps({"url": url, "quotes": ["carried 41,300 passengers", "carried 41,000"]})

    run = run_exe("webtap", "verify", "--jsonl", stdin=line + "\n")

    assert run.returncode == 0, run.stderr
    first, second = json.loads(run.stdout)["results"]
    assert first["verified"] is True and first["exact"] == "carried 41,300 passengers"
    assert second["verified"] is False
