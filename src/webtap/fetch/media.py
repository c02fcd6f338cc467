"""A body to Markdown by its media type and charset, and what of it a model may read.

HTML and XHTML go to :mod:`webtap.convert`; a PDF (by type or by its ``%PDF-`` header) goes to
:mod:`webtap.pdf`; text and Markdown come back as they are; JSON is pretty-printed in a fenced
block; anything else is a :class:`~webtap.errors.ParseError` that names the type. Whatever the
type, the title and Markdown then lose terminal controls and the characters a person would not
see (:func:`webtap.text.strip_invisible`), and :class:`Converted` says how many of those went.

Text is decoded as a browser decodes it (:func:`decode`): a byte-order mark wins; then the
charset the Content-Type header names; for HTML, then a ``<meta charset>`` in the first 8 KB;
then detection (valid UTF-8, else charset-normalizer, imported only then). Labels mean what they
mean on the web: ``iso-8859-1`` is windows-1252 (as the WHATWG Encoding Standard says), and
codecs no page is written in are not charsets.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import TYPE_CHECKING, Any, NamedTuple

from webtap.convert import Metadata, code_fence, convert
from webtap.errors import ParseError
from webtap.fetch.negotiation import markdown_title
from webtap.protocol import loads_json
from webtap.text import strip_controls, strip_invisible

if TYPE_CHECKING:
    from collections.abc import Callable

    from webtap.net import Deadline

__all__ = ["Converted", "convert_body", "decode", "parse_content_type", "sniff", "to_markdown"]


_HTML_TYPES = {"text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml"}
_MARKDOWN_TYPES = {"text/markdown", "text/x-markdown"}
_TEXT_APPLICATION_TYPES = {
    "application/xml",
    "application/javascript",
    "application/ecmascript",
    "application/x-javascript",
    "application/yaml",
    "application/x-yaml",
    "application/toml",
    "application/x-sh",
    "application/sql",
    "application/graphql",
    "application/x-ndjson",
}
_PDF_TYPES = {"application/pdf", "application/x-pdf", "application/acrobat"}
_SNIFFED_TYPES = {"", "application/octet-stream", "binary/octet-stream", "application/unknown"}

# Magic numbers of common binary formats, to name what a lying Content-Type hides.
_SIGNATURES: list[tuple[bytes, str]] = [
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"%PDF-", "application/pdf"),
    (b"PK\x03\x04", "application/zip"),
    (b"\x1f\x8b", "application/gzip"),
    (b"BM", "image/bmp"),
    (b"\x00\x00\x01\x00", "image/x-icon"),
    (b"OggS", "audio/ogg"),
    (b"ID3", "audio/mpeg"),
    (b"\x1a\x45\xdf\xa3", "video/webm"),
    (b"wOFF", "font/woff"),
    (b"wOF2", "font/woff2"),
    (b"\x7fELF", "application/x-executable"),
]

_HTML_START = re.compile(
    rb"<(?:!doctype\s+html|html|head|body|title|meta|script|style|div|p|h[1-6]|table|a|b|br"
    rb"|iframe|font|link|!--)[\s/>]",
    re.IGNORECASE,
)
_XML_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*\?>")


class Converted(NamedTuple):
    """A body as Markdown: its title, the Markdown, the media type read, whether the Markdown
    is only the page's main content (HTML with ``main_content``, when extraction kept less than
    the whole page), how many invisible characters were taken out of title and Markdown, and
    what the converter said the page holds (``webtap.convert.Document.state``; for other types
    ``"content"``)."""

    title: str
    markdown: str
    media_type: str
    trimmed: bool = False
    invisible_removed: int = 0
    state: str = "content"
    """HTML: `webtap.convert.Document.state` (whether the page holds readable content)."""
    metadata: Metadata = Metadata()
    """HTML: what the page says of itself (`webtap.convert.Document.metadata`)."""


def to_markdown(
    body: bytes, content_type: str, url: str, deadline: Deadline | None = None
) -> tuple[str, str, str]:
    """``(title, markdown, media_type)`` for a body served with ``content_type`` from ``url``:
    the whole page (see :func:`convert_body` for the main content)."""
    return convert_body(body, content_type, url, deadline=deadline)[:3]


def convert_body(
    body: bytes,
    content_type: str,
    url: str,
    *,
    main_content: bool = False,
    deadline: Deadline | None = None,
    inspect: Callable[[Any], None] | None = None,
) -> Converted:
    """A body served with ``content_type`` from ``url`` as Markdown; for HTML, only the main
    content when ``main_content`` (see :func:`webtap.convert.convert`). ``deadline`` bounds the
    slow conversions (a PDF is read page by page until it passes). ``inspect`` sees an HTML
    page's tree as parsed, before the converter prunes it (the fetch's verdict reads it)."""
    # Every branch but HTML's answers (title, markdown, media_type): Converted fills in the rest.
    converted = Converted(*_to_markdown(body, content_type, url, main_content, deadline, inspect))
    title = strip_controls(converted.title)
    markdown = strip_controls(converted.markdown)
    # Here, once the text is what the model will read, whatever the media type was: an entity
    # (&#8203;), a JSON escape or a PDF's text layer all end up as the characters themselves.
    visible_title, visible = strip_invisible(title), strip_invisible(markdown)
    removed = len(title) - len(visible_title) + len(markdown) - len(visible)
    metadata = Metadata(*(strip_invisible(strip_controls(value)) for value in converted.metadata))
    return converted._replace(
        title=visible_title, markdown=visible, invisible_removed=removed, metadata=metadata
    )


def _to_markdown(
    body: bytes,
    content_type: str,
    url: str,
    main_content: bool = False,
    deadline: Deadline | None = None,
    inspect: Callable[[Any], None] | None = None,
) -> tuple[str, str, str] | Converted:
    media_type, charset = parse_content_type(content_type)
    if media_type in _PDF_TYPES or body.startswith(b"%PDF-"):
        return (*_pdf(body, media_type, deadline), "application/pdf")
    if media_type in _SNIFFED_TYPES:
        media_type = sniff(body)
    else:
        hidden = _binary_signature(body)
        if hidden and not _is_binary_type(media_type):
            raise ParseError(
                f"Cannot convert {hidden} content to Markdown: the server said {media_type} "
                f"but sent {hidden} data"
            )
    if media_type in _HTML_TYPES:
        return _html(body, charset, url, media_type, main_content, inspect)
    if media_type == "application/json" or media_type.endswith("+json"):
        return ("", _json(body, charset), media_type)
    if media_type in _MARKDOWN_TYPES:
        text = _text(decode(body, charset))
        return (markdown_title(text), text, media_type)
    if _is_text_type(media_type):
        return ("", _text(decode(body, charset)), media_type)
    raise ParseError(
        f"Cannot convert {media_type} content to Markdown: web_fetch reads HTML, XHTML, "
        "plain text, Markdown and JSON"
    )


def parse_content_type(header: str) -> tuple[str, str | None]:
    """``("text/html", "utf-8")`` from ``text/html; charset="UTF-8"``."""
    media_type, *params = header.split(";")
    charset = None
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset":
            charset = value.strip().strip("\"'").strip() or None
    return media_type.strip().lower(), charset


def _is_text_type(media_type: str) -> bool:
    return (
        media_type.startswith("text/")
        or media_type in _TEXT_APPLICATION_TYPES
        or media_type.endswith("+xml")
    )


def _is_binary_type(media_type: str) -> bool:
    return not (
        media_type in _HTML_TYPES
        or _is_text_type(media_type)
        or media_type == "application/json"
        or media_type.endswith("+json")
    )


def _binary_signature(body: bytes) -> str | None:
    head = body[:16]
    for magic, media_type in _SIGNATURES:
        if head.startswith(magic):
            return media_type
    if head.startswith(b"RIFF") and body[8:12] == b"WEBP":
        return "image/webp"
    return None


def sniff(body: bytes) -> str:
    """The media type of a body served without a useful Content-Type."""
    signature = _binary_signature(body)
    if signature:
        return signature
    head = body[:1024].lstrip(b"\xef\xbb\xbf \t\r\n\x0c")
    if _HTML_START.match(head) or (head.startswith(b"<?xml") and b"<html" in body[:4096].lower()):
        return "text/html"
    if head[:1] in (b"{", b"["):
        try:
            loads_json(body)
        except ValueError:
            pass
        else:
            return "application/json"
    if b"\x00" in body[:4096] and not body.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "application/octet-stream"
    return "text/plain"


def _html(
    body: bytes,
    charset: str | None,
    url: str,
    media_type: str,
    main_content: bool,
    inspect: Callable[[Any], None] | None = None,
) -> Converted:
    text = decode(body, charset, html=True)
    # lxml refuses str input that carries an encoding declaration; the text is decoded already.
    text = _XML_DECLARATION.sub("", text, count=1)
    try:
        document = convert(text, base_url=url, main_content=main_content, inspect=inspect)
    except RecursionError:
        raise ParseError("Failed to parse HTML: the document is nested too deeply") from None
    except Exception as exc:
        raise ParseError(f"Failed to parse HTML: {type(exc).__name__}: {exc}") from None
    return Converted(
        document.title,
        document.markdown,
        media_type,
        document.trimmed,
        state=document.state,
        metadata=document.metadata,
    )


def _pdf(body: bytes, media_type: str, deadline: Deadline | None) -> tuple[str, str]:
    # PDF readers accept a header after some junk; without one this is no PDF at all.
    if b"%PDF-" not in body[:1024]:
        raise ParseError(
            f"Cannot read the PDF: the server said {media_type} but the body does not start "
            "like a PDF (no %PDF- header)"
        )
    from webtap.pdf import to_markdown as pdf_to_markdown  # PDFium: only for a PDF

    return pdf_to_markdown(body, deadline)


def _json(body: bytes, charset: str | None) -> str:
    text = decode(body, charset or "utf-8")
    try:
        value = loads_json(text)
    except ValueError:
        return _text(text)  # not JSON after all: show it as it came
    pretty = json.dumps(value, indent=2, ensure_ascii=False)
    fence = code_fence(pretty)
    return f"{fence}json\n{pretty}\n{fence}\n"


def _text(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --- Charsets --------------------------------------------------------------------------------

_META_CHARSET = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_:.\-]+)", re.I)

_BOMS = [
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
]

# Labels that mean a superset in practice (the WHATWG Encoding Standard does the same).
_SUPERSETS = {
    "iso-8859-1": "cp1252",
    "latin-1": "cp1252",
    "ascii": "cp1252",
    "shift_jis": "cp932",
    "euc_jp": "euc_jis_2004",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "euc_kr": "cp949",
    "iso-8859-9": "cp1254",
    "tis-620": "cp874",
    "iso-8859-11": "cp874",
}


_WESTERN = {"cp1252", "latin_1", "iso8859_15"}


def _codec(label: str | None) -> str | None:
    """The Python codec for a charset label, or ``None`` for a label nobody knows."""
    if not label:
        return None
    try:
        info = codecs.lookup(label.strip().lower())
    except (LookupError, ValueError):
        return None
    # Python knows codecs no page is written in: bytes-to-bytes ones ("hex", "zlib", "rot13")
    # and text ones that fail on any byte they dislike even with errors="replace".
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_CHARSETS:
        return None
    return _SUPERSETS.get(info.name, info.name)


_NOT_CHARSETS = {"idna", "punycode", "undefined", "unicode-escape", "raw-unicode-escape"}


def decode(body: bytes, charset: str | None, *, html: bool = False) -> str:
    """Text from ``body``: BOM, then ``charset`` (the header), then ``<meta>``, then detection."""
    for bom, bom_codec in _BOMS:
        if body.startswith(bom):
            return body.decode(bom_codec, errors="replace")
    codec = _codec(charset)
    if codec is None and html:
        match = _META_CHARSET.search(body[:8192])
        codec = _codec(match.group(1).decode("ascii")) if match else None
        if codec in ("utf-16", "utf-16-le", "utf-16-be", "utf-32"):
            codec = "utf-8"  # a meta tag readable as ASCII cannot be in UTF-16
    if codec is None:
        codec = _detect(body)
    return body.decode(codec, errors="replace")


def _detect(body: bytes) -> str:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8"
    from charset_normalizer import from_bytes  # only for a body of no known charset

    matches = list(from_bytes(body[: 256 * 1024]))
    if not matches:
        return "cp1252"
    best = matches[0]
    # Short Western text often fits several single-byte code pages equally well; the web's
    # default among them is windows-1252 (as in browsers), so it wins a tie.
    for match in matches:
        tied = abs(match.chaos - best.chaos) < 0.01 and abs(match.coherence - best.coherence) < 0.01
        if tied and _WESTERN & set(match.could_be_from_charset):
            return "cp1252"
    return _codec(best.encoding) or "cp1252"
