"""Inline marks: emphasis, links, code spans, images, sup/sub, quotations, MathML.

An inline element opens a `Mark` at the current end of ``pieces``; at its end the pieces
collected since are wrapped in its marker. A block boundary inside it (``<a><h3>..</h3></a>``)
wraps what it has so far and reopens it empty, as browsers do with misnested tags.
"""

from __future__ import annotations

import re
import unicodedata

from lxml import etree

from webtap.convert._escape import code_span, escape_text
from webtap.convert._writer import BR, KEPT_SPACE, End, Mark, Writer, collapse

__all__ = ["BLOCKS", "BLOCK_TAGS", "Inline"]

# Whitespace moved outside emphasis markers (Unicode spaces too: "*a\xa0*" would not close).
_STRIP = "".join(c for c in map(chr, range(0x3001)) if c.isspace()) + "\x00"
_MAX_INLINE = 40  # deeper inline wrapping is written as plain text
_PERMALINK = frozenset(("¶", "#", "§", "🔗"))
_TAGS = {"**": "strong", "*": "em", "~~": "del", "__": "strong", "_": "em"}
BLOCKS = (
    "p", "div", "section", "article", "main", "header", "footer", "aside", "address", "center",
    "hgroup", "fieldset", "legend", "form", "figure", "figcaption", "details", "dialog", "body",
    "dl", "dd", "search",
)  # fmt: skip
BLOCK_TAGS = frozenset(
    (*BLOCKS, "li", "ul", "ol", "td", "th", "tr", "table", "blockquote", "pre", "caption")
).union(f"h{level}" for level in range(1, 7))
_NO_WORD_FIRST = BLOCK_TAGS.union(("br", "hr", "img", "dt", "dl", "dd"))
_SPACE_RUN = re.compile(" {2,}")
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_URL_ESCAPE = re.compile(r"\\([!-/:-@[-`{-~])")  # undoes `escape_url` for an HTML href
_TEX_ANNOTATION = etree.XPath(
    ".//annotation[contains(@encoding, 'x-tex') or contains(@encoding, 'latex')]"
)
_ANNOTATIONS = etree.XPath(".//annotation | .//annotation-xml")


