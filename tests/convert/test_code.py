"""Code is verbatim: what is inside ``<pre>`` comes back byte for byte once the Markdown is
rendered (markdown-it-py), wherever the block sits; code spans and languages too."""

from __future__ import annotations

import html as html_lib

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from webtap.convert import convert
from webtap.fetch import paginate, split_lines

RENDERER = MarkdownIt("commonmark").enable("table").enable("strikethrough")

# Where a code block can sit: each wraps the <pre> in containers the Markdown must prefix.
PLACES = {
    "top": "{}",
    "list item": "<ul><li>{}</li></ul>",
    "second item": "<ul><li>first</li><li><p>text</p>{}</li></ul>",
    "ordered item": "<ol start=9><li>{}</li></ol>",
    "nested list": "<ul><li>a<ul><li>b<ol><li>{}</li></ol></li></ul></li></ul>",
    "quote": "<blockquote>{}</blockquote>",
    "quote in item": "<ol><li><blockquote><p>q</p>{}</blockquote></li></ol>",
}


def rendered_code(markdown: str) -> list[str]:
    """The text of every code block once ``markdown`` is rendered to HTML."""
    root = lxml.html.fragment_fromstring(RENDERER.render(markdown), create_parent="div")
    return ["".join(pre.itertext()) for pre in root.iter("pre")]


def round_trip(code: str, place: str = "{}", attrs: str = "") -> str:
    page = place.format(f"<pre{attrs}><code>{html_lib.escape(code)}</code></pre>")
    markdown = convert(page).markdown
    (got,) = rendered_code(markdown)
    return got


def expected(code: str) -> str:
    """Markdown can only end a code block with a newline; ``\\r`` is a line end there."""
    code = code.replace("\r\n", "\n").replace("\r", "\n")
    return code if code.endswith("\n") else code + "\n"


CASES = {
    "four newlines": "chunk1\n\n\n\nchunk3",
    "two blank lines between functions": "def f():\n    pass\n\n\ndef g():\n    pass\n",
    "trailing spaces": "foo  \nbar \n",
    "tabs": "\tindented\n\t\tdeeper\tinner\t\n",
    "leading spaces": "    four\n  two\n        eight\n",
    "blank lines first and last": "\n\nbody\n\n\n",
    "whitespace-only lines": "a\n   \n\t\nb",
    "backtick fences inside": "```\n````python\nx\n````\n```",
    "tilde fences inside": "~~~\ncode\n~~~",
    "markdown inside": "# not a heading\n- not a list\n> not a quote\n---\n*a* [b](c) <d>",
    "html entities": "&amp; &lt;tag&gt; \\ \\\\",
    "form feed": "page one\n\x0c\npage two",
    "crlf": "a\r\nb\r\n\r\nc",
    "unicode": "ὐ\ta — 日本語 🐍\u00a0nbsp",
}


@pytest.mark.parametrize("place", PLACES.values(), ids=PLACES.keys())
@pytest.mark.parametrize("code", CASES.values(), ids=CASES.keys())
def test_pre_text_round_trips_byte_for_byte(code: str, place: str) -> None:
    assert round_trip(code, place) == expected(code)


def test_issue_examples_exactly() -> None:
    markdown = convert("<pre><code>chunk1\n\n\n\nchunk3</code></pre>").markdown
    assert markdown == "```\nchunk1\n\n\n\nchunk3\n```\n"
    assert convert("<pre>foo  </pre>").markdown == "```\nfoo  \n```\n"
    assert convert("<pre>\tx\n  y</pre>").markdown == "```\n\tx\n  y\n```\n"


def test_newline_right_after_pre_is_not_code() -> None:
    # The HTML parsing rule browsers follow (libxml2 does not): one newline after <pre> goes.
    assert convert("<pre>\nx</pre>").markdown == "```\nx\n```\n"
    assert convert("<pre>\n\nx</pre>").markdown == "```\n\nx\n```\n"
    assert convert("<pre><code>\nx</code></pre>").markdown == "```\n\nx\n```\n"


