"""The Markdown writer: one iterative walk over the pruned libxml2 tree.

The walk is ``etree.iterwalk`` (C) with start/end events, so no depth of nesting can
exhaust Python's stack. Each tag family has an ``open_<family>`` method, found through a
dict built once (``_OPENERS``); it returns the action to run at the element's end event (or
None). Inline content collects in ``pieces``; a block boundary flushes it, whitespace
collapsed, into ``lines`` under the prefixes of the open containers (list items and block
quotes). Inline elements that span a block boundary (``<a><h3>..</h3></a>``)
are closed before the flush and reopened after it, as browsers do with misnested tags.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Callable
from typing import ClassVar
from urllib.parse import urljoin

from lxml import etree

from webtap.convert import Document
from webtap.convert._escape import (
    MAYBE_SPECIAL,
    code_fence,
    code_span,
    escape_heading_end,
    escape_line_start,
    escape_text,
    escape_url,
)
from webtap.convert._html import clean, find_base, find_title, first_h1, parse

__all__ = ["MarkdownConverter", "convert_document"]

# Whitespace moved outside emphasis markers (Unicode spaces too: "*a\xa0*" would not close).
_STRIP = "".join(c for c in map(chr, range(0x3001)) if c.isspace()) + "\x00"
_BR = "\x00"  # a hard line break inside collected text; libxml2 text never holds NUL
_LANG = re.compile(
    r"(?:^|\s)(?:lang(?:uage)?-|highlight-(?:source-)?|brush:\s*)([A-Za-z0-9_+#.-]+)"
)
_LANG_ALIASES = {"default": "python", "python3": "python", "py3": "python", "none": ""}
_PERMALINK = frozenset(("¶", "#", "§", "🔗"))
_KNOWN_LANGUAGES = frozenset((
    "python", "py", "javascript", "js", "typescript", "ts", "bash", "sh", "shell", "console",
    "zsh", "powershell", "json", "yaml", "yml", "toml", "ini", "html", "xml", "css", "scss",
    "sql", "java", "kotlin", "scala", "c", "cpp", "c++", "csharp", "cs", "go", "golang", "rust",
    "ruby", "php", "perl", "lua", "r", "swift", "objectivec", "haskell", "elixir", "erlang",
    "clojure", "dart", "diff", "dockerfile", "makefile", "nginx", "graphql", "latex", "tex",
    "markdown", "md", "pycon",
))  # fmt: skip
_MAX_CONTAINERS = 60  # deeper list/quote nesting is written without further indentation
_MAX_INLINE = 40  # deeper inline wrapping is written as plain text
_MAX_NUMBER = 999_999_999
_BLOCKS = (
    "p", "div", "section", "article", "main", "header", "footer", "aside", "address", "center",
    "hgroup", "fieldset", "legend", "form", "figure", "figcaption", "details", "dialog", "body",
    "dl", "dd", "search",
)  # fmt: skip
_TAGS = {"**": "strong", "*": "em", "~~": "del"}
_BLOCK_TAGS = frozenset(
    (*_BLOCKS, "li", "ul", "ol", "td", "th", "tr", "table", "blockquote", "pre", "caption")
).union(f"h{level}" for level in range(1, 7))


End = Callable[[], None] | None


def convert_document(
    html: str | bytes, base_url: str | None = None, *, main_content: bool = False
) -> Document:
    """Parse, prune and convert a page (see `webtap.convert.convert`)."""
    root = parse(html)
    if root is None:
        return Document("", "")
    title = find_title(root)
    base = find_base(root, base_url)
    clean(root)
    if not title:
        title = first_h1(root)
    if main_content:
        from webtap.convert._extract import extract_root

        content = extract_root(root)
        if content is not None:
            return Document(title, MarkdownConverter(base).convert(content), trimmed=True)
    return Document(title, MarkdownConverter(base).convert(root))


class _Container:
    """A block container that prefixes its lines: a list item or a block quote."""

    __slots__ = ("indent", "kind", "marker", "outer_indent")

    def __init__(self, kind: str, marker: str, indent: str, outer_indent: str) -> None:
        self.kind = kind
        self.marker = marker  # prefix of its first line
        self.indent = indent  # prefix of its other lines
        self.outer_indent = outer_indent  # the enclosing containers' indent


class _List:
    __slots__ = ("bullet", "item_end", "lines_at_start", "number", "ordered")

    def __init__(self, ordered: bool, bullet: str, number: int, lines_at_start: int) -> None:
        self.ordered = ordered
        self.bullet = bullet  # "-"/"*" for bullets, "."/")" after a number
        self.number = number
        self.lines_at_start = lines_at_start
        self.item_end = -1  # len(lines) when its last item ended


class _Table:
    __slots__ = ("aligns", "caption", "rows")

    def __init__(self) -> None:
        self.rows: list[list[tuple[str, int, int]]] = []  # (text, colspan, rowspan)
        self.aligns: list[str] = []  # the header row's delimiter cells
        self.caption = ""


class MarkdownConverter:
    """Convert a cleaned lxml tree to GitHub-flavoured Markdown."""

    _families: ClassVar[dict[str, str]] = {
        **dict.fromkeys(_BLOCKS, "block"),
        **dict.fromkeys(("h1", "h2", "h3", "h4", "h5", "h6"), "heading"),
        **dict.fromkeys(("ul", "ol", "menu", "dir"), "list"),
        "li": "item",
        "blockquote": "quote",
        **dict.fromkeys(("pre", "xmp", "listing", "plaintext"), "pre"),
        "hr": "rule",
        "br": "br",
        "img": "img",
        "a": "link",
        **dict.fromkeys(("strong", "b"), "strong"),
        **dict.fromkeys(("em", "i"), "em"),
        **dict.fromkeys(("del", "s", "strike"), "strike"),
        **dict.fromkeys(("code", "kbd", "samp", "tt"), "code"),
        "sup": "sup",
        "sub": "sub",
        "q": "quotation",
        **dict.fromkeys(("summary", "dt"), "summary"),
        "table": "table",
        "thead": "thead",
        "tr": "row",
        **dict.fromkeys(("td", "th"), "cell"),
        "caption": "caption",
        "math": "math",
        "source": "source",
    }

    def __init__(self, base_url: str | None = None) -> None:
        self.base_url = base_url
        self.lines: list[str] = []
        self.pieces: list[str] = []
        self.sep = 0  # owed before the next line: 0 nothing, 1 a newline, 2 a blank line
        self.containers: list[_Container] = []
        self.indent = ""  # all containers' continuation prefix
        self.pending = 0  # containers[pending:] have not written their first line yet
        self.lists: list[_List] = []
        self.last_list: tuple[int, int, str] | None = None  # (lines, depth, bullet)
        self.active: list[list] = []  # open inline wrappers: [marker, start, data]
        self.strong = self.em = self.strike = self.link = 0
        self.flat = 0  # > 0 inside a heading or table cell: blocks become separators
        self.flat_sep = " "
        self.tables: list[_Table | str] = []  # a _Table, "layout" or "flat"
        self.skip = False
        self.urls: dict[str, str | None] = {}
        self.last_wrap: tuple[str, str] | None = None  # (piece, marker) of the last emphasis
        self.last_code: tuple[str, str] | None = None  # (piece, code) of the last code span
        self.srcset: str | None = None  # the enclosing <picture><source>'s, for a bare <img>

    # -- the walk ---------------------------------------------------------------------------

    def convert(self, root: etree._Element) -> str:
        """The Markdown for the tree under ``root``."""
        openers = _OPENERS
        open_block = MarkdownConverter.open_block
        pieces = self.pieces
        append = pieces.append
        ends: list[End] = []
        push, pop = ends.append, ends.pop
        special = MAYBE_SPECIAL.search
        walker = etree.iterwalk(root, events=("start", "end"))
        for event, el in walker:
            if event == "start":
                tag = el.tag
                opener = openers.get(tag)
                if opener is None and "-" in tag:
                    opener = open_block  # a custom element: a component, so a block
                if opener is not None:
                    push(opener(self, el))
                    if self.skip:
                        self.skip = False
                        walker.skip_subtree()
                        continue
                text = el.text
            else:
                tag = el.tag
                if tag in openers or "-" in tag:
                    end = pop()
                    if end is not None:
                        end()
                text = el.tail
            if text and (pieces or not text.isspace()):
                if pieces and text[0] in "([:" and pieces[-1][-1:] == "]":
                    self.guard_bracket()
                if special(text) is None:
                    append(text)
                else:
                    emphasis = self.strong + self.em + self.strike > 0
                    append(escape_text(text, self.link > 0, emphasis))
        self.flush()
        return "\n".join(self.lines) + "\n" if self.lines else ""

    # -- output ----------------------------------------------------------------------------

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
        if _BR not in text:
            line = _collapse(text)
            if line:
                self.emit([escape_line_start(line)])
            return
        # Lines end in a hard break; "a<br><br>b" (an empty line between) is a paragraph break.
        paragraphs: list[list[str]] = [[]]
        for part in text.split(_BR):
            line = _collapse(part)
            if line:
                paragraphs[-1].append(escape_line_start(line))
            elif paragraphs[-1]:
                paragraphs.append([])
        for lines in paragraphs:
            if lines:
                for i in range(len(lines) - 1):
                    lines[i] += "\\"
                self.emit(lines)

    def flat_text(self) -> list[str]:
        """The collected pieces as separate non-empty lines (for headings and cells)."""
        if self.active:
            self.close_inline()
        text = "".join(self.pieces)
        self.pieces.clear()
        return [line for part in text.split(_BR) if (line := _collapse(part))]

    def close_inline(self) -> None:
        """Wrap the pieces of every open inline element, then reopen them empty."""
        for entry in reversed(self.active):
            self.wrap(entry)
        for entry in self.active:
            entry[1] = 0

    def wrap(self, entry: list, el: etree._Element | None = None) -> None:
        """Wrap the pieces collected since ``entry`` opened at the end of element ``el``."""
        marker, start, data = entry
        pieces = self.pieces
        if start >= len(pieces):
            return
        content = pieces.pop() if start == len(pieces) - 1 else "".join(pieces[start:])
        del pieces[start:]
        core = content.strip(_STRIP)
        if not core:
            if content:
                pieces.append(_BR if _BR in content else " ")
            return
        if len(core) == len(content):
            lead = trail = ""
        else:
            lead = content[: len(content) - len(content.lstrip(_STRIP))]
            trail = content[len(content.rstrip(_STRIP)) :]
        before = pieces[start - 1][-1:] if start and not lead else ""
        if marker == "a":
            if before == "!":
                self.guard_bang(start - 1)
            wrapped = _link(core, data)
        elif marker == "q":
            wrapped = f"\u201c{core}\u201d"
        elif marker in ("sup", "sub"):
            wrapped = f"<{marker}>{core}</{marker}>"
        elif (before and not before.isspace() and (_is_punct(core[0]) or _is_word(before))) or (
            not trail and _is_punct(core[-1]) and _word_may_follow(el)
        ):
            # "Byte<em>`n`</em>", "<b>Note:</b>text": a * run there could not open or close
            # (CommonMark flanking rules); inside a word or between punctuation it could do
            # both and pair with the wrong partner. The HTML tag means the same and cannot.
            tag = _TAGS[marker]
            wrapped = f"<{tag}>{core}</{tag}>"
        elif (
            start
            and self.last_wrap is not None
            and pieces[start - 1] is self.last_wrap[0]
            and self.last_wrap[1] == marker
            and not lead
            and _is_word(core[0])
            and _is_word(pieces[start - 1][-len(marker) - 1])
            and not any(other[1] == start for other in self.active)
        ):
            # <b>a</b><b>b</b>: one run, not "**a****b**".
            pieces[start - 1] = pieces[start - 1][: -len(marker)]
            wrapped = core + marker
        elif before == marker[0] or (el is not None and (el.tail or "")[:1] == marker[0]):
            # "**a***b*", "~~a~~~b": delimiter runs that touch merge into one; the tag keeps
            # them apart.
            tag = _TAGS[marker]
            wrapped = f"<{tag}>{core}</{tag}>"
        else:
            wrapped = marker + core + marker
            if not trail:
                pieces.append(lead + wrapped if lead else wrapped)
                self.last_wrap = (pieces[-1], marker)
                return
        pieces.append(lead + wrapped + trail if lead or trail else wrapped)

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

    def separate(self) -> None:
        """A block boundary: a paragraph break, or a separator inside flat content."""
        if self.flat:
            self.pieces.append(self.flat_sep)
        elif self.pieces:
            self.flush()

    # -- blocks ----------------------------------------------------------------------------

    def open_block(self, el: etree._Element) -> End:
        self.separate()
        return self.separate

    def open_heading(self, el: etree._Element) -> End:
        if self.flat:
            self.pieces.append(self.flat_sep)
            return self.separate
        self.flush()
        self.flat += 1
        self.flat_sep = " "
        level = int(el.tag[1])

        def end() -> None:
            self.flat -= 1
            text = " ".join(self.flat_text())
            if text:
                self.emit([f"{'#' * level} {escape_heading_end(text)}"])

        return end

    def open_rule(self, el: etree._Element) -> End:
        if self.flat:
            self.pieces.append(self.flat_sep)
        else:
            self.flush()
            self.emit(["---"])
        return None

    def open_br(self, el: etree._Element) -> End:
        self.pieces.append(self.flat_sep if self.flat else _BR)
        return None

    def open_pre(self, el: etree._Element) -> End:
        self.skip = True
        if el.find(".//br") is not None:
            for br in el.iter("br"):
                br.tail = "\n" + (br.tail or "")
        text = "".join(el.itertext())
        if self.flat:
            code = _collapse(text)
            if code:
                self.pieces.append(code_span(code))
            return None
        self.flush()
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        lines: list[str] = []
        for line in text.split("\n"):
            line = line.rstrip()
            if line or (lines and lines[-1]):
                lines.append(line)
        while lines and not lines[-1]:
            lines.pop()
        if lines:
            fence = code_fence(text)
            self.emit([fence + _language(el), *lines, fence])
        return None

    def open_quote(self, el: etree._Element) -> End:
        return self.open_container("quote", "> ", "> ")

    def open_container(self, kind: str, marker: str, indent: str) -> End:
        if self.flat:
            self.pieces.append(self.flat_sep)
            return self.separate
        self.flush()
        containers = self.containers
        if len(containers) >= _MAX_CONTAINERS:
            return self.flush
        outer = self.indent
        containers.append(_Container(kind, marker, indent, outer))
        self.indent = outer + indent

        def end() -> None:
            self.flush()
            containers.pop()
            self.indent = outer
            if self.pending > len(containers):
                self.pending = len(containers)

        return end

    def open_list(self, el: etree._Element) -> End:
        if self.flat:
            self.pieces.append(self.flat_sep)
            return self.separate
        self.flush()
        ordered = el.tag == "ol"
        depth = len(self.containers)
        bullet = "." if ordered else "-"
        last = self.last_list
        if last is not None and last == (len(self.lines), depth, bullet):
            # Two lists in a row would merge into one: switch to the other bullet.
            bullet = ")" if ordered else "*"
        number = 1
        if ordered:
            # CommonMark list numbers have at most 9 digits and no sign.
            number = min(max(_int(el.get("start"), 1), 0), _MAX_NUMBER)
        containers = self.containers
        if (
            containers
            and containers[-1].kind == "li"
            and self.pending == len(containers)
            and number == 1  # only "1." may interrupt a paragraph (CommonMark)
        ):
            self.sep = 1  # a nested list follows its item's text directly
        lst = _List(ordered, bullet, number, len(self.lines))
        self.lists.append(lst)

        def end() -> None:
            self.flush()
            self.lists.pop()
            self.last_list = (len(self.lines), depth, bullet)
            self.sep = 2

        return end

    def open_item(self, el: etree._Element) -> End:
        if self.flat:
            self.pieces.append(self.flat_sep)
            return None
        self.flush()
        lst = self.lists[-1] if self.lists else None
        if lst is None:
            marker = "- "
        elif lst.ordered:
            number = min(max(_int(el.get("value"), lst.number), 0), _MAX_NUMBER)
            lst.number = min(number + 1, _MAX_NUMBER)
            marker = f"{number}{lst.bullet} "
        else:
            marker = lst.bullet + " "
        if lst is not None and len(self.lines) == lst.item_end > lst.lines_at_start:
            self.sep = 1  # items follow each other without a blank line
        close = self.open_container("li", marker, " " * len(marker))
        if lst is None:
            return close

        def end() -> None:
            if close is not None:
                close()
            lst.item_end = len(self.lines)

        return end

    def open_summary(self, el: etree._Element) -> End:
        self.separate()
        close = self.open_strong(el)

        def end() -> None:
            if close is not None:
                close()
            self.separate()

        return end

    # -- tables ----------------------------------------------------------------------------

    def open_table(self, el: etree._Element) -> End:
        if self.flat or (self.tables and isinstance(self.tables[-1], _Table)):
            self.pieces.append(self.flat_sep)
            self.tables.append("flat")
            return self.end_flat_table
        self.flush()
        if "highlighttable" in (el.get("class") or ""):
            # Pygments' code-with-line-numbers table: the code block alone.
            for cell in el.xpath(".//td[contains(@class, 'linenos')]"):
                cell.getparent().remove(cell)
            wrapper = el.getparent()
            match = _LANG.search(wrapper.get("class") or "") if wrapper is not None else None
            if match:  # Sphinx puts highlight-<language> on the table's parent
                for pre in el.iter("pre"):
                    pre.set("data-lang", match.group(1))
            self.tables.append("layout")
            return self.end_layout_table
        if _is_layout(el):
            self.tables.append("layout")
            return self.end_layout_table
        table = _Table()
        self.tables.append(table)
        saved_active = self.active
        self.active = []

        def end() -> None:
            self.pieces.clear()
            self.tables.pop()
            self.active = saved_active
            for entry in saved_active:
                entry[1] = 0
            if table.caption:
                self.emit([escape_line_start(table.caption)])
            lines = _table_lines(table.rows, table.aligns)
            if lines:
                self.emit(lines)

        return end

    def end_flat_table(self) -> None:
        self.tables.pop()
        self.pieces.append(self.flat_sep)

    def end_layout_table(self) -> None:
        self.tables.pop()
        self.flush()

    def table_mode(self) -> _Table | str | None:
        return self.tables[-1] if self.tables else None

    def open_thead(self, el: etree._Element) -> End:
        return None

    def open_row(self, el: etree._Element) -> End:
        mode = self.table_mode()
        if isinstance(mode, _Table):
            mode.rows.append([])
            return None
        if mode == "flat" or self.flat:
            self.pieces.append(self.flat_sep)
            return None
        return self.open_block(el)

    def open_cell(self, el: etree._Element) -> End:
        mode = self.table_mode()
        if not isinstance(mode, _Table):
            if mode == "flat" or self.flat:
                self.pieces.append(" ")
                return None
            return self.open_block(el)
        table = mode
        if not table.rows:
            table.rows.append([])
        self.pieces.clear()
        self.flat += 1
        self.flat_sep = _BR
        colspan = min(max(_int(el.get("colspan"), 1), 1), 100)
        rowspan = min(max(_int(el.get("rowspan"), 1), 1), 1000)
        row = table.rows[-1]
        if len(table.rows) == 1:
            table.aligns += [_alignment(el)] * colspan

        def end() -> None:
            self.flat -= 1
            text = "<br>".join(self.flat_text()).replace("|", "\\|")
            row.append((text, colspan, rowspan))

        return end

    def open_caption(self, el: etree._Element) -> End:
        mode = self.table_mode()
        if not isinstance(mode, _Table):
            return self.open_block(el)
        self.pieces.clear()
        self.flat += 1
        self.flat_sep = " "

        def end() -> None:
            self.flat -= 1
            mode.caption = " ".join(self.flat_text())

        return end

    # -- inline ----------------------------------------------------------------------------

    def open_inline(self, marker: str, data: str | None = None) -> list | None:
        if len(self.active) >= _MAX_INLINE:
            return None
        entry = [marker, len(self.pieces), data]
        self.active.append(entry)
        return entry

    def close(self, entry: list | None, el: etree._Element | None = None) -> None:
        if entry is not None:
            self.active.pop()
            self.wrap(entry, el)

    def open_strong(self, el: etree._Element) -> End:
        if self.strong:
            return None
        self.strong += 1
        entry = self.open_inline("**")

        def end() -> None:
            self.strong -= 1
            self.close(entry, el)

        return end

    def open_em(self, el: etree._Element) -> End:
        if self.em:
            return None
        self.em += 1
        entry = self.open_inline("*")

        def end() -> None:
            self.em -= 1
            self.close(entry, el)

        return end

    def open_strike(self, el: etree._Element) -> End:
        if self.strike:
            return None
        self.strike += 1
        entry = self.open_inline("~~")

        def end() -> None:
            self.strike -= 1
            self.close(entry, el)

        return end

    def open_sup(self, el: etree._Element) -> End:
        entry = self.open_inline("sup")
        return lambda: self.close(entry)

    def open_sub(self, el: etree._Element) -> End:
        entry = self.open_inline("sub")
        return lambda: self.close(entry)

    def open_quotation(self, el: etree._Element) -> End:
        entry = self.open_inline("q")
        return lambda: self.close(entry)

    def open_link(self, el: etree._Element) -> End:
        if self.link:
            return None
        href = el.get("href")
        if href is None:
            return None
        if href[:1] == "#" and len(el) == 0 and (el.text or "").strip() in _PERMALINK:
            self.skip = True  # a heading's permalink anchor ("¶")
            return None
        url = self.url(href)
        if url is None:
            return None
        self.link += 1
        entry = self.open_inline("a", url)

        def end() -> None:
            self.link -= 1
            self.close(entry)

        return end

    def open_code(self, el: etree._Element) -> End:
        self.skip = True
        if len(el):
            for br in el.iter("br"):
                br.tail = " " + (br.tail or "")
            children = list(el)
            only = children[0]
            if (
                len(children) == 1
                and only.tag == "a"
                and not (el.text or "").strip()
                and not (only.tail or "").strip()
                and not self.link
                and len(only) == 0
            ):
                code = _collapse(only.text or "")
                url = self.url(only.get("href") or "")
                if code and url:
                    if self.pieces:
                        self.guard_bang(-1)
                    self.pieces.append(_link(code_span(code), url))
                    return None
            text = "".join(el.itertext())
        else:
            text = el.text or ""
        code = _collapse(text)
        if code:
            pieces = self.pieces
            last = self.last_code
            if last is not None and pieces and pieces[-1] is last[0]:
                # <code>a</code><code>b</code>: touching backtick runs would merge, so one span.
                code = last[1] + code
                pieces.pop()
            pieces.append(code_span(code))
            self.last_code = (pieces[-1], code)
        return None

    def open_source(self, el: etree._Element) -> End:
        """libxml2 nests what follows a ``<source>`` inside it, the ``<picture>``'s ``<img>``
        included: that image may take the first source's ``srcset`` if it has no ``src``."""
        srcset = el.get("srcset") or el.get("data-srcset")
        if self.srcset is not None or not srcset:
            return None
        if not any(parent.tag == "picture" for parent in el.iterancestors()):
            return None
        self.srcset = srcset

        def end() -> None:
            self.srcset = None

        return end

    def open_math(self, el: etree._Element) -> End:
        """MathML as its text: the ``alttext`` (usually TeX), else a TeX annotation, else
        the text of its presentation elements."""
        self.skip = True
        text = el.get("alttext")
        if not text:
            tex = _TEX_ANNOTATION(el)
            if tex:
                text = "".join(tex[0].itertext())
            else:
                for annotation in _ANNOTATIONS(el):
                    annotation.getparent().remove(annotation)
                text = "".join(el.itertext())
        text = _collapse(text)
        if text:
            self.pieces.append(escape_text(text, self.link > 0))
        return None

    def open_img(self, el: etree._Element) -> End:
        src = el.get("src")
        if not src or src.startswith("data:"):
            src = (
                el.get("data-src")
                or el.get("data-lazy-src")
                or el.get("data-original")
                or el.get("data-url")
                or _first_candidate(el.get("srcset") or el.get("data-srcset"))
                or _lazy_source(el)
                or _first_candidate(self.srcset)
                or src
            )
        alt = _collapse(el.get("alt") or "")
        if alt:
            alt = escape_text(alt, in_link=True)
        url = self.url(src) if src and not src.startswith("data:") else None
        if url:
            self.pieces.append(f"![{alt}]({url})")
        elif alt:
            self.pieces.append(alt)
        return None

    def url(self, href: str) -> str | None:
        """``href`` made absolute and safe as a link destination; None for scripts."""
        cached = self.urls.get(href, False)
        if cached is not False:
            return cached
        value = href.strip()
        if "\n" in value or "\t" in value or "\r" in value:
            value = re.sub(r"[\t\n\r]", "", value)
        scheme = value[:11].lower()
        url: str | None
        if not value or value == "#" or scheme.startswith(("javascript:", "vbscript:", "data:")):
            url = None
        else:
            if self.base_url and not scheme.startswith(("https://", "http://")):
                with contextlib.suppress(ValueError):  # a malformed URL stays as written
                    value = urljoin(self.base_url, value)
            url = escape_url(value)
        self.urls[href] = url
        return url


