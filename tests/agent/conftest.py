"""Fixtures for the ask loop: a fake Anthropic API and a fake Brave, both on 127.0.0.1."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import fake_brave
from fake_anthropic import API_KEY, FakeAnthropic


@pytest.fixture
def anthropic_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    """The fake Messages API, with ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY pointing at it."""
    fake = FakeAnthropic().start()
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
    yield fake
    fake.stop()


@pytest.fixture
def brave(httpserver: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A fake Brave Search serving the recorded ``brave search`` response, with its key set."""
    monkeypatch.setenv("BRAVE_SEARCH_URL", fake_brave.serve(httpserver))
    monkeypatch.setenv("BRAVE_API_KEY", fake_brave.BRAVE_KEY)
    return httpserver
