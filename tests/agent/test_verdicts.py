"""What a fetch says it got, as the model reads it in the ask loop and through SQL (issue 22):
each verdict's message (the advice in it) and code in an error result; a paywall's teaser with
its mark; robots.txt obeyed; a URL refused for good answered again from memory within the
question, without another request (the "14 identical retries").

A fake Anthropic API that calls web_fetch; the pages are tests/fakes/walls.py's, on the fake
site (tests/fakes/site.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from tests.fakes.anthropic import FakeAnthropic, message, text, tool_use
from tests.fakes.site import Site
from tests.fakes.walls import HTML, PAYWALL, VERDICTS, serve

from webtap.agent import ask

pytestmark = [
    pytest.mark.usefixtures("allow_private"),
    pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning"),
]

AGAIN = "This URL was refused earlier in this conversation; it was not fetched again."


@pytest.fixture
def site() -> Iterator[Site]:
    with Site.running() as server:
        yield server


def results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in body["messages"][-1]["content"] if b["type"] == "tool_result"]


def fetches(*urls: str) -> Any:
    return message(*(tool_use("web_fetch", {"url": url}) for url in urls), stop_reason="tool_use")


def test_the_model_reads_each_verdicts_code_message_and_advice(
    site: Site, anthropic_api: FakeAnthropic
) -> None:
    urls = [serve(site, case) for case in VERDICTS]
    anthropic_api.queue(fetches(*urls), message(text("none of them could be read")))
    answer = ask("What do these say?", max_tool_calls=len(urls))
    assert answer.text == "none of them could be read"
    for case, result in zip(VERDICTS, results(anthropic_api.bodies[1]), strict=True):
        assert result["is_error"] is True, case.name
        said = result["content"]
        assert said.startswith(f"Fetch failed: {case.message}"), said
        assert said.endswith(f"({case.code})")
    assert anthropic_api.violations == []


def test_the_model_reads_a_paywalls_mark(site: Site, anthropic_api: FakeAnthropic) -> None:
    url = site.route("/rates", PAYWALL, headers=HTML)
    anthropic_api.queue(fetches(url), message(text("rates rose")))
    assert ask("Rates?").text == "rates rose"
    [result] = results(anthropic_api.bodies[1])
    assert "is_error" not in result
    page = json.loads(result["content"])
    assert page["verdict"] == "paywall"
    assert page["notice"].startswith("Only the teaser of a paywalled article came back.")


def test_a_url_refused_for_good_is_not_fetched_again_in_the_same_question(
    site: Site, anthropic_api: FakeAnthropic
) -> None:
    blocked = serve(site, VERDICTS[0])
    site.route("/robots.txt", "User-agent: *\nDisallow: /private/\n")
    private = site.route("/private/x", "<p>x</p>", headers=HTML)
    login = serve(site, VERDICTS[2])
    anthropic_api.queue(
        fetches(blocked, private, login),
        fetches(blocked, private, login),
        message(text("gave up")),
    )
    answer = ask("q", max_tool_calls=6)
    assert answer.text == "gave up"
    first, second = results(anthropic_api.bodies[1]), results(anthropic_api.bodies[2])
    for before, after in zip(first[:2], second[:2], strict=True):
        assert after["is_error"] is True
        assert after["content"] == f"{before['content']} {AGAIN}"
        assert AGAIN not in before["content"]
    assert AGAIN not in second[2]["content"]  # a login wall is asked again (it may open)
    # The bot wall was asked once, robots.txt read once, the login page twice.
    assert site.paths() == ["/news", "/session", "/session"]
    assert site.robots_reads() == 1
    assert len(answer.tool_results) == 6  # the remembered answers count as calls


def test_sql_hears_the_verdict_through_the_ask_loop(
    site: Site, anthropic_api: FakeAnthropic
) -> None:
    import duckdb

    import webtap.sql

    blocked = serve(site, VERDICTS[0])
    anthropic_api.queue(fetches(blocked), message(text("the site blocks bots")))
    connection = duckdb.connect()
    functions = webtap.sql.register(connection, progress=False)
    try:
        connection.execute("SELECT stps_set_max_tool_calls(1)")
        [(value,)] = connection.execute("SELECT stps_ask_ai('a page', 'what is it?')").fetchall()
    finally:
        functions.close()
        connection.close()
    assert value == "the site blocks bots"
    [result] = results(anthropic_api.bodies[1])
    assert result["is_error"] is True
    assert result["content"].startswith("Fetch failed: Blocked: Cloudflare's bot protection")
    assert result["content"].endswith("(BLOCKED)")
