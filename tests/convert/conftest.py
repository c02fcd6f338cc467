"""Fixtures for the converter tests: the real pages in ``data/`` and the invariants."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
PAGES = sorted(DATA.glob("*.html.gz"))


def check_invariants(markdown: str) -> None:
    """What every conversion guarantees, whatever the input."""
    assert markdown == "" or (markdown.endswith("\n") and not markdown.endswith("\n\n"))
    assert "\n\n\n" not in markdown
    for line in markdown.split("\n"):
        assert line == line.rstrip(), f"trailing whitespace: {line!r}"


@pytest.fixture
def invariants() -> Callable[[str], None]:
    return check_invariants


@pytest.fixture(params=PAGES, ids=lambda p: p.name.removesuffix(".html.gz"))
def real_page(request: pytest.FixtureRequest) -> bytes:
    return gzip.decompress(request.param.read_bytes())
