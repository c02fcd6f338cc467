"""Web search through Brave Search, SearXNG and Google Custom Search, in one result shape.

Library use::

    from webtap.search import brave_search, google_search, search
    results = brave_search("python packaging", count=5, allowed_domains=["python.org"])

``api_key=None`` (and ``engine_id=None``, ``url=None``) means "discover it" (environment, then
``~/.config/ikigai/credentials.json``); an explicit value overrides discovery. Failures raise
:class:`webtap.errors.WebtapError` subclasses whose messages never contain a key.

Every provider's search goes through one pipeline (:mod:`webtap.search.pipeline`); what is each
provider's own is its module's :class:`~webtap.search.pipeline.Engine`, and what each provider is
(its tool, keys, endpoint, rate, setup texts) its record in :mod:`webtap.providers`. The tools'
handler is :func:`webtap.search.pipeline.answer`, which :mod:`webtap.tools` runs after
validating the request.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webtap.search.brave import brave_key, brave_search
    from webtap.search.google import google_credentials, google_search
    from webtap.search.pipeline import answer, search
    from webtap.search.results import SearchResult
    from webtap.search.searxng import searxng_search

__all__ = [
    "SearchResult",
    "answer",
    "brave_key",
    "brave_search",
    "google_credentials",
    "google_search",
    "search",
    "searxng_search",
]

# Each name from its module on first use: a tool call imports its own provider's module only.
_HOMES = {
    "SearchResult": "webtap.search.results",
    "answer": "webtap.search.pipeline",
    "search": "webtap.search.pipeline",
    "brave_key": "webtap.search.brave",
    "brave_search": "webtap.search.brave",
    "google_credentials": "webtap.search.google",
    "google_search": "webtap.search.google",
    "searxng_search": "webtap.search.searxng",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home), name)
