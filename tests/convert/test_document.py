"""Titles, absolute URLs, encodings: what the fetch tool relies on besides the Markdown."""

from __future__ import annotations

import pytest

from webtap.convert import EMPTY, Document, Facts, convert


def md(html: str | bytes, base_url: str | None = None) -> str:
    return convert(html, base_url).markdown


def title(html: str | bytes) -> str:
    return convert(html).title


# -- title -----------------------------------------------------------------------------------


def test_title_from_title_element() -> None:
    assert title("<head><title>  The\n  Title </title></head><h1>Heading</h1>") == "The Title"


def test_title_falls_back_to_og_title() -> None:
    html = '<head><meta property="og:title" content="Open  Graph"></head><h1>H</h1>'
    assert title(html) == "Open Graph"


def test_title_falls_back_to_first_h1() -> None:
    assert title("<h2>two</h2><h1> First <b>one</b></h1><h1>second</h1>") == "First one"


def test_empty_title_element_falls_through() -> None:
    assert title("<title> </title><h1>H</h1>") == "H"


def test_hidden_h1_is_not_the_title() -> None:
    assert title("<h1 hidden>secret</h1><h1>shown</h1>") == "shown"


def test_svg_title_is_not_the_page_title() -> None:
    assert title("<body><svg><title>icon</title></svg><h1>Page</h1></body>") == "Page"


def test_no_title() -> None:
    assert title("<p>just text</p>") == ""


def test_title_is_not_in_the_markdown() -> None:
    assert convert("<title>T</title><p>body</p>") == Document("T", "body\n", facts=Facts(1))


# -- URLs ------------------------------------------------------------------------------------


BASE = "https://example.com/docs/page.html?q=1"


def test_relative_links_made_absolute() -> None:
    assert md('<a href="other.html">o</a>', BASE) == "[o](https://example.com/docs/other.html)\n"
    assert md('<a href="/root">r</a>', BASE) == "[r](https://example.com/root)\n"
    assert md('<a href="../up">u</a>', BASE) == "[u](https://example.com/up)\n"
    assert md('<a href="//cdn.net/x">c</a>', BASE) == "[c](https://cdn.net/x)\n"
    assert md('<a href="#frag">f</a>', BASE) == "[f](https://example.com/docs/page.html?q=1#frag)\n"


def test_absolute_links_untouched() -> None:
    assert md('<a href="http://other.org/a">a</a>', BASE) == "[a](http://other.org/a)\n"
    assert md('<a href="mailto:me@x.org">m</a>', BASE) == "[m](mailto:me@x.org)\n"


def test_images_made_absolute() -> None:
    assert md('<img src="img/a.png" alt="a">', BASE) == "![a](https://example.com/docs/img/a.png)\n"


def test_base_href_wins_over_page_url() -> None:
    html = '<head><base href="https://cdn.example.org/v2/"></head><a href="x">x</a>'
    assert md(html, BASE) == "[x](https://cdn.example.org/v2/x)\n"


def test_relative_base_href_resolved_against_page_url() -> None:
    html = '<head><base href="/static/"></head><a href="x">x</a><img src="i.png">'
    assert (
        md(html, BASE) == "[x](https://example.com/static/x)![](https://example.com/static/i.png)\n"
    )


def test_base_href_without_page_url() -> None:
    assert md('<base href="https://b.org/d/"><a href="x">x</a>') == "[x](https://b.org/d/x)\n"


def test_without_base_links_stay_relative() -> None:
    assert md('<a href="x/y">x</a>') == "[x](x/y)\n"


def test_whitespace_in_href_removed() -> None:
    assert md('<a href="  /a\n/b  ">x</a>', BASE) == "[x](https://example.com/a/b)\n"


def test_malformed_url_kept_as_is() -> None:
    assert md('<a href="http://[broken/x">x</a>', BASE) == "[x](http://[broken/x)\n"


# -- input forms -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "empty", ["", "   \n\t ", b"", b"  ", "<!-- only a comment -->", "<html></html>"]
)
def test_empty_documents(empty: str | bytes) -> None:
    assert convert(empty) == Document("", "", state=EMPTY)


def test_plain_text_is_a_paragraph() -> None:
    assert md("just some text") == "just some text\n"


def test_bytes_utf8() -> None:
    assert md("<p>Malmö – naïve</p>".encode()) == "Malmö – naïve\n"


def test_bytes_with_declared_charset() -> None:
    html = '<meta charset="iso-8859-1"><p>Malmö</p>'.encode("latin-1")
    assert md(html) == "Malmö\n"


def test_bytes_with_utf16_bom() -> None:
    assert md("<p>wide</p>".encode("utf-16")) == "wide\n"


def test_str_with_xml_declaration() -> None:
    html = '<?xml version="1.0" encoding="utf-8"?><html><body><p>x</p></body></html>'
    assert md(html) == "x\n"


def test_str_with_bom_and_nul() -> None:
    assert md("\ufeff<p>a\x00b</p>") == "a\ufffdb\n"


def test_lone_surrogates_do_not_crash() -> None:
    assert md("<p>a\ud800b</p>") == "a?b\n"


def test_deterministic() -> None:
    html = "<h1>x</h1><ul><li>a</li></ul><table><tr><td>1</td><td>2</td></tr></table>"
    assert len({md(html, BASE) for _ in range(5)}) == 1


def test_converter_converts_any_element_without_its_tail() -> None:
    """What main-content extraction relies on: one element of the cleaned page converted."""
    from webtap.convert._html import clean, parse
    from webtap.convert._markdown import MarkdownConverter

    root = parse("<div><p>menu</p><article><h2>T</h2><p>a <a href=x>b</a></p></article>tail</div>")
    clean(root)
    article = root.find(".//article")
    assert MarkdownConverter(BASE).convert(article) == "## T\n\na [b](https://example.com/docs/x)\n"
    assert MarkdownConverter().convert(root.find(".//h2")) == "## T\n"


def test_soft_hyphens_leave_the_words_whole() -> None:
    # A line-breaking hint inside words (&shy;), which a word-by-word reader sees as a break.
    page = "<title>Ré&shy;action</title><p>En réac&shy;tion à la can\u00addi\u00adda\u00adture.</p>"
    document = convert(page)
    assert (document.title, document.markdown) == ("Réaction", "En réaction à la candidature.\n")
