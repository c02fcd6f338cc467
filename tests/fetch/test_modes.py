"""What ``web_fetch`` returns for HTML: the main content by default, the whole page one setting
away (``WEBTAP_FETCH_MODE=page``, ``webtap fetch --full``, MCP's ``full_page``), and the
``content_mode`` field that marks trimmed content. Real executables and a real MCP server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webtap.convert import convert

pytestmark = pytest.mark.usefixtures("allow_private")

# The MCP server's full_page is tested with the MCP fixtures, in tests/mcp/test_full_page.py.

NAV = "".join(f'<li><a href="/section/{n}">Section {n}</a></li>' for n in range(12))
STORY = "".join(
    f"<p>Paragraph {n}: the tide came in slowly, and the harbour, quiet all morning, filled "
    "with boats, gulls and the smell of salt.</p>"
    for n in range(8)
)
PAGE = f"""<html><head><title>Harbour</title></head><body>
<header><nav><ul>{NAV}</ul></nav></header>
<main><article><h1>The harbour at dawn</h1>{STORY}</article></main>
<aside class="sidebar"><h2>Related posts</h2><a href="/r1">Another story</a></aside>
<footer class="site-footer"><p>Copyright 2026 Harbour News. All rights reserved.</p></footer>
</body></html>"""


def whole(url: str) -> str:
    return convert(PAGE, base_url=url).markdown


def main(url: str) -> str:
    document = convert(PAGE, base_url=url, main_content=True)
    assert document.trimmed  # the page this file is about has boilerplate to trim
    return document.markdown


# --- the executable --------------------------------------------------------------------------


def test_html_gives_its_main_content_by_default_marked_as_such(site, fetch_tool):
    url = site.page("/story", PAGE)
    response = fetch_tool(url)
    assert response["content"] == main(url)
    assert "Paragraph 7" in response["content"] and "Copyright" not in response["content"]
    assert response["content_mode"] == "main"
    assert response["title"] == "Harbour"
    assert response["total_lines"] == len(main(url).splitlines())


@pytest.mark.parametrize("value", ["page", "PAGE", " page "])
def test_fetch_mode_page_gives_the_whole_page_unmarked(site, fetch_tool, value):
    url = site.page("/story", PAGE)
    response = fetch_tool(url, env={"WEBTAP_FETCH_MODE": value})
    assert response["content"] == whole(url)
    assert "Copyright 2026" in response["content"]
    assert "content_mode" not in response


def test_fetch_mode_main_is_the_default_spelled_out(site, fetch_tool):
    url = site.page("/story", PAGE)
    assert fetch_tool(url, env={"WEBTAP_FETCH_MODE": "main"})["content"] == main(url)


@pytest.mark.parametrize("value", ["full", "whole", "1"])
def test_an_unknown_mode_is_a_config_error_naming_it(site, fetch_tool, value):
    response = fetch_tool(site.page("/story", PAGE), env={"WEBTAP_FETCH_MODE": value})
    assert response["error_code"] == "CONFIG_ERROR"
    assert "WEBTAP_FETCH_MODE" in response["error"] and repr(value) in response["error"]
    assert "'main'" in response["error"] and "'page'" in response["error"]
    assert site.requests == []


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/plain", "just text\n"),
        ("application/json", '{"a": 1}'),
        ("text/markdown", "# Notes\n\ntext\n"),
    ],
)
def test_other_content_is_never_marked(site, fetch_tool, content_type, body):
    response = fetch_tool(site.route("/x", body, headers={"Content-Type": content_type}))
    assert response["success"] is True and "content_mode" not in response


def test_the_schema_stays_the_spec_s(run_exe):
    spec = Path(__file__).parents[2] / "src" / "webtap" / "schemas" / "web_fetch.json"
    printed = run_exe("web-fetch-tool", "--schema")
    assert json.loads(printed.stdout) == json.loads(spec.read_text())
    assert "full_page" not in printed.stdout


def test_full_page_is_not_a_field_of_the_executable(site, fetch_tool):
    response = fetch_tool(site.page("/story", PAGE), full_page=True)
    assert response["error_code"] == "INVALID_INPUT" and "full_page" in response["error"]


# --- in process, the CLI, the ask loop -------------------------------------------------------


def test_the_in_process_call_takes_full_page(site):
    from webtap.tools import call

    url = site.page("/story", PAGE)
    assert call("web_fetch", {"url": url}, full_page=True).response()["content"] == whole(url)
    assert call("web_fetch", {"url": url}).response()["content"] == main(url)


def test_full_page_wins_over_the_setting(site, monkeypatch):
    from webtap.tools import call

    url = site.page("/story", PAGE)
    monkeypatch.setenv("WEBTAP_FETCH_MODE", "main")
    response = call("web_fetch", {"url": url}, full_page=True).response()
    assert response["content"] == whole(url) and "content_mode" not in response


def test_webtap_fetch_prints_the_main_content_and_full_the_whole_page(site, run_exe):
    url = site.page("/story", PAGE)
    assert run_exe("webtap", "fetch", url).stdout == main(url)
    assert run_exe("webtap", "fetch", "--full", url).stdout == whole(url)
    trimmed = json.loads(run_exe("webtap", "fetch", "--json", url).stdout)
    assert trimmed["content_mode"] == "main"
    full = json.loads(run_exe("webtap", "fetch", "--json", "--full", url).stdout)
    assert "content_mode" not in full and full["content"] == whole(url)


@pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")
def test_the_ask_loop_reads_the_main_content(site, anthropic_api):
    from tests.fakes.anthropic import message, text, tool_use

    from webtap.agent import ask

    url = site.page("/story", PAGE)
    use = tool_use("web_fetch", {"url": url})
    anthropic_api.queue(message(use, stop_reason="tool_use"), message(text("Boats.")))
    assert ask("What filled the harbour?").text == "Boats."
    (result,) = [
        block
        for block in anthropic_api.bodies[1]["messages"][-1]["content"]
        if block["type"] == "tool_result"
    ]
    fetched = json.loads(result["content"])
    assert fetched["content_mode"] == "main"
    assert "Paragraph 7" in fetched["content"] and "Copyright" not in fetched["content"]
