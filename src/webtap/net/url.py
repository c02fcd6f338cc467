"""A URL as a request needs it: scheme, ASCII host, port, the request target, credentials.

Paths and queries are sent percent-encoded as browsers send them (a space as ``%20``, other
characters as their UTF-8 bytes; ``%xx`` already there is kept). Host names outside ASCII are
IDNA-encoded and ``xn--`` labels must be valid: both with the ``idna`` package, imported only
for such names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple
from urllib.parse import quote, unquote, urlencode, urlsplit

__all__ = ["MAX_URL_LENGTH", "Target", "URLProblem", "ascii_host", "parse_url", "with_params"]

MAX_URL_LENGTH = 65_536  # what httpx allowed per component; longer is not a URL anyone means
_PATH_SAFE = "/%:@!$&'()*+,;=~"
_QUERY_SAFE = _PATH_SAFE + "?"


class URLProblem(ValueError):
    """The URL cannot be requested; the message says why (without quoting the URL)."""


class Target(NamedTuple):
    scheme: str  # "http" or "https"
    host: str  # ASCII, lower case, no brackets around an IPv6 address
    port: int
    target: str  # what goes on the request line: path and query, percent-encoded
    userinfo: str | None  # "user:password" from the URL, decoded, or None

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"

    @property
    def origin(self) -> tuple[str, str, int]:
        return (self.scheme, self.host, self.port)


def parse_url(url: str) -> Target:
    """``url`` (http or https, with a host) ready to request; else :class:`URLProblem`."""
    if len(url) > MAX_URL_LENGTH:
        raise URLProblem(f"the URL is longer than {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise URLProblem(str(exc)) from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise URLProblem("only http and https URLs can be requested")
    host = ascii_host(parts.hostname or "")
    if not host:
        raise URLProblem("it has no host name")
    path = quote(parts.path, safe=_PATH_SAFE) or "/"
    query = quote(parts.query, safe=_QUERY_SAFE)
    userinfo = None
    if parts.username is not None or parts.password is not None:
        userinfo = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
    return Target(
        scheme,
        host,
        port if port is not None else (443 if scheme == "https" else 80),
        f"{path}?{query}" if query or url.split("#")[0].endswith("?") else path,
        userinfo,
    )


def with_params(url: str, params: Mapping[str, Any]) -> str:
    """``url`` with ``params`` added to its query (as httpx's ``params=`` did)."""
    if not params:
        return url
    base, hash_, fragment = url.partition("#")
    joiner = "&" if "?" in base and not base.endswith(("?", "&")) else ("" if "?" in base else "?")
    encoded = urlencode({k: v for k, v in params.items() if v is not None}, doseq=True)
    return f"{base}{joiner}{encoded}{hash_}{fragment}"


def ascii_host(host: str) -> str:
    """``host`` as DNS and the ``Host`` header need it: IDNA-encoded when it is not ASCII; an
    ``xn--`` label must decode. Else :class:`URLProblem`."""
    if host.isascii() and "xn--" not in host:
        return host
    import idna  # a host not in ASCII only: most calls never load its tables

    try:
        if host.isascii():  # xn-- labels: they must decode, as a browser would show them
            idna.decode(host)
            return host
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as exc:
        raise URLProblem(f"the host name is not a valid IDN ({exc})") from None
