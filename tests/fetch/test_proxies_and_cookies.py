"""Proxies (search providers' requests honour them, the fetch tool never does), and header bytes
as the wire carries them. Cookies across a redirect chain are logic: test_redirects.py."""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterator

import pytest

from webtap.fetch import fetch
from webtap.guard import Guard
from webtap.net import Client, Deadline
from webtap.net.tls import ssl_context

LOCAL = Guard(
    allowed_networks=(ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("::1/128"))
)


class FakeProxy:
    """An HTTP proxy on 127.0.0.1: ``CONNECT`` tunnels to the local port asked for; a request
    with a whole URL is answered ``proxied`` itself. Records each request line."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.lines: list[str] = []
        self.headers: list[str] = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self.handle, args=(conn,), daemon=True).start()

    def handle(self, conn: socket.socket) -> None:
        head = b""
        while b"\r\n\r\n" not in head:
            data = conn.recv(4096)
            if not data:
                return
            head += data
        lines = head.decode("latin-1").split("\r\n")
        self.lines.append(lines[0])
        self.headers.extend(line.lower() for line in lines[1:] if line)
        method, target, _ = lines[0].split(" ")
        if method != "CONNECT":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 7\r\nConnection: close\r\n\r\n")
            conn.sendall(b"proxied")
            conn.close()
            return
        upstream = socket.create_connection(("127.0.0.1", int(target.rsplit(":", 1)[1])))
        conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        threading.Thread(target=pipe, args=(upstream, conn), daemon=True).start()
        pipe(conn, upstream)

    def close(self) -> None:
        self.server.close()


def pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        sink.close()


@pytest.fixture
def proxy(monkeypatch) -> Iterator[FakeProxy]:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    server = FakeProxy()
    yield server
    server.close()


def body(client: Client, url: str) -> bytes:
    with client.request("GET", url, deadline=Deadline(5)) as response:
        return b"".join(response.iter_raw())


def test_http_through_the_proxy_sends_the_whole_url(proxy, monkeypatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", f"http://user:pa%20ss@127.0.0.1:{proxy.port}")
    with Client(proxies=True) as client:
        assert body(client, "http://provider.invalid/search?q=1") == b"proxied"
    assert proxy.lines == ["GET http://provider.invalid/search?q=1 HTTP/1.1"]
    assert "proxy-authorization: basic dxnlcjpwysbzcw==" in proxy.headers  # user:pa ss


def test_https_through_the_proxy_is_a_tunnel_with_tls_to_the_host(
    proxy, tls_site, certificate, monkeypatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", certificate[0])
    monkeypatch.setenv("HTTPS_PROXY", f"127.0.0.1:{proxy.port}")  # no scheme, as curl allows
    ssl_context.cache_clear()
    try:
        url = tls_site.route("/t", "tunnelled", headers={"Content-Type": "text/plain"})
        # public.test is never resolved here: the proxy is asked to reach it.
        with Client(proxies=True) as client:
            assert body(client, url.replace("127.0.0.1", "public.test")) == b"tunnelled"
    finally:
        ssl_context.cache_clear()
    assert proxy.lines == [f"CONNECT public.test:{tls_site.port} HTTP/1.0"]


def test_no_proxy_and_the_fetch_tool_go_direct(proxy, site, monkeypatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.port}")
    url = site.route("/direct", "direct", headers={"Content-Type": "text/plain"})
    assert fetch(url, guard=LOCAL, cache=False).markdown == "direct"  # never a proxy
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    with Client(proxies=True) as client:
        assert body(client, url) == b"direct"
    assert proxy.lines == []


def test_an_unusable_proxy_setting_is_a_config_error(monkeypatch) -> None:
    from webtap.errors import ConfigError

    monkeypatch.setenv("HTTPS_PROXY", "socks5://127.0.0.1:1080")
    with Client(proxies=True) as client, pytest.raises(ConfigError, match="http:// proxy"):
        client.request("GET", "https://provider.invalid/", deadline=Deadline(5))


# --- header bytes -------------------------------------------------------------------------------


def test_a_location_in_raw_utf8_is_followed_as_utf8(site) -> None:
    """Browsers read raw UTF-8 in a Location as UTF-8 (http.client gives Latin-1)."""
    raw = "/caf\u00e9".encode().decode("latin-1")  # the UTF-8 bytes, as send_header writes them
    site.route("/go", status=302, headers={"Location": raw})
    site.route("/caf%C3%A9", "arrived", headers={"Content-Type": "text/plain"})
    page = fetch(site.url("/go"), guard=LOCAL, cache=False)
    assert page.markdown == "arrived"
    assert site.paths() == ["/go", "/caf%C3%A9"]
