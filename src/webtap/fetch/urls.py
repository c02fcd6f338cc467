"""Which URLs the fetch tool follows: the one a model gives (:func:`check_url`), each hop ready to
request (:func:`parsed_url`), and where a redirect goes (:func:`redirect_target`,
:func:`with_fragment`). Each refusal is an :class:`~webtap.errors.InvalidURL` that says what is
wrong, for the model that wrote the URL.

How a URL is spelled on the wire (percent-encoding, IDNA host names) is :mod:`webtap.net.url`'s,
for every client: this module decides, that one encodes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from webtap.errors import InvalidURL, clip

if TYPE_CHECKING:
    from webtap.net.url import Target

__all__ = ["check_url", "parsed_url", "redirect_target", "with_fragment"]

_OTHER_SCHEMES = {"javascript", "mailto", "data", "file", "about", "tel", "blob", "urn"}


def check_url(url: str) -> str:
    """``url`` stripped, if it is an http(s) URL with a host; else :class:`InvalidURL`."""
    if not isinstance(url, str):
        raise InvalidURL("Invalid URL: expected a string such as https://example.com/page")
    url = url.strip()
    shown = clip(url)
    if not url:
        raise InvalidURL("Invalid URL: empty; expected an http:// or https:// URL")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError as exc:
        raise InvalidURL(f"Invalid URL {shown!r}: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme and scheme not in ("http", "https") and ("://" in url or scheme in _OTHER_SCHEMES):
        raise InvalidURL(
            f"Invalid URL {shown!r}: the {scheme}: scheme is not supported "
            "(only http and https URLs can be fetched)"
        )
    if "://" not in url or not scheme:
        hint = f" (did you mean https://{shown}?)" if " " not in url and "." in url else ""
        raise InvalidURL(
            f"Invalid URL {shown!r}: expected an absolute http:// or https:// URL "
            f"such as https://example.com/page{hint}"
        )
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in url):
        raise InvalidURL(f"Invalid URL {shown!r}: it contains control characters")
    if not parts.hostname:
        raise InvalidURL(f"Invalid URL {shown!r}: it has no host name")
    if any(ch.isspace() for ch in parts.netloc):
        raise InvalidURL(f"Invalid URL {shown!r}: the host name contains spaces")
    return url


def parsed_url(url: str) -> Target:
    """``url`` ready to request (:func:`webtap.net.url.parse_url`), else :class:`InvalidURL`."""
    # webtap.net: loaded for a request, not for check_url (every fetch, from the cache too).
    from webtap.net.url import URLProblem, parse_url

    try:
        return parse_url(url)
    except URLProblem as exc:
        raise InvalidURL(f"Invalid URL {clip(url)!r}: {exc}") from None


def redirect_target(current: str, location: str) -> str:
    """The absolute URL a ``Location`` header points to, if it is one we may follow."""
    location = location.strip()
    try:
        target = urljoin(current, location)
        scheme = urlsplit(target).scheme.lower()
    except ValueError as exc:
        raise InvalidURL(f"Redirected to an invalid URL {location!r}: {exc}") from None
    if scheme not in ("http", "https"):
        raise InvalidURL(
            f"Redirected to {location!r}, which is not an http or https URL; not followed"
        )
    return target


def with_fragment(final: str, hop: str, original: str) -> str:
    """The URL to report: a redirect keeps the #fragment asked for unless it names its own."""
    fragment = urlsplit(hop).fragment or urlsplit(original).fragment
    return f"{final}#{fragment}" if fragment else final
