"""PDF text extraction: webtap's reader beside the candidate libraries, on PDFs of known text.

    .venv/bin/python bench/pdf.py [--articles N] [--repeat N] [--data DIR] [--only NAME ...]

The documents are typeset here with reportlab from real prose (the ``articleBody`` ground truth
in ``DIR/html/articles/ground-truth.json``; ``DIR`` defaults to ``../shared/data`` beside the
repository), each article under a bold heading, in layouts found in the wild:

- ``report``: one column of Times, ragged right, blank lines between paragraphs, page numbers;
- ``paper``: two justified columns of 9 pt Times, first-line indents, footnotes at the foot of
  the page, hyphenated line ends;
- ``book``: one column of an embedded (subset) TrueType font, first-line indents, hyphenation.

Each candidate reads every page of every document: webtap's own reader (``webtap.pdf``:
PDFium plus paragraphs, headings, hyphenation) and the plain text of pypdfium2, pypdf and
pdfminer.six (their lines joined, a hyphen at a line end before a lower-case letter dropped).
Printed per layout: pages per CPU second (the process's CPU time, which a machine shared with
other work disturbs far less than wall time; best of ``--repeat`` runs, taken in turn across the
readers; opening the document included) and
the share of the source words recovered in order (difflib's matching blocks over the two word
lists, words lower-cased with punctuation removed), with the words that match nothing in the
source as "extra" (page numbers and footnotes are not in the source). Targets: >= 100 pages/s,
>= 99% recovered.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import io
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import shared_data

Reader = Callable[[bytes], str]


# --- Documents -------------------------------------------------------------------------------


@dataclass
class Style:
    columns: int = 1
    font: str = "Times-Roman"
    bold: str = "Times-Bold"
    size: float = 10.5
    heading: float = 15
    footnotes: bool = False
    justify: bool = False
    indent: float = 0  # a first-line indent instead of space between paragraphs
    hyphenate: bool = True


STYLES = {
    "report": Style(hyphenate=False),
    "paper": Style(columns=2, size=9, footnotes=True, justify=True, indent=12),
    "book": Style(font="Vera", bold="VeraBd", size=10, indent=14),
}


def articles(path: Path, limit: int) -> list[tuple[str, list[str]]]:
    """``(title, paragraphs)`` of the first ``limit`` articles of at least 300 words in a
    Western script."""
    truth = json.loads(path.read_text())
    out = []
    for _key, value in sorted(truth.items()):
        paragraphs = [p.strip() for p in value["articleBody"].split("\n") if p.strip()]
        text = " ".join(paragraphs)
        latin = sum(ch.isascii() for ch in text) / max(len(text), 1)
        # The fonts hold Western scripts only: an article in Korean would print as nothing.
        if len(text.split()) >= 300 and latin > 0.95:
            out.append((paragraphs[0][:60].rsplit(" ", 1)[0], paragraphs))
        if len(out) == limit:
            break
    return out


class Layout:
    """Greedy line breaking on a reportlab canvas, column by column, page by page."""

    def __init__(self, style: Style, title: str) -> None:
        from reportlab.lib.pagesizes import A4
        from reportlab.pdfgen.canvas import Canvas

        self.style = style
        self.buffer = io.BytesIO()
        self.canvas = Canvas(self.buffer, pagesize=A4, pageCompression=1)
        self.canvas.setTitle(title)
        self.width, self.height = A4
        self.margin = 60.0
        self.gutter = 24.0
        columns = style.columns
        self.column_width = (self.width - 2 * self.margin - (columns - 1) * self.gutter) / columns
        self.page = 0
        self.column = 0
        self.y = 0.0
        self.footnotes: list[str] = []
        self.source: list[str] = []  # the words a reader should get back, in order
        self._new_page()

    def _text(self, text: str, font: str) -> str:
        if font.startswith("Vera"):
            return text
        return text.encode("cp1252", "replace").decode("cp1252")  # what a standard font holds

    def _new_page(self) -> None:
        if self.page:
            self._flush_footnotes()
            self.canvas.showPage()
        self.page += 1
        self.column = 0
        self.y = self.height - self.margin
        self.canvas.setFont(self.style.font, 8)
        self.canvas.drawCentredString(self.width / 2, 30, str(self.page))

    def _flush_footnotes(self) -> None:
        y = self.margin - 10 + 10 * len(self.footnotes)
        self.canvas.setFont(self.style.font, 7.5)
        for note in self.footnotes:
            self.canvas.drawString(self.margin, y, note)
            y -= 10
        self.footnotes = []

    def _x(self) -> float:
        return self.margin + self.column * (self.column_width + self.gutter)

    def _advance(self, height: float) -> None:
        if self.y - height < self.margin + 40 + 10 * len(self.footnotes):
            if self.column + 1 < self.style.columns:
                self.column += 1
                self.y = self.height - self.margin
            else:
                self._new_page()
        self.y -= height

    def heading(self, text: str) -> None:
        style = self.style
        text = self._text(text, style.bold)
        self.source.extend(text.split())
        self._advance(style.heading * 2)
        self.canvas.setFont(style.bold, style.heading)
        self.canvas.drawString(self._x(), self.y, text)
        self.y -= style.heading * 0.4

    def paragraph(self, text: str, note: str | None) -> None:
        style = self.style
        text = self._text(text, style.font)
        self.source.extend(text.split())
        lines = wrap(text, style, self.column_width)
        if not style.indent:
            self.y -= style.size * 0.6
        for number, line in enumerate(lines):
            self._advance(style.size * 1.25)
            x = self._x() + (style.indent if number == 0 else 0)
            out = self.canvas.beginText(x, self.y)
            out.setFont(style.font, style.size)
            if style.justify and number < len(lines) - 1 and " " in line:
                from reportlab.pdfbase.pdfmetrics import stringWidth

                room = self._x() + self.column_width - x - stringWidth(line, style.font, style.size)
                out.setWordSpace(room / line.count(" "))
            out.textOut(line)
            self.canvas.drawText(out)
        if note and style.footnotes:
            from reportlab.pdfbase.pdfmetrics import stringWidth

            mark = str(len(self.footnotes) + 1)
            self.canvas.setFont(style.font, 6)
            end = stringWidth(lines[-1], style.font, style.size)
            self.canvas.drawString(self._x() + end + 1, self.y + 4, mark)
            self.footnotes.append(f"{mark} {note}")

    def done(self) -> bytes:
        self._flush_footnotes()
        self.canvas.save()
        return self.buffer.getvalue()


def wrap(text: str, style: Style, width: float) -> list[str]:
    """Greedy line breaking; a long word that does not fit is hyphenated if the style says so."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    def fits(line: str) -> bool:
        return stringWidth(line, style.font, style.size) <= room

    lines: list[str] = []
    line = ""
    room = width - style.indent
    words = text.split()
    i = 0
    while i < len(words):
        candidate = f"{line} {words[i]}" if line else words[i]
        if fits(candidate):
            line, i = candidate, i + 1
            continue
        head = _hyphenated_head(words[i], line, fits) if style.hyphenate else ""
        if head:
            lines.append(f"{line} {head}-" if line else f"{head}-")
            words[i] = words[i][len(head) :]
        elif line:
            lines.append(line)
        else:
            lines.append(words[i])
            i += 1
        line, room = "", width
    if line:
        lines.append(line)
    return lines


