"""Main content that comes out short: kept when it is a piece whole under its title heading
(a news brief, a notice), else the page read again, without its chrome when that is told."""

from __future__ import annotations

from webtap.convert import convert

BRIEF = (
    "The bridge on Mill Road reopened this morning after two weeks of repairs, the council "
    "said. Buses return to their old routes on Monday, and the footpath opens again in May. "
    "Cyclists may use it from today."
)
RELATED = "".join(
    f'<li><a href="/post{i}">Older post number {i} about the town and its people</a> '
    f"<span>{i} March 2023</span></li>"
    for i in range(15)
)


def menu(word: str, count: int = 12) -> str:
    items = "".join(f'<li><a href="/{word}{i}">{word} {i}</a></li>' for i in range(count))
    return f"<nav><ul>{items}</ul></nav>"


def page(article: str) -> str:
    return (
        "<html><head><title>Bridge reopens</title></head><body>"
        f"<header>{menu('Section')}</header><article>{article}</article>"
        f'<aside class="widget"><h3>Related posts</h3><ul>{RELATED}</ul></aside>'
        '<div class="comments"><p>Comments are closed.</p></div>'
        f"<footer>{menu('Footer', 20)}</footer></body></html>"
    )


def test_a_short_piece_under_its_title_stays_alone() -> None:
    # A news brief: its title heading, a date line and one paragraph. The blog's related
    # posts outweigh it, but the brief is all the page says.
    doc = convert(
        page(f"<h1>Bridge reopens</h1><p>12 March 2024</p><p>{BRIEF}</p>"), main_content=True
    )
    assert doc.trimmed
    assert doc.markdown.startswith("# Bridge reopens")
    assert BRIEF in doc.markdown
    assert "Related posts" not in doc.markdown
    assert "Comments are closed" not in doc.markdown


def test_a_title_over_a_byline_alone_is_no_piece() -> None:
    # The title over a byline and a date says nothing: the story is elsewhere on the page
    # (a slideshow's captions), which is read again.
    doc = convert(
        page("<h1>Bridge reopens</h1><p>Town Desk |</p><p>12 March 2024, 09:30</p>"),
        main_content=True,
    )
    assert "Older post number 14" in doc.markdown


def test_short_text_under_no_heading_is_no_piece() -> None:
    doc = convert(page(f"<p>{BRIEF}</p>"), main_content=True)
    assert BRIEF in doc.markdown
    assert "Older post number 14" in doc.markdown


def test_the_page_read_again_leaves_its_menus_out() -> None:
    # A bar of short links above the page (no <nav> says so): chrome, left out of the page
    # read again in place of short main content, which stays with the rest.
    links = "".join(f'<a href="/s{i}">Section {i}</a> ' for i in range(15))
    html = page(f"<p>{BRIEF}</p>").replace("<body>", f'<body><div class="bar">{links}</div>')
    doc = convert(html, main_content=True)
    assert doc.trimmed
    assert "Section 3" not in doc.markdown
    assert BRIEF in doc.markdown and "Older post number 14" in doc.markdown
