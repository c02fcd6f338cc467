"""Following redirects: every hop checked by the SSRF guard, cookies carried, at most N hops.

:func:`follow` GETs a URL with a :class:`webtap.net.Client` and follows 301, 302, 303, 307 and
308 itself. Each hop's URL passes the guard here, once, before anything is sent to it
(:func:`checked_hop`: an address written in the URL, in any spelling); the client's transport
checks every address a name resolves to when it connects. Cookies a hop sets go back to the
same host on later hops (:class:`webtap.net.cookies.RedirectCookies`). A conditional request
for a cached page asks only the hop whose response gave the validators.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import TYPE_CHECKING
from urllib.parse import urldefrag, urlsplit

from webtap.errors import HTTPError, clip
from webtap.fetch.download import Download
from webtap.fetch.urls import parsed_url, redirect_target, with_fragment
from webtap.guard import AddressRefused

if TYPE_CHECKING:
    from webtap.fetch.page_cache import Conditions
    from webtap.guard import Guard
    from webtap.net import Client, Deadline, Limits, Response, Timeouts
    from webtap.net.cookies import RedirectCookies
    from webtap.net.url import Target

__all__ = ["ACCEPT", "REDIRECT_STATUSES", "checked_hop", "follow", "status_line"]

ACCEPT = (
    "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,"
    "application/json;q=0.8,*/*;q=0.5"
)
REDIRECT_STATUSES = {301, 302, 303, 307, 308}


def follow(
    client: Client,
    url: str,
    guard: Guard,
    deadline: Deadline,
    timeouts: Timeouts,
    limits: Limits,
    conditions: Conditions | None = None,
) -> Download:
    """GET ``url``, following at most ``limits.max_redirects`` redirects, each one checked.

    With ``conditions``, the hop they belong to is a conditional request, and its ``304`` is
    returned as such (with no body). A status of 400 or more is an :class:`HTTPError`.
    """
    from webtap.net import read_body

    hop = url  # this hop's URL as written: the caller's, then each Location made absolute
    visited: list[str] = []
    cookies: RedirectCookies | None = None  # made when a hop sets one (most never do)
    for _ in range(limits.max_redirects + 1):
        target = checked_hop(hop, guard)
        plain = urldefrag(hop).url
        headers = {"Accept": ACCEPT}
        asking = conditions is not None and (
            plain == conditions.final_url if conditions.final_url else not visited
        )
        if asking and conditions is not None:
            headers.update(conditions.headers)
        path = target.target.split("?")[0]
        cookie = cookies and cookies.header(target.host, path, target.scheme == "https")
        if cookie:
            headers["Cookie"] = cookie
        try:
            with client.request(
                "GET",
                hop,
                headers=headers,
                deadline=deadline,
                connect_timeout=timeouts.connect,
                read_timeout=timeouts.read,
            ) as r:
                if r.set_cookies:
                    if cookies is None:
                        from webtap.net.cookies import RedirectCookies

                        cookies = RedirectCookies()
                    cookies.learn(target.host, path, r.set_cookies)
                location = r.headers.get("location")
                if r.status in REDIRECT_STATUSES and location:
                    visited.append(plain)
                    hop = redirect_target(hop, location)
                    continue
                if r.status >= 400:
                    raise HTTPError(status_line(r))
                not_modified = asking and r.status == HTTPStatus.NOT_MODIFIED
                body = b"" if not_modified else read_body(r, limits.max_body, deadline)
        except AddressRefused as exc:  # from the connection layer, which knows no URLs
            raise exc.for_url(hop) from None
        return Download(
            with_fragment(plain, hop, url) if visited else url,
            r.headers.get("content-type", ""),
            body,
            r.headers,
            status=r.status,
            final_url=plain if visited else None,
            final_fragment=urlsplit(hop).fragment if visited else "",
        )
    loop = " (a redirect loop)" if urldefrag(hop).url in visited else ""
    raise HTTPError(
        f"Too many redirects: {clip(url)} was redirected more than {limits.max_redirects} "
        f"times{loop}"
    )


def checked_hop(url: str, guard: Guard) -> Target:
    """``url`` parsed, once the guard has seen its host as written: the one check of a hop's
    URL (its resolved addresses are checked by the transport when it connects).

    The guard looks first: parsing rejects some spellings of addresses that the system
    resolver accepts, and "refused, because it is a loopback address" says more.
    """
    try:
        guard.check_host(urlsplit(url).hostname or "")
    except AddressRefused as exc:
        raise exc.for_url(url) from None
    return parsed_url(url)


def status_line(response: Response) -> str:
    """``"HTTP 404: Not Found"``: the server's own reason phrase, else the standard one."""
    status = response.status
    reason = " ".join("".join(ch for ch in response.reason if ch.isprintable()).split())[:200]
    if not reason:
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            return f"HTTP {status}"
    return f"HTTP {status}: {reason}"
