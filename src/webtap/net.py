"""The HTTP layer: one client factory, value-object settings, and one translation of errors.

Every HTTP user in webtap takes an ``httpx.Client`` (tests inject ``httpx.MockTransport`` or
point the ``*_URL`` variables at a 127.0.0.1 server) and calls it inside
:func:`translate_errors`, so that httpx's exception tree becomes webtap's in one place.

For URLs that a model or a web page chose, :func:`guarded_client` adds what an open fetcher
needs: a connection layer that resolves names itself, lets the SSRF guard (``webtap.guard``)
check every address, and connects only to an address it checked; an overall :class:`Deadline`
that bounds DNS, connect, TLS and every read; and :func:`read_body`, which decodes
gzip/deflate/br itself in bounded pieces so that the size cap holds on decoded bytes.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import httpx

from webtap import __version__
from webtap.errors import NetworkError, ParseError, clip

if TYPE_CHECKING:
    import ssl

    import httpcore

    from webtap.guard import Guard

__all__ = [
    "ACCEPT_ENCODING",
    "DEFAULT_LIMITS",
    "DEFAULT_TIMEOUTS",
    "POOL_LIMITS",
    "USER_AGENT",
    "BodyTooLarge",
    "Deadline",
    "GuardedTransport",
    "Limits",
    "Timeouts",
    "capping_hook",
    "decode_capped",
    "guarded_client",
    "make_client",
    "read_body",
    "translate_errors",
]

USER_AGENT = f"webtap/{__version__} (+https://pypi.org/project/webtap/)"


@dataclass(frozen=True)
class Timeouts:
    """Seconds. ``connect`` bounds each connection; ``total`` bounds a whole operation."""

    connect: float = 10.0
    read: float = 20.0
    total: float = 30.0

    def httpx(self) -> httpx.Timeout:
        return httpx.Timeout(self.read, connect=self.connect)


@dataclass(frozen=True)
class Limits:
    """Sizes in bytes and counts."""

    max_body: int = 10 * 1024 * 1024
    max_redirects: int = 10


DEFAULT_TIMEOUTS = Timeouts()
DEFAULT_LIMITS = Limits()


def make_client(timeouts: Timeouts = DEFAULT_TIMEOUTS, **kwargs: object) -> httpx.Client:
    """A client with webtap's User-Agent and timeouts; redirects are the caller's business.

    Its TLS context is webtap's one (:func:`_ssl_context`), not a fresh certifi bundle per
    client.
    """
    headers = {"User-Agent": USER_AGENT}
    headers.update(kwargs.pop("headers", None) or {})  # type: ignore[arg-type]
    if "transport" not in kwargs:
        kwargs.setdefault("verify", _ssl_context())
    return httpx.Client(
        timeout=timeouts.httpx(),
        headers=headers,
        follow_redirects=False,
        **kwargs,  # type: ignore[arg-type]
    )


@contextmanager
def translate_errors(what: str = "request") -> Iterator[None]:
    """Turn httpx's transport errors into :class:`NetworkError`, most specific first.

    ``what`` names the operation for the message ("Failed to fetch URL", "Brave Search").
    """
    try:
        yield
    except httpx.ConnectTimeout:
        raise NetworkError(f"{what}: connection timed out") from None
    except httpx.TimeoutException:
        raise NetworkError(f"{what}: timed out waiting for the server") from None
    except httpx.ConnectError as exc:
        raise NetworkError(f"{what}: {_connect_reason(exc)}") from None
    except httpx.RemoteProtocolError as exc:
        raise NetworkError(f"{what}: connection closed unexpectedly ({exc})") from None
    except httpx.TransportError as exc:
        raise NetworkError(f"{what}: {type(exc).__name__}: {exc}") from None
    except httpx.DecodingError as exc:  # Content-Encoding says gzip, the bytes say otherwise
        raise NetworkError(f"{what}: the response could not be decompressed ({exc})") from None
    except httpx.RequestError as exc:  # anything else httpx raises about one request
        raise NetworkError(f"{what}: {type(exc).__name__}: {exc}") from None


def _connect_reason(exc: httpx.ConnectError) -> str:
    text = str(exc)
    lowered = text.lower()
    if text.startswith("DNS lookup of "):  # from the guarded backend's resolver: names the host
        return text
    if (
        "name or service not known" in lowered
        or "nodename nor servname" in lowered
        or ("temporary failure in name resolution" in lowered)
        or "no address associated" in lowered
    ):
        return "DNS lookup failed (host not found)"
    if "refused" in lowered:
        return "connection refused"
    if "certificate" in lowered or "ssl" in lowered or "tls" in lowered:
        return f"TLS error: {text}"
    if "reset" in lowered:
        return "connection reset by peer"
    return f"connection failed: {text}"


# --- An overall deadline -------------------------------------------------------------------


class Deadline:
    """A point in time by which a whole operation (every hop, every read) must be done."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def remaining(self) -> float:
        return self.end - time.monotonic()

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0

    def clamp(self, timeout: float | None, timeout_error: type[Exception]) -> float:
        """``timeout`` cut to what is left, or ``timeout_error`` when nothing is left."""
        left = self.remaining()
        if left <= 0:
            raise timeout_error(f"the overall deadline of {self.seconds:g} s has passed")
        return left if timeout is None else min(timeout, left)


