"""Brave Search: ``GET /res/v1/web/search`` with ``X-Subscription-Token``.

Brave's ``offset`` is a page index from 0 to 9 (pages of ``count`` results), not a result
index; a value Brave rejects comes back as an INVALID_INPUT that says so. Brave has no domain
filter, so allowed/blocked domains are applied to the page it returns (spec 000). Its
``X-RateLimit-*`` headers feed the key's rate budget.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from webtap.budget.rate import Pace
from webtap.credentials import available
from webtap.errors import APIError, AuthInvalid, InvalidInput, RateLimit, WebtapError
from webtap.providers import BRAVE, BraveCredentials
from webtap.search.pipeline import Engine, Request, Search, run
from webtap.search.quota import brave_quota_exceeded
from webtap.search.request import ProviderReply, server_error_pause

if TYPE_CHECKING:
    from webtap.net import Client, Deadline
    from webtap.search.results import SearchResult

__all__ = ["BRAVE_SEARCH_URL", "MAX_RATE_WAIT", "Brave", "brave_key", "brave_search", "parse_brave"]

BRAVE_SEARCH_URL = BRAVE.endpoint_default
# Brave's per-second limit says when its window resets; waiting longer than this is not worth
# holding a model's turn for, so a longer wait is reported as RATE_LIMIT instead.
MAX_RATE_WAIT = 2.0
MAX_RESET = 40 * 24 * 3600.0  # seconds: the monthly window is the longest Brave reports
MAX_COUNT = 1e12  # a limit or a remaining count beyond this is a garbled header
WHAT = BRAVE.title


def brave_search(
    query: str,
    count: int = 10,
    offset: int = 0,
    allowed_domains: Sequence[str] = (),
    blocked_domains: Sequence[str] = (),
    *,
    api_key: str | None = None,
    client: Client | None = None,
    deadline: Deadline | None = None,
) -> list[SearchResult]:
    """Search Brave; ``api_key=None`` discovers the key (environment, then credentials file).

    Raises :class:`~webtap.errors.WebtapError` subclasses; never lets the key into a message.
    """
    return run(
        Brave(BRAVE),
        query,
        count,
        offset,
        allowed_domains,
        blocked_domains,
        given={"api_key": api_key},
        client=client,
        deadline=deadline,
    )


class Brave(Engine):
    snippet_fields = ("description",)

    def request(self, search: Search, extra: Mapping[str, Any]) -> Request:
        params = {"q": search.query, "count": search.count, "offset": search.start, **extra}
        key = search.credentials.api_key
        return Request(params, {"X-Subscription-Token": key, "Accept": "application/json"})

    def failed(self, reply: ProviderReply) -> bool:
        body = reply.body
        return reply.status != 200 or (
            isinstance(body, dict) and body.get("type") == "ErrorResponse"
        )

    def error(self, reply: ProviderReply, search: Search) -> WebtapError:
        return _error(reply, search.credentials.source)

    def retry_pause(self, reply: ProviderReply, error: WebtapError) -> float | None:
        """A 5xx, or Brave's per-second limit when its window resets soon, is worth one retry."""
        if reply.status < 500 and isinstance(error, RateLimit) and error.event is None:
            resets = rate_header(reply.headers, "reset")  # the per-second window first
            pause = resets[0] if resets else 1.0
            return pause if pause <= MAX_RATE_WAIT else None
        return server_error_pause(reply, error)

    def pace(self, reply: ProviderReply) -> Pace:
        """What Brave's ``X-RateLimit-*`` headers say: ``Limit: 1, 2000`` (per second, per
        month), ``Remaining`` the same way, ``Reset`` the seconds until each window starts
        again."""
        headers = reply.headers
        per_second = rate_header(headers, "limit")
        remaining = rate_header(headers, "remaining")
        resets = rate_header(headers, "reset")
        wait = None
        if (remaining[:1] == [0] or reply.status == 429) and resets:
            wait = resets[0]
        monthly_out = len(remaining) > 1 and remaining[1] == 0 and len(resets) > 1
        blocked = resets[1] if monthly_out else None
        return Pace(
            per_second=per_second[0] if per_second else None, wait=wait, blocked_for=blocked
        )

    def quota_error(self, resets_in: float | None) -> WebtapError:
        return brave_quota_exceeded(resets_in)

    def items(self, body: Any, where: str) -> list[Any]:
        """Brave's ``web.results[]``; no ``web`` means no results."""
        if not isinstance(body, dict):
            raise APIError(f"{where} returned an unexpected response (not a JSON object).")
        web = body.get("web")
        if web is None:
            if body.get("type") != "search":  # no results look like {"type": "search", ...}
                raise APIError(f"{where} returned an unexpected response (not a search result).")
            return []
        items = web.get("results", []) if isinstance(web, dict) else None
        if not isinstance(items, list):
            raise APIError(
                f"{where} returned an unexpected response ('web.results' is not a list)."
            )
        return items


