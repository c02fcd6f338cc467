"""The HTTP layer of webtap's tools, on the standard library's ``http.client``.

- :mod:`~webtap.net.client`: :class:`Client`, which makes each request whole and hands it to
  its transport;
- :mod:`~webtap.net.transport`: the transport seam (one method, ``handle_request``, as httpx's),
  :class:`Request`, :class:`Response`, :class:`MockTransport` for tests, header fields;
- :mod:`~webtap.net.http_transport`: :class:`HTTPTransport`, connections kept alive per origin,
  each request bounded by a :class:`Deadline`;
- :mod:`~webtap.net.connection`: one ``http.client`` connection, its responses' framing read
  strictly (RFC 9112 §6);
- :mod:`~webtap.net.connect`: names resolved by webtap within the deadline, every address
  checked by the SSRF guard (``webtap.guard``) before connecting to it;
- :mod:`~webtap.net.tls`: one TLS context, CA certificates loaded as cheaply as possible;
- :mod:`~webtap.net.body`: bodies decoded (gzip/deflate/br) in bounded pieces, the size cap
  on decoded bytes;
- :mod:`~webtap.net.errors`: one translation of what goes wrong into webtap's errors;
- :mod:`~webtap.net.cookies`, :mod:`~webtap.net.proxy`, :mod:`~webtap.net.url`: cookies across
  a redirect chain, proxies for search providers, URLs as a request line needs them.
- :mod:`~webtap.net.retry_after`: how long a server asks to be left alone, read one way for
  every caller.

httpx is not used here: it stays for the Anthropic SDK, whose client gets the capped decoder
through :func:`capping_hook`. The client modules (and ``http.client``) and the hook load on
first use of their names, so that an answer from a cache costs no HTTP stack.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from webtap.net.body import ACCEPT_ENCODING, BodyTooLarge, decode_capped, read_body
from webtap.net.deadline import DEFAULT_LIMITS, DEFAULT_TIMEOUTS, Deadline, Limits, Timeouts
from webtap.net.errors import (
    ConnectFailed,
    ConnectTimeout,
    DecodingError,
    InvalidHTTP,
    ReadTimeout,
    TransportError,
    translate_errors,
)
from webtap.net.transport import MockTransport, Request, Response, Transport

if TYPE_CHECKING:
    from webtap.net.client import USER_AGENT, Client
    from webtap.net.hook import capping_hook
    from webtap.net.http_transport import POOL_LIMITS, HTTPTransport, PoolLimits

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
    "HTTPTransport",
    "InvalidHTTP",
    "Limits",
    "MockTransport",
    "PoolLimits",
    "ReadTimeout",
    "Request",
    "Response",
    "Timeouts",
    "Transport",
    "TransportError",
    "capping_hook",
    "decode_capped",
    "read_body",
    "translate_errors",
]

# Loaded on first use: the client modules need http.client; the hook is the agent's alone.
_LAZY = {
    "capping_hook": "hook",
    "USER_AGENT": "client",
    "Client": "client",
    "POOL_LIMITS": "http_transport",
    "HTTPTransport": "http_transport",
    "PoolLimits": "http_transport",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f"webtap.net.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'webtap.net' has no attribute {name!r}")
