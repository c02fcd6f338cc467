"""The HTTP layer of webtap's tools, on the standard library's ``http.client``.

- :mod:`~webtap.net.client`: :class:`Client`, connections kept alive per origin, each request
  bounded by a :class:`Deadline`;
- :mod:`~webtap.net.connect`: names resolved by webtap within the deadline, every address
  checked by the SSRF guard (``webtap.guard``) before connecting to it;
- :mod:`~webtap.net.tls`: one TLS context, CA certificates loaded as cheaply as possible;
- :mod:`~webtap.net.body`: bodies decoded (gzip/deflate/br) in bounded pieces, the size cap
  on decoded bytes;
- :mod:`~webtap.net.errors`: one translation of what goes wrong into webtap's errors;
- :mod:`~webtap.net.cookies`, :mod:`~webtap.net.proxy`, :mod:`~webtap.net.url`: cookies across
  a redirect chain, proxies for search providers, URLs as a request line needs them.

httpx is not used here: it stays for the Anthropic SDK, whose client gets the capped decoder
through :func:`capping_hook`. The client modules (and ``http.client``) load on first use of
their names, so that an answer from a cache costs no HTTP stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webtap.net.body import ACCEPT_ENCODING, BodyTooLarge, decode_capped, read_body
from webtap.net.deadline import DEFAULT_LIMITS, DEFAULT_TIMEOUTS, Deadline, Limits, Timeouts
from webtap.net.errors import (
    ConnectFailed,
    ConnectTimeout,
    DecodingError,
    ReadTimeout,
    TransportError,
    translate_errors,
)
from webtap.net.hook import capping_hook

if TYPE_CHECKING:
    from webtap.net.client import POOL_LIMITS, USER_AGENT, Client, PoolLimits, Response

__all__ = [
    "ACCEPT_ENCODING",
    "DEFAULT_LIMITS",
    "DEFAULT_TIMEOUTS",
    "POOL_LIMITS",
    "USER_AGENT",
    "BodyTooLarge",
    "Client",
    "ConnectFailed",
    "ConnectTimeout",
    "Deadline",
    "DecodingError",
    "Limits",
    "PoolLimits",
    "ReadTimeout",
    "Response",
    "Timeouts",
    "TransportError",
    "capping_hook",
    "decode_capped",
    "read_body",
    "translate_errors",
]

_LAZY = {"POOL_LIMITS", "USER_AGENT", "Client", "PoolLimits", "Response"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from webtap.net import client

        return getattr(client, name)
    raise AttributeError(f"module 'webtap.net' has no attribute {name!r}")
