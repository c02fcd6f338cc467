"""A real browser for the browser tests (they skip, saying why, where none is installed), one
that counts its starts (:class:`Launches`), the suite's fake site for the apps it renders (its
own origin the only one a render lets past the guard) and free ports for servers that never
answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.browser.processes import Launches
from tests.fakes.site import Site

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
def app() -> Iterator[Site]:
    with Site.running() as site:
        yield site


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Browser]:
    """One long-lived browser for a module's tests (as a host keeps one)."""
    with Browser(chromium, tabs=2) as shared:
        yield shared


@pytest.fixture
def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on."""
    from tests.fakes.ports import free_port

    return free_port()


@pytest.fixture
def launches(tmp_path: Path, chromium: str) -> Launches:
    return Launches(tmp_path, chromium)
