"""Prose and page builders for the converter's hand-written test pages: paragraphs long enough
to read as content."""

from __future__ import annotations

from webtap.convert import Document, convert

FERRY = [
    "The ferry to the island runs twice a day in winter, at eight in the morning and at four "
    "in the afternoon, and the crossing takes a little under an hour in calm weather.",
    "In summer a third boat leaves at noon, and bicycles travel free on every crossing as "
    "long as they are loaded before the cars, through the side gate by the ticket office.",
    "Tickets are sold at the harbour and on board; a return costs the same as two singles, "
    "and children under twelve travel with their parents at no charge at all.",
    "The harbour café opens an hour before the first boat and closes after the last one "
    "comes in, and it sells the only hot food on that side of the bay in the winter months.",
]


PROSE = (
    "The committee met on Tuesday to discuss the budget, which had grown by a third since "
    "last year, and agreed to cut spending on roads, parks and libraries by the same amount."
)


def paragraphs(word: str, count: int = 4) -> str:
    return "".join(f"<p>{word} {i}. {PROSE}</p>" for i in range(count))


def menu(word: str = "Section", count: int = 12) -> str:
    items = "".join(f'<li><a href="/{word}{i}">{word} {i}</a></li>' for i in range(count))
    return f"<ul>{items}</ul>"


def page(body: str, title: str = "T") -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def main(html: str) -> Document:
    """Main content, which must have been found (not the whole page)."""
    doc = convert(html, main_content=True)
    assert doc.trimmed, "expected the main content, got the whole page"
    return doc
