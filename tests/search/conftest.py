"""The search tests' kit: the suite's provider fakes (tests/fakes) under the names these tests
use, and a credentials file writer."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from tests.fakes import recorded
from tests.fakes.brave import FakeBrave
from tests.fakes.google import FakeGoogle


@pytest.fixture
def server(provider_server: HTTPServer) -> HTTPServer:
    """The server that plays the providers (``brave`` and ``google`` are roles on it)."""
    return provider_server


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
    """The fakes' paths, secrets and recorded answers, by the names these tests use."""
    return SimpleNamespace(
        BRAVE_KEY=FakeBrave.KEY,
        GOOGLE_KEY=FakeGoogle.KEY,
        ENGINE_ID=FakeGoogle.ENGINE_ID,
        BRAVE_PATH=FakeBrave.path,
        GOOGLE_PATH=FakeGoogle.path,
        body_of=recorded.body_of,
        json_of=recorded.json_of,
        recorded=recorded.recorded,
        json_response=recorded.json_response,
        sequence=recorded.sequence,
    )


@pytest.fixture
def unused_port() -> int:
    """A port on 127.0.0.1 that nothing listens on."""
    from tests.fakes.ports import free_port

    return free_port()
