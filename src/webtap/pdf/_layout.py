"""Lines to Markdown: running headers dropped, paragraphs joined, hyphenation undone,
headings, list items and footnotes found."""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field

from webtap.convert import escape_heading_end, escape_line_start, escape_text
from webtap.pdf._reader import Line

_HYPHENS = "-\u2010\u00ad"
_CJK = re.compile("[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
_NOTE = re.compile(r"\d{1,3} +\S")
_BULLETS = "•◦▪▫‣⁃●○■□–"
_COMPOUND = re.compile(r"\w++(?:[-\u2010]\w++)++")
_TRAILING = ".,;:!?\"'()[]“”‘’…"
_SENTENCE_END = frozenset('.!?:;…"”’)]')
_DIGITS = re.compile(r"\d+")


@dataclass(slots=True)
class _Block:
    """A paragraph, a heading (``level`` > 0), a list item or a footnote, as its lines."""

    lines: list[Line]
    level: int = 0
    item: bool = False
    edges: list[float] = field(default_factory=list)  # each line's column edge
    note: bool = False  # a footnote, starting with its number


def _without_running_lines(pages: list[list[Line]]) -> list[list[Line]]:
    """The pages without their running headers and footers: lines at the very top or bottom of
    a page that come back, digits aside ("Page 3 of 9"), on at least half of the pages."""

    def edge_lines(lines: list[Line]) -> list[Line]:
        if len(lines) < 3:
            return []  # a page of a line or two is all body
        ordered = sorted(lines, key=lambda line: line.bottom)
        return ordered[:2] + ordered[-2:] if len(ordered) > 6 else [ordered[0], ordered[-1]]

    def key(line: Line) -> str:
        return _DIGITS.sub("#", line.text)

    with_text = [lines for lines in pages if lines]
    if len(with_text) < 3:
        return pages
    seen: Counter[str] = Counter()
    for lines in with_text:
        seen.update({key(line) for line in edge_lines(lines)})
    running = {k for k, n in seen.items() if n >= max(3, len(with_text) / 2)}
    if not running:
        return pages
    out = []
    for lines in pages:
        drop = {id(line) for line in edge_lines(lines) if key(line) in running}
        out.append([line for line in lines if id(line) not in drop])
    return out


def _carry_hyphenated_words(pages: list[list[Line]], body: float, compounds: set[str]) -> None:
    """A word hyphenated across a page break is put together on the page where it starts."""
    for lines, following in itertools.pairwise(pages):
        text_lines = [line for line in lines if abs(line.size - body) < 0.5]
        if not (text_lines and following):
            continue
        last, first = text_lines[-1], following[0]
        # PDFium marks a hyphen only before a line it can see: not at the end of a page.
        hard = last.text.endswith(tuple(_HYPHENS)) and last.text[-2:-1].isalpha()
        word, _, rest = first.text.partition(" ")
        if not ((last.hyphen or hard) and word[:1].islower()):
            continue
        head = last.text[:-1] if hard else last.text
        last.text = _unhyphenate(head, word, compounds) + word
        last.hyphen = False
        if rest:
            first.text = rest
        else:
            following.pop(0)


def _body_size(pages: list[list[Line]]) -> float:
    """The font size most of the text is set in."""
    sizes: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            sizes[round(line.size, 1)] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _heading_levels(pages: list[list[Line]], body: float) -> dict[float, int]:
    """Markdown levels (3, 4, 5) for the sizes clearly larger than the body's, largest first.

    Level 2 is the page marker. Only sizes that hold little of the text count: a document set
    in two sizes has no headings by size.
    """
    amount: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            if line.size > body * 1.15:
                amount[round(line.size, 1)] += len(line.text)
    total = sum(len(line.text) for lines in pages for line in lines) or 1
    sizes = sorted((s for s, n in amount.items() if n / total < 0.2), reverse=True)
    return {size: min(3 + rank, 5) for rank, size in enumerate(sizes)}


def _blocks(lines: list[Line], body: float, levels: dict[float, int]) -> list[_Block]:
    """Group a page's lines into paragraphs, headings and list items."""
    if not lines:
        return []
    pitch = _line_pitch(lines)
    right_edge = _right_edges(lines)
    # Footnotes: smaller type, below all of the body text, each starting with its number.
    foot = min((line.bottom for line in lines if abs(line.size - body) < 0.5), default=0.0)
    blocks: list[_Block] = []
    for line, edge in zip(lines, right_edge, strict=True):
        level = levels.get(round(line.size, 1), 0)
        item = line.text[0] in _BULLETS and len(line.text) > 1 and line.text[1] == " "
        note = line.size < body * 0.9 and line.bottom < foot and _NOTE.match(line.text)
        current = blocks[-1] if blocks else None
        if current is None or item or note or _breaks(current, line, pitch, level):
            blocks.append(_Block([line], level, item, [edge], note=bool(note)))
        else:
            current.lines.append(line)
            current.edges.append(edge)
    for block in blocks:
        if not block.level and not block.item and _bold_heading(block, body):
            block.level = 5
    return blocks


def _line_pitch(lines: list[Line]) -> float:
    """The usual distance from one baseline to the next within the page's body text."""
    gaps = [
        a.bottom - b.bottom
        for a, b in itertools.pairwise(lines)
        if 0 < a.bottom - b.bottom < 3 * max(a.size, 1) and abs(a.size - b.size) < 0.5
    ]
    return statistics.median(gaps) if gaps else 0.0


def _right_edges(lines: list[Line]) -> list[float]:
    """For each line, the right edge of its text column: the furthest right that lines of its
    size starting near it (in the same or a neighbouring 2 em band) reach."""
    furthest: dict[tuple[float, int], float] = {}
    keys = []
    for line in lines:
        key = (round(line.size), int(line.left // (2 * max(line.size, 1))))
        keys.append(key)
        furthest[key] = max(furthest.get(key, 0.0), line.right)
    get = furthest.get
    return [
        max(get((size, band - 1), 0.0), get((size, band), 0.0), get((size, band + 1), 0.0))
        for size, band in keys
    ]


def _breaks(block: _Block, line: Line, pitch: float, level: int) -> bool:
    """Whether ``line`` starts a new block rather than continuing ``block``."""
    prev = block.lines[-1]
    em = max(line.size, 1)
    drop = prev.bottom - line.bottom
    close = drop > 0 and (drop <= pitch * 1.3 + 0.5 if pitch else drop <= 2 * em)
    if block.item:
        # A list item goes on with lines below it indented past its bullet.
        return not (close and line.left > block.lines[0].left + 2)
    if level != block.level or abs(line.size - prev.size) > 0.15 * max(prev.size, 1):
        return True
    if prev.hyphen:
        return False  # a word goes on, in the next line or at the top of the next column
    if abs(drop) < 0.3 * em and 0 <= line.left - prev.right < 3 * em:
        return False  # more of the same line, after a gap PDFium took for a line end
    if not close:
        # A gap, or the text went up: a new column, where a paragraph may go on.
        return not (
            drop < 0
            and line.left >= prev.right - 1
            and block.edges[-1] - prev.right <= line.first_word + 0.5 * em
            and (line.text[0].islower() or prev.text[-1] not in _SENTENCE_END)
        )
    indent = line.left - prev.left
    if indent > 0.8 * em and (len(block.lines) > 1 or indent > 4 * em):
        return True  # first-line indent of a new paragraph
    if prev.left > line.left + 4 * em and len(block.lines) > 1:
        return True
    # The line before ended early although this line's first word would have fit there.
    room = block.edges[-1] - prev.right
    return room > line.first_word + 0.5 * em and (prev.text[-1] in _SENTENCE_END or room > 8 * em)


def _bold_heading(block: _Block, body: float) -> bool:
    """A short bold block in body size or larger, not ending like a sentence."""
    text = " ".join(line.text for line in block.lines)
    return (
        all(line.bold for line in block.lines)
        and len(block.lines) <= 2
        and len(text) <= 120
        and block.lines[0].size >= body * 0.95
        and not text.endswith((".", ",", ";"))
        and any(ch.isalpha() for ch in text)
    )


def render(pages: list[list[Line]], notes: list[str]) -> tuple[str, str]:
    """The Markdown of all pages, and the document's first line of text (a fallback title)."""
    pages = _without_running_lines(pages)
    body = _body_size(pages)
    compounds = _compounds(pages)
    _carry_hyphenated_words(pages, body, compounds)
    levels = _heading_levels(pages, body)
    out: list[str] = [f"> {note}\n\n" for note in notes]
    first_line = ""
    empty_from: int | None = None
    for number, lines in enumerate(pages, 1):
        if not lines:
            empty_from = number if empty_from is None else empty_from
            continue
        if empty_from is not None:
            out.append(_empty_pages(empty_from, number - 1))
            empty_from = None
        first_line = first_line or lines[0].text
        out.append(f"## Page {number}\n\n")
        for block in _blocks(lines, body, levels):
            out.append(_block_markdown(block, compounds))
    if empty_from is not None:
        out.append(_empty_pages(empty_from, len(pages)))
    return "".join(out).rstrip("\n") + "\n", first_line[:200]


def _empty_pages(first: int, last: int) -> str:
    if first == last:
        return f"## Page {first}\n\n_(no text on this page)_\n\n"
    return f"## Pages {first}–{last}\n\n_(no text on these pages)_\n\n"


def _block_markdown(block: _Block, compounds: set[str]) -> str:
    text = _join(block.lines, compounds)
    if block.level:
        return f"{'#' * block.level} {escape_heading_end(escape_text(text))}\n\n"
    if block.item:
        return f"- {_escape(text[1:].strip())}\n\n"
    if block.note:
        number, _, rest = text.partition(" ")
        return f"[^{number}]: {escape_text(rest.strip())}\n\n"
    return f"{_escape(text)}\n\n"


def _escape(text: str) -> str:
    return escape_line_start(escape_text(text))


def _join(lines: list[Line], compounds: set[str]) -> str:
    """The lines of a block as one line of text, line-end hyphenation undone where clear."""
    parts: list[str] = []
    for line, after in zip(lines, [*lines[1:], None], strict=True):
        text = line.text
        if after is None:
            parts.append(text)
        elif line.hyphen or (text[-1] in _HYPHENS and len(text) > 1 and text[-2].isalpha()):
            parts.append(_unhyphenate(text.rstrip(_HYPHENS), after.text, compounds))
        elif _CJK.match(text[-1]) and _CJK.match(after.text[0]):
            parts.append(text)  # Chinese and Japanese put no space between words
        else:
            parts.append(text + " ")
    return "".join(parts)


def _unhyphenate(head: str, following: str, compounds: set[str]) -> str:
    """``head`` (a line without its end hyphen) ready to be followed by the next line.

    The hyphen goes when the next line starts in lower case and the document never spells the
    pair with a hyphen elsewhere ("con-" + "trol"); it stays before a capital or a digit
    ("COVID-" + "19", "Anglo-" + "Saxon") and for a compound the document uses ("well-known").
    """
    left = head.rsplit(" ", 1)[-1].rsplit("-", 1)[-1]
    right = following.split(" ", 1)[0]
    if not (left.isalpha() and right[:1].islower()):
        return head + "-"
    if f"{left}-{right.rstrip(_TRAILING)}".lower() in compounds:
        return head + "-"
    return head


def _compounds(pages: list[list[Line]]) -> set[str]:
    """Hyphenated words the document writes within a line, lower-cased, as pairs of parts."""
    found: set[str] = set()
    for lines in pages:
        for line in lines:
            if "-" in line.text or "\u2010" in line.text:
                for word in _COMPOUND.findall(line.text.lower()):
                    parts = word.replace("\u2010", "-").split("-")
                    found.update(f"{a}-{b}" for a, b in itertools.pairwise(parts))
    return found
