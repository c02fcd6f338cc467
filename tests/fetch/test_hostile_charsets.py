"""A charset label naming a Python codec that is no text encoding is ignored like an unknown one."""

from __future__ import annotations

import pytest

from webtap.fetch.media import decode


@pytest.mark.parametrize(
    "label", ["rot13", "hex", "base64_codec", "zlib", "punycode", "undefined", "unicode_escape"]
)
def test_a_codec_no_page_is_written_in_falls_back_to_detection(label: str) -> None:
    assert decode("héllo\\x".encode(), label) == "héllo\\x"
    meta = f'<meta charset="{label}"><p>héllo'.encode()
    assert decode(meta, None, html=True).endswith("<p>héllo")


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"<title>t\x1b[2Jx</title><p>a\x1b]52;c;ZXZpbA==\x07b</p>", "text/html"),
        (b"a\x1b]52;c;ZXZpbA==\x07b\x9b2J", "text/plain; charset=latin-1"),
        (b"# a\x1b]52;c;ZXZpbA==\x07b", "text/markdown"),
    ],
)
def test_terminal_escapes_in_a_page_never_reach_the_output(body: bytes, content_type: str) -> None:
    from webtap.fetch.media import to_markdown

    title, markdown, _ = to_markdown(body, content_type, "https://example.com/")
    for text in (title, markdown):
        assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    assert "]52;c;ZXZpbA==" in markdown  # the visible text stays: only the controls go


def test_terminal_escapes_in_search_results_and_events_are_dropped(capsys) -> None:
    from webtap.cli._output import show_event
    from webtap.search.results import clean_text

    assert clean_text("a\x1b[31mb\x9bc\tz") == "a[31mbc z"
    show_event({"kind": "k", "content": "see\x1b]0;owned\x07 this"})
    assert "\x1b]0" not in capsys.readouterr().err
