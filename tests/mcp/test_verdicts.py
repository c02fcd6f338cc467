"""What a fetch says it got, through webtap's MCP server (issues 22, 32): each verdict a tool
error whose text is the spec's message, the advice, and the code, with the spec's message
exact and the advice's fields beside it in the structured content; a paywall's teaser a
result with a note; robots.txt obeyed, as for any URL a model chose; a page that only talks
about walls plain content.

The server's handlers run in process, through the SDK's in-memory client (no process boundary
is under test here); the pages are tests/fakes/walls.py's, on the fake site.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.fakes.site import Site
from tests.fakes.walls import FALSE_POSITIVES, HTML, PAYWALL, VERDICTS, serve

from webtap.errors import explain

pytestmark = pytest.mark.anyio


@pytest.fixture
def site() -> Iterator[Site]:
    with Site.running() as server:
        yield server


async def test_each_verdict_is_an_error_that_says_what_would_help(
    site: Site, mcp_memory: Any
) -> None:
    urls = [serve(site, case) for case in VERDICTS]
    async with mcp_memory() as session:
        results = [await session.call("web_fetch", {"url": url}) for url in urls]
    for case, result in zip(VERDICTS, results, strict=True):
        assert result.is_error, case.name
        [text] = [block.text for block in result.content]
        answer = result.structured_content
        # MCP's text is webtap's own: the spec's error, then the advice.
        assert text == f"{explain(answer['error'], answer['advice'])} [{case.code}]"
        assert text.endswith(f"{answer['advice']} [{case.code}]")
        assert answer["error"].startswith(case.message), case.name
        assert answer["error_code"] == case.code
        assert (answer["retryable"], answer["retry_with"]) == (case.retryable, case.retry_with)
        assert answer.get("verdict") == case.verdict
    assert results[0].structured_content["vendor"] == "Cloudflare"


async def test_a_paywall_is_a_result_with_a_note(site: Site, mcp_memory: Any) -> None:
    url = site.route("/rates", PAYWALL, headers=HTML)
    async with mcp_memory() as session:
        result = await session.call("web_fetch", {"url": url})
    assert not result.is_error
    assert result.structured_content["verdict"] == "paywall"
    assert "The central bank raised its main rate" in result.structured_content["content"]
    notes = [block.text for block in result.content[1:]]
    assert (
        "[Only the teaser of a paywalled article came back. The rest of the article needs a "
        "subscription.]"
    ) in notes


async def test_robots_txt_is_obeyed_for_the_models_url(site: Site, mcp_memory: Any) -> None:
    site.route("/robots.txt", "User-agent: *\nDisallow: /private/\n")
    refused = site.route("/private/a", "<p>secret</p>", headers=HTML)
    path, page = FALSE_POSITIVES["a recipe with a cookie banner"]
    allowed = site.route(path, page, headers=HTML)
    async with mcp_memory() as session:
        first = await session.call("web_fetch", {"url": refused})
        content = await session.call("web_fetch", {"url": allowed})
        again = await session.call("web_fetch", {"url": refused})
    assert first.is_error and first.structured_content["error_code"] == "ROBOTS_DISALLOWED"
    assert first.content[0].text.endswith(
        "the rule 'Disallow: /private/' in the group 'User-agent: *'. Do not retry it: tell the "
        "user, who can fetch it themselves, or use another source. [ROBOTS_DISALLOWED]"
    )
    assert again.structured_content == first.structured_content
    assert not content.is_error and content.structured_content["title"] == "Chocolate chip cookies"
    assert site.robots_reads() == 1  # one read for the server's whole session
    assert site.paths() == [path]
