"""A scripted model API on 127.0.0.1: the server both fake model APIs share (the Anthropic
Messages API in :mod:`tests.fakes.anthropic`, Chat Completions in :mod:`tests.fakes.openai`).

Each request is recorded (``requests``, ``bodies``) and answered by the subclass's ``_answer``;
replies are scripted per test with :meth:`ScriptedAPI.queue`, answered in order, and when the
queue is empty ``responder(body)`` answers. A request to any other path than ``path`` gets the
subclass's ``_not_found``.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

__all__ = ["Received", "Reply", "ScriptedAPI"]


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # dict/list sent as JSON; str/bytes sent as is
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Received:
    headers: dict[str, str]
    body: Any


Scripted = Reply | Callable[[dict[str, Any]], Reply]


class ScriptedAPI:
    """The server; ``host`` is its base address (``http://127.0.0.1:PORT``)."""

    path = "/"  # the one path the API answers

    def __init__(self, responder: Callable[[dict[str, Any]], Reply], delay: float) -> None:
        self.responder = responder
        self.delay = delay
        self.requests: list[Received] = []
        self.violations: list[str] = []
        self._queue: deque[Scripted] = deque()
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

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def queue(self, *replies: Scripted) -> None:
        with self._lock:
            self._queue.extend(replies)

    @property
    def bodies(self) -> list[Any]:
        return [received.body for received in self.requests]

    def _record(self, headers: dict[str, str], raw: bytes) -> Any:
        """The request's body (None when it is not JSON), recorded with its headers."""
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        with self._lock:
            self.requests.append(Received(headers, body))
        return body

    def _violated(self, problem: str) -> None:
        with self._lock:
            self.violations.append(problem)

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            scripted = self._queue.popleft() if self._queue else None
        if scripted is None:
            return self.responder(body)
        return scripted(body) if callable(scripted) else scripted

    def _answer(self, headers: dict[str, str], raw: bytes) -> Reply:
        raise NotImplementedError

    def _not_found(self, path: str) -> Reply:
        raise NotImplementedError

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                if self.path.split("?")[0] != fake.path:
                    reply = fake._not_found(self.path)
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
                    self.wfile.write(payload)  # a client that gave up is not our failure

        return Handler
