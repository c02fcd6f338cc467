"""The guarded transport on httpx's and httpcore's public API, and the CA certificates it trusts."""

from __future__ import annotations

import ipaddress
import socket
import ssl
import subprocess
from pathlib import Path

import httpcore
import httpx
import pytest

from webtap.fetch import fetch
from webtap.guard import Guard
from webtap.net import (
    POOL_LIMITS,
    Deadline,
    GuardedTransport,
    Timeouts,
    _httpcore_errors,
    _ssl_context,
    guarded_client,
    make_client,
)

LOCAL_ONLY = Guard(allowed_networks=(ipaddress.ip_network("127.0.0.1/32"),))
FAST = Timeouts(connect=2, read=5, total=5)


def test_pool_limits_are_httpxs_documented_defaults() -> None:
    documented = httpx.Limits(max_connections=100, max_keepalive_connections=20, keepalive_expiry=5)
    assert documented == POOL_LIMITS
    assert GuardedTransport(Guard(), Deadline(5)).limits == POOL_LIMITS
    # httpx's own clients use the same: a guarded client is no different but for the guard.
    from httpx._config import DEFAULT_LIMITS

    assert POOL_LIMITS == DEFAULT_LIMITS


def test_guarded_client_uses_the_guarded_transport() -> None:
    with guarded_client(Guard(), Deadline(5), FAST) as client:
        transport = client._transport  # what httpx.Client(transport=...) was given
        assert isinstance(transport, GuardedTransport)


@pytest.mark.parametrize(
    ("raised", "expected"),
    [
        (httpcore.ConnectTimeout, httpx.ConnectTimeout),
        (httpcore.ReadTimeout, httpx.ReadTimeout),
        (httpcore.WriteTimeout, httpx.WriteTimeout),
        (httpcore.PoolTimeout, httpx.PoolTimeout),
        (httpcore.ConnectError, httpx.ConnectError),
        (httpcore.ReadError, httpx.ReadError),
        (httpcore.WriteError, httpx.WriteError),
        (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
        (httpcore.LocalProtocolError, httpx.LocalProtocolError),
        (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
        (httpcore.ProxyError, httpx.ProxyError),
    ],
)
def test_httpcore_errors_become_the_httpx_error_of_the_same_kind(raised, expected) -> None:
    with pytest.raises(expected, match=r"^what happened$") as caught, _httpcore_errors():
        raise raised("what happened")
    assert type(caught.value) is expected


def test_a_dropped_connection_mid_body_is_named(free_port) -> None:
    """httpcore's error while the body streams reaches webtap as its NetworkError."""
    from webtap.errors import NetworkError

    server = socket.create_server(("127.0.0.1", free_port))
    try:

        def answer() -> None:
            conn, _ = server.accept()
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
            conn.close()

        import threading

        threading.Thread(target=answer, daemon=True).start()
        with pytest.raises(NetworkError, match="connection closed unexpectedly"):
            fetch(f"http://127.0.0.1:{free_port}/", guard=LOCAL_ONLY, timeouts=FAST)
    finally:
        server.close()


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
    with make_client() as client:
        response = client.get(url.replace("127.0.0.1", "public.test"))
    assert response.status_code == 200


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
    with make_client() as first, make_client() as second:
        assert loads == [], "no handshake yet: no certificate read"
        assert first.get(url).status_code == second.get(url).status_code == 200
    assert fetch(url, guard=LOCAL_ONLY, timeouts=FAST).markdown == "x"
    assert loads == [{"capath": str(hashed_folder)}], "the CA certificates are loaded once"


def test_context_has_the_default_contexts_settings(fresh_context) -> None:
    context, default = _ssl_context(), ssl.create_default_context()
    assert context.verify_mode == default.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname is default.check_hostname is True
    assert context.verify_flags == default.verify_flags
    assert context.options == default.options
    assert context.minimum_version == default.minimum_version