def _hyphenated_head(word: str, line: str, fits: Callable[[str], bool]) -> str:
    """The longest head of ``word`` (3 letters or more, 3 left) that fits with its hyphen."""
    letters = len(word.rstrip(",.;:"))
    if letters < 7 or not word[:letters].isalpha():
        return ""
    for cut in range(letters - 3, 2, -1):
        if fits(f"{line} {word[:cut]}-" if line else f"{word[:cut]}-"):
            return word[:cut]
    return ""


def make_documents(path: Path, count: int) -> dict[str, tuple[bytes, list[str]]]:
    """Each layout's PDF and its source words, from the same ``count`` articles."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase.pdfmetrics import registerFont
    from reportlab.pdfbase.ttfonts import TTFont

    registerFont(TTFont("Vera", "Vera.ttf"))  # shipped with reportlab
    registerFont(TTFont("VeraBd", "VeraBd.ttf"))
    addMapping("Vera", 1, 0, "VeraBd")
    texts = articles(path, count)
    documents = {}
    for name, style in STYLES.items():
        layout = Layout(style, texts[0][0])
        for n, (title, paragraphs) in enumerate(texts):
            layout.heading(title)
            for k, paragraph in enumerate(paragraphs):
                layout.paragraph(
                    paragraph, f"Note {n}.{k}: see the article." if k % 4 == 1 else None
                )
        documents[name] = (layout.done(), layout.source)
    return documents


# --- Readers ---------------------------------------------------------------------------------

_LINE_END_HYPHEN = re.compile(r"(\w)-\n(?=[a-z])")


def plain(text: str) -> str:
    """A library's plain text with its lines joined: a line-end hyphen before lower case goes."""
    return _LINE_END_HYPHEN.sub(r"\1", text.replace("\r\n", "\n"))


def read_webtap(data: bytes) -> str:
    from webtap.pdf import to_markdown

    return to_markdown(data)[1]


def read_pypdfium2(data: bytes) -> str:
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    texts = []
    for index in range(len(document)):
        page = document[index]
        textpage = page.get_textpage()
        texts.append(textpage.get_text_range().replace("\ufffe", ""))
        textpage.close()
        page.close()
    document.close()
    return plain("\n".join(texts))