# --- A connection layer that checks every address it connects to -------------------------


def _resolve(host: str, port: int, timeout: float) -> list[tuple[Any, ...]]:
    """``getaddrinfo`` with a timeout: the lookup runs in a daemon thread we stop waiting for."""
    import httpcore

    box: dict[str, Any] = {}
    done = threading.Event()

    def lookup() -> None:
        try:
            box["infos"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as exc:
            box["error"] = exc.strerror or str(exc)
        except UnicodeError as exc:  # the idna codec: an empty or over-63-character label
            box["error"] = f"the host name is not valid ({exc.__cause__ or exc})"
        except Exception as exc:  # anything else must still end the wait, not the thread
            box["error"] = f"{type(exc).__name__}: {exc}"
        done.set()

    threading.Thread(target=lookup, name="webtap-dns", daemon=True).start()
    if not done.wait(timeout):
        raise httpcore.ConnectTimeout(f"DNS lookup of {clip(host)} timed out")
    if "error" in box:
        raise httpcore.ConnectError(f"DNS lookup of {clip(host)} failed: {box['error']}")
    return box["infos"]


def _guarded_backend(guard: Guard, deadline: Deadline) -> httpcore.NetworkBackend:
    import ipaddress

    import httpcore

    class DeadlineStream(httpcore.NetworkStream):
        """Every read, write and TLS handshake gets at most the time the deadline has left."""

        def __init__(self, inner: httpcore.NetworkStream) -> None:
            self._inner = inner

        def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            return self._inner.read(max_bytes, deadline.clamp(timeout, httpcore.ReadTimeout))

        def write(self, buffer: bytes, timeout: float | None = None) -> None:
            self._inner.write(buffer, deadline.clamp(timeout, httpcore.WriteTimeout))

        def close(self) -> None:
            self._inner.close()

        def start_tls(
            self,
            ssl_context: Any,
            server_hostname: str | None = None,
            timeout: float | None = None,
        ) -> httpcore.NetworkStream:
            limit = deadline.clamp(timeout, httpcore.ConnectTimeout)
            return DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, limit))

        def get_extra_info(self, info: str) -> Any:
            return self._inner.get_extra_info(info)

    class GuardedBackend(httpcore.SyncBackend):
        """Resolve, check every address with the guard, then connect to a checked address.

        The host name still goes to TLS (SNI, certificate check) and the Host header: httpcore
        takes those from the request's origin, not from the address connected to.
        """

        def connect_tcp(
            self,
            host: str,
            port: int,
            timeout: float | None = None,
            local_address: str | None = None,
            socket_options: Iterable[Any] | None = None,
        ) -> httpcore.NetworkStream:
            limit = deadline.clamp(timeout, httpcore.ConnectTimeout)
            infos = _resolve(host, port, limit)
            addresses = [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos]
            guard.check_resolved(host, addresses)
            last: Exception | None = None
            for info in infos:
                try:
                    stream = super().connect_tcp(
                        info[4][0],
                        port,
                        deadline.clamp(timeout, httpcore.ConnectTimeout),
                        local_address,
                        socket_options,
                    )
                except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                    last = exc
                    continue
                return DeadlineStream(stream)
            raise last or httpcore.ConnectError(f"DNS lookup of {clip(host)} returned no addresses")

    return GuardedBackend()


