"""One HTTP/1.1 connection on ``http.client``, with webtap's connect and strict framing.

:class:`Connection` opens its socket with :func:`~webtap.net.connect.open_socket` (the name
resolved within the deadline, every address checked by the SSRF guard), tunnels through a proxy
if there is one, then starts TLS with the URL's host as ``server_hostname``. Its responses are
:class:`StrictResponse`: ``http.client``'s reader, with the framing checks of
:mod:`webtap.net.framing` where it would guess.
"""

from __future__ import annotations

import http.client
import socket
from typing import TYPE_CHECKING

from webtap.net.connect import open_socket
from webtap.net.deadline import Deadline
from webtap.net.errors import ConnectFailed, ConnectTimeout, ReadTimeout
from webtap.net.framing import chunk_size, content_length, has_body
from webtap.net.headers import basic_auth

if TYPE_CHECKING:
    from webtap.guard import Guard
    from webtap.net.proxy import Proxy
    from webtap.net.url import Target

__all__ = ["Connection", "StrictResponse"]


class StrictResponse(http.client.HTTPResponse):
    """``http.client``'s response, refusing framing it would otherwise guess at.

    ``declared_length`` is the checked ``Content-Length`` (None: chunked, not said, or no body).
    """

    declared_length: int | None = None

    def begin(self) -> None:
        if self.headers is not None:  # already begun
            return
        super().begin()
        if not has_body(self.status, self._method or ""):
            return
        length = content_length(
            self.msg.get_all("content-length") or [], self.msg.get_all("transfer-encoding") or []
        )
        if length is None and self.msg.get("transfer-encoding") is not None:
            # Exactly chunked, however it was spelled (http.client compares the raw value).
            self.chunked, self.chunk_left, self.length = True, None, None
            return
        self.declared_length = self.length = length  # a repeated identical value, read too

    def _read_next_chunk_size(self) -> int:
        # http.client's reader, with the size read strictly (its own accepts what int(x, 16)
        # accepts: "0x10", "+5", "-5", "1_0"). Present in CPython 3.5 through 3.13.
        return chunk_size(self.fp.readline(http.client._MAXLINE + 1))  # type: ignore[attr-defined]


class Connection(http.client.HTTPConnection):
    """A kept-alive connection to one origin (or through one proxy), reused by the pool."""

    response_class = StrictResponse

    def __init__(
        self, key: tuple[object, ...], origin: Target, proxy: Proxy | None, guard: Guard | None
    ) -> None:
        host, port = (proxy.host, proxy.port) if proxy else (origin.host, origin.port)
        super().__init__(host, port)
        self.key = key
        self.tls = origin.scheme == "https"
        self.tls_host = origin.host
        self.guard = guard
        self.deadline = Deadline(30.0)  # set before each request
        self.connect_timeout = 10.0
        self.idle_since = 0.0
        if proxy and self.tls:
            auth = {"Proxy-Authorization": basic_auth(proxy.userinfo)} if proxy.userinfo else None
            self.set_tunnel(origin.host, origin.port, auth)

    def connect(self) -> None:
        sock = open_socket(self.host, self.port, self.deadline, self.connect_timeout, self.guard)
        try:
            if self._tunnel_host:  # type: ignore[attr-defined]
                self.sock = sock
                sock.settimeout(self.deadline.clamp(self.connect_timeout, ConnectTimeout))
                try:
                    # CONNECT, as http.client's own connect() does after set_tunnel.
                    self._tunnel()  # type: ignore[attr-defined]
                except TimeoutError:
                    raise ConnectTimeout("the proxy did not answer CONNECT in time") from None
                except (OSError, http.client.HTTPException) as exc:
                    raise ConnectFailed(f"the proxy refused the tunnel ({exc})") from None
            if self.tls:
                from webtap.net.tls import start_tls

                sock = start_tls(sock, self.tls_host, self.deadline, self.connect_timeout)
        except BaseException:
            sock.close()
            self.sock = None
            raise
        self.sock = sock

    def bound(self, timeout: float, sock: socket.socket | None = None) -> None:
        """The next operation on ``sock`` (default: the connection's) may take ``timeout``, and
        no more than the deadline. A response that ends the connection keeps its socket after
        http.client has let go of it (``self.sock`` is None then): pass that one."""
        sock = sock or self.sock
        if sock is not None:
            sock.settimeout(self.deadline.clamp(timeout, ReadTimeout))
