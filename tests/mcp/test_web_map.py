"""``web_map`` over MCP: a site's URLs by the crawl's rules, capped, for an agent to find a page
before fetching it."""

from __future__ import annotations

from typing import Any

import pytest
from tests.fakes.crawl_site import TrapSite

pytestmark = pytest.mark.anyio


@pytest.fixture
def site(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("WEBTAP_ALLOW_PRIVATE_NETWORKS", "1")
    monkeypatch.setenv("WEBTAP_HOST_RATE", "1000")
    with TrapSite.running() as running:
        yield running


async def test_web_map_lists_the_site_s_urls_capped(site: TrapSite, mcp_memory: Any) -> None:
    async with mcp_memory() as session:
        listed = {tool.name: tool for tool in (await session.client.list_tools()).tools}
        capped = await session.call("web_map", {"url": site.url("/"), "limit": 3})
        docs = await session.call("web_map", {"url": site.url("/"), "prefix": "/docs"})
    hints = listed["web_map"].annotations
    assert hints is not None and (hints.read_only_hint, hints.open_world_hint) == (True, True)
    assert not capped.is_error
    data = capped.structured_content
    assert data["count"] == 3 and data["truncated"] is True
    assert data["urls"][0] == {"url": site.url("/"), "lastmod": None, "source": "start"}
    urls = [record["url"] for record in docs.structured_content["urls"]]
    assert urls == [site.url(f"/docs/page-{n}") for n in range(1, 11)]
    assert docs.structured_content["truncated"] is False
    assert site.fetched() == {}  # no page fetched


async def test_a_bad_argument_is_an_error_result(mcp_memory: Any) -> None:
    async with mcp_memory() as session:
        bad = await session.call("web_map", {"url": "ftp://example.com/"})
        huge = await session.call("web_map", {"url": "https://example.com/", "limit": 10**6})
    assert bad.is_error and "INVALID_URL" in str(bad.structured_content)
    assert huge.is_error
