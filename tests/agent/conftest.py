"""Fixtures for the ask loop: the suite's fake Brave (tests/fakes) answering its recorded
results; the fake Anthropic API is the suite's ``anthropic_api``."""

from __future__ import annotations

import pytest
from tests.fakes.brave import FakeBrave


@pytest.fixture
def brave(brave: FakeBrave) -> FakeBrave:
    """The fake Brave Search, answering the recorded ``brave search`` results, its key set."""
    return brave.answer()  # type: ignore[return-value]