def _collapse(text: str) -> str:
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


# tag -> the opener function, looked up once rather than per element or per instance.
_OPENERS: dict[str, Callable[[MarkdownConverter, etree._Element], End]] = {
    tag: getattr(MarkdownConverter, "open_" + family)
    for tag, family in MarkdownConverter._families.items()
}


def _link(text: str, url: str) -> str:
    """``[text](url)``; an HTML anchor when code in the text holds a "]" (escapes do not
    work in code, and "[`a]`" would end the link text early or read as a definition)."""
    if "]" in text and "`" in text:
        href = _URL_ESCAPE.sub(r"\1", url).replace("&", "&amp;")
        return f'<a href="{href.replace(chr(34), "&quot;")}">{text}</a>'
    return f"[{text}]({url})"


_URL_ESCAPE = re.compile(r"\\([!-/:-@[-`{-~])")  # undoes `escape_url` for an HTML href
_TEX_ANNOTATION = etree.XPath(
    ".//annotation[contains(@encoding, 'x-tex') or contains(@encoding, 'latex')]"
)
_ANNOTATIONS = etree.XPath(".//annotation | .//annotation-xml")


def _lazy_source(img: etree._Element) -> str | None:
    """A lazy-loading source under a site's own name (CNN's ``data-src-medium``, ...)."""
    for name, value in img.items():
        if name.startswith(("data-src", "data-lazy")):
            value = value.strip()
            # A URL, not a flag such as data-lazy-loaded="true" nor a srcset list.
            if ("/" in value or "." in value) and " " not in value:
                return value
    return None


