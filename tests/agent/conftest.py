"""Fixtures for the ask loop: a fake Brave on 127.0.0.1 (the fake Anthropic API is shared,
in tests/conftest.py)."""

from __future__ import annotations

from typing import Any

import fake_brave  # on the path through tests/conftest.py
import pytest


@pytest.fixture
def brave(httpserver: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A fake Brave Search serving the recorded ``brave search`` response, with its key set."""
    monkeypatch.setenv("BRAVE_SEARCH_URL", fake_brave.serve(httpserver))
    monkeypatch.setenv("BRAVE_API_KEY", fake_brave.BRAVE_KEY)
    return httpserver
