"""The spec's exact strings and schemas, read from the spec itself and compared to the byte.

``tests/fixtures/spec/`` holds copies of the contract documents (``../shared/spec/``): each
test below quotes a block of them, so that a drift on either side fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from webtap import agent, errors
from webtap.agent.messages_api import MessagesAPI
from webtap.host.validate import BTCP_SCHEMA_FILE, validate_btcp
from webtap.search import quota
from webtap.tools import TOOLS

SPEC = Path(__file__).parent / "fixtures" / "spec"
TOOLS_SPEC = (SPEC / "000_957711de6b38fc13.txt").read_text(encoding="utf-8")
ASK_SPEC = (SPEC / "002_df3a3c127d10510b.txt").read_text(encoding="utf-8")
BTCP_SPEC = (SPEC / "004_a890bc30972730a1.txt").read_text(encoding="utf-8")


def blocks(text: str, fence: str = "json") -> list[str]:
    """Every fenced block of ``text`` in the language ``fence``, as written."""
    return re.findall(rf"```{fence}\n(.*?)```", text, re.S)


def section(text: str, heading: str) -> str:
    """The part of ``text`` from ``## heading`` to the next ``## ``."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def tool_section(executable: str) -> str:
    return section(TOOLS_SPEC, executable)


def json_blocks(text: str) -> list[Any]:
    # Spec 002 elides its message list as ``[...]``.
    return [json.loads(block.replace("[...]", "[]")) for block in blocks(text)]


def errors_of(executable: str) -> list[dict[str, Any]]:
    return [b for b in json_blocks(tool_section(executable)) if b.get("success") is False]


# -- spec 000: the three tools ---------------------------------------------------------------


# The tools spec 000 describes (web-search-searxng-tool came later: tests/search/test_searxng.py).
SPEC_TOOLS = [spec for spec in TOOLS.values() if f"\n## {spec.executable}\n" in TOOLS_SPEC]


@pytest.mark.parametrize("spec", SPEC_TOOLS, ids=lambda s: s.executable)
def test_schema_output_is_the_spec_block_byte_for_byte(spec, run_exe) -> None:
    schema_part = tool_section(spec.executable).split("### Schema Output (--schema flag)")[1]
    expected = blocks(schema_part)[0]
    run = run_exe(spec.executable, "--schema")
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == expected
    assert json.loads(expected)["name"] == spec.name


@pytest.mark.parametrize(
    ("executable", "name"),
    [
        ("web-search-brave-tool", "web_search_brave"),
        ("web-search-google-tool", "web_search_google"),
    ],
)
def test_missing_credentials_answer_with_the_spec_text_and_event(executable, name, run_exe):
    section_text = tool_section(executable)
    auth_missing = errors_of(executable)[0]
    (event,) = [b for b in json_blocks(section_text) if b.get("kind") == "config_required"]

    run = run_exe(executable, stdin={"query": "test"})

    assert run.returncode == 0  # the request was carried out (decision: Exit codes)
    assert run.stderr == ""  # spec 003: "Never write to stderr (protocol is stdout-only)"
    # The event rides in stdout as ``_event`` with ``data`` an object (decision: Events).
    assert run.json == {
        "success": False,
        "error": auth_missing["error"],
        "error_code": "AUTH_MISSING",
        "_event": {
            "kind": "config_required",
            "content": event["content"],
            "data": json.loads(event["data_json"]),
        },
    }
    assert run.json["_event"]["data"]["tool"] == name


@pytest.mark.parametrize(
    ("executable", "message"),
    [
        ("web-search-brave-tool", quota.BRAVE_QUOTA_MESSAGE),
        ("web-search-google-tool", quota.GOOGLE_QUOTA_MESSAGE),
    ],
)
def test_rate_limit_messages_are_the_specs(executable, message) -> None:
    (rate_limit,) = [e for e in errors_of(executable) if e.get("error_code") == "RATE_LIMIT"]
    assert message == rate_limit["error"]


def test_every_error_code_the_spec_names_is_in_the_error_tree() -> None:
    named = set(re.findall(r"^- `([A-Z_]+)` - ", TOOLS_SPEC, re.M))
    named |= {e["error_code"] for e in errors_of("web-fetch-tool")}
    exported = [getattr(errors, name) for name in errors.__all__]
    tree = [c for c in exported if isinstance(c, type) and issubclass(c, errors.WebtapError)]
    codes = {c.code for c in tree}
    assert named == {
        "AUTH_MISSING",
        "AUTH_INVALID",
        "RATE_LIMIT",
        "NETWORK_ERROR",
        "API_ERROR",
        "HTTP_ERROR",
        "PARSE_ERROR",
        "INVALID_URL",
    }
    assert named <= codes


@pytest.mark.parametrize("executable", ["web-search-brave-tool", "web-search-google-tool"])
def test_search_success_response_fields_are_the_specs(executable) -> None:
    (success,) = [b for b in json_blocks(tool_section(executable)) if b.get("success") is True]
    assert list(success) == ["success", "results", "count"]
    assert list(success["results"][0]) == ["title", "url", "snippet"]


