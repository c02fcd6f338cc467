"""The one search: any provider, from a request to results, with what every provider shares.

:func:`run` is the pipeline: domains normalised (a bad entry is the caller's mistake before
anything else), credentials (given or discovered, :func:`webtap.credentials.require`), the
endpoint, the deadline, then, unless an identical search is fresh in the cache, the provider's
calls with every secret redacted from what they raise, through the process's shared client, in
the key's rate budget; the results filtered by domain (DESIGN 4) and cut to ``count``. The
provider's engine (:class:`webtap.search.engine.Engine`) says the rest. :func:`search` is the
library's entry (pages of ``count`` results), :func:`answer` the tools'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from webtap.credentials import require
from webtap.errors import InvalidInput
from webtap.providers import PROVIDERS
from webtap.search.cached import cached
from webtap.search.domains import filter_results, normalize_domains
from webtap.search.engine import Engine, Search
from webtap.search.request import call_provider, owned_client, redacting, search_deadline
from webtap.search.results import SearchResult, success_response

if TYPE_CHECKING:
    from webtap.net import Client, Deadline
    from webtap.providers import Found

__all__ = ["answer", "run", "search"]


def run(
    engine: Engine,
    query: str,
    count: int,
    start: int,
    allowed_domains: Sequence[str] = (),
    blocked_domains: Sequence[str] = (),
    *,
    credentials: Found | None = None,
    given: Mapping[str, str | None] | None = None,
    client: Client | None = None,
    deadline: Deadline | None = None,
) -> list[SearchResult]:
    """One search through ``engine``'s provider; ``start`` is the provider's own.

    ``credentials`` (typed) are used as they are; else ``given`` values (by argument) win over
    what is discovered. Raises :class:`~webtap.errors.WebtapError` subclasses, never with a key.
    """
    provider = engine.provider
    allowed = normalize_domains(allowed_domains, "allowed_domains")
    blocked = normalize_domains(blocked_domains, "blocked_domains")
    found = credentials if credentials is not None else require(provider, given)
    url = engine.endpoint(found)
    deadline = deadline or search_deadline()
    asked = Search(query, count, start, allowed, blocked, found, url)
    where = engine.where(asked)

    def fresh() -> list[SearchResult]:
        budget = engine.budget(asked)
        with redacting(found.secrets()), owned_client(client) as http:

            def call(extra: Mapping[str, Any]) -> list[SearchResult]:
                request = engine.request(asked, extra)
                body = call_provider(
                    http,
                    url,
                    params=request.params,
                    headers=request.headers,
                    deadline=deadline,
                    what=engine.what,
                    error_for=lambda reply: (
                        engine.error(reply, asked) if engine.failed(reply) else None
                    ),
                    pause_for=engine.retry_pause,
                    budget=budget,
                    limits_of=engine.limits,
                )
                return engine.parse(body, where)

            results = engine.gather(asked, call)
        return filter_results(results, allowed, blocked)[:count]

    parameters = {**engine.cache_key(asked), "allowed": allowed, "blocked": blocked}
    return cached(provider.name, parameters, fresh)


def search(
    query: str,
    provider: str = "brave",
    count: int = 10,
    page: int = 0,
    allowed_domains: Sequence[str] = (),
    blocked_domains: Sequence[str] = (),
    *,
    credentials: Found | None = None,
    client: Client | None = None,
    deadline: Deadline | None = None,
) -> list[SearchResult]:
    """Search with any registered provider; ``page`` counts pages of ``count`` results from 0.

    Brave takes up to 20 results and pages 0-9; Google up to 10 results and results up to
    the 100th; SearXNG up to 20 from one of its pages. ``credentials`` are the provider's typed
    credentials (:meth:`webtap.credentials.Credentials.for_provider`); None discovers them.
    """
    record = PROVIDERS.get(provider)
    if record is None:
        raise InvalidInput(
            f"Unknown search provider {provider!r} (use one of {', '.join(PROVIDERS)})"
        )
    engine = record.engine()
    if engine.max_count is not None and count > engine.max_count:
        raise InvalidInput(
            f"Invalid input: {engine.what} returns at most {engine.max_count} results"
        )
    start = engine.start_of(page, count)
    return run(
        engine,
        query,
        count,
        start,
        allowed_domains,
        blocked_domains,
        credentials=credentials,
        client=client,
        deadline=deadline,
    )


def answer(provider: str, request: dict[str, Any]) -> dict[str, Any]:
    """Provider ``provider``'s tool (``web_search_<provider>``) on a validated request: its
    count and start fields as the record names them, one deadline for the whole tool."""
    engine = PROVIDERS[provider].engine()
    record = engine.provider
    count = request.get(record.count_field, 10)
    results = run(
        engine,
        request["query"],
        count,
        request.get(record.start_field, engine.start_of(0, count)),
        request.get("allowed_domains") or (),
        request.get("blocked_domains") or (),
        deadline=search_deadline(),
    )
    response = success_response(results)
    notice = engine.notice(request)
    if notice:
        response["notice"] = notice
    return response