def test_br_in_pre_is_a_newline() -> None:
    assert convert("<pre>a<br>b<br><br>c  <br></pre>").markdown == "```\na\nb\n\nc  \n```\n"


def test_whitespace_only_pre_is_an_empty_block() -> None:
    # A browser shows the (empty) box; its blank lines are not kept.
    assert convert("<p>a</p><pre> \n\t\n </pre><p>b</p>").markdown == "a\n\n```\n```\n\nb\n"


def test_fence_outgrows_the_code_and_paging_keeps_its_lines() -> None:
    code = "``````\nx\n\n\n```"
    markdown = convert(f"<pre>{code}</pre>").markdown
    assert markdown.split("\n")[0] == "```````"
    lines = split_lines(markdown)
    assert len(lines) == code.count("\n") + 1 + 2  # code lines and two fences
    pages = [paginate(markdown, offset, 2)[0] for offset in range(1, len(lines) + 1, 2)]
    assert "".join(pages) == markdown


@pytest.mark.parametrize(
    ("attrs", "language"),
    [
        (' class="language-föö"', "föö"),
        (' class="lang-Ελληνικά"', "ελληνικά"),
        (' data-lang="c++"', "c++"),
        (' class="language-objective-c"', "objective-c"),
        (' class="language-a`b"', "a"),  # a backtick would end the fence's info string
    ],
)
def test_language_is_kept_whole(attrs: str, language: str) -> None:
    markdown = convert(f"<pre{attrs}>x</pre>").markdown
    assert markdown == f"```{language}\nx\n```\n"
    root = lxml.html.fragment_fromstring(RENDERER.render(markdown), create_parent="div")
    assert root.find(".//code").get("class") == f"language-{language}"


def test_list_item_holding_only_a_rule_stays_in_its_list() -> None:
    for page in (
        "<ul><li>a</li><li><hr></li><li>b</li></ul>",
        "<ul><li><hr></li></ul>",
        "<ul><li>a<ul><li><hr></li></ul></li></ul>",
        "<p>text</p><ul><li><hr></li></ul>",
        "<ol><li>a</li><li><hr></li></ol>",
    ):
        markdown = convert(page).markdown
        rendered = lxml.html.fragment_fromstring(RENDERER.render(markdown), create_parent="div")
        source = lxml.html.fragment_fromstring(page, create_parent="div")
        assert [el.tag for el in rendered.iter()] == [el.tag for el in source.iter()], markdown
    assert convert("<ul><li><hr></li></ul>").markdown == "- ___\n"
    assert convert("<p>a</p><hr>").markdown == "a\n\n---\n"


@pytest.mark.parametrize("spaces", [" ", "  ", "    "])
def test_code_span_of_spaces_keeps_them(spaces: str) -> None:
    for page in (f"<p>a <code>{spaces}</code> b</p>", f"<h3>a<code>{spaces}</code></h3>"):
        markdown = convert(page).markdown
        root = lxml.html.fragment_fromstring(RENDERER.render(markdown), create_parent="div")
        assert root.find(".//code").text == spaces, markdown
    cell = f"<table><tr><th>h</th></tr><tr><td><code>{spaces}</code></td></tr></table>"
    assert f"| `{spaces}` |" in convert(cell).markdown


def test_code_span_whitespace_still_collapses() -> None:
    assert convert("<p><code>a \n  b</code></p>").markdown == "`a b`\n"
    assert convert("<p>x<code>\n</code>y</p>").markdown == "xy\n"


CODE_TEXT = st.text(
    alphabet=st.sampled_from([*"ab`~ \t\n\\*#>-+1.[]<&;|_=", "é", "ὐ", "\x0c", "\xa0", "🐍"]),
    max_size=80,
)


@settings(max_examples=300, deadline=None)
@given(code=CODE_TEXT, place=st.sampled_from(sorted(PLACES.values())))
def test_random_code_round_trips(code: str, place: str) -> None:
    if not code.strip():
        markdown = convert(place.format(f"<pre>{html_lib.escape(code)}</pre>")).markdown
        assert markdown.count("```") == 2  # an empty block
        return
    assert round_trip(code, place) == expected(code)
