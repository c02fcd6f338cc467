"""The one search: any provider, from a request to results, and the :class:`Engine` it drives.

:func:`run` is the pipeline, what every provider shares: domains normalised (a bad entry is the
caller's mistake before anything else), credentials (given or discovered,
:func:`webtap.credentials.require`), the endpoint, the deadline, then, unless an identical
search is fresh in the cache, the provider's calls with every secret redacted from what they
raise, through the process's shared client, with one retry and in the key's rate budget, and
one parse loop over the result items (:func:`parse_items`); the results filtered by domain
(decision: Domain filters) and cut to ``count``. :func:`search` is the library's entry (pages of
``count`` results), :func:`answer` the tools'.

What is a provider's own is its module's :class:`Engine` subclass: the request it sends
(:meth:`Engine.request`), where its result list is in the answer and what its fields are
called, how an error answer reads (:meth:`Engine.error`), what its rate-limit headers say
(:meth:`Engine.pace`), when a retry is worth it. The defaults fit a provider that answers one
GET per search with a JSON list of results.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple

from webtap.budget.rate import Pace, RateBudget
from webtap.credentials import require
from webtap.errors import APIError, InvalidInput, WebtapError
from webtap.providers import PROVIDERS, Provider
from webtap.search.cached import cached
from webtap.search.domains import filter_results, normalize_domains
from webtap.search.quota import exceeded
from webtap.search.request import (
    ProviderReply,
    call_provider,
    endpoint,
    owned_client,
    redacting,
    search_deadline,
    server_error_pause,
)
from webtap.search.results import SearchResult, clean_text, success_response

if TYPE_CHECKING:
    from webtap.net import Client, Deadline
    from webtap.providers import Found, Provider

__all__ = ["Engine", "Request", "Search", "answer", "engine_of", "parse_items", "run", "search"]


class Search:
    """One search as an engine sees it: domains normalised, credentials and endpoint found.
    (A slotted class, not a NamedTuple: a tuple's own ``count`` method would stand in the way
    of the field.)"""

    __slots__ = ("allowed", "blocked", "count", "credentials", "endpoint", "query", "start")

    def __init__(
        self,
        query: str,
        count: int,
        start: int,
        allowed: tuple[str, ...],
        blocked: tuple[str, ...],
        credentials: Any,
        endpoint: str,
    ) -> None:
        self.query = query
        self.count = count
        self.start = start  # the provider's own: Brave's and SearXNG's page index, Google's 1st
        self.allowed = allowed
        self.blocked = blocked
        self.credentials = credentials  # the provider's typed credentials (providers.Found)
        self.endpoint = endpoint

    def __repr__(self) -> str:
        return f"Search({self.query!r}, count={self.count}, start={self.start})"


class Request(NamedTuple):
    """What one provider call sends besides the endpoint."""

    params: dict[str, Any]
    headers: dict[str, str]


# One provider call: extra query parameters in, that page's results out.
Call = Callable[[Mapping[str, Any]], list[SearchResult]]


class Engine:
    """A provider's own part, for the pipeline to drive; subclassed in each provider module."""

    # Where a result item keeps its title, URL and snippet (the first snippet field that holds
    # a string wins): the one parse loop reads these.
    title_field = "title"
    url_field = "url"
    snippet_fields: tuple[str, ...] = ("snippet",)
    max_count: int | None = None  # the library's search() refuses more results than this

    def __init__(self, provider: Provider) -> None:
        self.provider = provider
        self.what = provider.title

    # -- before the call --------------------------------------------------------------------

    def endpoint(self, credentials: Found) -> str:
        """The URL to call: the record's variable, else its default (decision: Endpoints)."""
        variable, default = self.provider.endpoint_env, self.provider.endpoint_default
        if variable is None or default is None:
            raise NotImplementedError(f"{self.what} names no endpoint: its engine must")
        return endpoint(variable, default)

    def start_of(self, page: int, count: int) -> int:
        """The provider's start for the ``page``-th page (from 0) of ``count`` results."""
        return page

    def request(self, search: Search, extra: Mapping[str, Any]) -> Request:
        """The parameters and headers of one call, with ``extra`` parameters."""
        raise NotImplementedError

    def budget(self, search: Search) -> RateBudget | None:
        """The key's rate budget (decision: Rate budgets), when the provider has a rate; the budget
        is named by the first credential (the key), hashed."""
        if self.provider.rate is None:
            return None
        key = next(iter(search.credentials.arguments().values()))
        return RateBudget(self.provider.name, key, what=self.what, quota_error=self.quota_error)

    def quota_error(self, resets_in: float) -> WebtapError:
        """The used-up quota's error, ``resets_in`` seconds before it resets."""
        return exceeded(self.provider, resets_in)

    def cache_key(self, search: Search) -> dict[str, Any]:
        """What makes two searches the same search (never a key: see webtap.search.cached)."""
        record = self.provider
        return {
            "endpoint": search.endpoint,
            "q": search.query,
            record.count_field: search.count,
            record.start_field: search.start,
        }

    # -- the calls --------------------------------------------------------------------------

    def gather(self, search: Search, call: Call) -> list[SearchResult]:
        """The results of one search: one call, by default."""
        return call({})

    # -- reading an answer ------------------------------------------------------------------

    def where(self, search: Search) -> str:
        """How messages about this search name the provider."""
        return self.what

    def failed(self, reply: ProviderReply) -> bool:
        return reply.status != 200

    def error(self, reply: ProviderReply, search: Search) -> WebtapError:
        """The error a failed reply stands for (:meth:`failed` said it failed)."""
        return APIError(f"{self.where(search)} API error (HTTP {reply.status}): {reply.describe()}")

    def retry_pause(self, reply: ProviderReply, error: WebtapError) -> float | None:
        """Seconds before the one retry, or None for none: a 5xx is retried once."""
        return server_error_pause(reply, error)

    def pace(self, reply: ProviderReply) -> Pace:
        """What a reply's headers say about the key's rate budget; nothing, by default."""
        return Pace()

    def items(self, body: Any, where: str) -> list[Any]:
        """The answer's list of result items; an answer of another shape is an
        :class:`APIError`."""
        raise NotImplementedError

    def parse(self, body: Any, where: str) -> list[SearchResult]:
        """The answer's results, through the one parse loop."""
        return parse_items(
            self.items(body, where), self.title_field, self.url_field, self.snippet_fields
        )

    def notice(self, request: dict[str, Any]) -> str | None:
        """A line the tool's response adds for the caller (the ``notice`` field), if any."""
        return None


def parse_items(
    items: Sequence[Any], title: str, url: str, snippets: Sequence[str]
) -> list[SearchResult]:
    """Result items as search results: markup made plain text, items without a URL skipped."""
    results = []
    for item in items:
        if not isinstance(item, dict):
            continue
        link = item.get(url)
        if not isinstance(link, str) or not link.strip():
            continue
        snippet = next((item[name] for name in snippets if isinstance(item.get(name), str)), None)
        results.append(SearchResult(clean_text(item.get(title)), link.strip(), clean_text(snippet)))
    return results


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
                    pace_of=engine.pace,
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
    engine = engine_of(record)
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


def engine_of(provider: Provider) -> Engine:
    """The provider's own part (its module under :mod:`webtap.search`, named by the record's
    ``engine_path``), imported on first use: a search call loads only its own provider."""
    module, _, name = provider.engine_path.partition(":")
    engine: Engine = getattr(import_module(module), name)(provider)
    return engine


def answer(provider: str, request: dict[str, Any]) -> dict[str, Any]:
    """Provider ``provider``'s tool (``web_search_<provider>``) on a validated request: its
    count and start fields as the record names them, one deadline for the whole tool."""
    engine = engine_of(PROVIDERS[provider])
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
