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

import ctypes
import itertools
import re
import statistics
import threading
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from webtap.convert._escape import escape_heading_end, escape_line_start, escape_text
from webtap.errors import ParseError
from webtap.settings import env_int

if TYPE_CHECKING:
    from collections.abc import Iterator

    from webtap.net import Deadline

__all__ = [
    "DEFAULT_MAX_EXPANDED",
    "DEFAULT_MAX_PAGES",
    "MAX_EXPANDED_ENV",
    "MAX_PAGES_ENV",
    "to_markdown",
]

MAX_PAGES_ENV = "WEBTAP_PDF_MAX_PAGES"
DEFAULT_MAX_PAGES = 2000
MAX_EXPANDED_ENV = "WEBTAP_PDF_MAX_EXPANDED"
DEFAULT_MAX_EXPANDED = 64 * 1024 * 1024

# A stream starts after its dictionary; images are left out of the count, since reading text
# never decodes them.
_STREAM = re.compile(rb">>\s*stream\r?\n")
_IMAGE = re.compile(rb"/Subtype\s*/Image|/(?:DCT|JPX|JBIG2|CCITTFax)Decode")
_CHUNK = 64 * 1024
_PDFIUM = threading.Lock()

_SOFT_HYPHEN = "\ufffe"  # what PDFium puts where a line ended in a hyphen it took for one
# Ligature glyphs as letters, so the words can be searched; soft hyphens inside a line go.
_LIGATURES = str.maketrans(
    {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st", "\xad": ""}
)
_ODD_CHARACTERS = re.compile("[\ufb00-\ufb06\xad\t\x0b\x0c]|  ")
_PHYSICAL_LINE = re.compile(r"[^\r\n\ufffe]+\ufffe?")
_HYPHENS = "-\u2010\u00ad"
_CJK = re.compile("[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
_NOTE = re.compile(r"\d{1,3} +\S")
_BULLETS = "•◦▪▫‣⁃●○■□–"
_COMPOUND = re.compile(r"\w++(?:[-\u2010]\w++)++")
_TRAILING = ".,;:!?\"'()[]“”‘’…"
_SENTENCE_END = frozenset('.!?:;…"”’)]')
_PLACEHOLDER_TITLE = re.compile(
    r"(?i)untitled(?: document)?"
    r"|(?:microsoft \w+ - )?.*\.(?:docx?|pdf|tex|dvi|rtf|odt|pptx?|indd|qxd)"
)
_DIGITS = re.compile(r"\d+")
_FORCE_BOLD = 1 << 18
_BOLD_NAME = re.compile(rb"(?i)bold|black|heavy")  # PDF font descriptor flag


@dataclass(slots=True)
class _Line:
    """One line of text as it sits on the page (PDF units, y grows upwards)."""

    text: str
    left: float
    right: float
    bottom: float
    size: float
    bold: bool
    hyphen: bool  # ended in a hyphen that PDFium took for a line-end hyphenation
    first_word: float  # width of the line's first word: would it have fit on the line before?


@dataclass(slots=True)
class _Block:
    """A paragraph, a heading (``level`` > 0), a list item or a footnote, as its lines."""

    lines: list[_Line]
    level: int = 0
    item: bool = False
    edges: list[float] = field(default_factory=list)  # each line's column edge
    note: bool = False  # a footnote, starting with its number


def to_markdown(body: bytes, deadline: Deadline | None = None) -> tuple[str, str]:
    """``(title, markdown)`` of a PDF, or :class:`ParseError` naming what is wrong with it."""
    max_pages = env_int(MAX_PAGES_ENV, DEFAULT_MAX_PAGES, "pages")
    _check_expansion(body, env_int(MAX_EXPANDED_ENV, DEFAULT_MAX_EXPANDED, "bytes"), deadline)
    # PDFium is not thread-safe, and the MCP server and the SQL functions fetch in threads.
    wait = -1 if deadline is None else max(deadline.remaining(), 0)
    if not _PDFIUM.acquire(timeout=wait):
        raise _too_late(deadline)
    try:
        count, pages, broken, title = _read(body, max_pages, deadline)
    finally:
        _PDFIUM.release()
    if pages == [] and count:
        raise _too_late(deadline)
    notes = _notes(count, pages, max_pages, deadline)
    if broken:
        shown = ", ".join(str(n) for n in broken[:20]) + (", ..." if len(broken) > 20 else "")
        notes.append(f"Damaged: {len(broken):,} page(s) could not be read ({shown}).")
    markdown, first_line = _render(pages, notes)
    return title or first_line, markdown


def _read(
    body: bytes, max_pages: int, deadline: Deadline | None
) -> tuple[int, list[list[_Line]], list[int], str]:
    """``(page count, lines of each page read, damaged page numbers, metadata title)``."""
    document = _open(body)
    try:
        count = len(document)
        pages: list[list[_Line]] = []
        broken: list[int] = []
        for index in range(min(count, max_pages)):
            if deadline is not None and deadline.expired:
                break
            lines = _page_lines(document, index)
            if lines is None:
                broken.append(index + 1)
            pages.append(lines or [])
        return count, pages, broken, _metadata_title(document)
    finally:
        document.close()


def _too_late(deadline: Deadline | None) -> ParseError:
    seconds = f"{deadline.seconds:g} s" if deadline is not None else "the time allowed"
    return ParseError(
        f"Cannot read the PDF: the overall deadline of {seconds} passed before its first page "
        "was read (set WEBTAP_FETCH_TIMEOUT to allow more seconds)"
    )


# --- Reading ----------------------------------------------------------------------------------


def _open(body: bytes) -> Any:
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(body)
    except pdfium.PdfiumError as exc:
        raise ParseError(_open_error(body, getattr(exc, "err_code", None))) from None


def _open_error(body: bytes, code: int | None) -> str:
    import pypdfium2.raw as raw

    if code == raw.FPDF_ERR_PASSWORD:
        return (
            "Cannot read the PDF: it is encrypted and needs a password to open "
            "(web_fetch cannot read password-protected PDFs)"
        )
    if code == raw.FPDF_ERR_SECURITY:
        return "Cannot read the PDF: it uses an encryption scheme PDFium does not support"
    if b"%%EOF" not in body[-2048:]:
        return (
            f"Cannot read the PDF: the file is truncated ({len(body):,} bytes with no %%EOF "
            "end marker) or damaged, and its cross-reference table cannot be rebuilt"
        )
    return "Cannot read the PDF: the file is damaged (PDFium found no readable document in it)"


def _check_expansion(body: bytes, budget: int, deadline: Deadline | None = None) -> None:
    """Refuse a PDF whose compressed streams (page content, fonts) expand past ``budget`` bytes.

    PDFium inflates a stream whole, in memory, and cannot be stopped inside a call, so a
    10 MB body of deflated zeros would become gigabytes. The streams are inflated here first,
    a piece at a time, counting what comes out and keeping none of it.
    """
    view = memoryview(body)
    total = 0
    for number, match in enumerate(_STREAM.finditer(body)):
        if deadline is not None and number % 256 == 255 and deadline.expired:
            raise _too_late(deadline)
        start = match.end()
        header = body[start : start + 2]
        if len(header) < 2 or header[0] & 0x0F != 8 or int.from_bytes(header, "big") % 31:
            continue  # no zlib header: PDFium will not inflate it either
        # The stream's dictionary: back to its "N 0 obj", looking no further than 2 KB.
        floor = max(0, match.start() - 2048)
        opening = body.rfind(b"obj", floor, match.start())
        dictionary = body[opening if opening >= 0 else floor : match.start()]
        if _IMAGE.search(dictionary):
            continue
        total += _inflated_size(view[start:], budget - total + 1)
        if total > budget:
            raise ParseError(
                f"Cannot read the PDF: its compressed streams expand to more than "
                f"{budget / 1048576:g} MB (a decompression bomb?); set {MAX_EXPANDED_ENV} to "
                "a larger number of bytes to allow it"
            )


def _inflated_size(data: memoryview, budget: int) -> int:
    """How many bytes the zlib stream at the start of ``data`` inflates to, up to ``budget``."""
    inflater = zlib.decompressobj()
    total = 0
    position = 0
    pending = b""
    try:
        while total <= budget and not inflater.eof:
            if not pending:
                if position >= len(data):
                    break
                pending = data[position : position + _CHUNK]
                position += _CHUNK
            total += len(inflater.decompress(pending, _CHUNK))
            pending = inflater.unconsumed_tail
    except zlib.error:
        pass  # not deflated, or damaged: PDFium will say so or skip it
    return total


def _metadata_title(document: Any) -> str:
    try:
        title = document.get_metadata_value("Title")
    except Exception:  # broken metadata is no reason to lose the text
        return ""
    title = " ".join(title.split())
    # Titles that name the file or the program rather than the document say nothing.
    return "" if _PLACEHOLDER_TITLE.fullmatch(title) else title


def _page_lines(document: Any, index: int) -> list[_Line] | None:
    """The lines of page ``index``, with where they sit and how they are set; ``None`` for a
    page PDFium cannot load."""
    import pypdfium2 as pdfium

    try:
        page = document[index]
    except pdfium.PdfiumError:
        return None
    try:
        textpage = page.get_textpage()
        try:
            return list(_lines(textpage.raw, textpage.get_text_range()))
        finally:
            textpage.close()
    except pdfium.PdfiumError:
        return None
    finally:
        page.close()


def _lines(textpage: Any, text: str) -> Iterator[_Line]:
    """Split the page's text into physical lines and look up each line's first and last
    character: a handful of calls into PDFium per line, not per character."""
    import pypdfium2.raw as raw

    name = ctypes.create_string_buffer(96)
    flags = ctypes.c_int()
    box = raw.FS_RECTF()

    def edges(index: int) -> tuple[float, float, float]:
        # A loose box spans the font's ascent and descent: the same for every glyph of a size.
        if raw.FPDFText_GetLooseCharBox(textpage, index, box):
            return box.left, box.right, box.bottom
        return 0.0, 0.0, 0.0

    # PDFium ends a line with "\r\n" and joins a hyphenated line to the next with U+FFFE.
    for match in _PHYSICAL_LINE.finditer(text):
        chunk = match.group()
        hyphen = chunk.endswith(_SOFT_HYPHEN)
        body = chunk.rstrip(_SOFT_HYPHEN)
        stripped = body.strip()
        hyphen = hyphen or stripped.endswith("\xad")
        if not stripped:
            continue
        start = match.start() + body.index(stripped[0])
        end = start + len(stripped) - 1
        left, _, bottom = edges(start)
        right = edges(end)[1]
        size = raw.FPDFText_GetFontSize(textpage, start)
        raw.FPDFText_GetFontInfo(textpage, start, name, len(name), flags)
        bold = bool(flags.value & _FORCE_BOLD) or _BOLD_NAME.search(name.value) is not None
        if stripped[-1].isdigit():
            small = 0  # trailing digits set smaller than the line: a footnote mark
            while (
                small < 3
                and stripped[-1 - small].isdigit()
                and raw.FPDFText_GetFontSize(textpage, end - small) < 0.8 * size
            ):
                small += 1
            stripped = _footnote_mark(stripped, small)
        # The first word's width, in proportion to its letters: one call into PDFium fewer.
        space = stripped.find(" ")
        word = (right - left) * (space if space > 0 else len(stripped)) / len(stripped)
        if _ODD_CHARACTERS.search(stripped):
            stripped = " ".join(stripped.translate(_LIGATURES).split())
        yield _Line(
            stripped,
            left,
            right,
            bottom,
            size,
            bold,
            hyphen,
            max(word, 0.0),
        )


def _footnote_mark(text: str, digits: int) -> str:
    """``"landslide[^2]"`` for a line ending in a number set smaller than the line."""
    head = text[:-digits].rstrip() if digits else ""
    if not head:
        return text
    return f"{head}[^{text[-digits:]}]"


# --- Layout -----------------------------------------------------------------------------------


def _without_running_lines(pages: list[list[_Line]]) -> list[list[_Line]]:
    """The pages without their running headers and footers: lines at the very top or bottom of
    a page that come back, digits aside ("Page 3 of 9"), on at least half of the pages."""

    def edge_lines(lines: list[_Line]) -> list[_Line]:
        if len(lines) < 3:
            return []  # a page of a line or two is all body
        ordered = sorted(lines, key=lambda line: line.bottom)
        return ordered[:2] + ordered[-2:] if len(ordered) > 6 else [ordered[0], ordered[-1]]

    def key(line: _Line) -> str:
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


def _carry_hyphenated_words(pages: list[list[_Line]], body: float, compounds: set[str]) -> None:
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


def _body_size(pages: list[list[_Line]]) -> float:
    """The font size most of the text is set in."""
    sizes: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            sizes[round(line.size, 1)] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _heading_levels(pages: list[list[_Line]], body: float) -> dict[float, int]:
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


def _blocks(lines: list[_Line], body: float, levels: dict[float, int]) -> list[_Block]:
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


def _line_pitch(lines: list[_Line]) -> float:
    """The usual distance from one baseline to the next within the page's body text."""
    gaps = [
        a.bottom - b.bottom
        for a, b in itertools.pairwise(lines)
        if 0 < a.bottom - b.bottom < 3 * max(a.size, 1) and abs(a.size - b.size) < 0.5
    ]
    return statistics.median(gaps) if gaps else 0.0


def _right_edges(lines: list[_Line]) -> list[float]:
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


def _breaks(block: _Block, line: _Line, pitch: float, level: int) -> bool:
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


# --- Markdown ---------------------------------------------------------------------------------


def _render(pages: list[list[_Line]], notes: list[str]) -> tuple[str, str]:
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


def _join(lines: list[_Line], compounds: set[str]) -> str:
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


def _compounds(pages: list[list[_Line]]) -> set[str]:
    """Hyphenated words the document writes within a line, lower-cased, as pairs of parts."""
    found: set[str] = set()
    for lines in pages:
        for line in lines:
            if "-" in line.text or "\u2010" in line.text:
                for word in _COMPOUND.findall(line.text.lower()):
                    parts = word.replace("\u2010", "-").split("-")
                    found.update(f"{a}-{b}" for a, b in itertools.pairwise(parts))
    return found


def _notes(
    count: int, pages: list[list[_Line]], max_pages: int, deadline: Deadline | None
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
            f"cap; set {MAX_PAGES_ENV} to read more)."
        )
    return notes
