"""Search results kept for a while (decision: Caches): an identical search costs one provider call.

"Identical" means the same provider, endpoint, query and every parameter (count, page, both
domain lists, Google's engine); keys never enter the cache key or the file. Entries stay fresh
for ``WEBTAP_SEARCH_CACHE_TTL`` seconds (default 3600; 0 turns this cache off);
``WEBTAP_CACHE=off`` turns every cache off. Only successes are kept.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from webtap.cache import Cache, cache_dir, enabled
from webtap.search.results import SearchResult
from webtap.settings import SEARCH_CACHE_TTL

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["MAX_BYTES", "cached", "fingerprint"]

MAX_BYTES = 32 * 1024 * 1024

_caches: dict[Path, Cache] = {}
_lock = threading.Lock()


def fingerprint(secret: str) -> str:
    """A value that tells two secrets (a Google engine id) apart without holding either."""
    return hashlib.sha256(("webtap-search\0" + secret).encode("utf-8", "surrogatepass")).hexdigest()


def cached(
    provider: str, parameters: dict[str, Any], search: Callable[[], list[SearchResult]]
) -> list[SearchResult]:
    """``search()``'s results, from the cache when an identical search is fresh there."""
    ttl = SEARCH_CACHE_TTL.get()
    if ttl <= 0 or not enabled():
        return search()
    store = _cache()
    key = json.dumps([provider, parameters], sort_keys=True, ensure_ascii=False)
    entry = store.get(key)
    if entry is not None and entry.age() < ttl:
        results = _results(entry.value)
        if results is not None:
            return results
    results = search()
    store.put(key, [result.to_dict() for result in results])
    return results


def _cache() -> Cache:
    folder = cache_dir()  # read each time: it follows the environment
    with _lock:
        store = _caches.get(folder)
        if store is None:
            store = _caches[folder] = Cache("search", max_bytes=MAX_BYTES, folder=folder)
        return store


def _results(value: Any) -> list[SearchResult] | None:
    """The stored list back as results; None when the entry is not what this code wrote."""
    if not isinstance(value, list):
        return None
    results = []
    for item in value:
        if not isinstance(item, dict) or not all(
            isinstance(item.get(name), str) for name in ("title", "url", "snippet")
        ):
            return None
        results.append(SearchResult(item["title"], item["url"], item["snippet"]))
    return results
