"""Web search through Brave Search, SearXNG and Google Custom Search, in one result shape.

Library use::

    from webtap.search import brave_search, google_search, search
    results = brave_search("python packaging", count=5, allowed_domains=["python.org"])

``api_key=None`` (and ``engine_id=None``) means "discover it" (environment, then
``~/.config/ikigai/credentials.json``); an explicit value overrides discovery. Failures raise
:class:`webtap.errors.WebtapError` subclasses whose messages never contain a key.
``web_search_brave``, ``web_search_searxng`` and ``web_search_google`` are the tools' handlers
(request dict -> response dict) that :mod:`webtap.tools` runs after validating the request.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from webtap.errors import InvalidInput
from webtap.search.brave import brave_search
from webtap.search.google import google_search
from webtap.search.request import search_deadline
from webtap.search.results import SearchResult, success_response
from webtap.search.searxng import searxng_search

__all__ = [
    "PROVIDERS",
    "SearchResult",
    "brave_search",
    "google_search",
    "search",
    "searxng_search",
    "web_search_brave",
    "web_search_google",
    "web_search_searxng",
]

PROVIDERS = ("brave", "searxng", "google")


def search(
    query: str,
    provider: str = "brave",
    count: int = 10,
    page: int = 0,
    allowed_domains: Sequence[str] = (),
    blocked_domains: Sequence[str] = (),
    **credentials: Any,
) -> list[SearchResult]:
    """Search with either provider; ``page`` counts pages of ``count`` results from 0.

    Brave takes up to 20 results and pages 0-9; Google up to 10 results and results up to
    the 100th; SearXNG up to 20 from one of its pages. ``credentials`` are the provider
    function's ``api_key``/``engine_id``/``url``/``client``.
    """
    if provider == "brave":
        return brave_search(query, count, page, allowed_domains, blocked_domains, **credentials)
    if provider == "searxng":
        return searxng_search(query, count, page, allowed_domains, blocked_domains, **credentials)
    if provider == "google":
        if count > 10:
            raise InvalidInput("Invalid input: Google Custom Search returns at most 10 results")
        return google_search(
            query, count, page * count + 1, allowed_domains, blocked_domains, **credentials
        )
    raise InvalidInput(f"Unknown search provider {provider!r} (use one of {', '.join(PROVIDERS)})")


def web_search_brave(request: dict[str, Any]) -> dict[str, Any]:
    """The ``web_search_brave`` tool on a validated request."""
    return _answer(brave_search, request, request.get("count", 10), request.get("offset", 0))


def web_search_searxng(request: dict[str, Any]) -> dict[str, Any]:
    """The ``web_search_searxng`` tool on a validated request."""
    return _answer(searxng_search, request, request.get("count", 10), request.get("offset", 0))


def web_search_google(request: dict[str, Any]) -> dict[str, Any]:
    """The ``web_search_google`` tool on a validated request; says which allowed domains the
    call cap left out (an added ``notice`` field)."""
    from webtap.search.domains import normalize_domains
    from webtap.search.google import fan_out_plan, max_calls

    num = request.get("num", 10)
    response = _answer(google_search, request, num, request.get("start", 1))
    allowed = normalize_domains(request.get("allowed_domains") or (), "allowed_domains")
    searched, left_out = fan_out_plan(allowed, num) if len(allowed) > 1 else (allowed, [])
    if left_out:
        response["notice"] = (
            f"Searched {len(searched)} of {len(allowed)} allowed_domains "
            f"({', '.join(searched)}): one Google call per domain, at most num ({num}) and "
            f"at most {max_calls()} calls a search (WEBTAP_GOOGLE_MAX_CALLS). Left out: "
            f"{_listed(left_out)}. Search those in another request, or raise num."
        )
    return response


def _listed(domains: list[str], shown: int = 20) -> str:
    more = len(domains) - shown
    return ", ".join(domains[:shown]) + (f" and {more} more" if more > 0 else "")


def _answer(
    provider_search: Callable[..., list[SearchResult]],
    request: dict[str, Any],
    count: int,
    start: int,
) -> dict[str, Any]:
    """One provider's search on a tool request: the fields both share, one deadline."""
    results = provider_search(
        request["query"],
        count,
        start,
        request.get("allowed_domains") or (),
        request.get("blocked_domains") or (),
        deadline=search_deadline(),
    )
    return success_response(results)
