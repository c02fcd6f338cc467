"""Markdown metacharacters in text: escaped where they would change the meaning, only there."""

from __future__ import annotations

import pytest

from webtap.convert import convert


def md(html: str | bytes, base_url: str | None = None) -> str:
    return convert(html, base_url).markdown


@pytest.mark.parametrize(
    "text",
    [
        "3*4",
        "3 * 4 = 12",
        "snake_case_word",
        "C#",
        "C# and F#",
        "a_b_c",
        "AT&T",
        "x < y and y > z",
        "see [1] and [2] here",
        "see [1]",
        "[citation needed]",
        "100% - 5",
        "1.5 billion",
        "~/path",
        "a~b",
        "~5 minutes",
        "price: $5 (approx.)",
        "end.",
        "C:\\Users",
    ],
)
def test_ordinary_text_is_not_escaped(text: str) -> None:
    html = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert md(f"<p>{html}</p>") == text + "\n"


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("*not emphasis*", "\\*not emphasis\\*"),
        ("**not strong**", "\\*\\*not strong\\*\\*"),
        ("2*3*4", "2\\*3\\*4"),
        ("_not emphasis_", "\\_not emphasis\\_"),
        ("__init__", "\\_\\_init\\_\\_"),
        ("`tick`", "\\`tick\\`"),
        ("[text](url)", "[text\\](url)"),
        ("[ref]: /url", "[ref\\]: /url"),
        ("&lt;div&gt;", "\\<div>"),
        ("&lt;/p&gt;", "\\</p>"),
        ("&amp;copy;", "\\&copy;"),
        ("&amp;#42;", "\\&#42;"),
        ("back\\*slash", "back\\\\\\*slash"),
        ("trailing\\", "trailing\\\\"),
        ("~~struck~~", "\\~\\~struck\\~\\~"),
        ("~/path and a~b", "\\~/path and a\\~b"),
    ],
)
def test_inline_metacharacters_escaped(html: str, expected: str) -> None:
    assert md(f"<p>{html}</p>") == expected + "\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# not a heading", "\\# not a heading"),
        ("###### six", "\\###### six"),
        ("#hashtag", "#hashtag"),
        ("> not a quote", "\\> not a quote"),
        ("- not a list", "\\- not a list"),
        ("+ not a list", "\\+ not a list"),
        ("* not a list", "\\* not a list"),
        ("-minus", "-minus"),
        ("1. not a list", "1\\. not a list"),
        ("2024. A year", "2024\\. A year"),
        ("3) not a list", "3\\) not a list"),
        ("1.5 apples", "1.5 apples"),
        ("---", "\\---"),
        ("===", "\\==="),
        ("- - -", "\\- - -"),
    ],
)
def test_line_start_constructs_escaped(text: str, expected: str) -> None:
    html = text.replace(">", "&gt;")
    assert md(f"<p>{html}</p>") == expected + "\n"


def test_bracket_forming_a_link_across_elements_escaped() -> None:
    assert md("<p><i>x</i>[a]<b></b>(b)</p>") == "*x*[a\\](b)\n"
    assert md('<p>[<a href="/u">1</a>]</p>') == "[[1](/u)]\n"
    assert md("<p>[a]<br>(b)</p>") == "[a]\\\n(b)\n"


def test_line_start_escaped_after_a_line_break() -> None:
    assert md("<p>a<br># b<br>- c</p>") == "a\\\n\\# b\\\n\\- c\n"


def test_line_start_escape_only_at_line_start() -> None:
    assert md("<p>a # b - c 1. d</p>") == "a # b - c 1. d\n"


def test_emphasis_characters_inside_emphasis_are_escaped() -> None:
    assert md("<p><em>x 3*4 y</em></p>") == "*x 3\\*4 y*\n"


def test_brackets_in_link_text_escaped() -> None:
    assert md('<a href="/u">a [b] c</a>') == "[a \\[b\\] c](/u)\n"


def test_code_is_never_escaped() -> None:
    assert md("<p><code>*a* _b_ [c](d) \\e #f</code></p>") == "`*a* _b_ [c](d) \\e #f`\n"


def test_headings_escape_only_their_end() -> None:
    assert md("<h2># of items</h2>") == "## # of items\n"
    assert md("<h2>- dash</h2>") == "## - dash\n"
