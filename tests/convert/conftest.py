"""Fixtures for the converter tests: the real pages in ``data/`` and the invariants."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

DATA = Path(__file__).parent / "data"
PAGES = sorted(DATA.glob("*.html.gz"))


_PARSER = MarkdownIt("commonmark").enable("table").enable("strikethrough")


def check_invariants(markdown: str) -> None:
    """What every conversion guarantees, whatever the input: outside code blocks (which are
    verbatim), no line ends in whitespace and no two blank lines follow each other."""
    assert markdown == "" or (markdown.endswith("\n") and not markdown.endswith("\n\n"))
    lines = markdown.split("\n")
    for token in _PARSER.parse(markdown):
        if token.type == "fence" and token.map:
            start, end = token.map
            lines[start + 1 : end - 1] = ["<code>"] * (end - start - 2)
    blank = False
    for line in lines[:-1]:
        assert line == line.rstrip(), f"trailing whitespace: {line!r}"
        assert not (blank and not line), "two blank lines in a row"
        blank = not line


@pytest.fixture
def invariants() -> Callable[[str], None]:
    return check_invariants


@pytest.fixture(params=PAGES, ids=lambda p: p.name.removesuffix(".html.gz"))
def real_page(request: pytest.FixtureRequest) -> bytes:
    return gzip.decompress(request.param.read_bytes())
