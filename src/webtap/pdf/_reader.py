"""Reading a PDF with PDFium: the document opened, its streams bounded, its lines with where
they sit and how they are set."""

from __future__ import annotations

import ctypes
import re
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

# PDFium (tens of ms to load) at the top: this package is itself imported only when a PDF comes
# (`webtap.fetch.media`).
import pypdfium2 as pdfium
import pypdfium2.raw as raw

from webtap.errors import ParseError
from webtap.settings import PDF_MAX_EXPANDED

if TYPE_CHECKING:
    from collections.abc import Iterator

    from webtap.net import Deadline

# A stream starts after its dictionary; images are left out of the count, since reading text
# never decodes them.
_STREAM = re.compile(rb">>\s*stream\r?\n")
_IMAGE = re.compile(rb"/Subtype\s*/Image|/(?:DCT|JPX|JBIG2|CCITTFax)Decode")
_CHUNK = 64 * 1024
_SOFT_HYPHEN = "\ufffe"  # what PDFium puts where a line ended in a hyphen it took for one
# Ligature glyphs as letters, so the words can be searched; soft hyphens inside a line go.
_LIGATURES = str.maketrans(
    {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st", "\xad": ""}
)
_ODD_CHARACTERS = re.compile("[\ufb00-\ufb06\xad\t\x0b\x0c]|  ")
_PHYSICAL_LINE = re.compile(r"[^\r\n\ufffe]+\ufffe?")
_PLACEHOLDER_TITLE = re.compile(
    r"(?i)untitled(?: document)?"
    r"|(?:microsoft \w+ - )?.*\.(?:docx?|pdf|tex|dvi|rtf|odt|pptx?|indd|qxd)"
)
_FORCE_BOLD = 1 << 18
_BOLD_NAME = re.compile(rb"(?i)bold|black|heavy")  # PDF font descriptor flag


@dataclass(slots=True)
class Line:
    """One line of text as it sits on the page (PDF units, y grows upwards)."""

    text: str
    left: float
    right: float
    bottom: float
    size: float
    bold: bool
    hyphen: bool  # ended in a hyphen that PDFium took for a line-end hyphenation
    first_word: float  # width of the line's first word: would it have fit on the line before?


def open_document(body: bytes) -> Any:
    try:
        return pdfium.PdfDocument(body)
    except pdfium.PdfiumError as exc:
        raise ParseError(_open_error(body, getattr(exc, "err_code", None))) from None


def _open_error(body: bytes, code: int | None) -> str:
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


def check_expansion(body: bytes, max_expanded: int, deadline: Deadline | None = None) -> None:
    """Refuse a PDF whose compressed streams (page content, fonts) expand past ``max_expanded``
    bytes.

    PDFium inflates a stream whole, in memory, and cannot be stopped inside a call, so a
    10 MB body of deflated zeros would become gigabytes. The streams are inflated here first,
    a piece at a time, counting what comes out and keeping none of it.
    """
    view = memoryview(body)
    total = 0
    for number, match in enumerate(_STREAM.finditer(body)):
        if deadline is not None and number % 256 == 255 and deadline.expired:
            raise too_late(deadline)
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
        total += _inflated_size(view[start:], max_expanded - total + 1)
        if total > max_expanded:
            raise ParseError(
                f"Cannot read the PDF: its compressed streams expand to more than "
                f"{max_expanded / 1048576:g} MB (a decompression bomb?); set "
                f"{PDF_MAX_EXPANDED.name} to a larger number of bytes to allow it"
            )


def _inflated_size(data: memoryview, limit: int) -> int:
    """How many bytes the zlib stream at the start of ``data`` inflates to, up to ``limit``."""
    inflater = zlib.decompressobj()
    total = 0
    position = 0
    pending: bytes | memoryview = b""
    try:
        while total <= limit and not inflater.eof:
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


def too_late(deadline: Deadline | None) -> ParseError:
    seconds = f"{deadline.seconds:g} s" if deadline is not None else "the time allowed"
    return ParseError(
        f"Cannot read the PDF: the overall deadline of {seconds} passed before its first page "
        "was read (set WEBTAP_FETCH_TIMEOUT to allow more seconds)"
    )


def metadata_title(document: Any) -> str:
    try:
        title = document.get_metadata_value("Title")
    except Exception:  # broken metadata is no reason to lose the text
        return ""
    title = " ".join(title.split())
    # Titles that name the file or the program rather than the document say nothing.
    return "" if _PLACEHOLDER_TITLE.fullmatch(title) else title


def page_lines(document: Any, index: int) -> list[Line] | None:
    """The lines of page ``index``, with where they sit and how they are set; ``None`` for a
    page PDFium cannot load."""
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


def _lines(textpage: Any, text: str) -> Iterator[Line]:
    """Split the page's text into physical lines and look up each line's first and last
    character: a handful of calls into PDFium per line, not per character."""
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
        yield Line(
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
