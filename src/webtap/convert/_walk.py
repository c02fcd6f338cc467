"""The walk: one iterative pass over the pruned libxml2 tree, writing Markdown.

The walk is ``etree.iterwalk`` (C) with start/end events, so no depth of nesting can
exhaust Python's stack. Each tag family has an ``open_<family>`` method (in `_inline`,
`_blocks` and `_tables`), found through a dict built once (``_OPENERS``); it returns the
action to run at the element's end event (or None). Text and tails between elements are
escaped and collected as inline pieces (`_writer`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from lxml import etree

from webtap.convert._escape import MAYBE_SPECIAL, escape_text
from webtap.convert._html import TASK
from webtap.convert._inline import BLOCKS
from webtap.convert._tables import Tables
from webtap.convert._writer import HEADINGS, End

__all__ = ["MarkdownConverter"]


class MarkdownConverter(Tables):
    """Convert a cleaned lxml tree (`_html.clean`) to GitHub-flavoured Markdown.

    ``MarkdownConverter(base_url).convert(element)`` converts any element and what is under
    it; one instance converts one tree."""

    _families: ClassVar[dict[str, str]] = {
        **dict.fromkeys(BLOCKS, "block"),
        **dict.fromkeys(HEADINGS, "heading"),
        **dict.fromkeys(("ul", "ol", "menu", "dir"), "list"),
        "li": "item",
        TASK: "task",
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
                text = el.tail if el is not root else None
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


# tag -> the opener function, looked up once rather than per element or per instance.
_OPENERS: dict[str, Callable[[MarkdownConverter, etree._Element], End]] = {
    tag: getattr(MarkdownConverter, "open_" + family)
    for tag, family in MarkdownConverter._families.items()
}
