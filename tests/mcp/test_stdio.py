"""webtap's MCP server driven by the SDK's own client, against real local servers: in this process
through the SDK's in-process client, and as ``webtap mcp`` over stdio where the command's flags
and environment are what is tested."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from webtap.host.event_store import EventStore
from webtap.mcp.server import MAP_TOOL
from webtap.tools import TOOLS

pytestmark = pytest.mark.anyio

BRAVE_FIXTURES = Path(__file__).parents[1] / "fixtures" / "providers" / "brave"
SCHEMAS = Path(__file__).parents[2] / "src" / "webtap" / "schemas"

# The spec's texts for a missing Brave key (000, web-search-brave-tool).
BRAVE_KEY_ERROR = (
    "Web search requires API key configuration.\n\nBrave Search offers 2,000 free "
    "searches/month.\nGet your key: https://brave.com/search/api/\nAdd to: "
    "~/.config/ikigai/credentials.json as 'web_search.brave.api_key'"
)
BRAVE_CONFIG_REQUIRED = (
    "⚠ Configuration Required\n\nWeb search needs an API key. Brave Search offers 2,000 free "
    "searches/month.\n\nGet your key: https://brave.com/search/api/\nAdd to: "
    '~/.config/ikigai/credentials.json\n\nExample:\n{\n  "web_search": {\n    "brave": {\n'
    '      "api_key": "your-api-key-here"\n    }\n  }\n}'
)


def text_of(result: Any) -> list[str]:
    return [block.text for block in result.content]


def spec_parameters(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / f"{name}.json").read_text())["parameters"]


def page(title: str, lines: int) -> str:
    """An HTML page whose Markdown is a heading and ``lines`` numbered paragraphs."""
    body = "".join(f"<p>paragraph {i}</p>" for i in range(1, lines + 1))
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_tools_are_listed_with_the_spec_schemas_titles_and_annotations(
    mode: str, mcp_memory: Any
) -> None:
    async with mcp_memory(mode=mode) as session:
        listed = (await session.client.list_tools()).tools
    assert [tool.name for tool in listed] == [*TOOLS, MAP_TOOL, "verify_quote"]
    for tool in listed[:-1]:  # the spec's tools and web_map (verify_quote: tests/mcp)
        schema = tool.input_schema
        if tool.name == MAP_TOOL:  # webtap's own, not the spec's (tests/mcp/test_web_map.py)
            continue
        # The arguments webtap adds to the spec's (decision: Main content).
        if tool.name == "web_fetch":
            properties = dict(schema["properties"])
            assert properties.pop("full_page")["type"] == "boolean"
            assert properties.pop("render")["type"] == "boolean"
            schema = {**schema, "properties": properties}
        assert schema == spec_parameters(tool.name)
        assert tool.title == TOOLS[tool.name].title
        assert tool.description == TOOLS[tool.name].schema["description"]
        hints = tool.annotations
        assert (hints.read_only_hint, hints.open_world_hint) == (True, True)
        assert (hints.destructive_hint, hints.idempotent_hint) == (False, True)


async def test_fetch_reads_a_local_page_and_pages_through_it(
    local_server: Any, mcp_memory: Any
) -> None:
    local_server.routes["/long"] = lambda h: h.reply(page("Long page", 700))
    url = local_server.url("/long")
    async with mcp_memory() as session:
        first = await session.call("web_fetch", {"url": url})
        assert not first.is_error, text_of(first)
        data = first.structured_content
        assert data["success"] is True and data["title"] == "Long page"
        total = data["total_lines"]
        assert total > 700  # a heading and 700 paragraphs with blank lines between
        assert len(data["content"].splitlines()) == 500  # the default cap
        assert "paragraph 1" in data["content"] and "paragraph 400" not in data["content"]
        # The same JSON as text, then how to read on.
        assert json.loads(first.content[0].text) == data
        assert first.content[1].text == (
            f"[showing lines 1–500 of {total}; call again with offset=501 to read on]"
        )

        rest = await session.call("web_fetch", {"url": url, "offset": 501, "limit": 1000})
        tail = rest.structured_content["content"]
        assert len(tail.splitlines()) == total - 500
        assert "paragraph 700" in tail
        assert len(rest.content) == 1  # nothing left: no note

        exact = await session.call("web_fetch", {"url": url, "offset": 3, "limit": 10})
        assert len(exact.structured_content["content"].splitlines()) == 10
        assert exact.content[1].text.startswith(f"[showing lines 3–12 of {total};")


async def test_the_line_cap_is_a_flag_and_an_environment_variable(
    local_server: Any, mcp_session: Any, server_env: Any
) -> None:
    local_server.routes["/long"] = lambda h: h.reply(page("Long page", 300))
    url = local_server.url("/long")
    async with mcp_session("--max-lines", "0") as session:
        whole = (await session.call("web_fetch", {"url": url})).structured_content
    assert len(whole["content"].splitlines()) == whole["total_lines"]
    async with mcp_session(env=server_env(WEBTAP_MCP_MAX_LINES="40")) as session:
        capped = await session.call("web_fetch", {"url": url})
    assert len(capped.structured_content["content"].splitlines()) == 40
    assert "call again with offset=41" in capped.content[1].text


async def test_search_answers_from_a_fake_brave(
    fake_brave: Any, mcp_memory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = json.loads((BRAVE_FIXTURES / "web_search_brave_search.json").read_text())
    monkeypatch.setenv("BRAVE_SEARCH_URL", fake_brave.url("/res/v1/web/search"))
    monkeypatch.setenv("BRAVE_API_KEY", "test-key-123")
    async with mcp_memory() as session:
        result = await session.call("web_search_brave", {"query": "brave search", "count": 5})
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data["success"] is True and data["count"] == len(data["results"]) > 0
    assert data["results"][0]["url"] == recorded["web"]["results"][0]["url"]
    assert json.loads(result.content[0].text) == data
    assert "test-key-123" not in json.dumps(data)
    assert session.logs == []  # nothing for the person when all went well


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_missing_key_is_an_error_result_and_a_warning_for_the_person(
    mode: str, mcp_memory: Any
) -> None:
    async with mcp_memory(mode=mode) as session:
        result = await session.call("web_search_brave", {"query": "python packaging"})
        logs = list(session.logs)
    assert result.is_error
    assert text_of(result) == [BRAVE_KEY_ERROR]
    assert result.structured_content["error_code"] == "AUTH_MISSING"
    # The event is the person's, not the model's.
    assert "_event" not in result.structured_content
    assert "Configuration Required" not in json.dumps(result.model_dump())
    [log] = logs
    assert log.level == "warning"
    assert log.data == BRAVE_CONFIG_REQUIRED
    with EventStore(os.environ["WEBTAP_DB"]) as store:
        [stored] = store.list()
    assert stored["kind"] == "config_required"
    assert stored["content"] == BRAVE_CONFIG_REQUIRED
    assert stored["data"] == {
        "tool": "web_search_brave",
        "credential": "api_key",
        "signup_url": "https://brave.com/search/api/",
    }


BAD_ARGUMENTS = [
    ("web_search_brave", {"query": "x"}, "'query'"),
    ("web_search_brave", {"query": "ok", "count": 50}, "'count'"),
    ("web_search_google", {}, "'query'"),
    ("web_fetch", {"url": "http://127.0.0.1/", "limit": 0}, "'limit'"),
    ("web_fetch", {"url": "http://127.0.0.1/", "bogus": 1}, "'bogus'"),
    ("web_fetch", {"url": ["not", "a", "string"]}, "'url'"),
]


async def test_a_bad_argument_is_an_error_result_naming_the_field(mcp_memory: Any) -> None:
    async with mcp_memory() as session:
        for name, arguments, named in BAD_ARGUMENTS:
            result = await session.call(name, arguments)
            assert result.is_error, (name, arguments)
            [message] = text_of(result)
            assert named in message and message.startswith("Invalid input:"), message
            assert result.structured_content["error_code"] == "INVALID_INPUT"


async def test_an_unknown_tool_is_a_protocol_error_naming_the_tools(mcp_memory: Any) -> None:
    async with mcp_memory() as session:
        with pytest.raises(MCPError, match=r"Unknown tool 'web_crawl'.*web_fetch"):
            await session.call("web_crawl", {})


async def test_a_tool_past_its_deadline_ends_in_an_error_and_the_session_goes_on(
    local_server: Any, mcp_session: Any, server_env: Any
) -> None:
    local_server.routes["/stall"] = lambda h: local_server.released.wait(60)
    local_server.routes["/fine"] = lambda h: h.reply(page("Fine", 3))
    # The flag wins over the environment.
    env = server_env(WEBTAP_MCP_TIMEOUT="600")
    async with mcp_session("--timeout", "1", env=env) as session:
        slow = await session.call("web_fetch", {"url": local_server.url("/stall")})
        after = await session.call("web_fetch", {"url": local_server.url("/fine")})
    assert slow.is_error
    assert slow.structured_content["error_code"] == "TIMEOUT"
    [message] = text_of(slow)
    assert message.startswith("web_fetch did not answer within 1 seconds")
    assert "--timeout" in message
    assert after.structured_content["title"] == "Fine"


async def test_fifty_concurrent_calls_on_one_session_are_all_answered(
    local_server: Any, mcp_memory: Any
) -> None:
    # Each page answers only once 25 requests are in flight together: calls served one after
    # another would never get there (the barrier breaks and the fetches fail).
    together = threading.Barrier(25, timeout=20)

    def concurrent_page(handler) -> None:
        number = handler.path.rsplit("/", 1)[1]
        together.wait()
        handler.reply(page(f"Page {number}", 2))

    local_server.fallback = concurrent_page
    answers: dict[int, object] = {}
    async with mcp_memory() as session:

        async def fetch(number: int) -> None:
            url = local_server.url(f"/page/{number}")
            answers[number] = await session.call("web_fetch", {"url": url})

        async with anyio.create_task_group() as group:
            for number in range(50):
                group.start_soon(fetch, number)
    assert sorted(answers) == list(range(50))
    for number, result in answers.items():
        assert not result.is_error, text_of(result)
        assert result.structured_content["title"] == f"Page {number}"