def brave_key() -> str | None:
    """The Brave key if one resolves; ``None`` when missing or the file is unusable."""
    found = available(BRAVE)
    return found.api_key if isinstance(found, BraveCredentials) else None


def parse_brave(body: Any) -> list[SearchResult]:
    """Brave's ``web.results[]`` as search results; no ``web`` means no results."""
    return Brave(BRAVE).parse(body, WHAT)


def rate_header(headers: Mapping[str, str], part: str) -> list[float]:
    """``X-RateLimit-<part>`` (limit, remaining, reset) as numbers, one per window (per second,
    then per month): ``"1, 1419704"``. A value that is no number, negative or beyond belief
    ("inf", "nan", 1e300: no time a datetime can hold) makes the whole header say nothing."""
    upper = MAX_RESET if part == "reset" else MAX_COUNT
    values = []
    for text in headers.get(f"x-ratelimit-{part}", "").split(","):
        try:
            value = float(text.strip())
        except ValueError:
            return []
        if not 0 <= value <= upper:
            return []
        values.append(value)
    return values


def _error(reply: ProviderReply, source: str) -> WebtapError:
    error = reply.body.get("error") if isinstance(reply.body, dict) else None
    error = error if isinstance(error, dict) else {}
    code = str(error.get("code") or "")
    detail = str(error.get("detail") or "").strip() or reply.describe()
    status = reply.status
    label = f"HTTP {status}" + (f" {code}" if code else "")
    if status in (401, 403) or code.startswith("SUBSCRIPTION_TOKEN"):
        return AuthInvalid(
            f"{WHAT} rejected the API key from {source} ({label}: {detail}). Check the key "
            "in your Brave Search API dashboard (https://api-dashboard.search.brave.com/) "
            "and update BRAVE_API_KEY or web_search.brave.api_key."
        )
    if code == "VALIDATION":
        return InvalidInput(_validation_message(error, detail))
    if status == 429:
        resets = rate_header(reply.headers, "reset")
        remaining = rate_header(reply.headers, "remaining")
        if code == "QUOTA_LIMITED" or (len(remaining) > 1 and remaining[1] == 0):
            return brave_quota_exceeded(resets[1] if len(resets) > 1 else None)
        wait = f"{resets[0]:g} s" if resets else "a moment"
        per_second = rate_header(reply.headers, "limit")
        allowed = f"{per_second[0]:g} request(s)" if per_second else "only a few requests"
        return RateLimit(
            f"Rate limit exceeded: {WHAT} allows {allowed} per second on this plan "
            f"({detail}). Try again in {wait}."
        )
    return APIError(f"{WHAT} API error ({label}): {detail}")


def _validation_message(error: dict[str, Any], detail: str) -> str:
    problems = []
    meta = error.get("meta")
    for item in meta.get("errors", []) if isinstance(meta, dict) else []:
        if not isinstance(item, dict):
            continue
        loc = item.get("loc")
        field = str(loc[-1]) if isinstance(loc, list) and loc else "request"
        msg = str(item.get("msg") or "invalid")
        if field == "offset":
            problems.append(
                f"field 'offset' must be between 0 and 9 for Brave Search: it is a page "
                f"number (pages of 'count' results), not a result index (Brave said: {msg}; "
                f"got {item.get('input')})"
            )
        else:
            problems.append(f"field '{field}' was rejected by Brave Search: {msg}")
    return "Invalid input: " + ("; ".join(problems) if problems else detail)
