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

import contextlib
import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fakes.anthropic import Received, Reply

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


class FakeOpenAI:
    """The fake server. ``url`` is its base URL with ``/v1`` (``OPENAI_BASE_URL``); ``host``
    without it (``OLLAMA_HOST``)."""

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
        self.responder = responder
        self.delay = delay
        self.models = models  # None: any model is served
        self.no_tools = set(no_tools)
        self.ollama = ollama
        self.requests: list[Received] = []
        self.violations: list[str] = []
        self._queue: deque[Reply | Callable[[dict[str, Any]], Reply]] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def host(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def url(self) -> str:
        return self.host + "/v1"

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def queue(self, *replies: Reply | Callable[[dict[str, Any]], Reply]) -> None:
        with self._lock:
            self._queue.extend(replies)

    @property
    def bodies(self) -> list[Any]:
        return [received.body for received in self.requests]

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            scripted = self._queue.popleft() if self._queue else None
        if scripted is None:
            return self.responder(body)
        return scripted(body) if callable(scripted) else scripted

    def _answer(self, headers: dict[str, str], raw: bytes) -> Reply:
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        with self._lock:
            self.requests.append(Received(headers, body))
        if self.api_key is not None and headers.get("authorization") != f"Bearer {self.api_key}":
            return error(
                401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key"
            )
        problem = check_body(body)
        if problem:
            with self._lock:
                self.violations.append(problem)
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

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                if self.path.split("?")[0] != "/v1/chat/completions":
                    reply = error(404, f"Not found: {self.path}")
                else:
                    headers = {k.lower(): v for k, v in self.headers.items()}
                    reply = fake._answer(headers, raw)
                payload = reply.body
                if isinstance(payload, dict | list):
                    payload = json.dumps(payload).encode()
                elif isinstance(payload, str):
                    payload = payload.encode()
                payload = payload or b""
                self.send_response(reply.status)
                for name, value in {"content-type": "application/json", **reply.headers}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(payload)

        return Handler


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
