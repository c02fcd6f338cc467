"""A real browser for the browser tests (they skip, saying why, where none is installed), the
apps it renders and the traps that count what reaches them (``browser_apps``)."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# Test folders are not packages (--import-mode=importlib): the helpers' folder goes on the path.
sys.path.insert(0, str(Path(__file__).parent))

from browser_apps import App

from webtap.browser import Browser, find_browser


@pytest.fixture(scope="session")
def chromium() -> str:
    """The browser binary, or a skip that says why there is none."""
    path = find_browser()
    if path is None:
        pytest.skip(
            "no Chrome-family browser is installed (apt-get install chromium-headless-shell, "
            "or set WEBTAP_BROWSER): the browser tests need a real one"
        )
    return path


@pytest.fixture
def app() -> Iterator[App]:
    server = App()
    yield server
    server.close()


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Browser]:
    """One long-lived browser for a module's tests (as a host keeps one)."""
    with Browser(chromium, tabs=2) as shared:
        yield shared


@pytest.fixture
def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
