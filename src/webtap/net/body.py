"""Reading a body: decoded in bounded pieces, capped on decoded bytes, within the deadline.

webtap asks for ``gzip, deflate, br`` and decodes them itself, 64 KiB of output at a time, so
that the size cap holds on what the body expands to: a 1.6 KB brotli body that expands to
1 GB costs one piece of memory, not a gigabyte, before it is refused.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Protocol

try:
    import brotli
except ImportError:  # a platform without its wheel: answers come gzipped or plain instead
    brotli = None

from webtap.errors import ParseError
from webtap.net.deadline import Deadline
from webtap.net.errors import DecodingError, ReadTimeout
from webtap.settings import size_text

__all__ = ["ACCEPT_ENCODING", "BodyTooLarge", "decode_capped", "read_body"]

PIECE = 64 * 1024


class BodyTooLarge(ParseError):
    """The decoded body passed the size cap."""


class RawBody(Protocol):
    """What :func:`read_body` reads: a response's headers and its undecoded bytes."""

    @property
    def headers(self) -> Mapping[str, str]: ...

    def iter_raw(self) -> Iterator[bytes]: ...


class _Inflate:
    """gzip (``wbits`` 31, several members allowed) or deflate (zlib-wrapped, else raw)."""

    def __init__(self, wbits: int) -> None:
        self._wbits = wbits
        self._raw_fallback = wbits == zlib.MAX_WBITS
        self._started = False
        self._inflater = zlib.decompressobj(wbits)

    def feed(self, data: bytes) -> Iterator[bytes]:
        while True:
            try:
                out = self._inflater.decompress(data, PIECE)
            except zlib.error:
                if self._raw_fallback and not self._started:
                    # Some servers send raw deflate for "deflate"; browsers accept both.
                    self._raw_fallback = False
                    self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise
            self._started = self._started or bool(data)
            if out:
                yield out
            if self._inflater.eof:
                data = self._inflater.unused_data
                if self._wbits != 31 or not data.strip(b"\0"):
                    return
                self._inflater = zlib.decompressobj(self._wbits)  # the next gzip member
                continue
            data = self._inflater.unconsumed_tail
            # A full piece may mean zlib holds more output even when all input is consumed.
            if not data and len(out) < PIECE:
                return


class _Brotli:
    def __init__(self) -> None:
        self._decompressor = brotli.Decompressor()

    def feed(self, data: bytes) -> Iterator[bytes]:
        # Each call returns about one piece; an empty answer means nothing is held back
        # (``can_accept_more_data`` alone says True while output is still pending).
        out = self._decompressor.process(data, output_buffer_limit=PIECE)
        while out:
            yield out
            out = self._decompressor.process(b"", output_buffer_limit=PIECE)


def _brotli_available() -> bool:
    return brotli is not None and hasattr(brotli.Decompressor, "can_accept_more_data")


ACCEPT_ENCODING = "gzip, deflate, br" if _brotli_available() else "gzip, deflate"


def _decoders(content_encoding: str) -> list[Any]:
    """Decoders in the order to apply them; unknown codings are passed through as browsers do."""
    codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
    decoders: list[Any] = []
    for coding in reversed(codings):
        if coding in ("gzip", "x-gzip"):
            decoders.append(_Inflate(31))
        elif coding == "deflate":
            decoders.append(_Inflate(zlib.MAX_WBITS))
        elif coding == "br" and _brotli_available():
            decoders.append(_Brotli())
    return decoders


def read_body(response: RawBody, max_bytes: int, deadline: Deadline) -> bytes:
    """The response body, content-decoded, at most ``max_bytes`` of it, before ``deadline``.

    The cap holds on decoded bytes (a gzip bomb stops at the cap, not in memory) and the
    deadline is checked between pieces, so a server that drips bytes cannot hold us past it.
    """
    too_large = BodyTooLarge(
        f"The response is larger than the {size_text(max_bytes)} limit "
        f"(set WEBTAP_MAX_BYTES to a larger number of bytes to allow it)"
    )
    coding = response.headers.get("content-encoding", "")
    declared = response.headers.get("content-length", "")
    if not _decoders(coding) and declared.isdigit() and int(declared) > max_bytes:
        raise too_large

    def pieces() -> Iterator[bytes]:
        raw = 0
        for chunk in response.iter_raw():
            raw += len(chunk)
            if raw > max_bytes:
                raise too_large
            yield chunk
            if deadline.expired:
                raise ReadTimeout("the overall deadline passed while reading the body")

    try:
        return b"".join(decode_capped(pieces(), coding, max_bytes, lambda: too_large))
    except DecodingError as exc:
        raise ParseError(f"Failed to decode the {coding} response body: {exc}") from None


def decode_capped(
    chunks: Iterable[bytes],
    content_encoding: str,
    max_bytes: int,
    too_large: Callable[[], Exception],
) -> Iterator[bytes]:
    """``chunks`` of a body sent with ``content_encoding``, decoded in pieces of at most 64 KiB;
    ``too_large()`` is raised as soon as the decoded bytes pass ``max_bytes``, and
    :class:`~webtap.net.errors.DecodingError` when the bytes are not what the encoding says.

    The one decoder for every body webtap reads from outside (pages, search providers, the
    Anthropic API).
    """
    stream: Iterator[bytes] = iter(chunks)
    for decoder in _decoders(content_encoding):
        stream = _chain(decoder, stream)
    size = 0
    try:
        for part in stream:
            size += len(part)
            if size > max_bytes:
                raise too_large()
            yield part
    except (zlib.error, _brotli_error()) as exc:
        raise DecodingError(str(exc)) from None


def _chain(decoder: Any, stream: Iterator[bytes]) -> Iterator[bytes]:
    for chunk in stream:
        yield from decoder.feed(chunk)


def _brotli_error() -> type[Exception]:
    return zlib.error if brotli is None else brotli.error
