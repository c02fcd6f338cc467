"""Where a response body ends, read strictly (RFC 9112 §6): framing two readers could disagree
on is refused, as :class:`~webtap.net.errors.InvalidHTTP`.

``http.client`` reads leniently: ``Content-Length: -5`` or an unreadable value means "read until
the connection closes", of two different ``Content-Length`` fields the first wins, a
``Transfer-Encoding`` it does not know is ignored, and ``int(size, 16)`` reads chunk sizes
(``0x10``, ``+5``, ``1_0`` and ``-5`` included). Where a proxy reads the same bytes otherwise,
that difference is how responses are smuggled; and webtap keeps connections alive, so a body
read one byte too long or short would hand the next request the wrong answer. So:

- ``Content-Length`` is one or more decimal numbers, all the same (RFC 9110 §8.6 allows a
  repeated identical value); anything else is refused.
- ``Transfer-Encoding`` must be exactly ``chunked``. Another final coding would mean "read until
  the connection closes" (RFC 9112 §6.3, 4), with the body still encoded in a coding
  ``http.client`` does not decode; a coding before ``chunked`` (``gzip, chunked``) is valid
  but unread by ``http.client`` too, and no server webtap meets sends one: both are refused.
- Both together are refused. A server must not send them together (§6.1) and the recipient
  "ought to" treat it as an error (§6.3, 3): the two disagree by construction, and which one an
  intermediary on the way believed is unknown.
- A chunk size is hexadecimal digits only, then optional extensions (§7.1).

None of this applies where the status says there is no body (1xx, 204, 304; §6.3, 1).
"""

from __future__ import annotations

import re

from webtap.errors import clip
from webtap.net.errors import InvalidHTTP

__all__ = ["MAX_CHUNK_LINE", "chunk_size", "content_length", "has_body"]

MAX_CHUNK_LINE = 64 * 1024  # http.client's own limit on a line
_DIGITS = re.compile(r"[0-9]{1,18}")  # more than 18 digits is no length anyone means
_HEX = re.compile(rb"[0-9A-Fa-f]{1,16}")


def has_body(status: int, method: str) -> bool:
    """False where the message ends with its headers whatever they say (§6.3, 1)."""
    return not (100 <= status < 200 or status in (204, 304) or method == "HEAD")


def content_length(lengths: list[str], encodings: list[str]) -> int | None:
    """The body's length from its ``Content-Length`` and ``Transfer-Encoding`` fields (each
    field's values as received): a number of bytes, or None when it is chunked or not said
    (the body then ends with the connection). Else :class:`InvalidHTTP`."""
    if encodings:
        codings = [c.strip().lower() for field in encodings for c in field.split(",")]
        codings = [c for c in codings if c]
        shown = clip(", ".join(field.strip() for field in encodings), 60)
        if not codings or codings[-1] != "chunked":
            raise InvalidHTTP(f"Transfer-Encoding {shown!r} does not end in chunked")
        if codings.count("chunked") > 1:
            raise InvalidHTTP(f"Transfer-Encoding {shown!r} applies chunked more than once")
        if len(codings) > 1:
            raise InvalidHTTP(
                f"Transfer-Encoding {shown!r} applies a coding before chunked "
                "(webtap reads chunked alone)"
            )
        if lengths:
            raise InvalidHTTP(
                "it has both Transfer-Encoding and Content-Length (a server must send only "
                "one of them)"
            )
        return None
    if not lengths:
        return None
    values = [v.strip() for field in lengths for v in field.split(",")]
    values = [v for v in values if v]  # empty list elements are allowed, and mean nothing
    for value in values:
        if not _DIGITS.fullmatch(value):
            raise InvalidHTTP(f"Content-Length is {clip(value, 30)!r}, not a number of bytes")
    if not values:
        raise InvalidHTTP("Content-Length is empty")
    if len({int(value) for value in values}) > 1:
        shown = ", ".join(dict.fromkeys(values))
        raise InvalidHTTP(f"it gives different Content-Length values ({clip(shown, 60)})")
    return int(values[0])


def chunk_size(line: bytes) -> int:
    """The size a chunk-size line (``1a;ext=1\\r\\n``) announces; :class:`InvalidHTTP` when it
    is not hexadecimal digits. An empty line (the connection closed) is a ``ValueError``, as
    ``http.client`` expects, which reports the body as cut short."""
    if not line:
        raise ValueError("the connection closed before the next chunk")
    if len(line) > MAX_CHUNK_LINE:
        raise InvalidHTTP("a chunk-size line is longer than 64 KB")
    size = line.split(b";", 1)[0].rstrip(b"\r\n").rstrip(b" \t")  # BWS before extensions
    if not _HEX.fullmatch(size):
        shown = size[:20].decode("latin-1")
        raise InvalidHTTP(f"the chunk size {shown!r} is not a hexadecimal number")
    return int(size, 16)
