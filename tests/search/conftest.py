"""Fake Brave and Google servers on 127.0.0.1 serving the recorded provider bodies."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

PROVIDERS = Path(__file__).parents[1] / "fixtures" / "providers"

# Distinctive secrets, so that a leak anywhere is found by a plain substring search.
BRAVE_KEY = "BSA-secret-brave-key-5f1c9e"
GOOGLE_KEY = "AIza-secret-google-key-7d2b4a"
ENGINE_ID = "cx-secret-engine-91e3"
BRAVE_PATH = "/res/v1/web/search"
GOOGLE_PATH = "/customsearch/v1"


def body_of(name: str) -> bytes:
    return (PROVIDERS / f"{name}.json").read_bytes()


def json_of(name: str) -> Any:
    return json.loads(body_of(name))


def recorded(name: str) -> Response:
    """The recorded body with its recorded status and headers (200 JSON without a meta file)."""
    meta_file = PROVIDERS / f"{name}.meta.json"
    meta = json.loads(meta_file.read_text()) if meta_file.exists() else {"status": 200}
    headers = meta.get("headers") or {"Content-Type": "application/json"}
    return Response(body_of(name), status=meta["status"], headers=headers)


def sequence(*responses: Response | Callable[[Request], Response]) -> Callable:
    """A handler answering with each response in turn, then repeating the last one."""
    remaining = list(responses)

    def handler(request: Request) -> Response:
        answer = remaining.pop(0) if len(remaining) > 1 else remaining[0]
        return answer(request) if callable(answer) and not isinstance(answer, Response) else answer

    return handler


def json_response(value: Any, status: int = 200, **headers: str) -> Response:
    return Response(
        json.dumps(value), status=status, headers={"Content-Type": "application/json", **headers}
    )


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    """A threaded server, so that concurrent calls really are served concurrently."""
    srv = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    srv.start()
    yield srv
    srv.clear()
    if srv.is_running():
        srv.stop()


@pytest.fixture
def brave(server: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> HTTPServer:
    """The server acting as Brave, with a key in the environment."""
    monkeypatch.setenv("BRAVE_SEARCH_URL", server.url_for(BRAVE_PATH))
    monkeypatch.setenv("BRAVE_API_KEY", BRAVE_KEY)
    return server


@pytest.fixture
def google(server: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> HTTPServer:
    """The server acting as Google, with a key and engine id in the environment."""
    monkeypatch.setenv("GOOGLE_SEARCH_URL", server.url_for(GOOGLE_PATH))
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", GOOGLE_KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", ENGINE_ID)
    return server


@pytest.fixture
def write_credentials(isolated_env: Path) -> Callable[[Any], Path]:
    """Write ``~/.config/ikigai/credentials.json`` (a dict as JSON, or raw text)."""

    def write(content: Any) -> Path:
        path = isolated_env / ".config" / "ikigai" / "credentials.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return path

    return write


@pytest.fixture
def kit() -> Any:
    """This module: the helpers and secrets above, for tests (importlib mode has no path)."""
    return sys.modules[__name__]


@pytest.fixture
def unused_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, read, released)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