def read_pypdf(data: bytes) -> str:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return plain("\n".join(page.extract_text() for page in reader.pages))


def read_pdfminer(data: bytes) -> str:
    from pdfminer.high_level import extract_text

    return plain(extract_text(io.BytesIO(data)))


def readers() -> dict[str, Reader]:
    """Every candidate that is installed, webtap first."""
    import webtap.pdf  # noqa: F401 - imported before the clock starts, as the others are

    found: dict[str, Reader] = {"webtap.pdf (pypdfium2 + layout)": read_webtap}
    for label, module, reader in [
        ("pypdfium2 text", "pypdfium2", read_pypdfium2),
        ("pypdf", "pypdf", read_pypdf),
        ("pdfminer.six", "pdfminer", read_pdfminer),
    ]:
        try:
            __import__(module)
            if module == "pdfminer":
                import pdfminer.high_level  # noqa: F401
        except ImportError:
            print(f"({label} is not installed: skipped)")
            continue
        found[label] = reader
    return found


# --- Measures --------------------------------------------------------------------------------

_MARKDOWN = re.compile(
    r"^(?:#{1,6} |> |- )|^_\(no text.*\)_$|\\(?=[^\w\s])|\[\^\d+\]", re.MULTILINE
)
_PAGE_HEADING = re.compile(r"^## Pages? \d+(?:–\d+)?$", re.MULTILINE)


def words(text: str) -> list[str]:
    """Lower-cased words without punctuation; webtap's page headings and markup left out."""
    text = _MARKDOWN.sub("", _PAGE_HEADING.sub("", text))
    out = (re.sub(r"[^\w]", "", word.lower()) for word in text.split())
    return [word for word in out if word]


def fidelity(source: list[str], got: list[str]) -> tuple[float, float]:
    """(share of source words recovered in order, share of extracted words matching none)."""
    matcher = difflib.SequenceMatcher(None, source, got, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    return matched / max(len(source), 1), 1 - matched / max(len(got), 1)


def timed(reader: Reader, data: bytes) -> tuple[float, str]:
    """CPU seconds ``reader`` spends on ``data``, and what it read."""
    gc.collect()
    start = time.process_time()
    text = reader(data)
    return time.process_time() - start, text


def page_count(data: bytes) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        return len(document)
    finally:
        document.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    shared_data.add_argument(parser)
    parser.add_argument("--articles", type=int, default=40, help="articles per document")
    parser.add_argument("--repeat", type=int, default=3, help="runs per reader (best kept)")
    parser.add_argument("--only", nargs="*", default=None, help="readers whose name has one")
    args = parser.parse_args(argv)
    truth = shared_data.need(args.data, "html/articles", "ground-truth.json")
    documents = make_documents(truth, args.articles)
    found = readers()
    if args.only:
        found = {
            label: reader
            for label, reader in found.items()
            if label.startswith("webtap") or any(name in label for name in args.only)
        }
    totals: dict[str, list[float]] = {label: [0.0, 0.0, 0.0] for label in found}
    for name, (data, source) in documents.items():
        pages = page_count(data)
        source_words = words(" ".join(source))
        print(f"\n{name}: {pages} pages, {len(source_words):,} words, {len(data) / 1e6:.2f} MB")
        print(f"{'reader':<34} {'pages/s':>8} {'recovered':>10} {'extra':>7} {'webtap is':>10}")
        best = dict.fromkeys(found, float("inf"))
        texts = {}
        for _ in range(args.repeat):  # in turn, so a busy spell slows every reader alike
            for label, reader in found.items():
                seconds, texts[label] = timed(reader, data)
                best[label] = min(best[label], seconds)
        rows = {}
        for label in found:
            recovered, extra = fidelity(source_words, words(texts[label]))
            rows[label] = (best[label], recovered, extra)
            totals[label][0] += best[label]
            totals[label][1] += recovered * len(source_words)
            totals[label][2] += len(source_words)
        ours = rows["webtap.pdf (pypdfium2 + layout)"][0]
        for label, (seconds, recovered, extra) in rows.items():
            faster = "-" if label.startswith("webtap") else f"{seconds / ours:.2f}x"
            print(
                f"{label:<34} {pages / seconds:>8.0f} {recovered:>9.2%} {extra:>7.2%} {faster:>10}"
            )
    all_pages = sum(page_count(data) for data, _ in documents.values())
    print(f"\nall: {all_pages} pages")
    print(f"{'reader':<34} {'pages/s':>8} {'recovered':>10}")
    for label, (seconds, recovered, count) in totals.items():
        print(f"{label:<34} {all_pages / seconds:>8.0f} {recovered / count:>9.2%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
