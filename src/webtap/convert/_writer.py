"""The output side of the Markdown walk: collected inline pieces, flushed into prefixed lines.

Inline content collects in ``pieces``; a block boundary flushes it, whitespace collapsed,
into ``lines`` under the prefixes of the open containers (list items and block quotes).
The tag families (`_inline`, `_blocks`, `_tables`) are mixins over this state (the open
containers, lists and tables are declared here, with the writer that holds them, so that no
family imports another's for its types); `_walk` puts them together and drives them.
"""

from __future__ import annotations

import contextlib
import enum
import re
from collections.abc import Callable
from urllib.parse import urljoin

from webtap.convert._escape import escape_line_start, escape_url

__all__ = [
    "BR",
    "HEADINGS",
    "KEPT_SPACE",
    "Container",
    "End",
    "ListState",
    "Mark",
    "Table",
    "TableMode",
    "Writer",
    "collapse",
    "parse_int",
]

HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
BR = "\x00"  # a hard line break inside collected text; libxml2 text never holds NUL
# A space that whitespace collapsing must keep (a code span of spaces): a noncharacter,
# which pages have no business holding, written as a space once lines are made.
KEPT_SPACE = "\ufdd0"

End = Callable[[], None] | None
"""What an opener returns: the action to run at the element's end event, if any."""


# The converter's mutable state is plain classes with __slots__, not dataclasses: importing
# dataclasses (and with it inspect) costs a fresh web-fetch-tool process about 10 ms.


class Container:
    """A block container that prefixes its lines: a list item or a block quote."""

    __slots__ = ("indent", "kind", "marker", "outer_indent", "tight")

    def __init__(
        self, kind: str, marker: str, indent: str, outer_indent: str, tight: bool = True
    ) -> None:
        self.kind = kind  # "li" or "quote"
        self.marker = marker  # prefix of its first line
        self.indent = indent  # prefix of its other lines
        self.outer_indent = outer_indent  # the enclosing containers' indent
        self.tight = tight  # a list item whose blocks need no blank line between them


class ListState:
    """An open ``<ul>``/``<ol>``."""

    __slots__ = ("bullet", "item_end", "lines_at_start", "loose", "number", "ordered")

    def __init__(
        self, ordered: bool, bullet: str, number: int, lines_at_start: int, loose: bool = False
    ) -> None:
        self.ordered = ordered
        self.bullet = bullet  # "-"/"*" for bullets, "."/")" after a number
        self.number = number  # the next item's
        self.lines_at_start = lines_at_start
        self.loose = loose  # its items hold paragraphs: blank lines between its blocks
        self.item_end = -1  # len(lines) when its last item ended


class TableMode(enum.Enum):
    """How an open ``<table>`` is written."""

    DATA = "data"
    """A GFM table: rows of cells collected and written at its end."""
    LAYOUT = "layout"
    """A table used for page layout: its cells are ordinary blocks."""
    FLAT = "flat"
    """A table inside a heading or a data table's cell: cells joined on one line."""


class Table:
    """An open ``<table>``: how it is written, and a data table's rows so far."""

    __slots__ = ("aligns", "caption", "mode", "rows")

    def __init__(self, mode: TableMode) -> None:
        self.mode = mode
        self.rows: list[list[tuple[str, int, int]]] = []  # text, cols, rows
        self.aligns: list[str] = []  # the header row's delimiter cells
        self.caption = ""


class Mark:
    """An open inline wrapper (emphasis, link, ...): what it writes and where it began."""

    __slots__ = ("marker", "start", "url")

    def __init__(self, marker: str, start: int, url: str | None = None) -> None:
        self.marker = marker  # ``**``, ``*``, ``~~``, ``a``, ``q``, ``sup`` or ``sub``
        self.start = start  # index in ``pieces`` of its first piece; 0 once a block reopened it
        self.url = url  # a link's destination


