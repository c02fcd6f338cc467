"""A PDF to Markdown: the text of each page in reading order, under a ``## Page N`` heading.

PDFium (pypdfium2) reads the text; this module puts it back together. PDFium gives each page's
characters in reading order with a line break after each line, and marks a hyphen that it sees
ending a line. From the position, size and font of each line (a few calls into PDFium per line,
none per character) this module joins lines into paragraphs, undoes hyphenation where the word
is clear, makes headings of lines set larger (or bold and alone) than the body text, and finds
list items, footnotes and running headers. Measured against pypdf and pdfminer.six in
``bench/pdf.py``; see docs/fetch.md.

Limits: at most ``WEBTAP_PDF_MAX_PAGES`` pages are read (default 2000), and reading stops at the
fetch's overall deadline; either way the Markdown says where it stopped and why. PDFium is C and
cannot be interrupted inside a call, so the deadline is checked between pages, and a page's
content is bounded before PDFium sees it: compressed streams may expand to at most
``WEBTAP_PDF_MAX_EXPANDED`` bytes in all (default 64 MB).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from webtap.pdf._layout import render
from webtap.pdf._reader import (
    Line,
    check_expansion,
    metadata_title,
    open_document,
    page_lines,
    too_late,
)
from webtap.settings import PDF_MAX_EXPANDED, PDF_MAX_PAGES

if TYPE_CHECKING:
    from webtap.net import Deadline

__all__ = ["to_markdown"]

_PDFIUM = threading.Lock()


def to_markdown(body: bytes, deadline: Deadline | None = None) -> tuple[str, str]:
    """``(title, markdown)`` of a PDF, or :class:`ParseError` naming what is wrong with it."""
    max_pages = PDF_MAX_PAGES.get()
    check_expansion(body, PDF_MAX_EXPANDED.get(), deadline)
    # PDFium is not thread-safe, and the MCP server and the SQL functions fetch in threads.
    wait = -1 if deadline is None else max(deadline.remaining(), 0)
    if not _PDFIUM.acquire(timeout=wait):
        raise too_late(deadline)
    try:
        count, pages, broken, title = _read(body, max_pages, deadline)
    finally:
        _PDFIUM.release()
    if pages == [] and count:
        raise too_late(deadline)
    notes = _notes(count, pages, max_pages, deadline)
    if broken:
        shown = ", ".join(str(n) for n in broken[:20]) + (", ..." if len(broken) > 20 else "")
        notes.append(f"Damaged: {len(broken):,} page(s) could not be read ({shown}).")
    markdown, first_line = render(pages, notes)
    return title or first_line, markdown


def _read(
    body: bytes, max_pages: int, deadline: Deadline | None
) -> tuple[int, list[list[Line]], list[int], str]:
    """``(page count, lines of each page read, damaged page numbers, metadata title)``."""
    document = open_document(body)
    try:
        count = len(document)
        pages: list[list[Line]] = []
        broken: list[int] = []
        for index in range(min(count, max_pages)):
            if deadline is not None and deadline.expired:
                break
            lines = page_lines(document, index)
            if lines is None:
                broken.append(index + 1)
            pages.append(lines or [])
        return count, pages, broken, metadata_title(document)
    finally:
        document.close()


def _notes(
    count: int, pages: list[list[Line]], max_pages: int, deadline: Deadline | None
) -> list[str]:
    """What the reader must know about the pages: no text in them, those left out and why."""
    notes: list[str] = []
    read = len(pages)
    if read and not any(pages):
        notes.append(
            f"No text: the {'page holds' if read == 1 else f'{read:,} pages read hold'} no text "
            "layer, only images or drawings (a scanned document?). web_fetch does not do OCR."
        )
    if count == 0:
        notes.append("This PDF has no pages.")
    if read < min(count, max_pages):
        seconds = f"{deadline.seconds:g} s" if deadline is not None else "the time allowed"
        notes.append(
            f"This PDF has {count:,} pages; only pages 1–{read:,} were read before the overall "
            f"deadline of {seconds} passed (set WEBTAP_FETCH_TIMEOUT to allow more seconds)."
        )
    elif count > max_pages:
        notes.append(
            f"This PDF has {count:,} pages; only pages 1–{max_pages:,} were read (the page "
            f"cap; set {PDF_MAX_PAGES.name} to read more)."
        )
    return notes