def _first_candidate(srcset: str | None) -> str | None:
    """The first URL of a ``srcset`` ("a.jpg 1x, b.jpg 2x")."""
    if not srcset:
        return None
    first = srcset.strip().split(",", 1)[0].split()
    return first[0] if first else None


def _int(value: str | None, default: int) -> int:
    if value:
        try:
            return int(value.strip())
        except ValueError:
            pass
    return default


def _language(pre: etree._Element) -> str:
    """The language of a code block from the classes Prism, highlight.js, Sphinx, GitHub,
    Pygments, pandoc and SyntaxHighlighter put on it, its ``<code>`` or its parents."""
    candidates = [pre]
    code = pre.find("code")
    if code is not None:
        candidates.insert(0, code)
    parent = pre.getparent()
    if parent is not None:
        candidates.append(parent)
        grand = parent.getparent()
        if grand is not None:
            candidates.append(grand)
    for el in candidates:
        lang = el.get("data-lang") or el.get("data-language")
        if lang:
            return _clean_language(lang)
        classes = el.get("class")
        if classes:
            match = _LANG.search(classes)
            if match:
                return _clean_language(match.group(1))
            names = classes.split()
            if "sourceCode" in names and len(names) == 2:
                return _clean_language(names[1 - names.index("sourceCode")])
            if el is code or el is pre:
                # highlight.js without a prefix: <code class="hljs python">, <code class="go">
                for name in names:
                    if name.lower() in _KNOWN_LANGUAGES:
                        return _clean_language(name)
    return ""


