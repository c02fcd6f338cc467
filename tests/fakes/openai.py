"""A fake OpenAI-compatible Chat Completions server on 127.0.0.1, checking requests as the API
does, and able to play Ollama's quirks and errors.

Each ``POST /v1/chat/completions`` is checked the way the real API checks it: the key
(``Authorization: Bearer``, unless ``api_key`` is None, as Ollama takes none), the body's
``model`` (a served one: 404 ``model_not_found`` otherwise, or Ollama's "not found, try pulling
it first"), ``messages`` (known roles; a ``tool`` message only right after the assistant
message whose ``tool_calls`` hold its ``tool_call_id``, every call answered before the next
other message), ``tools`` (``type: function`` with a name and an object schema), and
``tool_choice`` only with ``tools``. A request that breaks a rule is answered 400 and recorded
in ``violations``. Models in ``no_tools`` answer a request with ``tools`` as Ollama does: 400
"... does not support tools".

Replies are scripted per test with :meth:`FakeOpenAI.queue` (in order), then ``responder``
(default: a text echoing the model, max_tokens and question). :func:`completion` and
:func:`tool_call` build replies, with whatever quirk a test needs.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from typing import Any

from tests.fakes.scripted import Reply, ScriptedAPI

API_KEY = "sk-openai-test-0123456789abcdef"
ROLES = {"system", "developer", "user", "assistant", "tool"}
_ids = itertools.count(1)


def tool_call(
    name: str, arguments: Any, id: str | None = "", *, as_object: bool = False
) -> dict[str, Any]:
    """One entry of ``tool_calls``: ``arguments`` a dict sent as a JSON string (the API's way),
    as an object (``as_object``: some servers' way), or a string sent as it is; ``id=None``
    leaves the id out."""
    if isinstance(arguments, dict) and not as_object:
        arguments = json.dumps(arguments)
    call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": arguments}}
    if id is not None:
        call["id"] = id or f"call_{next(_ids):06d}"
    return call


def completion(
    content: str | None = "",
    *calls: dict[str, Any],
    finish_reason: str | None = None,
    model: str = "test-model",
    headers: dict[str, str] | None = None,
) -> Reply:
    """A Chat Completions success response: ``content`` and ``calls``; ``finish_reason``
    defaults to what the API says (``tool_calls`` with calls, else ``stop``)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = list(calls)
    finish = finish_reason or ("tool_calls" if calls else "stop")
    body = {
        "id": f"chatcmpl-{next(_ids)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 5, "total_tokens": 16},
    }
    return Reply(200, body, dict(headers or {}))


def error(
    status: int, message: str, kind: str = "invalid_request_error", code: Any = None
) -> Reply:
    """An error as OpenAI sends it (Ollama's OpenAI endpoint too): ``{"error": {...}}``."""
    return Reply(status, {"error": {"message": message, "type": kind, "param": None, "code": code}})


def question(body: dict[str, Any]) -> str:
    """The user message's text (the spec's "Context: ...\\n\\nQuestion: ...")."""
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def tool_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in body["messages"] if m["role"] == "tool"]


def echo(body: dict[str, Any]) -> Reply:
    return completion(
        f"[{body['model']}|{body.get('max_tokens')}] {question(body)}", model=body["model"]
    )


class FakeOpenAI(ScriptedAPI):
    """The fake server. ``url`` is its base URL with ``/v1`` (``OPENAI_BASE_URL``); ``host``
    without it (``OLLAMA_HOST``)."""

    path = "/v1/chat/completions"

    def __init__(
        self,
        api_key: str | None = API_KEY,
        responder: Callable[[dict[str, Any]], Reply] = echo,
        delay: float = 0.0,
        models: set[str] | None = None,
        no_tools: set[str] = frozenset(),  # type: ignore[assignment]
        ollama: bool = False,
    ) -> None:
        self.api_key = api_key
        self.models = models  # None: any model is served
        self.no_tools = set(no_tools)
        self.ollama = ollama
        super().__init__(responder, delay)

    @property
    def url(self) -> str:
        return self.host + "/v1"

    def _answer(self, headers: dict[str, str], raw: bytes) -> Reply:
        body = self._record(headers, raw)
        if self.api_key is not None and headers.get("authorization") != f"Bearer {self.api_key}":
            return error(
                401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key"
            )
        problem = check_body(body)
        if problem:
            self._violated(problem)
            return error(400, problem)
        model = body["model"]
        if self.models is not None and model not in self.models:
            if self.ollama:
                return error(404, f'model "{model}" not found, try pulling it first', "api_error")
            return error(
                404,
                f"The model `{model}` does not exist or you do not have access to it.",
                "invalid_request_error",
                "model_not_found",
            )
        if model in self.no_tools and body.get("tools"):
            return error(
                400,
                f"registry.ollama.ai/library/{model}:latest does not support tools",
                "api_error",
            )
        if self.delay:
            time.sleep(self.delay)
        return self._next(body)

    def _not_found(self, path: str) -> Reply:
        return error(404, f"Not found: {path}")


def check_body(body: Any) -> str | None:
    """The API's rules for a Chat Completions request, or None when it is valid."""
    if not isinstance(body, dict):
        return "body: not a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: you must provide a model parameter"
    for name in ("max_tokens", "max_completion_tokens"):
        if name in body and (not isinstance(body[name], int) or body[name] < 1):
            return f"{name}: must be a positive integer"
    tools = body.get("tools")
    if tools is not None:
        problem = check_tools(tools)
        if problem:
            return problem
    if "tool_choice" in body and not tools:
        return "tool_choice: 'tool_choice' is only allowed when 'tools' are specified"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    return check_messages(messages)


def check_tools(tools: Any) -> str | None:
    if not isinstance(tools, list) or not tools:
        return "tools: must be a non-empty array"
    names = []
    for index, tool in enumerate(tools):
        function = tool.get("function") if isinstance(tool, dict) else None
        if tool.get("type") != "function" or not isinstance(function, dict):
            return f"tools[{index}]: type must be 'function' with a 'function' object"
        if not isinstance(function.get("name"), str) or not function["name"]:
            return f"tools[{index}].function.name: required"
        schema = function.get("parameters")
        if schema is not None and (not isinstance(schema, dict) or schema.get("type") != "object"):
            return f"tools[{index}].function.parameters: must be a JSON Schema object"
        names.append(function["name"])
    if len(set(names)) != len(names):
        return "tools: function names must be unique"
    return None


def check_messages(messages: list[Any]) -> str | None:
    pending: set[str] = set()  # tool_call ids of the last assistant turn not yet answered
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ROLES:
            return f"messages[{index}].role: must be one of {sorted(ROLES)}"
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in pending:
                return (
                    f"messages[{index}]: messages with role 'tool' must be a response to a "
                    f"preceding message with 'tool_calls' (no call {call_id!r} is pending)"
                )
            pending.discard(call_id)
            if not isinstance(message.get("content"), str):
                return f"messages[{index}].content: a tool message's content must be a string"
            continue
        if pending:
            return (
                f"messages[{index}]: an assistant message with 'tool_calls' must be followed by "
                f"tool messages responding to each 'tool_call_id' (missing {sorted(pending)})"
            )
        if role == "assistant":
            calls = message.get("tool_calls") or []
            for call in calls:
                if not isinstance(call.get("id"), str) or not call["id"]:
                    return f"messages[{index}].tool_calls: each call needs an id"
                arguments = call.get("function", {}).get("arguments")
                if not isinstance(arguments, str):
                    return f"messages[{index}].tool_calls.function.arguments: must be a string"
            pending = {call["id"] for call in calls}
            if message.get("content") is None and not calls:
                return f"messages[{index}].content: required without tool_calls"
        elif not isinstance(message.get("content"), str | list):
            return f"messages[{index}].content: required"
    if pending:
        return "messages: the last assistant message's tool_calls were not answered"
    return None
