"""A fake Anthropic Messages API on 127.0.0.1 that checks what it receives and answers as the API.

Each request is checked the way the real API checks it: the key (``x-api-key``, or
``Authorization: Bearer`` as SDK 2.x sends it), the ``anthropic-version`` header, the body's
``model``/``max_tokens``/``messages``, tool definitions, ``tool_choice`` only with ``tools``,
and the ``tool_use``/``tool_result`` pairing (every ``tool_use`` of an assistant turn answered
by a ``tool_result`` with its id in the next user message, all in that one message; no dangling
``tool_use``). A request that breaks a rule is answered with the API's
``400 invalid_request_error`` and recorded in ``violations``.

Replies are scripted per test: :meth:`FakeAnthropic.queue` adds replies answered in order;
when the queue is empty, ``responder(body)`` answers (by default, a text that echoes the
question). Used by tests/agent, tests/sql and bench/sql_batch.py.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from typing import Any

from tests.fakes.scripted import Reply, ScriptedAPI

API_KEY = "sk-ant-test-0123456789abcdef"
_ids = itertools.count(1)


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(name: str, input: dict[str, Any], id: str | None = None) -> dict[str, Any]:
    return {"type": "tool_use", "id": id or f"toolu_{next(_ids):08d}", "name": name, "input": input}


def message(*blocks: dict[str, Any], stop_reason: str = "end_turn", model: str = "") -> Reply:
    """A Messages API success response with these content blocks."""
    return Reply(
        200,
        {
            "id": f"msg_{next(_ids):08d}",
            "type": "message",
            "role": "assistant",
            "model": model or "claude-sonnet-5-5",
            "content": list(blocks),
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {"input_tokens": 12, "output_tokens": 7},
        },
    )


def error(status: int, kind: str, msg: str, headers: dict[str, str] | None = None) -> Reply:
    """An API error body, as the API sends it."""
    body = {"type": "error", "error": {"type": kind, "message": msg}, "request_id": "req_test"}
    return Reply(status, body, dict(headers or {}))


def last_user_text(body: dict[str, Any]) -> str:
    """The text of the first user message (the spec's "Context: ...\\n\\nQuestion: ...")."""
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else json.dumps(content)


def search_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every ``search_result`` block of a request, in the order the API counts them
    (``search_result_index``): across messages, inside tool results too."""
    found = []
    for msg in body["messages"]:
        for block in msg["content"] if isinstance(msg["content"], list) else []:
            inner = block.get("content") if block.get("type") == "tool_result" else [block]
            for part in inner if isinstance(inner, list) else []:
                if part.get("type") == "search_result":
                    found.append(part)
    return found


def cited(
    body: dict[str, Any], value: str, index: int, first: int = 0, end: int | None = None
) -> dict[str, Any]:
    """A text block that cites blocks ``[first, end)`` of search result ``index`` of the
    request, as the API does: ``cited_text`` copied from what was sent, joined as it joins."""
    result = search_results(body)[index]
    end = first + 1 if end is None else end
    location = {
        "type": "search_result_location",
        "cited_text": "".join(part["text"] for part in result["content"][first:end]),
        "search_result_index": index,
        "source": result["source"],
        "title": result["title"],
        "start_block_index": first,
        "end_block_index": end,
    }
    return {"type": "text", "text": value, "citations": [location]}


def echo(body: dict[str, Any]) -> Reply:
    """Default responder: answer with the model, max_tokens and the question it was asked."""
    answer = f"[{body['model']}|{body['max_tokens']}] {last_user_text(body)}"
    return message(text(answer), model=body["model"])


class FakeAnthropic(ScriptedAPI):
    """The fake API server. ``url`` is its base URL for ``ANTHROPIC_BASE_URL``."""

    path = "/v1/messages"

    def __init__(
        self,
        api_key: str = API_KEY,
        responder: Callable[[dict[str, Any]], Reply] = echo,
        delay: float = 0.0,
    ) -> None:
        self.api_key = api_key
        super().__init__(responder, delay)

    @property
    def url(self) -> str:
        return self.host

    def _answer(self, headers: dict[str, str], raw: bytes) -> Reply:
        body = self._record(headers, raw)
        problem = check_headers(headers, self.api_key)
        if problem == "authentication":
            return error(401, "authentication_error", "invalid x-api-key")
        if problem is None:
            problem = check_body(body)
        if problem:
            self._violated(problem)
            return error(400, "invalid_request_error", problem)
        if self.delay:
            time.sleep(self.delay)
        return self._next(body)

    def _not_found(self, path: str) -> Reply:
        return error(404, "not_found_error", f"Not found: {path}")


def sent_key(headers: dict[str, str]) -> str | None:
    """The key a request carries: ``x-api-key``, or ``Authorization: Bearer`` (SDK 2.x)."""
    if "x-api-key" in headers:
        return headers["x-api-key"]
    scheme, _, token = headers.get("authorization", "").partition(" ")
    return token if scheme.lower() == "bearer" else None


def check_headers(headers: dict[str, str], api_key: str) -> str | None:
    if not headers.get("anthropic-version"):
        return "anthropic-version: header is required"
    if sent_key(headers) != api_key:
        return "authentication"
    if "application/json" not in headers.get("content-type", ""):
        return "content-type must be application/json"
    return None


def check_body(body: Any) -> str | None:
    """The API's rules for a Messages request, or None when the request is valid."""
    if not isinstance(body, dict):
        return "body: not a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: Field required"
    if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
        return "max_tokens: must be a positive integer"
    tools = body.get("tools")
    if tools is not None:
        problem = check_tools(tools)
        if problem:
            return problem
    if "tool_choice" in body and not tools:
        return "tool_choice: may only be specified while providing tools"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    return check_messages(messages, tools)


def check_tools(tools: Any) -> str | None:
    if not isinstance(tools, list):
        return "tools: must be a list"
    names = [tool.get("name") for tool in tools if isinstance(tool, dict)]
    if len(names) != len(tools) or len(set(names)) != len(names):
        return "tools: tool names must be unique"
    for tool in tools:
        schema = tool.get("input_schema")
        if not isinstance(schema, dict) or schema.get("type") != "object":
            return f"tools.{tool['name']}.input_schema: type must be object"
    return None


def check_messages(messages: list[Any], tools: Any) -> str | None:
    expected_role = "user"
    pending: set[str] = set()
    for index, msg in enumerate(messages):
        if not isinstance(msg, dict) or msg.get("role") != expected_role:
            return f"messages.{index}: roles must alternate, starting with user"
        blocks = msg["content"] if isinstance(msg.get("content"), list) else []
        uses = {b.get("id") for b in blocks if b.get("type") == "tool_use"}
        results = [b for b in blocks if b.get("type") == "tool_result"]
        if (uses or results) and not tools:
            return f"messages.{index}: tool blocks require tools to be defined"
        for result in results:
            problem = check_result_content(result.get("content"))
            if problem:
                return f"messages.{index}: {problem}"
        if expected_role == "user":
            answered = {b.get("tool_use_id") for b in results}
            if answered != pending:
                return (
                    f"messages.{index}: tool_result ids {sorted(answered)} do not match the "
                    f"previous turn's tool_use ids {sorted(pending)}"
                )
            pending = set()
        else:
            pending = uses
        expected_role = "assistant" if expected_role == "user" else "user"
    if expected_role == "user":  # the last message was the assistant's
        return "messages: the last message must be a user message"
    return None


def check_result_content(content: Any) -> str | None:
    """A ``tool_result``'s content: a string, or text and ``search_result`` blocks (each with
    a source, a title and non-empty text blocks; citations enabled in all or none)."""
    if isinstance(content, str):
        return None
    if not isinstance(content, list) or not content:
        return "tool_result.content: a string or a non-empty list of blocks"
    enabled = set()
    for block in content:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            if not isinstance(block.get("text"), str) or not block["text"]:
                return "tool_result.content: text blocks must be non-empty"
        elif kind == "search_result":
            if not isinstance(block.get("source"), str) or not isinstance(block.get("title"), str):
                return "search_result: source and title are required strings"
            parts = block.get("content")
            if not isinstance(parts, list) or not parts:
                return "search_result.content: at least one text block is required"
            if any(p.get("type") != "text" or not p.get("text") for p in parts):
                return "search_result.content: text blocks must be non-empty"
            enabled.add(bool((block.get("citations") or {}).get("enabled")))
        else:
            return f"tool_result.content: unexpected block type {kind!r}"
    if len(enabled) > 1:
        return "search_result: citations must be enabled for all search results or none"
    return None