def _clean_language(lang: str) -> str:
    lang = lang.strip().lower()
    lang = _LANG_ALIASES.get(lang, lang)
    return lang if re.fullmatch(r"[a-z0-9_+#.-]{1,30}", lang) else ""


def _is_layout(table: etree._Element) -> bool:
    """A table used for layout is not a data table: role=presentation, one cell a row, or
    cells holding headings or several blocks; a header cell (``th``) anywhere means data."""
    if table.get("role") in ("presentation", "none"):
        return True
    if _HAS_HEADER_CELL(table):
        return False
    widest = 0
    for child in table.iterchildren("tr", "thead"):
        for tr in child.iterchildren("tr") if child.tag == "thead" else (child,):
            widest = max(widest, sum(1 for _ in tr.iterchildren("td")))
    return widest <= 1 or _HAS_PAGE_IN_CELL(table)


_HAS_HEADER_CELL = etree.XPath("boolean(tr/th | thead/tr/th)")
_HAS_PAGE_IN_CELL = etree.XPath(
    "boolean(.//td[.//h1 or .//h2 or .//h3 or .//h4 or .//h5 or .//h6"
    " or count(.//p | .//div | .//ul | .//ol | .//blockquote | .//pre | .//figure) >= 3])"
)


def _alignment(cell: etree._Element) -> str:
    """The delimiter cell for a header cell's ``align`` or ``text-align``."""
    align = cell.get("align")
    if align is None:
        style = cell.get("style")
        if not style or "text-align" not in style:
            return "---"
        align = style.split("text-align", 1)[1].lstrip(" :").split(";", 1)[0]
    align = align.strip().lower()
    return {"center": ":---:", "right": "---:", "left": ":---"}.get(align, "---")


