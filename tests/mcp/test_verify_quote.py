"""MCP's ``verify_quote``: a quote checked against a page as web_fetch reads it, read-only."""

from __future__ import annotations

from typing import Any

import pytest

from webtap.convert import convert

pytestmark = pytest.mark.anyio

PAGE = """<html><head><title>Harbour</title></head><body><main><article>
<h1>The harbour at dawn</h1>
<p>The tide came in <b>slowly</b>, and the harbour, quiet all morning, filled with boats.</p>
<p>It didn’t freeze in 1963, and the gulls stayed away.</p></article></main></body></html>"""


async def test_a_quote_is_verified_or_refused_with_what_differs(
    local_server: Any, mcp_memory: Any
) -> None:
    local_server.routes["/harbour"] = lambda h: h.reply(PAGE)
    url = local_server.url("/harbour")
    markdown = convert(PAGE, base_url=url, main_content=True).markdown
    async with mcp_memory() as session:
        good = await session.call("verify_quote", {"url": url, "quote": "the tide came in slowly."})
        bad = await session.call("verify_quote", {"url": url, "quote": "It did freeze in 1963"})
        empty = await session.call("verify_quote", {"url": url, "quote": ""})
    assert not good.is_error
    result = good.structured_content
    assert result == {
        "verified": True,
        "start": result["start"],
        "end": result["end"],
        "exact": "The tide came in **slowly",
        "score": 1.0,
    }
    assert markdown[result["start"] : result["end"]] == result["exact"]
    assert good.content[0].text.startswith('{"verified": true')
    assert not bad.is_error and bad.structured_content["verified"] is False
    assert bad.structured_content["nearest"] == "It didn’t freeze in 1963"
    assert bad.structured_content["differences"] == [
        "“did” where the text has “didn't” (a negation)"
    ]
    assert empty.is_error and "quote is empty" in empty.content[0].text


async def test_it_is_listed_read_only(mcp_memory: Any) -> None:
    async with mcp_memory(only=["verify_quote"]) as session:
        [tool] = (await session.client.list_tools()).tools
    assert tool.name == "verify_quote" and tool.title == "Check a quote"
    assert tool.input_schema["required"] == ["url", "quote"]
    hints = tool.annotations
    assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (
        True,
        False,
        True,
    )


async def test_a_page_that_cannot_be_read_is_an_error_result(
    mcp_memory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with mcp_memory() as session:
        result = await session.call("verify_quote", {"url": "ftp://example.com/", "quote": "x"})
    assert result.is_error
    assert result.structured_content["error_code"] == "INVALID_URL"
