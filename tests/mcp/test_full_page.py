"""MCP's ``full_page``: the one argument webtap's MCP schema adds to the spec's (decision: Main
content)."""

from __future__ import annotations

from typing import Any

import pytest

from webtap.convert import convert

pytestmark = pytest.mark.anyio

STORY = "".join(
    f"<p>Paragraph {n}: the tide came in slowly, and the harbour, quiet all morning, filled "
    "with boats, gulls and the smell of salt.</p>"
    for n in range(8)
)
NAV = "".join(f'<li><a href="/section/{n}">Section {n}</a></li>' for n in range(12))
PAGE = f"""<html><head><title>Harbour</title></head><body>
<header><nav><ul>{NAV}</ul></nav></header>
<main><article><h1>The harbour at dawn</h1>{STORY}</article></main>
<footer class="site-footer"><p>Copyright 2026 Harbour News. All rights reserved.</p></footer>
</body></html>"""


def serve(local_server: Any) -> str:
    local_server.routes["/story"] = lambda h: h.reply(PAGE)
    return local_server.url("/story")


def whole(url: str) -> str:
    return convert(PAGE, base_url=url).markdown


def main(url: str) -> str:
    document = convert(PAGE, base_url=url, main_content=True)
    assert document.trimmed
    return document.markdown


async def test_full_page_gives_the_whole_page(local_server: Any, mcp_memory: Any) -> None:
    url = serve(local_server)
    async with mcp_memory() as session:
        trimmed = await session.call("web_fetch", {"url": url})
        full = await session.call("web_fetch", {"url": url, "full_page": True})
        unasked = await session.call("web_fetch", {"url": url, "full_page": False})
        bad = await session.call("web_fetch", {"url": url, "full_page": "yes"})
    assert trimmed.structured_content["content"] == main(url)
    assert trimmed.structured_content["content_mode"] == "main"
    assert trimmed.content[-1].text == (
        "[main content only; call again with full_page=true for the whole page]"
    )
    assert full.structured_content["content"] == whole(url)
    assert "content_mode" not in full.structured_content
    assert len(full.content) == 1
    assert unasked.structured_content["content"] == main(url)
    assert bad.is_error and "full_page" in bad.content[0].text


async def test_full_page_is_listed_beside_the_spec_s_arguments(mcp_memory: Any) -> None:
    async with mcp_memory() as session:
        listed = {tool.name: tool for tool in (await session.client.list_tools()).tools}
    properties = listed["web_fetch"].input_schema["properties"]
    assert properties["full_page"]["type"] == "boolean"
    assert set(properties) == {"url", "offset", "limit", "full_page", "render"}
    assert listed["web_fetch"].input_schema["required"] == ["url"]


async def test_the_fetch_mode_setting_is_honoured(
    local_server: Any, mcp_memory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = serve(local_server)
    monkeypatch.setenv("WEBTAP_FETCH_MODE", "page")
    async with mcp_memory() as session:
        result = await session.call("web_fetch", {"url": url})
    assert result.structured_content["content"] == whole(url)


async def test_paging_through_the_server_is_one_request(local_server: Any, mcp_memory: Any) -> None:
    url = serve(local_server)
    async with mcp_memory() as session:
        for offset in (1, 4, 7, 10):
            result = await session.call("web_fetch", {"url": url, "offset": offset, "limit": 3})
            assert not result.is_error
    assert local_server.requests == ["/story"]