# --- CA certificates: loaded once, and only those a handshake needs ------------------------


@cache
def _ssl_context() -> ssl.SSLContext:
    """The TLS context of every webtap client: built once per process, its CA certificates
    loaded at the first TLS handshake (a call to http:// or one that fails before connecting
    loads none), from the cheapest source that says the same:

    ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` first, as httpx and OpenSSL read them. Else the
    system's hashed CA folder (``/etc/ssl/certs``): OpenSSL then reads only the certificate a
    handshake needs, where a bundle (certifi's, ~150 certificates) is parsed whole, 25-40 ms of
    a tool's start. certifi's bundle where the system has no such folder.
    """
    return _lazy_context_class()()


@cache
def _lazy_context_class() -> type[ssl.SSLContext]:
    import ssl
    import sys

    class LazyCAContext(ssl.SSLContext):
        """``ssl.create_default_context()``'s settings; the CA certificates on first use."""

        def __new__(cls) -> LazyCAContext:
            return super().__new__(cls, ssl.PROTOCOL_TLS_CLIENT)

        def __init__(self) -> None:
            super().__init__()
            self._ca_lock = threading.Lock()
            self._ca_loaded = False
            # What create_default_context adds to PROTOCOL_TLS_CLIENT's defaults
            # (CERT_REQUIRED, check_hostname).
            if sys.version_info >= (3, 13):
                self.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN | ssl.VERIFY_X509_STRICT
            keylog = os.environ.get("SSLKEYLOGFILE")
            if keylog and not sys.flags.ignore_environment:
                self.keylog_filename = keylog

        def load_certificates(self) -> None:
            """Load the CA certificates (see :func:`_ssl_context`), once."""
            with self._ca_lock:
                if not self._ca_loaded:
                    self.load_verify_locations(**_ca_locations())
                    self._ca_loaded = True

        def wrap_socket(self, *args: Any, **kwargs: Any) -> ssl.SSLSocket:
            self.load_certificates()
            return super().wrap_socket(*args, **kwargs)

        def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:
            self.load_certificates()
            return super().wrap_bio(*args, **kwargs)

    return LazyCAContext


def _ca_locations() -> dict[str, str | None]:
    cafile = os.environ.get("SSL_CERT_FILE", "").strip() or None
    capath = os.environ.get("SSL_CERT_DIR", "").strip() or None
    if cafile or capath:
        return {"cafile": cafile, "capath": capath}
    folder = _hashed_ca_folder()
    if folder is not None:
        return {"capath": folder}
    import certifi

    return {"cafile": certifi.where()}


_HASHED_NAME = re.compile(r"[0-9a-f]{8}\.[0-9]+")


def _hashed_ca_folder() -> str | None:
    """OpenSSL's CA folder when it holds hashed certificate names (``5ad8a5d6.0``), else None."""
    import ssl

    paths = ssl.get_default_verify_paths()
    for folder in dict.fromkeys(p for p in (paths.capath, paths.openssl_capath) if p):
        try:
            with os.scandir(folder) as entries:
                if any(_HASHED_NAME.fullmatch(entry.name) for entry in entries):
                    return folder
        except OSError:
            continue
    return None


# --- The guarded transport: httpcore's pool on the guarded backend, on public API ----------

POOL_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=20, keepalive_expiry=5)
"""The connection pool's limits: httpx's documented defaults, as any other httpx client has."""


