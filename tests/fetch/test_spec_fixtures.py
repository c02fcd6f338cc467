"""The spec system's own fixture pages through the real web-fetch-tool (issue 32: its cases
may not newly fail). Each page exercises one conversion of the spec's HTML -> Markdown
mapping; the tool's default, main content, must give all that the page says."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.usefixtures("allow_private")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ikigai"

EXPECTED = {
    "comments.html": ("Comments Test", "Visible text"),
    "scripts.html": ("Scripts Test", "Visible content\n\nMore visible content"),
    "style_only.html": ("Style Only", "Content with style but no script"),
    "simple.html": (
        "Test Page",
        "# Main Heading\n\nThis is a paragraph.\n\n## Subheading\n\n"
        "Another paragraph with **bold** and *italic* text.",
    ),
    "headings.html": (
        "All Headings Test",
        "\n\n".join(f"{'#' * n} Heading {n}" for n in range(1, 7)),
    ),
    "lists.html": ("Lists Test", "# Shopping List\n\n- Apples\n- Bananas\n- Oranges"),
    "formatting.html": (
        "Formatting Test",
        "Text with `inline code` and **bold *bold italic* text**.\n\nLine break here\\\nnext line",
    ),
    "link_with_href.html": ("Link Test", "Here is [a link](https://example.com) with href."),
    "more_elements.html": (
        "More Elements Test",
        "# Testing More HTML Elements\n\nText with **bold tag** instead of strong.\n\n"
        "Text with *italic tag* instead of em.\n\n1. First ordered item\n2. Second ordered item\n"
        "3. Third ordered item\n\nAfter nav element.",
    ),
    # An empty <title>: the page's heading names it.
    "edge_cases.html": (
        "Edge Cases",
        "# Edge Cases\n\nLink with no href: clickable text.\n\nEmpty title above.",
    ),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_fixture_page_converts_as_the_mapping_says(name: str, site, fetch_tool) -> None:
    url = site.page(f"/{name}", (FIXTURES / name).read_text("utf-8"))
    response = fetch_tool(url)
    title, content = EXPECTED[name]
    assert response["success"] is True
    assert (response["title"], response["content"].strip()) == (title, content)


def test_a_relative_link_is_made_absolute_against_the_page(site, fetch_tool) -> None:
    url = site.page("/links.html", (FIXTURES / "links.html").read_text("utf-8"))
    content = fetch_tool(url)["content"]
    assert "[this link](https://example.com)" in content
    assert f"[local link]({site.url('/local/path')})" in content


def test_the_large_page_keeps_all_twenty_identical_paragraphs(site, fetch_tool) -> None:
    # An author's repeats: twenty identical paragraphs in one flow stay twenty.
    url = site.page("/large.html", (FIXTURES / "large.html").read_text("utf-8"))
    response = fetch_tool(url)
    paragraphs = response["content"].strip().split("\n\n")
    assert len(paragraphs) == 20
    assert {len(p) for p in paragraphs} == {len(paragraphs[0])} and set(paragraphs[0]) == {"A"}
    assert response["total_lines"] == 39
