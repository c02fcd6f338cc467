"""The capped decoder for clients whose body another library reads (the Anthropic SDK's httpx).

httpx is imported by the SDK, never here: the hook finds the library from the response it gets.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from webtap.net.body import decode_capped
from webtap.net.errors import DecodingError

__all__ = ["capping_hook"]


def capping_hook(max_bytes: int, too_large: Callable[[], Exception]) -> Callable[[Any], None]:
    """An httpx ``response`` event hook that makes the client decode through
    :func:`~webtap.net.body.decode_capped`: for clients whose body another library reads.

    The hook runs before the body is read; it swaps the response's stream for the capped,
    decoded one and drops ``Content-Encoding`` so that httpx does not decode a second time.
    Works for ``httpx`` and for the ``httpx2`` fork the SDK uses (same public API); a body
    that is not what its encoding says raises that library's ``DecodingError``.
    """

    def hook(response: Any) -> None:
        library = sys.modules[type(response).__module__.split(".")[0]]
        raw = response.stream
        if not isinstance(raw, library.SyncByteStream):
            return  # an async stream: not read by webtap
        coding = response.headers.get("content-encoding", "")
        pieces = decode_capped(raw, coding, max_bytes, too_large)
        response.stream = _capped_stream_type(library)(pieces, raw)
        if "content-encoding" in response.headers:
            del response.headers["content-encoding"]

    return hook


@cache
def _capped_stream_type(library: Any) -> type:
    class CappedStream(library.SyncByteStream):
        def __init__(self, pieces: Iterator[bytes], raw: Any) -> None:
            self._pieces = pieces
            self._raw = raw

        def __iter__(self) -> Iterator[bytes]:
            try:
                yield from self._pieces
            except DecodingError as exc:  # the library's own error, as its callers expect
                raise library.DecodingError(str(exc)) from None

        def close(self) -> None:
            self._raw.close()

    return CappedStream
