"""Blocks: paragraphs, headings, rules, code blocks, lists and block quotes.

A block flushes the paragraph before it. Lists and quotes are containers: they prefix every
line written inside them (``- ``/``> `` on their first, an indent on the others).
"""

from __future__ import annotations

import re

from lxml import etree

from webtap.convert._escape import code_fence, code_span, escape_heading_end, escape_text
from webtap.convert._inline import Inline, text_with_breaks
from webtap.convert._writer import BR, HEADINGS, Container, End, ListState, collapse, parse_int

__all__ = ["Blocks", "Container", "ListState", "code_lines", "language"]

LANG = re.compile(r"(?:^|\s)(?:lang(?:uage)?-|highlight-(?:source-)?|brush:\s*)([\w+#.-]+)")
_LANG_ALIASES = {"default": "python", "python3": "python", "py3": "python", "none": ""}
_LANG_NAME = re.compile(r"[\w+#.-]{1,40}")  # \w: "language-föö" is a language too
_KNOWN_LANGUAGES = frozenset((
    "python", "py", "javascript", "js", "typescript", "ts", "bash", "sh", "shell", "console",
    "zsh", "powershell", "json", "yaml", "yml", "toml", "ini", "html", "xml", "css", "scss",
    "sql", "java", "kotlin", "scala", "c", "cpp", "c++", "csharp", "cs", "go", "golang", "rust",
    "ruby", "php", "perl", "lua", "r", "swift", "objectivec", "haskell", "elixir", "erlang",
    "clojure", "dart", "diff", "dockerfile", "makefile", "nginx", "graphql", "latex", "tex",
    "markdown", "md", "pycon",
))  # fmt: skip
_MAX_CONTAINERS = 60  # deeper list/quote nesting is written without further indentation
_MAX_NUMBER = 999_999_999


class Blocks(Inline):
    """Openers of the block tag families."""

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
                self.interrupt()
                self.emit([f"{'#' * level} {escape_heading_end(text)}"])
                self.last_leaf = (len(self.lines), True)

        return end

    def open_rule(self, el: etree._Element) -> End:
        if self.flat:
            self.pieces.append(self.flat_sep)
            return None
        self.flush()
        containers = self.containers
        if self.pending < len(containers) and containers[-1].kind == "li":
            # On an item's first line "- ---" (or "* ***") is itself a thematic break that
            # ends the list; "_" is never a bullet.
            self.emit(["___"])
        elif self.tight():
            self.interrupt()
            self.emit(["***"])  # right under a paragraph "---" would underline a heading
        else:
            self.emit(["---"])
        self.last_leaf = (len(self.lines), True)
        return None

    def open_br(self, el: etree._Element) -> End:
        self.pieces.append(self.flat_sep if self.flat else BR)
        return None

    def open_pre(self, el: etree._Element) -> End:
        self.skip = True
        text = text_with_breaks(el, "\n")
        if text[:1] == "\n" and (el.text or "")[:1] == "\n":
            text = text[1:]  # HTML ignores a newline right after <pre>; libxml2 keeps it
        if self.flat:
            code = collapse(text)
            if code:
                self.pieces.append(code_span(code))
            return None
        self.flush()
        lines = code_lines(text)
        fence = code_fence(text)
        self.interrupt()
        self.emit([fence + language(el), *lines, fence])  # an empty block too: it is shown
        self.last_leaf = (len(self.lines), True)
        return None

    def open_quote(self, el: etree._Element) -> End:
        if not self.flat:
            self.flush()
            self.interrupt()
        return self.open_container("quote", "> ", "> ", bare=len(el) == 0)

    def open_container(
        self, kind: str, marker: str, indent: str, tight: bool = True, bare: bool = False
    ) -> End:
        """``bare``: the element holds no element, so if it writes nothing it is empty in
        the HTML itself (and shown), not emptied by what the conversion leaves out."""
        if self.flat:
            self.pieces.append(self.flat_sep)
            return self.separate
        self.flush()
        containers = self.containers
        if len(containers) >= _MAX_CONTAINERS:
            return self.flush
        outer = self.indent
        container = Container(kind, marker, indent, outer, tight)
        containers.append(container)
        self.indent = outer + indent

        def end() -> None:
            self.flush()
            if bare and self.pending < len(containers):
                self.emit([""])  # an empty item or quote is still one: "-", ">"
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
            number = min(max(parse_int(el.get("start"), 1), 0), _MAX_NUMBER)
        containers = self.containers
        if (
            containers
            and containers[-1].kind == "li"
            and containers[-1].tight
            and self.pending == len(containers)
            and number == 1  # only "1." may interrupt a paragraph (CommonMark)
        ):
            self.sep = 1  # a nested list follows its item's text directly
        state = ListState(ordered, bullet, number, len(self.lines), _loose(el))
        self.lists.append(state)

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
        state = self.lists[-1] if self.lists else None
        if state is None:
            marker = "- "
        elif state.ordered:
            number = min(max(parse_int(el.get("value"), state.number), 0), _MAX_NUMBER)
            state.number = min(number + 1, _MAX_NUMBER)
            marker = f"{number}{state.bullet} "
        else:
            marker = state.bullet + " "
        loose = state is not None and state.loose
        if (
            not loose
            and state is not None
            and len(self.lines) == state.item_end > state.lines_at_start
        ):
            self.sep = 1  # items follow each other without a blank line
        close = self.open_container("li", marker, " " * len(marker), not loose, len(el) == 0)
        if state is None:
            return close

        def end() -> None:
            if close is not None:
                close()
            state.item_end = len(self.lines)

        return end

    def open_task(self, el: etree._Element) -> End:
        """A checkbox starting a list item: GFM's ``[ ]`` / ``[x]``."""
        marker = "[x] " if el.get("checked") is not None else "[ ] "
        self.pieces.append(escape_text(marker, self.link > 0))
        return None

    def open_summary(self, el: etree._Element) -> End:
        """A disclosure's label in bold, unless it holds a heading, which says it already
        ("## **Title**" would be bold twice)."""
        self.separate()
        close = None if any(child.tag in HEADINGS for child in el) else self.open_strong(el)

        def end() -> None:
            if close is not None:
                close()
            self.separate()

        return end


def _loose(el: etree._Element) -> bool:
    """Whether a list is loose: an item holds a paragraph (``<li><p>``), as CommonMark
    writes a list with blank lines between its items. Sphinx marks its compact lists
    ``simple`` and still puts their items' text in paragraphs."""
    classes = el.get("class")
    if classes and "simple" in classes.split():
        return False
    return any(child.tag == "p" for item in el if item.tag == "li" for child in item)


def code_lines(text: str) -> list[str]:
    """A code block's lines, verbatim: blank lines, trailing spaces and tabs stay.

    The newline that ends the last line is the fence's to write; ``\\r`` becomes ``\\n``,
    the only line end Markdown and the paging of its lines agree on. A block of nothing
    but whitespace has no lines."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return []
    if text[-1] == "\n":
        text = text[:-1]
    return text.split("\n")


def language(pre: etree._Element) -> str:
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
            match = LANG.search(classes)
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
    return lang if _LANG_NAME.fullmatch(lang) else ""
