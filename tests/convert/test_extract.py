"""Main-content extraction (``convert(main_content=True)``) on small hand-written pages."""

from __future__ import annotations

from webtap.convert import Document, convert

PROSE = (
    "The committee met on Tuesday to discuss the budget, which had grown by a third since "
    "last year, and agreed to cut spending on roads, parks and libraries by the same amount."
)


def paragraphs(word: str, count: int = 4) -> str:
    return "".join(f"<p>{word} {i}. {PROSE}</p>" for i in range(count))


def menu(count: int = 12) -> str:
    return (
        "<ul>"
        + "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(count))
        + "</ul>"
    )


def test_article_without_menus_and_footer() -> None:
    page = (
        f"<html><head><title>T</title></head><body><div class=top>{menu()}</div>"
        f"<div class=story>{paragraphs('Body')}</div>"
        f"<div class=links>{menu()}<p>Copyright 2024 Example Media Group, all rights reserved.</p>"
        "</div></body></html>"
    )
    doc = convert(page, main_content=True)
    assert doc.trimmed is True
    assert doc.title == "T"
    assert "Body 0." in doc.markdown and "Body 3." in doc.markdown
    assert "Section" not in doc.markdown and "Copyright" not in doc.markdown


def test_whole_page_by_default() -> None:
    page = f"<body>{menu()}<div>{paragraphs('Body')}</div></body>"
    doc = convert(page)
    assert doc.trimmed is False
    assert "Section 1" in doc.markdown
    assert convert(page) == Document(doc.title, doc.markdown)
