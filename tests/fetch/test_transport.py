"""webtap's HTTP client: its transport on http.client (the pool of kept-alive connections, its
errors, the CA certificates it trusts) on real sockets, and what the client hands a transport,
on a mock one."""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from webtap.errors import NetworkError
from webtap.fetch import fetch
from webtap.guard import Guard
from webtap.net import (
    POOL_LIMITS,
    USER_AGENT,
    Client,
    ConnectFailed,
    ConnectTimeout,
    Deadline,
    DecodingError,
    HTTPTransport,
    MockTransport,
    PoolLimits,
    ReadTimeout,
    Request,
    Response,
    Timeouts,
    translate_errors,
)
from webtap.net.tls import ssl_context as _ssl_context

LOCAL_ONLY = Guard(allowed_networks=(ipaddress.ip_network("127.0.0.1/32"),))
FAST = Timeouts(connect=2, read=5, total=5)


class KeepAlive(ThreadingHTTPServer):
    """Answers ``ok`` over HTTP/1.1 keep-alive and counts the connections it was given."""

    daemon_threads = True

    def __init__(self) -> None:
        self.connections = 0
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                server.connections += 1

            def do_GET(self) -> None:
                server.requests += 1
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"


@pytest.fixture
def keep_alive() -> Iterator[KeepAlive]:
    server = KeepAlive()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def get(client: Client, url: str) -> bytes:
    with client.request("GET", url, deadline=Deadline(5)) as response:
        return b"".join(response.iter_raw())


def test_pool_limits_are_the_documented_ones() -> None:
    assert PoolLimits(max_idle_per_origin=8, max_idle=32, keepalive_expiry=5.0) == POOL_LIMITS
    assert Client().transport.limits == POOL_LIMITS


def test_requests_to_one_origin_reuse_one_connection(keep_alive) -> None:
    with Client() as client:
        assert [get(client, keep_alive.url) for _ in range(20)] == [b"ok"] * 20
        assert client.transport.idle_count() == 1
    assert (keep_alive.requests, keep_alive.connections) == (20, 1)


