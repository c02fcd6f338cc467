"""HTML -> Markdown: the converter behind ``web-fetch-tool``, usable as a library.

    >>> from webtap.convert import convert
    >>> doc = convert("<title>Hi</title><h1>Hello <b>world</b></h1>")
    >>> doc.title, doc.markdown
    ('Hi', '# Hello **world**\\n')

libxml2 (through lxml) parses the page and does the bulk work in C: it drops comments,
scripts, styles and hidden subtrees and unwraps purely presentational tags. One iterative
walk over what is left writes GitHub-flavoured Markdown (CommonMark plus tables and
strikethrough). See ``docs/convert.md`` for the full mapping.

The escaping it applies is public too, for other writers of Markdown (the fetch tool's JSON
blocks, the PDF reader): :func:`escape_text`, :func:`escape_line_start`,
:func:`escape_heading_end` and :func:`code_fence`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webtap.convert._escape import code_fence, escape_heading_end, escape_line_start, escape_text
from webtap.convert._types import (
    CONTENT,
    EMPTY,
    SCRIPT_SHELL,
    STATE_NOTES,
    Document,
    Facts,
    Metadata,
)

__all__ = [
    "CONTENT",
    "EMPTY",
    "SCRIPT_SHELL",
    "STATE_NOTES",
    "Document",
    "Facts",
    "Metadata",
    "code_fence",
    "convert",
    "escape_heading_end",
    "escape_line_start",
    "escape_text",
]


def convert(
    html: str | bytes,
    base_url: str | None = None,
    *,
    main_content: bool = False,
    inspect: Callable[[Any], None] | None = None,
) -> Document:
    """Convert an HTML page to a `Document`.

    ``html`` is the page as text, or as bytes whose encoding libxml2 sniffs (BOM, ``<meta
    charset>``; UTF-8 when the bytes are valid UTF-8). ``base_url`` is the URL the page was
    fetched from: links and images are made absolute against it (and ``<base href>``).

    ``main_content=True`` converts only the page's main content: the article, post or manual
    section, without menus, sidebars, footers, share bars, comments, related links, images and
    captions (see ``docs/convert.md``). ``Document.trimmed`` says whether that was done; when
    no part of the page stands out as its content, the whole page is converted and ``trimmed``
    is False.

    ``Document.state`` says whether the page held readable content: `EMPTY` for a page with
    no text, `SCRIPT_SHELL` for one whose text a script would build, and nothing was found
    where such pages keep it for readers without scripts (``<noscript>``, streamed segments,
    JSON-LD, page props). `webtap.verdict.content_state` decides it from ``Document.facts``,
    what the converter saw.

    ``inspect`` (the fetch's verdict, `webtap.verdict`) is called with the parsed tree's root
    before anything is pruned from it: scripts, forms, ``<link>`` and hidden elements are still
    there. It must not change the tree. It is not called when there was nothing to parse.

    Never raises on odd input: empty or blank input gives ``Document("", "", state=EMPTY)``,
    junk gives whatever text it holds. Raises `webtap.errors.ParseError` only if libxml2
    itself fails.
    """
    # The converter (lxml, ~15 ms) loads on the first page: a caller of the escaping alone
    # (the fetch tool's JSON blocks, the PDF reader) does not pay for it.
    from webtap.convert._markdown import convert_document

    return convert_document(html, base_url, main_content=main_content, inspect=inspect)
