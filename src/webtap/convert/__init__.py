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

from typing import NamedTuple

from webtap.convert._escape import code_fence, escape_heading_end, escape_line_start, escape_text

__all__ = [
    "CONTENT",
    "EMPTY",
    "SCRIPT_SHELL",
    "STATE_NOTES",
    "Document",
    "code_fence",
    "convert",
    "escape_heading_end",
    "escape_line_start",
    "escape_text",
]

# What a converted page holds (`Document.state`): the hook for the headless-browser path (which
# renders script shells) and the typed verdicts.
CONTENT = "content"
"""The page has readable content."""
EMPTY = "empty"
"""The page holds no text at all (an empty body)."""
SCRIPT_SHELL = "script_shell"
"""The server sent a page whose content a script builds: few words, an empty mount element
(``#root``, ``#app``, ``#__next``, ``<app-root>``), a ``<noscript>`` asking for JavaScript or
a "Loading…" body, and nothing recovered from ``<noscript>``, streamed segments or
structured data."""
STATE_NOTES = {
    CONTENT: "the page has readable content",
    EMPTY: "the page holds no text (an empty body)",
    SCRIPT_SHELL: "the page's content is built by scripts in a browser; the server sent only "
    "a shell, and no text for readers without scripts",
}
"""One line saying what each state means, for a result that reports it."""


class Document(NamedTuple):
    """A converted page: its title and its Markdown."""

    title: str
    """``<title>``, else ``og:title``, else the first ``<h1>``; ``""`` when none."""
    markdown: str
    """The page as Markdown, ending in exactly one newline (``""`` for an empty page)."""
    trimmed: bool = False
    """True when ``markdown`` is the page's main content only (``convert(main_content=True)``
    found it); False when it is the whole page."""
    state: str = CONTENT
    """`CONTENT`, `EMPTY` or `SCRIPT_SHELL`: whether the page holds readable content, and if
    not, why (see ``docs/convert.md``)."""


def convert(
    html: str | bytes, base_url: str | None = None, *, main_content: bool = False
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
    JSON-LD, page props).

    Never raises on odd input: empty or blank input gives ``Document("", "", state=EMPTY)``,
    junk gives whatever text it holds. Raises `webtap.errors.ParseError` only if libxml2
    itself fails.
    """
    from webtap.convert._markdown import convert_document

    return convert_document(html, base_url, main_content=main_content)
