"""webtap's HTTP client: requests made complete, then carried by a transport.

One :class:`Client` per purpose: the fetch tool makes one per fetch with the SSRF guard and
no proxy; search providers share one per process (proxies from the environment honoured).
The client makes each request whole (webtap's User-Agent, ``Host``, credentials from the URL,
every header checked) and hands it to its transport (:mod:`webtap.net.transport`): by default
an :class:`~webtap.net.http_transport.HTTPTransport`, or one given as ``transport=`` (a
:class:`~webtap.net.transport.MockTransport` in tests). Each request carries its
:class:`~webtap.net.deadline.Deadline`, which bounds DNS, connect, TLS and every read;
``connect``/``read`` timeouts bound each step within it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from webtap import __version__
from webtap.net.connection import Connection as _Connection  # noqa: F401 - tests patch it here
from webtap.net.http_transport import POOL_LIMITS, HTTPTransport, PoolLimits
from webtap.net.transport import Request, Response, Transport, basic_auth, check_headers
from webtap.net.url import parse_url

if TYPE_CHECKING:
    from webtap.guard import Guard
    from webtap.net.deadline import Deadline

__all__ = ["POOL_LIMITS", "USER_AGENT", "Client", "PoolLimits", "Response"]

USER_AGENT = f"webtap/{__version__} (+https://pypi.org/project/webtap/)"


class Client:
    """Requests with webtap's User-Agent, carried by ``transport`` (thread-safe).

    Without a ``transport``, an :class:`HTTPTransport` with these settings: ``guard``, connect
    only to addresses the SSRF guard allows; ``proxies``, honour the proxy variables of the
    environment (never together with a guard); ``limits``, its pool of idle connections.
    """

    def __init__(
        self,
        *,
        guard: Guard | None = None,
        proxies: bool = False,
        headers: Mapping[str, str] | None = None,
        limits: PoolLimits = POOL_LIMITS,
        transport: Transport | None = None,
    ) -> None:
        self.guard = guard
        self.headers = {"User-Agent": USER_AGENT, **(headers or {})}
        self.transport = transport or HTTPTransport(guard=guard, proxies=proxies, limits=limits)
        self.closed = False

    def request(
        self,
        method: str,
        url: str,
        *,
        deadline: Deadline,
        headers: Mapping[str, str] | None = None,
        connect_timeout: float = 10.0,
        read_timeout: float = 20.0,
    ) -> Response:
        """Send ``method url`` and read the status and headers; the body is the caller's to
        read (``iter_raw``) or to leave (``close``)."""
        target = parse_url(url)
        sent = {**self.headers, "Host": target.host_header, **(headers or {})}
        sent.setdefault("Accept-Encoding", "identity")
        if target.userinfo and "Authorization" not in sent:
            sent["Authorization"] = basic_auth(target.userinfo)
        check_headers(sent)
        request = Request(method, url, target, sent, deadline, connect_timeout, read_timeout)
        return self.transport.handle_request(request)

    def close(self) -> None:
        self.closed = True
        close = getattr(self.transport, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
