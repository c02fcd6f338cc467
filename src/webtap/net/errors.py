"""What can go wrong on the wire, and its one translation into webtap's errors.

The client raises the classes below where it knows the phase (a timeout while connecting is
not one while reading); the standard library's own exceptions (``http.client``'s, ``OSError``,
``ssl``'s) pass through as they are. :func:`translate_errors` turns all of them into
:class:`~webtap.errors.NetworkError` with one wording, for every caller.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from webtap.errors import NetworkError

__all__ = [
    "ConnectFailed",
    "ConnectTimeout",
    "DecodingError",
    "InvalidHTTP",
    "ReadTimeout",
    "TransportError",
    "connect_reason",
    "translate_errors",
]


class TransportError(Exception):
    """A request failed on the wire; the message says how, without naming the operation."""


class ConnectTimeout(TransportError):
    """Resolving, connecting or the TLS handshake took longer than allowed."""


class ReadTimeout(TransportError):
    """The server did not send the next bytes in time."""


class ConnectFailed(TransportError):
    """No connection could be made; the message is the reason (see :func:`connect_reason`)."""


class DecodingError(TransportError):
    """The body's bytes are not what its ``Content-Encoding`` says."""


class InvalidHTTP(TransportError):
    """The response's framing is not valid HTTP/1.1 (RFC 9112 §6): a length that is not one
    number, a transfer coding that does not end in chunked, both at once, a bad chunk size."""


@contextmanager
def translate_errors(what: str = "request") -> Iterator[None]:
    """Turn transport errors into :class:`NetworkError`, most specific first.

    ``what`` names the operation for the message ("Failed to fetch URL", "Brave Search").
    """
    import http.client  # here: a cached answer needs no HTTP stack

    try:
        yield
    except ConnectTimeout:
        raise NetworkError(f"{what}: connection timed out") from None
    except ReadTimeout:
        raise NetworkError(f"{what}: timed out waiting for the server") from None
    except ConnectFailed as exc:
        raise NetworkError(f"{what}: {exc}") from None
    except InvalidHTTP as exc:
        raise NetworkError(f"{what}: the server's answer is not valid HTTP: {exc}") from None
    except DecodingError as exc:  # Content-Encoding says gzip, the bytes say otherwise
        raise NetworkError(f"{what}: the response could not be decompressed ({exc})") from None
    except (http.client.IncompleteRead, http.client.RemoteDisconnected, ConnectionError) as exc:
        raise NetworkError(f"{what}: connection closed unexpectedly ({_closed(exc)})") from None
    except http.client.HTTPException as exc:
        raise NetworkError(
            f"{what}: the server's answer is not valid HTTP ({type(exc).__name__}: {exc})"
        ) from None
    except TimeoutError:
        raise NetworkError(f"{what}: timed out waiting for the server") from None
    except OSError as exc:
        if _is_tls_error(exc):
            raise NetworkError(f"{what}: TLS error: {exc}") from None
        raise NetworkError(f"{what}: network error ({exc.strerror or exc})") from None


def _closed(exc: Exception) -> str:
    import http.client  # loaded already: only translate_errors calls this

    if isinstance(exc, http.client.IncompleteRead):
        return f"the body ended after {len(exc.partial)} bytes, {exc.expected or 'more'} missing"
    if isinstance(exc, http.client.RemoteDisconnected):
        return "the server closed the connection without answering"
    if isinstance(exc, ConnectionResetError):
        return "connection reset by peer"
    return str(exc) or type(exc).__name__


def _is_tls_error(exc: OSError) -> bool:
    ssl = sys.modules.get("ssl")  # imported by whoever made a TLS connection
    return ssl is not None and isinstance(exc, ssl.SSLError | ssl.CertificateError)


def connect_reason(exc: BaseException) -> str:
    """Why a connection could not be made, in words (the message of :class:`ConnectFailed`)."""
    text = str(exc)
    lowered = text.lower()
    if _is_tls_error(exc) if isinstance(exc, OSError) else False:
        return f"TLS error: {text}"
    if isinstance(exc, ConnectionRefusedError) or "refused" in lowered:
        return "connection refused"
    if (
        "name or service not known" in lowered
        or "nodename nor servname" in lowered
        or "temporary failure in name resolution" in lowered
        or "no address associated" in lowered
    ):
        return "DNS lookup failed (host not found)"
    if "certificate" in lowered or "ssl" in lowered or "tls" in lowered:
        return f"TLS error: {text}"
    if isinstance(exc, ConnectionResetError) or "reset" in lowered:
        return "connection reset by peer"
    return f"connection failed: {getattr(exc, 'strerror', None) or text}"
