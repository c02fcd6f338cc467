"""The page's title heading leads its main content (``convert(main_content=True)``): a
heading above the block that scored best is put back before it, once; a site's logo is not."""

from __future__ import annotations

from webtap.convert import Document, convert

PROSE = (
    "The committee met on Tuesday to discuss the budget, which had grown by a third since "
    "last year, and agreed to cut spending on roads, parks and libraries by the same amount."
)
BODY = "".join(f"<p>Point {i}. {PROSE}</p>" for i in range(4))


def main(body: str, title: str = "App") -> Document:
    html = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    doc = convert(html, main_content=True)
    assert doc.trimmed, "expected the main content, got the whole page"
    return doc


def test_script_built_article_keeps_its_heading() -> None:
    doc = main(f"<article><h1>Rendered Title</h1>{BODY}</article>")
    assert doc.markdown.startswith("# Rendered Title\n\nPoint 0.")


def test_heading_above_a_div_of_paragraphs_leads() -> None:
    doc = main(f"<h1>Rendered Title</h1><div>{BODY}</div><footer>Copyright 2024</footer>")
    assert doc.markdown.startswith("# Rendered Title\n\nPoint 0.")


def test_heading_in_main_stays_first() -> None:
    doc = main(f"<main><h1>Rendered Title</h1>{BODY}</main>")
    assert doc.markdown.startswith("# Rendered Title\n\nPoint 0.")


def test_heading_saying_the_title_leads_among_several() -> None:
    doc = main(
        f"<h1>Budget cut for roads and parks</h1><div>{BODY}</div><h1>Elsewhere</h1>",
        title="Budget cut for roads and parks | The Daily",
    )
    assert doc.markdown.startswith("# Budget cut for roads and parks\n\nPoint 0.")


def test_a_logo_heading_in_the_header_is_not_pulled() -> None:
    doc = main(f'<header><h1><a href="/">Daily Site</a></h1></header><div>{BODY}</div>')
    assert "Daily Site" not in doc.markdown
    assert doc.markdown.startswith("Point 0.")


def test_content_holding_its_title_keeps_one_copy() -> None:
    doc = main(
        f"<h1>Budget cut for roads and parks</h1>"
        f"<div><h2>Budget cut for roads and parks</h2>{BODY}</div>",
        title="Budget cut for roads and parks",
    )
    assert doc.markdown.count("Budget cut for roads and parks") == 1


def test_heading_below_the_content_is_not_moved_up() -> None:
    doc = main(f"<div>{BODY}</div><div><h1>Comments</h1></div>")
    assert doc.markdown.startswith("Point 0.")


def test_the_only_h1_leads_when_the_title_is_worded_as_a_subheading() -> None:
    doc = main(
        f"<header><h1>Road budget explained</h1></header>"
        f"<div><h2>Which roads lose their budget?</h2>{BODY}</div>",
        title="Which roads lose their budget? | The Daily",
    )
    assert doc.markdown.startswith("# Road budget explained\n\n## Which roads lose their budget?")


def test_a_threads_title_leads_its_posts() -> None:
    from tests.convert.test_threads import POSTS, discourse_like

    doc = convert(discourse_like(), main_content=True)
    assert doc.markdown.startswith("# Upgrading with an old config file\n\n")
    assert doc.markdown.count("Upgrading with an old config file") == 1
    assert POSTS[0][2] in doc.markdown
