"""SearXNG: ``GET {url}/search?q=…&format=json&pageno=…`` on an instance the user runs.

No key and no quota: the instance's address comes from ``SEARXNG_URL`` or
``web_search.searxng.url`` in the credentials file. The address is the user's own choice, so a
private or loopback one is normal; the SSRF guard protects ``web_fetch`` from URLs a model
picks, not configured providers (decision: Rate budgets). ``offset`` is a page index from 0
(``pageno`` is 1-based). One allowed domain is also asked of the engines as ``site:``; every result
is filtered by the domain rules (decision: Domain filters).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from webtap.errors import APIError, ConfigError, RateLimit, WebtapError
from webtap.providers import SEARXNG
from webtap.search.pipeline import Engine, Request, Search, run
from webtap.search.request import ProviderReply
from webtap.search.results import SearchResult, clean_text

if TYPE_CHECKING:
    from webtap.net import Client, Deadline
    from webtap.providers import Found

__all__ = ["JSON_DISABLED", "Searxng", "searxng_search"]

WHAT = SEARXNG.title
JSON_DISABLED = (
    "answered 403 Forbidden to format=json: JSON output is disabled on this instance. Enable "
    "it in the instance's settings.yml by adding json to search.formats "
    "(search:\n  formats:\n    - html\n    - json), then restart SearXNG."
)


def searxng_search(
    query: str,
    count: int = 10,
    offset: int = 0,
    allowed_domains: Sequence[str] = (),
    blocked_domains: Sequence[str] = (),
    *,
    url: str | None = None,
    client: Client | None = None,
    deadline: Deadline | None = None,
) -> list[SearchResult]:
    """Search a SearXNG instance; ``url=None`` discovers it (environment, then the file).

    Raises :class:`~webtap.errors.WebtapError` subclasses.
    """
    return run(
        Searxng(SEARXNG),
        query,
        count,
        offset,
        allowed_domains,
        blocked_domains,
        given={"url": url},
        client=client,
        deadline=deadline,
    )


class Searxng(Engine):
    snippet_fields = ("content",)

    def endpoint(self, credentials: Found) -> str:
        """The configured address is the endpoint: no variable of its own."""
        return search_url(credentials.url)  # type: ignore[attr-defined]

    def where(self, search: Search) -> str:
        return f"{WHAT} at {urlsplit(search.endpoint).hostname or search.endpoint}"

    def request(self, search: Search, extra: Mapping[str, Any]) -> Request:
        params = {"q": _terms(search), "format": "json", "pageno": search.start + 1, **extra}
        return Request(params, {"Accept": "application/json"})

    def cache_key(self, search: Search) -> dict[str, Any]:
        return {**super().cache_key(search), "q": _terms(search)}

    def error(self, reply: ProviderReply, search: Search) -> WebtapError:
        return _error(reply, self.where(search))

    def items(self, body: Any, where: str) -> list[Any]:
        if not isinstance(body, dict) or not isinstance(body.get("results", []), list):
            raise APIError(f"{where} returned an unexpected response (not a search result).")
        return body.get("results", [])

    def parse(self, body: Any, where: str) -> list[SearchResult]:
        """SearXNG's ``results[]`` (``title``, ``url``, ``content``) as search results.

        No results while ``unresponsive_engines`` lists engines means every engine failed: that
        is an error naming them, not an empty answer.
        """
        results = super().parse(body, where)
        failed = _unresponsive(body.get("unresponsive_engines"))
        if not results and failed:
            raise APIError(
                f"{where}: every engine that was asked failed ({'; '.join(failed)}), so there "
                "are no results. Try again later, or enable other engines in the instance's "
                "settings.yml."
            )
        return results


def _terms(search: Search) -> str:
    """One allowed domain is also asked of the engines, as ``site:``."""
    return f"{search.query} site:{search.allowed[0]}" if len(search.allowed) == 1 else search.query


def search_url(url: str) -> str:
    """The instance's ``/search`` endpoint from its base URL (a URL ending in ``/search`` is
    taken as it is)."""
    text = url.strip() if isinstance(url, str) else ""
    try:
        parsed = urlsplit(text)
        parsed.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError:
        parsed = None
    if parsed is None or parsed.scheme.lower() not in ("http", "https") or not parsed.hostname:
        raise ConfigError(
            "The SearXNG address (SEARXNG_URL or web_search.searxng.url) must be an http:// or "
            "https:// URL such as http://localhost:8080."
        )
    path = parsed.path.rstrip("/")
    if not path.endswith("/search"):
        path += "/search"
    return urlunsplit((parsed.scheme.lower(), parsed.netloc, path, "", ""))


def _unresponsive(value: Any) -> list[str]:
    """``[["google", "timeout"], ["bing", "CAPTCHA"]]`` as ``["google (timeout)", …]``."""
    named = []
    for entry in value if isinstance(value, list) else []:
        if isinstance(entry, list | tuple) and entry:
            engine = clean_text(str(entry[0]))[:60]
            reason = clean_text(str(entry[1]))[:80] if len(entry) > 1 and entry[1] else ""
            named.append(f"{engine} ({reason})" if reason else engine)
        elif isinstance(entry, str):
            named.append(clean_text(entry)[:60])
    return named[:20]


def _error(reply: ProviderReply, where: str) -> WebtapError:
    status = reply.status
    if status == 403:
        return APIError(f"{where} {JSON_DISABLED}")
    if status == 429:
        return RateLimit(
            f"{where} is limiting requests (HTTP 429): its limiter refused this search. Wait a "
            "moment and try again, or turn the limiter off in the instance's settings.yml "
            "(server.limiter: false) for your own use."
        )
    if status == 404:
        return APIError(
            f"{where} has no /search endpoint (HTTP 404): check that SEARXNG_URL or "
            "web_search.searxng.url is the instance's base address, such as http://localhost:8080."
        )
    return APIError(f"{where} API error (HTTP {status}): {reply.describe()}")