class Inline(Writer):
    """Openers of the inline tag families."""

    def open_inline(self, marker: str, url: str | None = None) -> Mark | None:
        if len(self.active) >= _MAX_INLINE:
            return None
        mark = Mark(marker, len(self.pieces), url)
        self.active.append(mark)
        return mark

    def close(self, mark: Mark | None, el: etree._Element | None = None) -> None:
        if mark is not None:
            self.active.pop()
            self.wrap(mark, el)

    def close_inline(self) -> None:
        """Wrap the pieces of every open inline element, then reopen them empty."""
        for mark in reversed(self.active):
            self.wrap(mark)
        for mark in self.active:
            mark.start = 0

    def wrap(self, mark: Mark, el: etree._Element | None = None) -> None:
        """Wrap the pieces collected since ``mark`` opened at the end of element ``el``."""
        marker, start = mark.marker, mark.start
        pieces = self.pieces
        if start >= len(pieces):
            return
        content = pieces.pop() if start == len(pieces) - 1 else "".join(pieces[start:])
        del pieces[start:]
        core = content.strip(_STRIP)
        if not core:
            if content:
                pieces.append(BR if BR in content else " ")
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
            wrapped = link(core, mark.url or "")
        elif marker == "q":
            wrapped = f"\u201c{core}\u201d"
        elif marker in ("sup", "sub"):
            wrapped = f"<{marker}>{core}</{marker}>"
        elif (
            (before and not before.isspace() and (_is_punct(core[0]) or _is_word(before)))
            or (not trail and _is_punct(core[-1]) and _word_may_follow(el))
            or (marker[0] == "_" and not trail and _word_may_follow(el))
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
            and not any(other.start == start for other in self.active)
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

    # -- emphasis, sup/sub, quotations: the same open/close around a marker -------------------

    def open_strong(self, el: etree._Element) -> End:
        return self.open_emphasis(el, "strong", "**", "__")

    def open_em(self, el: etree._Element) -> End:
        return self.open_emphasis(el, "em", "*", "_")

    def open_emphasis(self, el: etree._Element, depth: str, marker: str, inner: str) -> End:
        """Strong or emphasis: ``depth`` names the counter of open ones (``strong``, ``em``);
        inside the same emphasis the other delimiter, ``inner``: "*a _b_ c*" nests, "*a *b*
        c*" would not."""
        level = getattr(self, depth)
        mark = self.open_inline(inner if level % 2 else marker)
        setattr(self, depth, level + 1)

        def end() -> None:
            setattr(self, depth, getattr(self, depth) - 1)
            self.close(mark, el)

        return end

    def open_strike(self, el: etree._Element) -> End:
        if self.strike:
            return None
        self.strike += 1
        mark = self.open_inline("~~")

        def end() -> None:
            self.strike -= 1
            self.close(mark, el)

        return end

    def open_sup(self, el: etree._Element) -> End:
        mark = self.open_inline("sup")
        return lambda: self.close(mark)

    def open_sub(self, el: etree._Element) -> End:
        mark = self.open_inline("sub")
        return lambda: self.close(mark)

    def open_quotation(self, el: etree._Element) -> End:
        mark = self.open_inline("q")
        return lambda: self.close(mark)

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
        mark = self.open_inline("a", url)

        def end() -> None:
            self.link -= 1
            self.close(mark)

        return end

    # -- elements read whole: code spans, MathML, images --------------------------------------

    def open_code(self, el: etree._Element) -> End:
        self.skip = True
        if len(el):
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
                code = collapse(only.text or "")
                url = self.url(only.get("href") or "")
                if code and url:
                    if self.pieces:
                        self.guard_bang(-1)
                    self.pieces.append(link(code_span(code), url))
                    return None
            text = text_with_breaks(el, " ")
        else:
            text = el.text or ""
        code = _span_text(text)
        if not code:
            return None
        pieces = self.pieces
        last = self.last_code
        if last is not None and pieces and pieces[-1] is last[0]:
            # <code>a</code><code>b</code>: touching backtick runs would merge, so one span.
            code = last[1] + code
            pieces.pop()
        span = code_span(code)
        if "  " in span:  # "`  `", "``  ` ``": spaces the paragraph's collapsing must keep
            span = span.replace(" ", KEPT_SPACE)
        pieces.append(span)
        self.last_code = (span, code)
        return None

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
        text = collapse(text)
        if text:
            self.pieces.append(escape_text(text, self.link > 0))
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
        alt = collapse(el.get("alt") or "")
        if alt:
            alt = escape_text(alt, in_link=True)
        url = self.url(src) if src and not src.startswith("data:") else None
        if url:
            self.pieces.append(f"![{alt}]({url})")
        elif alt:
            self.pieces.append(alt)
        return None


def text_with_breaks(el: etree._Element, newline: str) -> str:
    """The text under ``el`` with each ``<br>`` read as ``newline``.

    Read from the tree, never written into it: lxml refuses to store text holding control
    characters that libxml2 itself parsed (``\\x0c``), so the walk never edits text."""
    if el.find(".//br") is None:
        return "".join(el.itertext())
    parts: list[str] = []
    for event, node in etree.iterwalk(el, events=("start", "end")):
        if event == "start":
            if node.tag == "br":
                parts.append(newline)
            elif node.text:
                parts.append(node.text)
        elif node is not el and node.tail:
            parts.append(node.tail)
    return "".join(parts)


def _span_text(text: str) -> str:
    """A code span's text as a browser shows it: HTML whitespace runs as one space, the
    edges kept (``<code> a</code>``), and a span of nothing but spaces kept whole."""
    if not text.strip(" "):
        return text
    if "\n" in text or "\t" in text or "\r" in text or "\f" in text:
        text = text.replace("\n", " ").replace("\t", " ").replace("\r", " ").replace("\f", " ")
    if "  " in text:
        text = _SPACE_RUN.sub(" ", text)
    return text if text.strip(" ") else ""


def link(text: str, url: str) -> str:
    """``[text](url)``; an HTML anchor when code in the text holds a "]" (escapes do not
    work in code, and "[`a]`" would end the link text early or read as a definition)."""
    if "]" in text and "`" in text:
        href = _URL_ESCAPE.sub(r"\1", url).replace("&", "&amp;")
        return f'<a href="{href.replace(chr(34), "&quot;")}">{text}</a>'
    return f"[{text}]({url})"


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
        if el is None or el.tag in BLOCK_TAGS:
            return False
    return False


def _is_word(char: str) -> bool:
    """Neither whitespace nor punctuation, in CommonMark's sense."""
    return not (char.isspace() or char == BR or _is_punct(char))


def _is_punct(char: str) -> bool:
    if char < "\x80":
        return char in _ASCII_PUNCT
    return unicodedata.category(char)[0] in "PS"