def test_fetch_success_response_fields_are_the_specs() -> None:
    (success,) = [b for b in json_blocks(tool_section("web-fetch-tool")) if b.get("success")]
    assert list(success) == ["success", "url", "title", "content"]


# -- spec 002: the ask loop ------------------------------------------------------------------


def ask_blocks() -> list[Any]:
    return json_blocks(ASK_SPEC)


def test_the_web_search_tool_definition_is_the_specs() -> None:
    first_request = ask_blocks()[0]
    assert first_request["tools"][0] == agent.SEARCH_TOOL
    assert list(agent.SEARCH_TOOL) == ["name", "description", "input_schema"]


def test_default_model_and_max_tokens_are_the_specs() -> None:
    first_request, second_request = ask_blocks()[:2]
    # Spec 002's model was the example of its day; the default is a current one in the same
    # request shape (issue 10; tests/agent/test_model.py checks it against the SDK).
    for request in (first_request, second_request):
        assert (request["model"], request["max_tokens"]) == (
            "claude-sonnet-4-5-20250929",
            agent.DEFAULT_MAX_TOKENS,
        )
    assert agent.DEFAULT_MAX_TOKENS == 1000


def test_the_user_message_is_the_specs() -> None:
    second_request = ask_blocks()[1]
    user = second_request["messages"][0]
    assert user == {
        "role": "user",
        "content": agent.user_message("What is the current price?", "Bitcoin"),
    }
    assert user["content"] == "Context: Bitcoin\n\nQuestion: What is the current price?"


def test_the_failed_search_tool_result_is_the_specs() -> None:
    failure = blocks(ASK_SPEC, "cpp")[-1]
    content = re.search(r'"content": "(.*?)",\s*"is_error": true', failure, re.S)
    assert content is not None
    assert content.group(1) == agent.SEARCH_UNAVAILABLE
    call = agent.ToolCall("toolu_01ABC123", "web_search", {"query": "x"})
    reply = agent.ToolReply(call, agent.SEARCH_UNAVAILABLE, True)
    assert MessagesAPI(client=None).tool_result(reply) == {
        "type": "tool_result",
        "tool_use_id": "toolu_01ABC123",
        "content": "Search unavailable. Please answer from your knowledge.",
        "is_error": True,
    }


def test_search_results_are_formatted_as_the_spec_example() -> None:
    from webtap.search import SearchResult

    example = re.search(r"Example output:\n```\n(Search Results:.*?)```", ASK_SPEC, re.S)
    assert example is not None
    shown = example.group(1).split("\n\n[3 more results...]")[0]
    entries = [entry.split("\n") for entry in shown.split("\n\n")[1:]]
    results = [
        SearchResult(title.split(". ", 1)[1], url.strip(), description.strip())
        for title, url, description in entries
    ]
    assert len(results) == 2
    assert agent.format_search_results(results) == shown
    assert agent.SEARCH_RESULTS == 5  # "Top 5 web results"
    assert agent.DESCRIPTION_WIDTH == 200  # "truncate to ~200 chars"


def test_budgets_are_the_specs() -> None:
    assert "Budget: 30s Claude + 10s Brave + 30s Claude = 70s" in ASK_SPEC
    assert "Current total timeout: 90s" in ASK_SPEC
    assert agent.TimeLimits(model_call=30.0, search=10.0, total=90.0) == agent.DEFAULT_TIME_LIMITS
    assert agent.DEFAULT_MAX_TOOL_CALLS == 1  # "max 1 search per query"


# -- spec 004: BTCP --------------------------------------------------------------------------


def test_the_packaged_btcp_schema_is_the_spec_block_byte_for_byte() -> None:
    schema_part = BTCP_SPEC.split("### JSON Schema")[1]
    assert BTCP_SCHEMA_FILE.read_text(encoding="utf-8") == blocks(schema_part)[0]


def test_every_complete_example_of_the_spec_is_valid() -> None:
    tools = [b for b in json_blocks(BTCP_SPEC) if {"name", "capabilities"} <= set(b)]
    assert [t["name"] for t in tools] == ["getPageTitle", "fillFormField", "exportTableToClipboard"]
    assert validate_btcp(tools) == []


# -- the issues' stated defaults -------------------------------------------------------------


def test_the_issues_defaults() -> None:
    from webtap import net, sql
    from webtap.host import discovery
    from webtap.mcp import server as mcp_server
    from webtap.search import request
    from webtap.settings import SCHEMA_TIMEOUT

    # Issue 2: at most 10 redirects, a 10 MB body cap.
    assert (net.DEFAULT_LIMITS.max_redirects, net.DEFAULT_LIMITS.max_body) == (10, 10 * 2**20)
    # Issue 3: 10 s per provider call.
    assert request.DEFAULT_CALL_TIMEOUT == 10.0
    # Issue 4: --schema under 1 s, a run under 30 s unless the schema says otherwise.
    assert (SCHEMA_TIMEOUT.default, discovery.DEFAULT_RUN_TIMEOUT) == (1.0, 30.0)
    # Issue 5: 8 model calls at once by default; issue 10 raised it to 32 behind rate budgets.
    assert sql.DEFAULT_CONCURRENCY == 32
    # Issue 6: a documented default cap on lines per fetch.
    assert mcp_server.DEFAULT_MAX_LINES == 500
