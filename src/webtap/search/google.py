"""Google Custom Search JSON API: ``GET /customsearch/v1?key=&cx=&q=&num=&start=``.

The key travels as a query parameter, so request URLs never reach a message (see
:mod:`webtap.search.request`). Domains (decision: Google with several allowed domains): one allowed
or one blocked domain uses ``siteSearch``/``siteSearchFilter``; several allowed domains make one
call each, run concurrently with ``num`` shared out evenly, merged round-robin; every result is
also filtered by the domain rules (decision: Domain filters), which is how several blocked domains
are handled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from webtap.budget.rate import Pace
from webtap.credentials import available, configured_providers
from webtap.errors import APIError, AuthInvalid, RateLimit, WebtapError
from webtap.providers import GOOGLE, GoogleCredentials
from webtap.search.cached import fingerprint
from webtap.search.domains import normalize_domains
from webtap.search.pipeline import Call, Engine, Request, Search, run
from webtap.search.quota import google_quota_exceeded, next_pacific_midnight
from webtap.search.request import ProviderReply
from webtap.settings import GOOGLE_MAX_CALLS

if TYPE_CHECKING:
    from webtap.net import Client, Deadline
    from webtap.search.results import SearchResult

__all__ = [
    "CLOSED_MESSAGE",
    "GOOGLE_SEARCH_URL",
    "Google",
    "fan_out_plan",
    "google_credentials",
    "google_search",
    "max_calls",
    "parse_google",
    "shares",
]

GOOGLE_SEARCH_URL = GOOGLE.endpoint_default
MAX_PARALLEL = 8
# Google ends the Custom Search JSON API for every customer on this day.
CLOSING_DATE = "2027-01-01"
WHAT = GOOGLE.title


def google_search(
    query: str,
    num: int = 10,
    start: int = 1,
    allowed_domains: Sequence[str] = (),
    blocked_domains: Sequence[str] = (),
    *,
    api_key: str | None = None,
    engine_id: str | None = None,
    client: Client | None = None,
    deadline: Deadline | None = None,
) -> list[SearchResult]:
    """Search Google; ``api_key``/``engine_id`` of ``None`` are discovered (environment, then
    the credentials file). Raises :class:`~webtap.errors.WebtapError` subclasses."""
    return run(
        Google(GOOGLE),
        query,
        num,
        start,
        allowed_domains,
        blocked_domains,
        given={"api_key": api_key, "engine_id": engine_id},
        client=client,
        deadline=deadline,
    )


class Google(Engine):
    title_field = "title"
    url_field = "link"
    snippet_fields = ("snippet", "htmlSnippet")
    max_count = 10

    def start_of(self, page: int, count: int) -> int:
        return page * count + 1  # Google's start is the first result's number, from 1

    def request(self, search: Search, extra: Mapping[str, Any]) -> Request:
        found = search.credentials
        params = {"key": found.api_key, "cx": found.engine_id, "q": search.query}
        params.update({"start": search.start, "num": search.count, **extra})
        return Request(params, {"Accept": "application/json"})

    def gather(self, search: Search, call: Call) -> list[SearchResult]:
        """Several allowed domains: one call each (decision: Google with several allowed domains);
        else one call, with Google's own filter for one allowed or one blocked domain."""
        if len(search.allowed) > 1:
            searched, _ = fan_out_plan(search.allowed, search.count)
            return _fan_out(call, searched, search.count)
        return call(_site_search(search.allowed, search.blocked))

    def cache_key(self, search: Search) -> dict[str, Any]:
        # The engine id is a credential: only its fingerprint tells two engines apart.
        return {**super().cache_key(search), "engine": fingerprint(search.credentials.engine_id)}

    def failed(self, reply: ProviderReply) -> bool:
        return _failed(reply)

    def error(self, reply: ProviderReply, search: Search) -> WebtapError:
        return _error(reply, search.credentials.source)

    def pace(self, reply: ProviderReply) -> Pace:
        """Google sends no rate headers; a used-up daily quota is known from the error itself."""
        if reply.status in (403, 429) and _daily_quota(_error_of(reply.body)):
            now = datetime.now(UTC)
            return Pace(blocked_for=(next_pacific_midnight(now) - now).total_seconds())
        return Pace()

    def quota_error(self, resets_in: float | None) -> WebtapError:
        """A used-up daily quota stops callers until Pacific midnight."""
        return google_quota_exceeded()

    def items(self, body: Any, where: str) -> list[Any]:
        """Google's ``items[]``; no ``items`` means no results."""
        if not isinstance(body, dict):
            raise APIError(f"{where} returned an unexpected response (not a JSON object).")
        if "items" not in body and body.get("kind") != "customsearch#search":
            raise APIError(f"{where} returned an unexpected response (not a search result).")
        items = body.get("items", [])
        if not isinstance(items, list):
            raise APIError(f"{where} returned an unexpected response ('items' is not a list).")
        return items

    def notice(self, request: dict[str, Any]) -> str | None:
        """Which allowed domains the call cap left out, if any."""
        num = request.get("num", 10)
        allowed = normalize_domains(request.get("allowed_domains") or (), "allowed_domains")
        if len(allowed) < 2:
            return None
        searched, left_out = fan_out_plan(allowed, num)
        if not left_out:
            return None
        return (
            f"Searched {len(searched)} of {len(allowed)} allowed_domains "
            f"({', '.join(searched)}): one Google call per domain, at most num ({num}) and "
            f"at most {max_calls()} calls a search ({GOOGLE_MAX_CALLS.name}). Left out: "
            f"{_listed(left_out)}. Search those in another request, or raise num."
        )


