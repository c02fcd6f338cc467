"""Markdown rendered back to HTML (markdown-it-py, CommonMark + GFM tables/strikethrough)
says what the page said: same structure for constructed documents, same words for real ones.
"""

from __future__ import annotations

import gzip
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import lxml.html
import pytest
from markdown_it import MarkdownIt

from webtap.convert import convert
from webtap.convert._html import clean, parse

RENDERER = MarkdownIt("commonmark").enable("table").enable("strikethrough")


def canonical(html: str) -> str:
    """HTML in one spelling: entities, void-tag syntax, whitespace between tags and the
    trailing newline of code blocks do not count; ``<s>`` is ``<del>``."""
    root = lxml.html.fragment_fromstring(html, create_parent="div")
    for el in root.iter():
        if el.tag == "s":
            el.tag = "del"
        if el.tag == "pre" and el.find("code") is None:
            code = lxml.html.Element("code")
            code.text, el.text = el.text, None
            el.append(code)
        if el.tag == "code" and el.getparent().tag == "pre":
            el.text = (el.text or "").rstrip("\n")
            continue
        el.text = " ".join(el.text.split()) if el.text and el.text.strip() else None
        el.tail = " " + " ".join(el.tail.split()) if el.tail and el.tail.strip() else None
        if el.tail and el.getprevious() is None and el.getparent() is not None:
            pass
    text = lxml.html.tostring(root, encoding="unicode")
    return re.sub(r"\s*(<br>)\s*", r"\1", text)


def render(markdown: str) -> str:
    return canonical(RENDERER.render(markdown))


@pytest.mark.parametrize(
    "html",
    [
        '<h1>Title <em>x</em></h1><p>a <strong>b</strong> <a href="https://u.org/">c</a></p>',
        '<h2><a href="https://u.org/x">Linked</a> heading</h2>',
        "<p>*a* _b_ [c](d) # e `f` &lt;g&gt; \\h 3*4 snake_case 1. x</p>",
        "<p># heading?</p><p>- item?</p><p>1. item?</p><p>&gt; quote?</p><p>---</p>",
        "<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>",
        '<ol start="3"><li>three</li><li>four</li></ol>',
        "<blockquote><p>quoted</p><blockquote><p>twice</p></blockquote></blockquote>",
        "<pre><code class=\"language-python\">def f():\n    return '```'\n</code></pre>",
        "<p>code <code>a`b</code> and <code>``</code></p>",
        "<p>x<sup>2</sup> H<sub>2</sub>O <del>gone</del></p>",
        "<p>line<br>break</p>",
        "<hr>",
        '<p><img src="https://u.org/i.png" alt="pic"></p>',
        "<table><thead><tr><th>a</th><th>b|c</th></tr></thead>"
        "<tbody><tr><td>1</td><td><code>x</code></td></tr></tbody></table>",
        "<p>Byte<em><code>n</code></em> and <strong>Note:</strong>text</p>",
        "<ul><li><p>para</p><pre><code>code</code></pre></li><li><p>next</p></li></ul>",
        '<p><a href="https://u.org/?a=1&amp;amp;b=2">double-escaped</a></p>',
    ],
)
def test_constructed_documents_round_trip(html: str) -> None:
    assert render(convert(html).markdown) == canonical(html)


# -- real pages -----------------------------------------------------------------------------


def words(text: str) -> Counter[str]:
    return Counter(re.findall(r"\w+", text))


def page_words(html: bytes) -> Counter[str]:
    root = parse(html)
    clean(root)
    for a in root.iter("a"):
        if (a.text or "").strip() == "¶":
            a.text = ""
    return words(" ".join(root.itertext()))


def test_real_page_invariants(real_page: bytes, invariants: Callable[[str], None]) -> None:
    doc = convert(real_page, "https://example.com/page.html")
    assert doc.title
    invariants(doc.markdown)


def test_real_page_words_survive_rendering(real_page: bytes) -> None:
    rendered = RENDERER.render(convert(real_page).markdown)
    text = " ".join(lxml.html.fromstring(f"<div>{rendered}</div>").itertext())
    source, output = page_words(real_page), words(text)
    missing = sum((source - output).values())
    extra = sum((output - source).values())
    assert missing <= 0.01 * sum(source.values()), (source - output).most_common(10)
    assert extra <= 0.01 * sum(output.values()), (output - source).most_common(10)


def test_real_page_has_no_markup_left_after_rendering(real_page: bytes) -> None:
    rendered = RENDERER.render(convert(real_page).markdown)
    root = lxml.html.fromstring(f"<div>{rendered}</div>")
    for code in root.iter("code"):
        code.text, code[:] = "", []
    text = " ".join(root.itertext())
    source = parse(real_page)
    clean(source)
    for code in source.iter("code", "pre"):
        code.text, code[:] = "", []
    source_text = " ".join(source.itertext())
    for markup in ("**", "](", "```", "\\"):
        assert text.count(markup) <= source_text.count(markup), markup


def test_docs_page_structure() -> None:
    path = Path(__file__).parent / "data" / "python-tutorial-controlflow.html.gz"
    html = gzip.decompress(path.read_bytes())
    doc = convert(html, "https://docs.python.org/3/tutorial/controlflow.html")
    assert doc.title.startswith("4. More Control Flow Tools")
    markdown = doc.markdown
    assert "# 4. More Control Flow Tools\n" in markdown
    assert "\n## 4.1. `if` Statements\n" in markdown
    assert '\n```python\n>>> x = int(input("Please enter an integer: "))\n' in markdown
    assert "[`range()`](https://docs.python.org/3/library/stdtypes.html#range)" in markdown


# -- escaping, exhaustively ---------------------------------------------------------------

_CHARS = [*"ab  *_`#>-+1.[]()!\\~&;<:=", "\xa0"]
_INLINE = ["b", "i", "code", "a", "del", "sup"]


def _random_inline(rng: random.Random, depth: int = 0) -> str:
    out = []
    for _ in range(rng.randint(1, 4)):
        if depth < 2 and rng.random() < 0.4:
            tag = rng.choice(_INLINE)
            attr = ' href="/u"' if tag == "a" else ""
            out.append(f"<{tag}{attr}>{_random_inline(rng, depth + 1)}</{tag}>")
        else:
            text = "".join(rng.choice(_CHARS) for _ in range(rng.randint(1, 8)))
            out.append(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    return "".join(out)


def test_punctuation_soup_renders_back_to_the_same_text() -> None:
    """Markdown metacharacters in every inline context: the rendered text is the page's."""
    rng = random.Random(20261122)
    for _ in range(1500):
        body = _random_inline(rng)
        block = rng.choice(["p", "li", "h2", "blockquote", "td"])
        if block == "li":
            html = f"<ul><li>{body}</li></ul>"
        elif block == "td":
            html = f"<table><tr><th>h</th></tr><tr><td>{body}</td></tr></table>"
        else:
            html = f"<{block}>{body}</{block}>"
        rendered = RENDERER.render(convert(html).markdown)
        got = "".join(lxml.html.fromstring(f"<div>{rendered}</div>").itertext())
        want = "".join(lxml.html.fromstring(f"<div>{html}</div>").itertext())
        assert "".join(got.split()) == "".join(want.split()), (html, convert(html).markdown)