class Writer:
    """The state the tag families share, and the writing of lines."""

    def __init__(self, base_url: str | None = None) -> None:
        self.base_url = base_url
        self.lines: list[str] = []
        self.pieces: list[str] = []
        self.sep = 0  # owed before the next line: 0 nothing, 1 a newline, 2 a blank line
        self.containers: list[Container] = []
        self.indent = ""  # all containers' continuation prefix
        self.pending = 0  # containers[pending:] have not written their first line yet
        self.lists: list[ListState] = []
        self.last_list: tuple[int, int, str] | None = None  # (lines, depth, bullet)
        # (len(lines), closed) after the last leaf block: closed for a heading, code block or
        # rule, which end themselves; a paragraph would take a following line as its own.
        self.last_leaf: tuple[int, bool] = (-1, False)
        self.active: list[Mark] = []  # open inline wrappers, outermost first
        self.strong = self.em = self.strike = self.link = 0
        self.flat = 0  # > 0 inside a heading or table cell: blocks become separators
        self.flat_sep = " "
        self.tables: list[Table] = []
        self.skip = False  # set by an opener that consumed its whole subtree
        self.urls: dict[str, str | None] = {}
        self.last_wrap: tuple[str, str] | None = None  # (piece, marker) of the last emphasis
        self.last_code: tuple[str, str] | None = None  # (piece, code) of the last code span
        self.srcset: str | None = None  # the enclosing <picture><source>'s, for a bare <img>

    def close_inline(self) -> None:
        """Wrap the pieces of every open inline element (see `_inline.Inline`)."""
        raise NotImplementedError

    def emit(self, lines: list[str]) -> None:
        """Write a block's lines under the open containers' prefixes."""
        out = self.lines
        containers = self.containers
        pending = self.pending
        if out and self.sep == 2:
            blank = containers[pending].outer_indent if pending < len(containers) else self.indent
            out.append(blank.rstrip())
        if pending < len(containers):
            first = containers[pending].outer_indent + "".join(
                c.marker for c in containers[pending:]
            )
            self.pending = len(containers)
        else:
            first = self.indent
        indent = self.indent
        line = lines[0]
        out.append(first + line if line else first.rstrip())
        if indent:
            blank = indent.rstrip()
            for line in lines[1:]:
                out.append(indent + line if line else blank)
        else:
            out.extend(lines[1:])
        self.sep = 2

    def flush(self) -> None:
        """End the current paragraph: close open inline wrappers and write its lines."""
        pieces = self.pieces
        if not pieces:
            return
        if self.active:
            self.close_inline()
        text = "".join(pieces)
        pieces.clear()
        if self.tight() and self.last_leaf == (len(self.lines), True):
            self.sep = 1  # "- # a\n  b": a tight item's text after its heading
        if BR not in text:
            line = line_of(text)
            if line:
                self.emit([escape_line_start(line)])
                self.last_leaf = (len(self.lines), False)
            return
        # Lines end in a hard break; "a<br><br>b" (an empty line between) is a paragraph break.
        paragraphs: list[list[str]] = [[]]
        for part in text.split(BR):
            line = line_of(part)
            if line:
                paragraphs[-1].append(escape_line_start(line))
            elif paragraphs[-1]:
                paragraphs.append([])
        for lines in paragraphs:
            if lines:
                for i in range(len(lines) - 1):
                    lines[i] += "\\"
                self.emit(lines)
                self.last_leaf = (len(self.lines), False)

    def tight(self) -> bool:
        """Whether the next block is written in a tight list's item after its first line:
        without a blank line before it where it cannot be read as part of the one before."""
        containers = self.containers
        return (
            bool(containers)
            and containers[-1].kind == "li"
            and containers[-1].tight
            and self.pending == len(containers)
        )

    def interrupt(self) -> None:
        """Before a block that may interrupt a paragraph (a heading, fence, rule, quote):
        no blank line in a tight item, after a paragraph or a block that ends itself."""
        if self.tight() and self.last_leaf[0] == len(self.lines):
            self.sep = 1

    def flat_text(self) -> list[str]:
        """The collected pieces as separate non-empty lines (for headings and cells)."""
        if self.active:
            self.close_inline()
        text = "".join(self.pieces)
        self.pieces.clear()
        return [line for part in text.split(BR) if (line := line_of(part))]

    def separate(self) -> None:
        """A block boundary: a paragraph break, or a separator inside flat content."""
        if self.flat:
            self.pieces.append(self.flat_sep)
        elif self.pieces:
            self.flush()

    def guard_bracket(self) -> None:
        """Text ending in "]" followed by text starting "(", "[" or ":" would form a link."""
        piece = self.pieces[-1]
        backslashes = len(piece) - 1 - len(piece[:-1].rstrip("\\"))
        if backslashes % 2 == 0:
            self.pieces[-1] = piece[:-1] + "\\]"

    def guard_bang(self, index: int) -> None:
        """A "!" right before a link would make it an image."""
        piece = self.pieces[index]
        if piece.endswith("!"):
            backslashes = len(piece) - 1 - len(piece[:-1].rstrip("\\"))
            if backslashes % 2 == 0:  # not escaped already
                self.pieces[index] = piece[:-1] + "\\!"

    def url(self, href: str) -> str | None:
        """``href`` made absolute and safe as a link destination; None for scripts."""
        if href in self.urls:
            return self.urls[href]
        value = href.strip()
        if "\n" in value or "\t" in value or "\r" in value:
            value = re.sub(r"[\t\n\r]", "", value)
        scheme = value[:11].lower()
        url: str | None
        if value == "#" or scheme.startswith(("javascript:", "vbscript:", "data:")):
            url = None
        else:
            if self.base_url and not scheme.startswith(("https://", "http://")):
                with contextlib.suppress(ValueError):  # a malformed URL stays as written
                    value = urljoin(self.base_url, value)
            url = escape_url(value)
        self.urls[href] = url
        return url


def collapse(text: str) -> str:
    """HTML whitespace runs as one space, ends stripped (NBSP kept inside the text).

    ``str.replace`` and one split only where a double space remains: several times faster
    than ``re.sub`` or ``str.translate`` on the long text of real paragraphs."""
    if "\n" in text:
        text = text.replace("\n", " ")
    if "\t" in text:
        text = text.replace("\t", " ")
    if "\r" in text:
        text = text.replace("\r", " ")
    if "\f" in text:
        text = text.replace("\f", " ")
    if "  " in text:
        text = " ".join(filter(None, text.split(" ")))
    return text.strip()


def line_of(text: str) -> str:
    """The Markdown line for collected text: whitespace collapsed, kept spaces restored."""
    line = collapse(text)
    if KEPT_SPACE in line:  # never at a line's edge, even if a page holds the character
        line = line.replace(KEPT_SPACE, " ").strip(" ")
    return line


def parse_int(value: str | None, default: int) -> int:
    """An attribute's integer (``start``, ``colspan``, ...), or ``default``."""
    if value:
        try:
            return int(value.strip())
        except ValueError:
            pass
    return default
