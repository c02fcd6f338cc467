"""Domain filtering of search results (decision: Domain filters).

A domain matches itself and its subdomains, case-insensitively: ``example.com`` matches
``www.example.com`` but neither ``fakeexample.com`` nor ``example.com.evil``. Hosts and domains
are compared in their ASCII (IDNA) form, so ``bücher.de`` and ``xn--bcher-kva.de`` are one
domain; ports, userinfo and a trailing dot do not change the host. ``allowed_domains`` applies
first (empty means everything), then ``blocked_domains``; a repeated URL keeps its first place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from webtap.errors import InvalidInput
from webtap.net.url import URLProblem, ascii_host
from webtap.search.results import SearchResult

__all__ = ["filter_results", "host_of", "matches", "normalize_domain", "normalize_domains"]


def host_of(url: str) -> str | None:
    """The URL's host in lower-case ASCII without port, userinfo or trailing dot."""
    # Browsers read "\" as "/" in http(s) URLs: "https://evil.com\@example.com" goes to evil.com.
    try:
        host = urlsplit(url.strip().replace("\\", "/")).hostname
    except ValueError:
        return None
    return _comparable(host) if host else None


def normalize_domain(domain: str) -> str | None:
    """A user's domain ("Example.COM.", "*.example.com", "https://example.com:8443/x") as
    the ASCII host it stands for, or ``None`` when nothing host-like is left."""
    text = domain.strip()
    if "://" in text:
        return host_of(text)
    text = text.split("/", 1)[0].rsplit("@", 1)[-1]
    if text.startswith("["):  # an IPv6 literal, with or without a port
        return host_of(f"http://{text}")
    text = text.split(":", 1)[0]
    text = text.lstrip("*").lstrip(".")
    host = _comparable(text) if text.strip(".") else None
    # "exa mple.com", "bad!", "a..b": no result's host can be that; a typo must not silently
    # filter every result away.
    if host is None or _NOT_IN_HOSTS.intersection(host) or ".." in host:
        return None
    return host


# Whitespace and the ASCII punctuation that no host name (nor IPv6 literal) contains.
_NOT_IN_HOSTS = frozenset(" \t\r\n\f\v!\"#$%&'()*+,;<=>?[]^`{|}~\\")


def normalize_domains(domains: Iterable[str], field: str) -> tuple[str, ...]:
    """Normalize a request's domain list; an entry that is no domain is the caller's mistake."""
    found: list[str] = []
    for index, domain in enumerate(domains):
        normal = normalize_domain(domain) if isinstance(domain, str) else None
        if normal is None:
            raise InvalidInput(
                f"Invalid input: field '{field}[{index}]' is not a domain name "
                f"(got {domain!r}); use a host such as 'example.com'"
            )
        if normal not in found:
            found.append(normal)
    return tuple(found)


def matches(host: str, domain: str) -> bool:
    """``host`` is ``domain`` or one of its subdomains (both already normalized)."""
    return host == domain or host.endswith("." + domain)


def filter_results(
    results: Iterable[SearchResult],
    allowed: Sequence[str] = (),
    blocked: Sequence[str] = (),
) -> list[SearchResult]:
    """Keep results on an allowed domain (all when none is given), drop blocked ones and
    repeated URLs. ``allowed`` and ``blocked`` are normalized domains."""
    kept: list[SearchResult] = []
    seen: set[str] = set()
    for result in results:
        if result.url in seen:
            continue
        host = host_of(result.url)
        if allowed and (host is None or not any(matches(host, d) for d in allowed)):
            continue
        if blocked and host is not None and any(matches(host, d) for d in blocked):
            continue
        seen.add(result.url)
        kept.append(result)
    return kept


def _comparable(host: str) -> str:
    """``host`` as domains compare it: lower case, no trailing dot, in ASCII
    (:func:`webtap.net.url.ascii_host`).
    A name that IDNA 2008 refuses is still compared, in IDNA 2003's form or else as its
    case-folded text: a filter must not fail on a result's odd host."""
    host = host.strip().rstrip(".").lower()
    try:
        return ascii_host(host)
    except URLProblem:
        pass
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host
