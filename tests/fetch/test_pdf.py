"""PDFs through web_fetch: text, headings, hyphenation, bad input and bombs.

The PDFs are made here (reportlab for real typesetting, a few lines of Python for the odd ones),
served by the real 127.0.0.1 site, and read through ``web-fetch-tool``, in process as the ask
loop and SQL run it, and through ``webtap mcp``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import anyio
import pytest

from webtap.errors import ParseError
from webtap.net import Deadline
from webtap.pdf import to_markdown

PDF = {"Content-Type": "application/pdf"}
WEBTAP = str(Path(sys.executable).parent / "webtap")

# Page 1 of the text PDF: a title, then a paragraph set as these lines, with two hyphenated
# line ends: "moun-/tains" (hyphenation, undone) and "well-/known" (a compound the text also
# writes whole, kept).
LINES_1 = [
    "The river carries fine sediment from the moun-",
    "tains to the sea, and the delta it builds grows",
    "every year along a well-",
    "known route that the surveyors mapped in 1890.",
]
LINES_2 = [
    "Boats still follow the well-known route today,",
    "although the channel has moved twice since then.",
]


def _canvas(title: str | None = None, **kwargs: Any) -> tuple[Any, io.BytesIO]:
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(595, 842), **kwargs)
    if title is not None:
        canvas.setTitle(title)
    return canvas, buffer


def _lines(canvas: Any, lines: list[str], y: float, size: float = 11) -> float:
    canvas.setFont("Times-Roman", size)
    for line in lines:
        canvas.drawString(72, y, line)
        y -= size * 1.25
    return y - size


def make_text_pdf(title: str | None = "Field Guide to Rivers", **kwargs: Any) -> bytes:
    canvas, buffer = _canvas(title, **kwargs)
    canvas.setFont("Helvetica-Bold", 20)
    canvas.drawString(72, 760, "Rivers of the North")
    y = _lines(canvas, LINES_1, 720)
    _lines(canvas, LINES_2, y)
    canvas.showPage()
    canvas.setFont("Helvetica-Bold", 15)
    canvas.drawString(72, 760, "Deltas and Estuaries")
    _lines(canvas, ["An estuary mixes salt water with fresh water.", "Tides reach far in."], 730)
    canvas.showPage()
    _lines(canvas, ["The third page closes the guide."], 760)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def make_image_pdf(pages: int = 2) -> bytes:
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    canvas, buffer = _canvas()
    image = ImageReader(Image.new("L", (60, 80), 200))  # a scan: pixels, no text layer
    for _ in range(pages):
        canvas.drawImage(image, 72, 400, 300, 400)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def raw_pdf(pages: list[bytes], *, deflate: bool = True) -> bytes:
    """A minimal PDF written by hand: one content stream per page, Helvetica as F1."""
    count = len(pages)
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, content in enumerate(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>" % (5 + 2 * i)
        )
        data = zlib.compress(content) if deflate else content
        dictionary = b"<< /Length %d%s >>" % (len(data), b" /Filter /FlateDecode" * deflate)
        objects.append(dictionary + b"\nstream\n" + data + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def text_op(text: str, y: int = 700) -> bytes:
    return b"BT /F1 12 Tf 72 %d Td (%s) Tj ET\n" % (y, text.encode("latin-1"))


@pytest.fixture(scope="module")
def text_pdf() -> bytes:
    return make_text_pdf()


# --- Text ------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["exe", "call"])
def test_text_pdf_becomes_markdown_page_by_page(site, runner, allow_private, how, text_pdf):
    url = site.route("/guide.pdf", text_pdf, headers=PDF)
    response = runner(how)(url)
    assert response["success"] is True, response
    assert response["title"] == "Field Guide to Rivers"  # from the metadata
    content = response["content"]
    assert content.startswith("## Page 1\n\n### Rivers of the North\n\n")
    assert "## Page 2\n\n#### Deltas and Estuaries\n\n" in content
    assert "## Page 3\n\nThe third page closes the guide.\n" in content
    # The lines of a paragraph are one line; hyphenation undone, the compound kept.
    assert (
        "The river carries fine sediment from the mountains to the sea, and the delta it builds "
        "grows every year along a well-known route that the surveyors mapped in 1890.\n\n"
        "Boats still follow the well-known route today, although the channel has moved twice "
        "since then.\n"
    ) in content
    assert "moun" not in content.replace("mountains", "")
    assert response["total_lines"] == len(content.splitlines())


def test_title_falls_back_to_the_first_line(site, fetch_tool, allow_private):
    url = site.route("/untitled.pdf", make_text_pdf(title=None), headers=PDF)
    assert fetch_tool(url)["title"] == "Rivers of the North"


def test_pages_are_paginated_like_html(site, fetch_tool, allow_private, text_pdf):
    url = site.route("/guide.pdf", text_pdf, headers=PDF)
    whole = fetch_tool(url)
    lines = whole["content"].splitlines(keepends=True)
    part = fetch_tool(url, offset=3, limit=4)
    assert part["content"] == "".join(lines[2:6])
    assert part["total_lines"] == whole["total_lines"]


@pytest.mark.parametrize(
    "content_type", ["text/html; charset=utf-8", "application/octet-stream", ""]
)
def test_a_pdf_body_is_read_whatever_the_content_type_says(
    site, fetch_call, allow_private, text_pdf, content_type
):
    headers = {"Content-Type": content_type} if content_type else {}
    url = site.route("/lie", text_pdf, headers=headers)
    response = fetch_call(url)
    assert response["success"] is True, response
    assert "### Rivers of the North" in response["content"]


def test_a_page_that_is_no_pdf_says_so(site, fetch_call, allow_private):
    url = site.route("/doc.pdf", "<html><p>Please log in</p>", headers=PDF)
    response = fetch_call(url)
    assert response["error_code"] == "PARSE_ERROR"
    assert "no %PDF- header" in response["error"]


def test_text_is_escaped_where_markdown_would_misread_it(site, fetch_call, allow_private):
    pdf = raw_pdf([text_op("# not a heading", 700) + text_op("*not emphasis*", 600)])
    content = fetch_call(site.route("/x.pdf", pdf, headers=PDF))["content"]
    assert "\\# not a heading\n" in content
    assert "\\*not emphasis\\*" in content


def test_pieces_of_one_line_stay_one_line(site, fetch_call, allow_private):
    pieces = b"BT /F1 12 Tf 72 700 Td (The first half of) Tj ET\n"
    pieces += b"BT /F1 12 Tf 300 700 Td (the sentence stays whole.) Tj ET\n"
    content = fetch_call(site.route("/x.pdf", raw_pdf([pieces]), headers=PDF))["content"]
    assert "The first half of the sentence stays whole.\n" in content


def test_chinese_lines_are_joined_without_a_space(site, fetch_call, allow_private):
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))  # Adobe's, built into readers
    canvas, buffer = _canvas("长江")
    canvas.setFont("STSong-Light", 12)
    canvas.drawString(72, 700, "长江是中国最长的河流，")
    canvas.drawString(72, 685, "流经十一个省份。")
    canvas.showPage()
    canvas.save()
    response = fetch_call(site.route("/zh.pdf", buffer.getvalue(), headers=PDF))
    assert response["title"] == "长江"
    assert response["content"] == "## Page 1\n\n长江是中国最长的河流，流经十一个省份。\n"


def test_running_headers_and_page_numbers_are_dropped(site, fetch_call, allow_private):
    pages = [
        text_op("Annual Report 2025", 760)
        + text_op(f"Body text of page {n}.", 500)
        + text_op(f"Page {n} of 4", 40)
        for n in range(1, 5)
    ]
    content = fetch_call(site.route("/r.pdf", raw_pdf(pages), headers=PDF))["content"]
    assert "Annual Report" not in content and "of 4" not in content
    assert "## Page 4\n\nBody text of page 4.\n" in content


def make_layout_pdf() -> bytes:
    """Two columns, a bold heading, a footnote and its mark, a bulleted list, and a word
    hyphenated across the page break."""
    canvas, buffer = _canvas("Layouts")
    canvas.setFont("Times-Bold", 11)
    canvas.drawString(72, 760, "Method")
    left = ["The left column starts here and", "runs on for a while before it ends."]
    right = ["The right column comes second and", "is read after the left one."]
    for x, lines in ((72, left), (320, right)):
        y = 740
        canvas.setFont("Times-Roman", 11)
        for line in lines:
            canvas.drawString(x, y, line)
            y -= 13.75
    canvas.drawString(72, 690, "A sentence with a note")
    canvas.setFont("Times-Roman", 7)
    canvas.drawString(
        72 + canvas.stringWidth("A sentence with a note", "Times-Roman", 11), 694, "7"
    )
    canvas.setFont("Times-Roman", 11)
    canvas.drawString(72, 650, "\u2022 first item of the list")
    canvas.drawString(72, 636.25, "\u2022 second item of the list")
    canvas.drawString(72, 600, "The last line of the page breaks the word con-")
    canvas.setFont("Times-Roman", 8)
    canvas.drawString(72, 80, "7 The note at the foot of the page.")
    canvas.showPage()
    canvas.setFont("Times-Roman", 11)
    canvas.drawString(72, 760, "tinuation over the page break.")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_columns_headings_notes_lists_and_page_breaks(site, fetch_call, allow_private):
    content = fetch_call(site.route("/l.pdf", make_layout_pdf(), headers=PDF))["content"]
    assert content.startswith("## Page 1\n\n##### Method\n\n")
    assert (
        "The left column starts here and runs on for a while before it ends.\n\n"
        "The right column comes second and is read after the left one.\n"
    ) in content
    assert "A sentence with a note[^7]\n" in content
    assert "- first item of the list\n\n- second item of the list\n" in content
    assert "breaks the word continuation\n\n[^7]: The note at the foot of the page.\n\n" in content
    assert "## Page 2\n\nover the page break.\n" in content


# --- Bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["exe", "call"])
def test_encrypted_pdf_is_a_parse_error_saying_so(site, runner, allow_private, how):
    from reportlab.lib.pdfencrypt import StandardEncryption

    pdf = make_text_pdf(encrypt=StandardEncryption("secret", canPrint=0))
    response = runner(how)(site.route("/locked.pdf", pdf, headers=PDF))
    assert response["error_code"] == "PARSE_ERROR"
    assert "encrypted" in response["error"] and "password" in response["error"]


def test_pdf_with_only_an_owner_password_is_read(site, fetch_call, allow_private):
    from reportlab.lib.pdfencrypt import StandardEncryption

    pdf = make_text_pdf(encrypt=StandardEncryption("", ownerPassword="owner", canCopy=0))
    response = fetch_call(site.route("/owner.pdf", pdf, headers=PDF))
    assert response["success"] is True
    assert "### Rivers of the North" in response["content"]


@pytest.mark.parametrize("how", ["exe", "call"])
def test_truncated_pdf_is_a_parse_error_naming_the_problem(
    site, runner, allow_private, how, text_pdf
):
    url = site.route("/cut.pdf", text_pdf[: len(text_pdf) // 2], headers=PDF)
    response = runner(how)(url)
    assert response["error_code"] == "PARSE_ERROR"
    assert response["error"].startswith("Cannot read the PDF: the file is truncated")


def test_garbage_after_the_header_is_a_parse_error(site, fetch_call, allow_private):
    url = site.route("/junk.pdf", b"%PDF-1.7\n" + bytes(range(256)) * 40 + b"%%EOF", headers=PDF)
    response = fetch_call(url)
    assert response["error_code"] == "PARSE_ERROR"
    assert response["error"].startswith("Cannot read the PDF: the file is damaged")


@pytest.mark.parametrize("how", ["exe", "call"])
def test_image_only_pdf_succeeds_with_a_note_that_it_holds_no_text(
    site, runner, allow_private, how
):
    response = runner(how)(site.route("/scan.pdf", make_image_pdf(), headers=PDF))
    assert response["success"] is True
    assert response["content"].startswith("> No text: the 2 pages read hold no text layer")
    assert "does not do OCR" in response["content"]
    assert "## Pages 1–2\n\n_(no text on these pages)_\n" in response["content"]


def test_damaged_pdfs_are_read_or_refused_never_a_crash(text_pdf):
    import random

    rng = random.Random(13)
    outcomes = set()
    for _ in range(80):
        data = bytearray(text_pdf)
        for _ in range(rng.randint(1, 20)):
            at = rng.randrange(len(data))
            if rng.random() < 0.7:
                data[at] = rng.randrange(256)
            else:
                del data[at : at + rng.randint(1, 50)]
        try:
            to_markdown(bytes(data))
            outcomes.add("read")
        except ParseError as exc:
            assert exc.message.startswith("Cannot read the PDF: ")
            outcomes.add("refused")
    assert outcomes == {"read", "refused"}


# --- Bombs -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def empty_10k() -> bytes:
    return raw_pdf([b""] * 10_000, deflate=False)


@pytest.mark.parametrize("how", ["exe", "call"])
def test_ten_thousand_empty_pages_stop_at_the_page_cap(site, runner, allow_private, how, empty_10k):
    url = site.route("/empty.pdf", empty_10k, headers=PDF)
    response = runner(how)(url, env={"WEBTAP_PDF_MAX_PAGES": "300"})
    assert response["success"] is True
    content = response["content"]
    assert "This PDF has 10,000 pages; only pages 1–300 were read (the page cap; " in content
    assert "set WEBTAP_PDF_MAX_PAGES to read more" in content
    assert content.endswith("## Pages 1–300\n\n_(no text on these pages)_\n")
    assert response["total_lines"] < 20


def test_the_default_page_cap_is_2000(site, fetch_call, allow_private, empty_10k):
    content = fetch_call(site.route("/empty.pdf", empty_10k, headers=PDF))["content"]
    assert "only pages 1–2,000 were read (the page cap" in content


def test_page_cap_keeps_the_pages_before_it(site, fetch_call, allow_private):
    pdf = raw_pdf([text_op(f"Text of page {n}.") for n in range(1, 8)])
    response = fetch_call(site.route("/p.pdf", pdf, headers=PDF), env={"WEBTAP_PDF_MAX_PAGES": "5"})
    assert "## Page 5\n\nText of page 5." in response["content"]
    assert "Page 6" not in response["content"]


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_a_bad_page_cap_is_a_config_error(site, fetch_call, allow_private, text_pdf, value):
    url = site.route("/guide.pdf", text_pdf, headers=PDF)
    response = fetch_call(url, env={"WEBTAP_PDF_MAX_PAGES": value})
    assert response["error_code"] == "CONFIG_ERROR"
    assert "WEBTAP_PDF_MAX_PAGES" in response["error"]


@pytest.mark.parametrize("how", ["exe", "call"])
def test_a_decompression_bomb_is_refused_before_it_is_inflated(site, runner, allow_private, how):
    # 64 MB of spaces deflate to 64 KB; PDFium would inflate all of it in memory.
    pdf = raw_pdf([b" " * (64 << 20) + text_op("never read")])
    response = runner(how)(site.route("/bomb.pdf", pdf, headers=PDF))
    assert response["error_code"] == "PARSE_ERROR"
    assert "expand to more than 64 MB (a decompression bomb?)" in response["error"]
    assert "WEBTAP_PDF_MAX_EXPANDED" in response["error"]


def test_the_expansion_cap_is_an_environment_variable(site, fetch_call, allow_private):
    pdf = raw_pdf([text_op("Small enough.") + b" " * 5000])
    url = site.route("/p.pdf", pdf, headers=PDF)
    assert fetch_call(url)["success"] is True
    # The cache off: the page cache answers for a URL it holds, whatever the PDF settings.
    refused = fetch_call(url, env={"WEBTAP_PDF_MAX_EXPANDED": "4000", "WEBTAP_CACHE": "off"})
    assert refused["error_code"] == "PARSE_ERROR"


def test_deeply_nested_objects_are_no_crash(site, fetch_call, allow_private):
    nested = b"[" * 200_000 + b"]" * 200_000
    pdf = raw_pdf([nested + b"\n" + text_op("Still here.")], deflate=False)
    response = fetch_call(site.route("/nest.pdf", pdf, headers=PDF))
    assert response["success"] is True or response["error_code"] == "PARSE_ERROR"


class Countdown(Deadline):
    """A deadline that passes after ``checks`` looks at it: no clock in the test."""

    def __init__(self, checks: int) -> None:
        super().__init__(30)
        self.checks = checks

    @property
    def expired(self) -> bool:
        self.checks -= 1
        return self.checks < 0


def test_the_deadline_stops_reading_between_pages():
    pdf = raw_pdf([text_op(f"Text of page {n}.") for n in range(1, 11)])
    _, markdown = to_markdown(pdf, Countdown(4))
    assert markdown.startswith(
        "> This PDF has 10 pages; only pages 1–4 were read before the overall deadline of 30 s "
        "passed (set WEBTAP_FETCH_TIMEOUT to allow more seconds).\n"
    )
    assert "Text of page 4." in markdown and "Text of page 5." not in markdown


def test_the_bomb_check_stops_at_the_deadline_too():
    # Thousands of tiny deflated streams: each is cheap, all of them are not.
    tiny = b"<< /Filter /FlateDecode >>stream\n" + zlib.compress(b"q Q") + b"\nendstream\n"
    with pytest.raises(ParseError, match="overall deadline of 30 s passed before"):
        to_markdown(b"%PDF-1.4\n" + tiny * 5000 + b"%%EOF\n", Countdown(3))


def test_a_deadline_passed_before_the_first_page_is_an_error():
    with pytest.raises(ParseError, match="overall deadline of 30 s passed before"):
        to_markdown(raw_pdf([text_op("x")]), Countdown(0))


def test_pdfs_read_in_threads_at_once_are_all_read(text_pdf):
    from concurrent.futures import ThreadPoolExecutor

    # PDFium is not thread-safe; the MCP server and SQL functions fetch in threads.
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: to_markdown(text_pdf), range(16)))
    assert len({markdown for _, markdown in results}) == 1
    assert "### Rivers of the North" in results[0][1]


# --- Other front ends, and start-up ----------------------------------------------------------


def test_mcp_server_reads_a_pdf(site, text_pdf, allow_private):
    """The MCP server's handlers, in process through the SDK's in-process client (its calls
    run on threads, as in ``webtap mcp``)."""
    from mcp import Client
    from webtap.mcp_server import build_server, select_tools

    url = site.route("/guide.pdf", text_pdf, headers=PDF)

    async def call() -> Any:
        server = build_server(select_tools(only=["web_fetch"]))
        async with Client(server, mode="legacy") as client:
            return await client.call_tool("web_fetch", {"url": url})

    result = anyio.run(call)
    assert not result.is_error
    data = result.structured_content
    assert data["title"] == "Field Guide to Rivers"
    assert data["content"].startswith("## Page 1\n\n### Rivers of the North\n")
    assert json.loads(result.content[0].text) == data


def test_webtap_fetch_prints_a_pdf_as_markdown(site, run_exe, allow_private, text_pdf):
    url = site.route("/guide.pdf", text_pdf, headers=PDF)
    result = run_exe("webtap", "fetch", url, "--limit", "3", timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "## Page 1\n\n### Rivers of the North\n"


def test_html_fetch_and_schema_do_not_import_pdfium(site, allow_private):
    url = site.page("/p", "<title>T</title><p>x</p>")
    code = (
        "import sys; from webtap.fetch import fetch; fetch(sys.argv[1]);"
        "sys.argv[1:] = ['--schema']; from webtap.entry import fetch_main; fetch_main();"
        "sys.stderr.write(repr([m for m in sys.modules if 'pdfium' in m]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, url], capture_output=True, text=True, timeout=60
    )
    assert proc.stderr == "[]"