class GuardedTransport(httpx.BaseTransport):
    """An httpx transport whose connections go through the guarded backend.

    It owns an ``httpcore.ConnectionPool`` built with ``network_backend=``, which httpx's own
    ``HTTPTransport`` has no option for, and maps httpcore's exceptions to httpx's public ones
    itself, so that :func:`translate_errors` turns them into webtap's as for any client.
    """

    def __init__(self, guard: Guard, deadline: Deadline, limits: httpx.Limits = POOL_LIMITS):
        import httpcore

        self.limits = limits
        self._pool = httpcore.ConnectionPool(
            ssl_context=_ssl_context(),
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=_guarded_backend(guard, deadline),
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        import httpcore

        url = request.url
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path
            ),
            headers=request.headers.raw,
            content=request.stream,  # type: ignore[arg-type]
            extensions=request.extensions,
        )
        with _httpcore_errors():
            response = self._pool.handle_request(core)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(response),
            extensions=response.extensions,
        )

    def close(self) -> None:
        with _httpcore_errors():
            self._pool.close()


class _ResponseStream(httpx.SyncByteStream):
    def __init__(self, response: httpcore.Response) -> None:
        self._response = response

    def __iter__(self) -> Iterator[bytes]:
        with _httpcore_errors():
            yield from self._response.iter_stream()

    def close(self) -> None:
        with _httpcore_errors():
            self._response.close()


@contextmanager
def _httpcore_errors() -> Iterator[None]:
    """httpcore's exceptions as httpx's: the most specific class that matches, same message."""
    import httpcore

    try:
        yield
    except httpcore.TimeoutException as exc:
        raise _same_kind(exc, httpx.TimeoutException) from exc
    except httpcore.NetworkError as exc:
        raise _same_kind(exc, httpx.NetworkError) from exc
    except httpcore.ProtocolError as exc:
        raise _same_kind(exc, httpx.ProtocolError) from exc
    except (httpcore.UnsupportedProtocol, httpcore.ProxyError) as exc:
        raise _same_kind(exc, httpx.TransportError) from exc


def _same_kind(exc: Exception, base: type[httpx.TransportError]) -> httpx.TransportError:
    """httpx's exception of the same name as httpcore's (``ConnectTimeout``), else ``base``."""
    kind = getattr(httpx, type(exc).__name__, base)
    if not (isinstance(kind, type) and issubclass(kind, base)):
        kind = base
    return kind(str(exc))


def guarded_client(guard: Guard, deadline: Deadline, timeouts: Timeouts) -> httpx.Client:
    """A client for URLs nobody vetted: every connection checked by ``guard``, within ``deadline``.

    Proxies from the environment are not used: through a proxy the guard would see only the
    proxy's address, never the one the proxy connects to.
    """
    return make_client(
        timeouts,
        transport=GuardedTransport(guard, deadline),
        trust_env=False,
        headers={"Accept-Encoding": ACCEPT_ENCODING},
    )


# --- Reading a body: decoded in bounded pieces, capped, within the deadline ----------------

_PIECE = 64 * 1024


class BodyTooLarge(ParseError):
    """The decoded body passed the size cap."""


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
                out = self._inflater.decompress(data, _PIECE)
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
            if not data and len(out) < _PIECE:
                return


class _Brotli:
    def __init__(self) -> None:
        import brotli

        self._decompressor = brotli.Decompressor()

    def feed(self, data: bytes) -> Iterator[bytes]:
        # Each call returns about one piece; an empty answer means nothing is held back
        # (``can_accept_more_data`` alone says True while output is still pending).
        out = self._decompressor.process(data, output_buffer_limit=_PIECE)
        while out:
            yield out
            out = self._decompressor.process(b"", output_buffer_limit=_PIECE)


def _brotli_available() -> bool:
    try:
        import brotli
    except ImportError:
        return False
    return hasattr(brotli.Decompressor, "can_accept_more_data")


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


def _size(n: int) -> str:
    if n >= 1024 * 1024 and n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KB"
    return f"{n} bytes"


