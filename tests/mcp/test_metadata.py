"""MCP's web_fetch result carries what the page says of itself (issue 32)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.anyio

STORY = "<p>" + "The harbour filled with boats and gulls as the tide came in. " * 20 + "</p>"
PAGE = f"""<html lang="en"><head><title>Harbour</title>
<meta property="article:published_time" content="2024-03-12T10:00:00Z">
<meta name="author" content="Jane Doe"></head>
<body><article><h1>The harbour at dawn</h1>{STORY}</article></body></html>"""


async def test_the_result_holds_the_page_s_date_and_author(
    local_server: Any, mcp_memory: Any
) -> None:
    local_server.routes["/story"] = lambda h: h.reply(PAGE)
    async with mcp_memory() as session:
        result = await session.call("web_fetch", {"url": local_server.url("/story")})
    said = result.structured_content
    assert not result.is_error
    assert (said["published"], said["author"], said["language"]) == (
        "2024-03-12T10:00:00Z",
        "Jane Doe",
        "en",
    )
    assert '"published": "2024-03-12T10:00:00Z"' in result.content[0].text
    assert "image" not in said