def _listed(domains: list[str], shown: int = 20) -> str:
    more = len(domains) - shown
    return ", ".join(domains[:shown]) + (f" and {more} more" if more > 0 else "")


def max_calls() -> int:
    """Provider calls one search may make over several allowed domains (WEBTAP_GOOGLE_MAX_CALLS)."""
    return GOOGLE_MAX_CALLS.get()


def fan_out_plan(domains: Sequence[str], num: int) -> tuple[list[str], list[str]]:
    """The allowed domains that get a call, and those left out: never more calls than
    ``num`` (a domain whose share of ``num`` would be 0 costs no call) nor than
    :func:`max_calls`. The first domains listed go first."""
    calls = min(len(domains), num, max_calls())
    return list(domains[:calls]), list(domains[calls:])


def _site_search(allowed: Sequence[str], blocked: Sequence[str]) -> dict[str, str]:
    """Google's own filter for one allowed domain, or for one blocked domain (decision: Google with
    several allowed domains)."""
    if allowed:
        return {"siteSearch": allowed[0], "siteSearchFilter": "i"}
    if len(blocked) == 1:
        return {"siteSearch": blocked[0], "siteSearchFilter": "e"}
    return {}


def shares(total: int, parts: int) -> list[int]:
    """``total`` split over ``parts`` as evenly as possible, the larger shares first; every
    part asks for at least one result (the merge trims back to ``total``)."""
    base, extra = divmod(total, parts)
    return [max(1, base + (1 if i < extra else 0)) for i in range(parts)]


def google_credentials() -> tuple[str, str] | None:
    """``(api_key, engine_id)`` if both resolve; ``None`` when missing or the file is unusable."""
    found = available(GOOGLE)
    return (found.api_key, found.engine_id) if isinstance(found, GoogleCredentials) else None


def parse_google(body: Any) -> list[SearchResult]:
    """Google's ``items[]`` as search results; no ``items`` means no results."""
    return Google(GOOGLE).parse(body, WHAT)


def _fan_out(call: Call, domains: Sequence[str], num: int) -> list[SearchResult]:
    """One call per allowed domain, concurrently; results merged round-robin."""
    # Only this path needs threads, and concurrent.futures imports logging, which a tool
    # call does not otherwise load.
    from concurrent.futures import ThreadPoolExecutor

    sizes = shares(num, len(domains))
    with ThreadPoolExecutor(max_workers=min(len(domains), MAX_PARALLEL)) as pool:
        futures = [
            pool.submit(call, {"num": size, "siteSearch": domain, "siteSearchFilter": "i"})
            for domain, size in zip(domains, sizes, strict=True)
        ]
        lists: list[list[SearchResult]] = []
        errors: list[WebtapError] = []
        for future in futures:
            try:
                lists.append(future.result())
            except WebtapError as exc:
                errors.append(exc)
    if not lists:
        raise errors[0]
    return _round_robin(lists)


