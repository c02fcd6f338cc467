"""A body's text: which charset it is in, read as a browser reads it.

A byte-order mark wins; then the charset the Content-Type header names; for HTML, then a
``<meta charset>`` in the first 8 KB; then detection (valid UTF-8, else charset-normalizer,
imported only then). Labels mean what they mean on the web: ``iso-8859-1`` is windows-1252
(as the WHATWG Encoding Standard says), and codecs no page is written in are not charsets.
"""

from __future__ import annotations

import codecs
import re

__all__ = ["decode"]

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
    from charset_normalizer import from_bytes

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
