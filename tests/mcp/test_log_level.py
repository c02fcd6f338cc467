"""logging/setLevel is a threshold: a message at the level asked for is sent, one below is not."""

from __future__ import annotations

from typing import Any

from webtap.mcp.server import LOG_LEVELS, _level_allows

NO_KEY = {"name": "web_search_brave", "arguments": {"query": "no key"}}  # an event: warning


def rpc(ident: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}


def test_the_threshold_itself_is_let_through() -> None:
    for threshold in LOG_LEVELS:
        assert _level_allows(threshold, threshold), threshold
    assert _level_allows("warning", "error") and not _level_allows("error", "warning")
    assert _level_allows(None, "debug"), "no level asked for: everything is sent"


def test_a_warning_reaches_a_client_that_asks_for_warnings_and_not_one_that_asks_for_errors(
    raw_mcp: Any,
) -> None:
    hello = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    }
    batches = [
        [rpc(1, "initialize", hello), {"jsonrpc": "2.0", "method": "notifications/initialized"}],
        [rpc(2, "logging/setLevel", {"level": "warning"})],
        [rpc(3, "tools/call", NO_KEY)],
        [rpc(4, "logging/setLevel", {"level": "error"})],
        [rpc(5, "tools/call", NO_KEY)],
    ]
    exchange = raw_mcp(batches)
    assert exchange.returncode == 0
    heard = {
        line["id"]: [note for note in lines if "id" not in note]
        for lines in exchange.heard
        for line in lines
        if "id" in line
    }

    [warning] = heard[3]  # the threshold is "warning": a warning is sent
    assert warning["method"] == "notifications/message"
    assert warning["params"]["level"] == "warning"
    assert warning["params"]["data"].startswith("⚠ Configuration Required")
    assert heard[5] == []  # the threshold is "error": the warning is below it