def _table_lines(rows: list[list[tuple[str, int, int]]], aligns: list[str]) -> list[str]:
    """GFM table lines: spans filled with empty cells, every row as wide as the widest."""
    grid: list[list[str]] = []
    carry: dict[int, int] = {}  # column -> rows a rowspan still covers
    for row in rows:
        cells: list[str] = []
        for text, colspan, rowspan in row:
            _fill_carried(cells, carry)
            for i in range(colspan):
                if rowspan > 1:
                    carry[len(cells)] = rowspan - 1
                cells.append(text if i == 0 else "")
        _fill_carried(cells, carry)
        if any(cells):
            grid.append(cells)
    if not grid:
        return []
    width = max(len(cells) for cells in grid)
    lines = []
    for cells in grid:
        cells += [""] * (width - len(cells))
        lines.append("| " + " | ".join(cells) + " |")
    aligns = aligns[:width] + ["---"] * (width - len(aligns))
    lines.insert(1, "| " + " | ".join(aligns) + " |")
    return lines


def _fill_carried(cells: list[str], carry: dict[int, int]) -> None:
    """Empty cells where a rowspan from a row above still covers the next column."""
    while carry.get(len(cells)):
        carry[len(cells)] -= 1
        cells.append("")


_NO_WORD_FIRST = _BLOCK_TAGS.union(("br", "hr", "img", "dt", "dl", "dd"))


def _word_may_follow(el: etree._Element | None) -> bool:
    """Whether the output right after ``el`` may start with a word character (a closing
    ``*`` after punctuation and before a letter cannot close). An element that follows
    directly could start with anything, so it counts as a word."""
    while el is not None:
        tail = el.tail
        if tail:
            return _is_word(tail[0])
        following = el.getnext()
        if following is not None:
            # A line break, an image or a block starts with no word character.
            return following.tag not in _NO_WORD_FIRST
        el = el.getparent()
        if el is None or el.tag in _BLOCK_TAGS:
            return False
    return False


def _is_word(char: str) -> bool:
    """Neither whitespace nor punctuation, in CommonMark's sense."""
    return not (char.isspace() or char == _BR or _is_punct(char))


def _is_punct(char: str) -> bool:
    if char < "\x80":
        return char in _ASCII_PUNCT
    return unicodedata.category(char)[0] in "PS"


_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
