"""Hostile input: deep nesting, big pages, bytes that are not HTML, random markup."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webtap.convert import convert

DEPTH = 100_000


def test_deeply_nested_divs(invariants: Callable[[str], None]) -> None:
    html = "<div>" * DEPTH + "deep" + "</div>" * DEPTH + "<p>after</p>"
    doc = convert(html)
    assert doc.markdown == "deep\n\nafter\n"


def test_deeply_nested_unclosed_tags() -> None:
    for tag in ("div", "span", "b", "a href=x", "table"):
        doc = convert(f"<{tag}>" * DEPTH + "text")
        assert "text" in doc.markdown


def test_many_void_elements_libxml2_nests() -> None:
    # libxml2 nests what follows <source>, <embed>, <track>, <wbr> inside them: 50 000 of
    # them in a row are 50 000 levels deep, and no text after them may be lost.
    for tag in ("source srcset=a.jpg", "embed", "track", "wbr"):
        markdown = convert(f"<p>{f'<{tag}>x' * 50_000}</p><p>end</p>").markdown
        assert markdown.count("x") == 50_000
        assert markdown.endswith("end\n")  # the tags past depth 1000 are gone, the text is not
    html = "<picture>" + "<source srcset=a.jpg>" * 50_000 + "<img alt=z></picture>"
    assert convert(html).markdown == "![z](a.jpg)\n"


def test_deeply_nested_lists_and_quotes(invariants: Callable[[str], None]) -> None:
    for html in ("<ul><li>" * DEPTH + "x", "<blockquote>" * DEPTH + "x", "<ol><li>x" * DEPTH):
        markdown = convert(html).markdown
        invariants(markdown)
        assert markdown.rstrip().endswith("x")
        # Indentation stops growing past a sane depth instead of growing without bound.
        prefixes = [
            len(line) - len(line.lstrip(" >-*0123456789.")) for line in markdown.split("\n")
        ]
        assert max(prefixes) < 400


def test_deeply_nested_inline_wrappers(invariants: Callable[[str], None]) -> None:
    markdown = convert("<sup><em><a href='/x'>" * 20_000 + "x").markdown
    invariants(markdown)
    assert "x" in markdown


def test_large_page(invariants: Callable[[str], None]) -> None:
    prose = "Plain prose that makes up most of a real article's bytes, and more of it. " * 130
    paragraph = f"<p>Some <b>bold</b> text, <a href='/l'>a link</a>, <code>x</code>. {prose}</p>\n"
    count = 50_000_000 // len(paragraph)
    html = "<html><body>" + paragraph * count + "</body></html>"  # 50 MB
    markdown = convert(html, "https://example.com/").markdown
    invariants(markdown)
    assert markdown.count("**bold**") == count
    assert markdown.count("[a link](https://example.com/l)") == count


def test_markup_dense_page(invariants: Callable[[str], None]) -> None:
    item = "<li><a href='/a'>link</a> <b>b</b></li>"
    html = "<ul>" + item * 20_000 + "</ul><table>" + "<tr><td>a</td><td>b</td></tr>" * 10_000
    markdown = convert(html + "</table>").markdown
    invariants(markdown)
    assert markdown.count("- [link](/a) **b**\n") == 20_000
    assert markdown.count("| a | b |\n") == 10_000


def test_big_text_node_and_big_pre(invariants: Callable[[str], None]) -> None:
    words = "word " * 1_000_000
    lines = "line\n" * 100_000
    markdown = convert(f"<p>{words}</p><pre>{lines}</pre>").markdown
    invariants(markdown)
    assert markdown.startswith("word word")
    assert markdown.count("line\n") == 100_000


def test_random_bytes_never_raise(invariants: Callable[[str], None]) -> None:
    rng = random.Random(1234)
    for size in (1, 2, 10, 100, 1_000, 100_000):
        for _ in range(5):
            data = bytes(rng.getrandbits(8) for _ in range(size))
            invariants(convert(data).markdown)
            invariants(convert(data.decode("latin-1")).markdown)


def test_binary_formats_never_raise(invariants: Callable[[str], None]) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 10
    gzip_magic = b"\x1f\x8b\x08\x00" + bytes(range(255, -1, -1)) * 10
    pdf = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<</Type/Catalog>>endobj\n" * 50
    for data in (png, gzip_magic, pdf, b"\x00" * 1000, b"\xff\xfe" + b"\x00<\x00p" * 100):
        invariants(convert(data).markdown)


def test_malformed_markup(invariants: Callable[[str], None]) -> None:
    for html in (
        "<p><b>unclosed <i>tags <a href='x'>everywhere",
        "</p></div></b>only closers</td></tr>",
        "<table><td>cell without row<li>item without list<dd>def</table>",
        "<<<>>><p<p>>x</p></p>",
        '<a href="x"><a href="y">nested links</a></a>',
        "<ul><li><table><tr><td><pre>pre<h1>h1 in pre</h1></pre></td></tr></table></li></ul>",
        "<h1><h2><h3>nested headings</h3></h2></h1>",
        "<pre><pre><code><pre>pre in pre</pre></code></pre></pre>",
        "<b><p>a</b>b</p>",
        "<math><mi>x</mi></math><svg><p>svg p</p></svg>",
        "<td rowspan=999999999 colspan=-5>x</td>",
        "<ol start=-99999999999999999999><li>x</ol>",
    ):
        invariants(convert(html).markdown)


TAGS = [
    "p", "div", "span", "a", "b", "i", "em", "strong", "code", "pre", "ul", "ol", "li",
    "dl", "dt", "dd", "h1", "h3", "blockquote", "table", "tr", "td", "th", "br", "hr",
    "img", "sup", "del", "details", "summary", "figure", "figcaption", "q", "kbd", "x-y",
]  # fmt: skip
ATTRS = ["", ' href="/x"', ' href="javascript:x"', ' src="i.png"', ' alt="a*b"', " hidden",
         ' class="language-py"', ' colspan="3"', ' start="5"', ' aria-hidden="true"']  # fmt: skip
TEXT = st.text(alphabet=st.sampled_from(list("ab *_`#>-+1.[]()!\\|~<&;\n\t \xa0é")), max_size=12)


@st.composite
def markup(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.integers(0, 2))
        if kind == 0:
            parts.append(f"<{draw(st.sampled_from(TAGS))}{draw(st.sampled_from(ATTRS))}>")
        elif kind == 1:
            parts.append(f"</{draw(st.sampled_from(TAGS))}>")
        else:
            parts.append(draw(TEXT).replace("<", "&lt;").replace("&", "&amp;"))
    return "".join(parts)


# The invariants fixture is a pure function: sharing it between examples is safe.
_SHARED_FIXTURE = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


@settings(max_examples=400, deadline=None, suppress_health_check=_SHARED_FIXTURE)
@given(html=markup())
def test_random_markup_keeps_invariants(html: str, invariants: Callable[[str], None]) -> None:
    doc = convert(html, "https://example.com/a/")
    invariants(doc.markdown)
    assert doc.title == " ".join(doc.title.split())
    assert convert(html, "https://example.com/a/") == doc  # deterministic


@settings(max_examples=200, deadline=None, suppress_health_check=_SHARED_FIXTURE)
@given(data=st.binary(max_size=300))
def test_random_bytes_keep_invariants(data: bytes, invariants: Callable[[str], None]) -> None:
    invariants(convert(data).markdown)


def test_threads_convert_independently(real_page: bytes) -> None:
    """The SQL functions fetch concurrently: no state is shared between conversions."""
    expected = convert(real_page, "https://example.com/")
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: convert(real_page, "https://example.com/"), range(8)))
    assert all(result == expected for result in results)


def test_a_php_servers_error_messages_are_not_the_page() -> None:
    # What PHP prints where its server failed: before <html>, or inside the page's markup.
    messages = (
        "<br />\n<b>Warning</b>:  include(./banner.php): failed to open stream: No such file or "
        "directory in <b>/home/site/public_html/include/focus.php</b> on line <b>38</b><br />\n"
        "<br />\n<b>Strict Standards</b>:  Redefining already defined constructor for class "
        "wpdb in <b>/www/htdocs/wp-includes/wp-db.php</b> on line <b>56</b><br />\n"
    )
    page = messages + "<html><body><h1>Malaga</h1><p>Spain has a lot to offer.</p>"
    page += messages + "<p>The warnings in this sentence stay on line one.</p></body></html>"
    for main_content in (False, True):
        markdown = convert(page, main_content=main_content).markdown
        assert "Malaga" in markdown and "The warnings in this sentence stay" in markdown
        assert "php" not in markdown and "Warning" not in markdown and "wpdb" not in markdown