def _round_robin(lists: list[list[SearchResult]]) -> list[SearchResult]:
    merged: list[SearchResult] = []
    seen: set[str] = set()
    for rank in range(max(len(items) for items in lists)):
        for items in lists:
            if rank < len(items) and items[rank].url not in seen:
                seen.add(items[rank].url)
                merged.append(items[rank])
    return merged


def _failed(reply: ProviderReply) -> bool:
    return reply.status != 200 or isinstance(_error_of(reply.body), dict)


def _error_of(body: Any) -> Any:
    return body.get("error") if isinstance(body, dict) else None


def _error(reply: ProviderReply, source: str) -> WebtapError:
    error = _error_of(reply.body)
    error = error if isinstance(error, dict) else {}
    message = str(error.get("message") or "").strip() or reply.describe()
    reasons = _reasons(error)
    status = reply.status
    label = f"HTTP {status}" + (
        f" {error['status']}" if isinstance(error.get("status"), str) else ""
    )
    if _closed(status, message):
        return APIError(closed_message())
    if "API_KEY_INVALID" in reasons or "keyInvalid" in reasons or status == 401:
        return AuthInvalid(
            f"{WHAT} rejected the API key from {source} ({label}: {message}). Check the key in "
            "the Google Cloud console and update GOOGLE_SEARCH_API_KEY or "
            "web_search.google.api_key."
        )
    if status in (403, 429) and _daily_quota(error):
        return google_quota_exceeded()
    if status == 429 or reasons & {"rateLimitExceeded", "userRateLimitExceeded"}:
        return RateLimit(
            f"Rate limit exceeded: {WHAT} refused more queries for now ({message}). "
            "Wait a minute and try again."
        )
    if status == 403:
        return AuthInvalid(
            f"{WHAT} refused the credentials from {source} ({label}: {message}). Enable the "
            "Custom Search JSON API for the key's Google Cloud project, and check "
            "GOOGLE_SEARCH_ENGINE_ID or web_search.google.engine_id."
        )
    return APIError(f"{WHAT} API error ({label}): {message}")


CLOSED_MESSAGE = (
    f"Google's Custom Search JSON API has closed (Google ended it for every customer on "
    f"{CLOSING_DATE}): web_search_google can no longer search. Use web_search_brave "
    "(BRAVE_API_KEY; 2,000 free searches a month, https://brave.com/search/api/) or "
    "web_search_searxng (SEARXNG_URL: a SearXNG instance you run; no key, no quota)."
)
_CLOSED_WORDS = (
    "no longer available",
    "no longer supported",
    "discontinued",
    "shut down",
    "turned down",
    "has been closed",
    "is closed",
)


def closed_message() -> str:
    """The closed API's error, naming the alternatives and which of them is set up here."""
    ready = [name for name, ok in configured_providers().items() if ok and name != GOOGLE.name]
    if ready:
        tools = " and ".join(f"web_search_{name}" for name in ready)
        return f"{CLOSED_MESSAGE} Configured here: {tools}."
    return CLOSED_MESSAGE


def _closed(status: int, message: str) -> bool:
    """Google says the API is gone (410, or a 403/404 whose words say so)."""
    if status == 410:
        return True
    return status in (403, 404) and any(word in message.lower() for word in _CLOSED_WORDS)


def _daily_quota(error: Any) -> bool:
    """A used-up quota: the reasons Google gives for it, or a per-day limit in its words."""
    error = error if isinstance(error, dict) else {}
    reasons = _reasons(error)
    message = str(error.get("message") or "").lower()
    return bool(reasons & {"dailyLimitExceeded", "quotaExceeded"}) or "per day" in message


def _reasons(error: dict[str, Any]) -> set[str]:
    reasons = set()
    for key in ("errors", "details"):
        entries = error.get(key)
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("reason"), str):
                reasons.add(entry["reason"])
    return reasons
