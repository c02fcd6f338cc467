"""Proxies from the environment, for search providers' requests (never for the fetch tool:
through a proxy the SSRF guard would see only the proxy's address, never the page's).

``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY`` and ``NO_PROXY`` (either case) are read as
httpx and curl read them. ``urllib.request``'s helpers are imported only when one is set.
"""

from __future__ import annotations

import os
from typing import NamedTuple
from urllib.parse import unquote, urlsplit

from webtap.errors import ConfigError

__all__ = ["Proxy", "proxy_for"]

_VARIABLES = ("https_proxy", "http_proxy", "all_proxy")


class Proxy(NamedTuple):
    host: str
    port: int
    userinfo: str | None  # "user:password", decoded


def proxy_for(scheme: str, host: str, port: int) -> Proxy | None:
    """The proxy a request to ``scheme://host:port`` goes through, or None."""
    if not any(os.environ.get(name) or os.environ.get(name.upper()) for name in _VARIABLES):
        return None
    import urllib.request  # with a proxy variable only: a tool call without one never loads it

    if urllib.request.proxy_bypass_environment(f"{host}:{port}"):  # type: ignore[attr-defined]
        return None
    proxies = urllib.request.getproxies_environment()
    url = proxies.get(scheme) or proxies.get("all")
    return _parse(url) if url else None


def _parse(url: str) -> Proxy:
    if "://" not in url:
        url = f"http://{url}"  # "proxy:3128", as curl reads it
    try:
        parts = urlsplit(url)
        port = parts.port or 80
    except ValueError:
        parts, port = None, 0
    if parts is None or parts.scheme.lower() != "http" or not parts.hostname:
        raise ConfigError(
            "The proxy in HTTPS_PROXY/HTTP_PROXY/ALL_PROXY must be an http:// proxy such as "
            "http://proxy.example:3128 (https:// and socks proxies are not supported); "
            "fix it, or list the provider's host in NO_PROXY"
        )
    userinfo = None
    if parts.username is not None:
        userinfo = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
    return Proxy(parts.hostname, port, userinfo)