def test_idle_connections_are_kept_up_to_the_limit(keep_alive) -> None:
    """Requests at once each get a connection; afterwards only the limit's worth stays idle."""
    limits = PoolLimits(max_idle_per_origin=3, max_idle=10, keepalive_expiry=5.0)
    started = threading.Barrier(6)
    responses = []
    with Client(limits=limits) as client:

        def one() -> None:
            response = client.request("GET", keep_alive.url, deadline=Deadline(5))
            responses.append(response)
            started.wait(5)  # all six hold a connection at once

        threads = [threading.Thread(target=one) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for response in responses:
            assert b"".join(response.iter_raw()) == b"ok"
        assert keep_alive.connections == 6
        assert client.transport.idle_count() == 3


def test_an_expired_idle_connection_is_not_reused(keep_alive) -> None:
    with Client(limits=PoolLimits(keepalive_expiry=0.0)) as client:
        get(client, keep_alive.url)
        get(client, keep_alive.url)
    assert keep_alive.connections == 2


def test_a_connection_the_server_closed_is_replaced(keep_alive) -> None:
    with Client() as client:
        get(client, keep_alive.url)
        for idle in client.transport._idle.values():  # the server's side of it goes away
            for conn in idle:
                conn.sock.shutdown(socket.SHUT_RDWR)
        assert get(client, keep_alive.url) == b"ok"
    assert keep_alive.connections == 2


@pytest.mark.parametrize(
    ("raised", "said"),
    [
        (ConnectTimeout("x"), "connection timed out"),
        (ReadTimeout("x"), "timed out waiting for the server"),
        (ConnectFailed("connection refused"), "connection refused"),
        (DecodingError("bad gzip"), "the response could not be decompressed (bad gzip)"),
        (http.client.IncompleteRead(b"ab", 3), "connection closed unexpectedly (the body ended"),
        (http.client.RemoteDisconnected("x"), "connection closed unexpectedly (the server closed"),
        (ConnectionResetError(104, "reset"), "connection closed unexpectedly (connection reset"),
        (http.client.BadStatusLine("HTTX"), "the server's answer is not valid HTTP (BadStatusLine"),
        (ssl.SSLError(1, "bad record mac"), "TLS error:"),
        (TimeoutError(), "timed out waiting for the server"),
        (OSError(101, "Network is unreachable"), "network error (Network is unreachable)"),
    ],
)
def test_wire_errors_become_one_network_error(raised, said) -> None:
    with pytest.raises(NetworkError) as caught, translate_errors("Doing it"):
        raise raised
    assert caught.value.message.startswith(f"Doing it: {said}")


def test_a_dropped_connection_mid_body_is_named(site) -> None:
    """A body cut short of its Content-Length reaches webtap as its NetworkError."""
    url = site.raw("/short", b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
    with pytest.raises(NetworkError, match="connection closed unexpectedly"):
        fetch(url, guard=LOCAL_ONLY, timeouts=FAST)


# --- CA certificates -------------------------------------------------------------------------


@pytest.fixture
def fresh_context(monkeypatch):
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
        monkeypatch.delenv(name, raising=False)
    _ssl_context.cache_clear()
    yield
    _ssl_context.cache_clear()


@pytest.fixture
def hashed_folder(certificate, tmp_path) -> Path:
    """A CA folder as c_rehash leaves it: the test certificate under its subject hash."""
    digest = subprocess.run(
        ["openssl", "x509", "-hash", "-noout", "-in", certificate[0]],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    folder = tmp_path / "certs"
    folder.mkdir()
    (folder / f"{digest}.0").symlink_to(certificate[0])
    (folder / "README").write_text("not a certificate")
    return folder


@pytest.fixture
def public_test(monkeypatch):
    """``public.test`` resolves to 127.0.0.1, as the test certificate's name."""
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host == "public.test":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def _system_paths(monkeypatch, capath: str) -> None:
    paths = ssl.get_default_verify_paths()
    fake = paths._replace(capath=capath, openssl_capath=capath)
    monkeypatch.setattr(ssl, "get_default_verify_paths", lambda: fake)


def test_a_hashed_system_folder_is_used_and_read_only_as_needed(
    fresh_context, hashed_folder, tls_site, public_test, monkeypatch
) -> None:
    _system_paths(monkeypatch, str(hashed_folder))
    context = _ssl_context()
    assert context.cert_store_stats()["x509"] == 0, "nothing is read before a handshake"
    url = tls_site.route("/p", "over tls", headers={"Content-Type": "text/plain"})
    page = fetch(url.replace("127.0.0.1", "public.test"), guard=LOCAL_ONLY, timeouts=FAST)
    assert page.markdown == "over tls"
    assert context.cert_store_stats()["x509"] == 1, "only the certificate the handshake needed"


def test_ssl_cert_dir_is_respected(
    fresh_context, hashed_folder, tls_site, public_test, monkeypatch
) -> None:
    _system_paths(monkeypatch, "/nonexistent")
    monkeypatch.setenv("SSL_CERT_DIR", str(hashed_folder))
    url = tls_site.route("/d", "from the dir", headers={"Content-Type": "text/plain"})
    with Client() as client:
        response = client.request(
            "GET", url.replace("127.0.0.1", "public.test"), deadline=Deadline(5)
        )
        response.close()
    assert response.status == 200


def test_without_a_hashed_folder_certifi_is_the_fallback(
    fresh_context, tmp_path, monkeypatch
) -> None:
    (tmp_path / "cert.pem").write_text("not hashed")
    _system_paths(monkeypatch, str(tmp_path))
    import certifi

    bundle = ssl.create_default_context(cafile=certifi.where()).cert_store_stats()["x509_ca"]
    context = _ssl_context()
    assert context.cert_store_stats()["x509_ca"] == 0, "loaded at the first handshake"
    context.load_certificates()
    assert context.cert_store_stats()["x509_ca"] == bundle > 100


def test_ssl_cert_file_beats_the_system_folder(
    fresh_context, certificate, hashed_folder, monkeypatch
) -> None:
    _system_paths(monkeypatch, str(hashed_folder))
    monkeypatch.setenv("SSL_CERT_FILE", certificate[0])
    context = _ssl_context()
    context.load_certificates()
    assert context.cert_store_stats()["x509"] == 1, "the file, read whole"
    assert context.get_ca_certs()[0]["subject"] == ((("commonName", "public.test"),),)


def test_clients_share_one_context_loaded_once(
    fresh_context, hashed_folder, tls_site, public_test, monkeypatch
) -> None:
    _system_paths(monkeypatch, str(hashed_folder))
    loads = []
    real = ssl.SSLContext.load_verify_locations
    monkeypatch.setattr(
        ssl.SSLContext,
        "load_verify_locations",
        lambda self, *a, **kw: loads.append(kw) or real(self, *a, **kw),
    )
    url = tls_site.route("/once", "x", headers={"Content-Type": "text/plain"})
    url = url.replace("127.0.0.1", "public.test")
    with Client() as first, Client() as second:
        assert loads == [], "no handshake yet: no certificate read"
        assert get(first, url) == get(second, url) == b"x"
    assert fetch(url, guard=LOCAL_ONLY, timeouts=FAST).markdown == "x"
    assert loads == [{"capath": str(hashed_folder)}], "the CA certificates are loaded once"


def test_context_has_the_default_contexts_settings(fresh_context) -> None:
    context, default = _ssl_context(), ssl.create_default_context()
    assert context.verify_mode == default.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname is default.check_hostname is True
    assert context.verify_flags == default.verify_flags
    assert context.options == default.options
    assert context.minimum_version == default.minimum_version


# --- capping_hook: the capped decoder on another library's httpx client ----------------------


def _hooked_client(body: bytes, max_bytes: int):
    import httpx

    from webtap.net import capping_hook

    def handler(request: httpx.Request) -> httpx.Response:
        # An iterator, so that httpx streams the body through the hook's decoder.
        return httpx.Response(200, headers={"Content-Encoding": "gzip"}, content=iter([body]))

    hook = capping_hook(max_bytes, lambda: ValueError("too large for the test"))
    return httpx.Client(transport=httpx.MockTransport(handler), event_hooks={"response": [hook]})


def test_capping_hook_decodes_once_within_the_cap() -> None:
    import gzip

    with _hooked_client(gzip.compress(b"x" * 100_000), 1 << 20) as client:
        response = client.get("http://agent.invalid/")
    assert response.content == b"x" * 100_000
    assert "content-encoding" not in response.headers  # httpx does not decode a second time


def test_capping_hook_stops_a_bomb_at_the_cap() -> None:
    import gzip

    with (
        _hooked_client(gzip.compress(b"\0" * (50 << 20)), 1 << 20) as client,
        pytest.raises(ValueError, match="too large for the test"),
    ):
        client.get("http://agent.invalid/")


def test_capping_hook_raises_the_librarys_own_decoding_error() -> None:
    import httpx

    with (
        _hooked_client(b"\x1f\x8b\x08\x00not gzip at all", 1 << 20) as client,
        pytest.raises(httpx.DecodingError),
    ):
        client.get("http://agent.invalid/")


# --- the transport seam: what the client hands its transport ----------------------------------


def _recorded(url: str, **kwargs) -> Request:
    transport = MockTransport(lambda request: Response(204))
    with Client(transport=transport, **kwargs) as client:
        client.request("GET", url, deadline=Deadline(5), headers={"Accept": "text/plain"})
    (request,) = transport.requests
    return request


def test_the_client_hands_its_transport_a_complete_request() -> None:
    request = _recorded("http://us%65r:p%40ss@B\u00fccher.example:8080/a b?q=1#frag")
    assert (request.method, request.target.host, request.target.port) == (
        "GET",
        "xn--bcher-kva.example",
        8080,
    )
    assert request.target.target == "/a%20b?q=1"
    assert request.headers == {
        "User-Agent": USER_AGENT,
        "Host": "xn--bcher-kva.example:8080",
        "Accept": "text/plain",
        "Accept-Encoding": "identity",
        "Authorization": "Basic dXNlcjpwQHNz",  # user:p@ss
    }


def test_a_header_with_a_line_break_never_reaches_the_transport() -> None:
    transport = MockTransport(lambda request: Response(200))
    with (
        Client(transport=transport, headers={"X-Key": "a\r\nInjected: 1"}) as client,
        pytest.raises(ValueError, match="X-Key header's value contains a line break"),
    ):
        client.request("GET", "http://example.test/", deadline=Deadline(5))
    assert transport.requests == []


def test_closing_the_client_closes_its_transport() -> None:
    closed = []
    transport = MockTransport(lambda request: Response(200))
    transport.close = lambda: closed.append(True)  # type: ignore[attr-defined]
    Client(transport=transport).close()
    assert closed == [True]


def test_a_response_joins_repeated_fields_and_keeps_each_cookie() -> None:
    response = Response(
        200, [("Set-Cookie", "a=1"), ("Vary", "Accept"), ("set-cookie", "b=2"), ("vary", "Cookie")]
    )
    assert response.headers == {"set-cookie": "a=1, b=2", "vary": "Accept, Cookie"}
    assert response.set_cookies == ["a=1", "b=2"]


def test_the_default_transport_keeps_the_guard_and_never_a_proxy_with_it() -> None:
    guard = Guard()
    transport = Client(guard=guard, proxies=True).transport
    assert isinstance(transport, HTTPTransport)
    assert transport.guard is guard and transport.proxies is False
