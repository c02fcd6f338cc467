"""Cookies set during one redirect chain, sent on its later hops (a login or consent redirect
often sets one and expects it back on the next URL).

Host-only, whatever ``Domain`` says: a cookie goes back only to the exact host that set it,
never to another host of the chain; ``Path`` and ``Secure`` are honoured, and a cookie that
expires (``Max-Age=0``, an ``Expires`` in the past) is dropped. Kept for one fetch only.
"""

from __future__ import annotations

import time
from email.utils import mktime_tz, parsedate_tz
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from http.cookies import SimpleCookie

__all__ = ["RedirectCookies"]


class RedirectCookies:
    __slots__ = ("_jar",)

    def __init__(self) -> None:
        # host -> cookie name -> (value, path, secure)
        self._jar: dict[str, dict[str, tuple[str, str, bool]]] = {}

    def learn(self, host: str, path: str, set_cookies: list[str]) -> None:
        """Remember the ``Set-Cookie`` header values a response from ``host`` carried."""
        if not set_cookies:
            return
        # Lazy: http.cookies costs a cold call about a millisecond (its patterns), and only a
        # response that sets a cookie needs it.
        from http.cookies import CookieError, SimpleCookie

        cookies = self._jar.setdefault(host, {})
        for header in set_cookies:
            parsed: SimpleCookie = SimpleCookie()
            try:
                parsed.load(header)
            except CookieError:
                continue  # one bad cookie: the others still count
            for name, morsel in parsed.items():
                if _expired(morsel["max-age"], morsel["expires"]):
                    cookies.pop(name, None)
                    continue
                default_path = path.rsplit("/", 1)[0] or "/"
                cookie_path = morsel["path"] if morsel["path"].startswith("/") else default_path
                cookies[name] = (morsel.value, cookie_path, bool(morsel["secure"]))

    def header(self, host: str, path: str, https: bool) -> str | None:
        """The ``Cookie`` header for a request to ``host`` and ``path``, if any cookie fits."""
        pairs = [
            f"{name}={value}"
            for name, (value, cookie_path, secure) in self._jar.get(host, {}).items()
            if _path_matches(path, cookie_path) and (https or not secure)
        ]
        return "; ".join(pairs) or None


def _path_matches(path: str, cookie_path: str) -> bool:
    if path == cookie_path or cookie_path == "/":
        return True
    return path.startswith(cookie_path) and (
        cookie_path.endswith("/") or path[len(cookie_path)] == "/"
    )


def _expired(max_age: str, expires: str) -> bool:
    if max_age.strip():
        try:
            return int(max_age) <= 0
        except ValueError:
            return False
    if expires.strip():
        parsed = parsedate_tz(expires)
        return parsed is not None and mktime_tz(parsed) <= time.time()
    return False