def read_body(response: httpx.Response, max_bytes: int, deadline: Deadline) -> bytes:
    """The response body, content-decoded, at most ``max_bytes`` of it, before ``deadline``.

    The cap holds on decoded bytes (a gzip bomb stops at the cap, not in memory) and the
    deadline is checked between pieces, so a server that drips bytes cannot hold us past it.
    """
    too_large = BodyTooLarge(
        f"The response is larger than the {_size(max_bytes)} limit "
        f"(set WEBTAP_MAX_BYTES to a larger number of bytes to allow it)"
    )
    try:
        ready = response.content  # read already (an httpx.Response built from bytes)
    except httpx.ResponseNotRead:
        pass
    else:
        if len(ready) > max_bytes:
            raise too_large
        return ready
    decoders = _decoders(response.headers.get("content-encoding", ""))
    declared = response.headers.get("content-length", "")
    if not decoders and declared.isdigit() and int(declared) > max_bytes:
        raise too_large

    def pieces() -> Iterator[bytes]:
        raw = 0
        for chunk in response.iter_raw(_PIECE):
            raw += len(chunk)
            if raw > max_bytes:
                raise too_large
            yield chunk
            if deadline.expired:
                raise httpx.ReadTimeout("the overall deadline passed while reading the body")

    coding = response.headers.get("content-encoding", "")
    try:
        return b"".join(decode_capped(pieces(), coding, max_bytes, lambda: too_large))
    except httpx.DecodingError as exc:
        raise ParseError(f"Failed to decode the {coding} response body: {exc}") from None


def decode_capped(
    chunks: Iterable[bytes],
    content_encoding: str,
    max_bytes: int,
    too_large: Callable[[], Exception],
) -> Iterator[bytes]:
    """``chunks`` of a body sent with ``content_encoding``, decoded in pieces of at most 64 KiB;
    ``too_large()`` is raised as soon as the decoded bytes pass ``max_bytes``, and
    ``httpx.DecodingError`` when the bytes are not what the encoding says.

    The one decoder for every body webtap reads from outside (pages, search providers, the
    Anthropic API): a 1.6 KB brotli body that expands to 1 GB costs one piece of memory, not
    a gigabyte, before it is refused.
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
        # httpx's own error for it: each caller already says what a bad encoding means to it.
        raise httpx.DecodingError(str(exc)) from None


def capping_hook(max_bytes: int, too_large: Callable[[], Exception]) -> Callable[[Any], None]:
    """An httpx ``response`` event hook that makes the client decode through
    :func:`decode_capped`: for clients whose body another library reads (the Anthropic SDK).

    The hook runs before the body is read; it swaps the response's stream for the capped,
    decoded one and drops ``Content-Encoding`` so that httpx does not decode a second time.
    Works for ``httpx`` and for the ``httpx2`` fork the SDK uses (same public API).
    """

    def hook(response: Any) -> None:
        raw = response.stream
        base = sys.modules[type(response).__module__.split(".")[0]].SyncByteStream
        if not isinstance(raw, base):
            return  # an async stream: not read by webtap
        coding = response.headers.get("content-encoding", "")
        pieces = decode_capped(raw, coding, max_bytes, too_large)
        response.stream = _capped_stream_type(base)(pieces, raw)
        if "content-encoding" in response.headers:
            del response.headers["content-encoding"]

    return hook


@cache
def _capped_stream_type(base: type) -> type:
    class CappedStream(base):  # type: ignore[misc, valid-type]
        def __init__(self, pieces: Iterator[bytes], raw: Any) -> None:
            self._pieces = pieces
            self._raw = raw

        def __iter__(self) -> Iterator[bytes]:
            yield from self._pieces

        def close(self) -> None:
            self._raw.close()

    return CappedStream


def _chain(decoder: Any, stream: Iterator[bytes]) -> Iterator[bytes]:
    for chunk in stream:
        yield from decoder.feed(chunk)


def _brotli_error() -> type[Exception]:
    try:
        import brotli
    except ImportError:
        return zlib.error
    return brotli.error
