"""``webtap mcp``'s options: a mistake is one clear line at start, never a traceback."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (
            ["--only", "web_fetch", "web_crawl"],
            {},
            "webtap: unknown tool 'web_crawl' in --only; available: verify_quote, web_fetch, "
            "web_search_brave, web_search_google, web_search_searxng (add --discovered for the "
            "host's tools)\n",
        ),
        (
            ["--http", "localhost"],
            {},
            "webtap: --http wants HOST:PORT, such as 127.0.0.1:8765 (got 'localhost')\n",
        ),
        (["--max-lines", "-1"], {}, "webtap: --max-lines must be 0 (no cap) or more, got -1\n"),
        (
            [],
            {"WEBTAP_MCP_MAX_LINES": "lots"},
            "webtap: WEBTAP_MCP_MAX_LINES must be 0 or more (got 'lots'): a whole number of "
            "lines, such as 500; fix it, or unset it to use the default\n",
        ),
        (["--timeout", "0"], {}, "webtap: --timeout must be a number of seconds above 0, got 0\n"),
        (
            [],
            {"WEBTAP_MCP_TIMEOUT": "soon"},
            "webtap: WEBTAP_MCP_TIMEOUT must be a number above 0 (got 'soon'); fix it, or unset "
            "it to use the default (60)\n",
        ),
        (
            ["--timeout", "inf"],
            {},
            "webtap: --timeout must be a number of seconds above 0, got inf\n",
        ),
        (
            [],
            {"WEBTAP_MCP_TIMEOUT": "nan"},
            "webtap: WEBTAP_MCP_TIMEOUT must be a number above 0 (got 'nan'); fix it, or unset "
            "it to use the default (60)\n",
        ),
        (
            [],
            {"WEBTAP_MCP_MAX_LINES": "-5"},
            "webtap: WEBTAP_MCP_MAX_LINES must be 0 or more (got '-5'): a whole number of "
            "lines, such as 500; fix it, or unset it to use the default\n",
        ),
    ],
)
def test_a_bad_option_is_one_clear_line(
    run_exe: Any, args: list[str], env: dict[str, str], expected: str
) -> None:
    result = run_exe("webtap", "mcp", *args, env=env, timeout=30)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", expected)


def test_an_address_in_use_is_one_clear_line_before_serving(run_exe: Any) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_exe("webtap", "mcp", "--http", f"127.0.0.1:{port}", timeout=30)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"webtap: cannot listen on 127.0.0.1:{port}: Address already in use; "
        "give --http another address\n"
    )


@pytest.mark.anyio
async def test_only_narrows_the_list(mcp_memory: Any) -> None:
    async with mcp_memory(only=["web_search_google", "web_fetch"]) as session:
        listed = (await session.client.list_tools()).tools
    assert [tool.name for tool in listed] == ["web_search_google", "web_fetch"]
