"""Brave Search: ``GET /res/v1/web/search`` with ``X-Subscription-Token``.

Brave's ``offset`` is a page index from 0 to 9 (pages of ``count`` results), not a result
index; a value Brave rejects comes back as an INVALID_INPUT that says so. Brave has no domain
filter, so allowed/blocked domains are applied to the page it returns (spec 000).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from webtap.credentials import require_brave
from webtap.errors import APIError, AuthInvalid, InvalidInput, RateLimit, WebtapError
from webtap.net import Deadline
from webtap.search.budget import Limits, RateBudget
from webtap.search.cached import cached
from webtap.search.domains import filter_results, normalize_domains
from webtap.search.request import (
    ProviderReply,
    call_provider,
    endpoint,
    owned_client,
    redacting,
    search_deadline,
    server_error_pause,
)
from webtap.search.results import SearchResult, clean_text

if TYPE_CHECKING:
    from webtap.net import Client

__all__ = ["BRAVE_SEARCH_URL", "MAX_RATE_WAIT", "brave_search", "parse_brave"]

BRAVE_SEARCH_URL = "https://api.search.brave.com/res/v1/web/search"
# Brave's per-second limit says when its window resets; waiting longer than this is not worth
# holding a model's turn for, so a longer wait is reported as RATE_LIMIT instead.
MAX_RATE_WAIT = 2.0
MAX_RESET = 40 * 24 * 3600.0  # seconds: the monthly window is the longest Brave reports
WHAT = "Brave Search"


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
    allowed = normalize_domains(allowed_domains, "allowed_domains")
    blocked = normalize_domains(blocked_domains, "blocked_domains")
    if api_key:
        key, source = api_key, "the given API key"
    else:
        found = require_brave()
        key, source = found.api_key, found.source
    url = endpoint("BRAVE_SEARCH_URL", BRAVE_SEARCH_URL)
    deadline = deadline or search_deadline()

    def search() -> list[SearchResult]:
        with redacting([key]), owned_client(client) as http:
            params = {"q": query, "count": count, "offset": offset}
            headers = {"X-Subscription-Token": key, "Accept": "application/json"}
            body = call_provider(
                http,
                url,
                params=params,
                headers=headers,
                deadline=deadline,
                what=WHAT,
                error_for=lambda reply: _error(reply, source) if _failed(reply) else None,
                pause_for=_retry_pause,
                budget=budget(key),
                limits_of=limits_of,
            )
            found_results = parse_brave(body)
        return filter_results(found_results, allowed, blocked)[:count]

    asked = {"endpoint": url, "q": query, "count": count, "offset": offset}
    return cached("brave", {**asked, "allowed": allowed, "blocked": blocked}, search)


def budget(key: str) -> RateBudget:
    """The key's rate budget, shared with every other process and thread that uses it."""
    from webtap.search.quota import brave_quota_exceeded

    return RateBudget("brave", key, what=WHAT, quota_error=brave_quota_exceeded)


def limits_of(reply: ProviderReply) -> Limits:
    """What Brave's ``X-RateLimit-*`` headers say: ``Limit: 1, 2000`` (per second, per month),
    ``Remaining`` the same way, ``Reset`` the seconds until each window starts again."""
    headers = reply.headers
    per_second = _numbers(headers.get("x-ratelimit-limit", ""))
    remaining = _numbers(headers.get("x-ratelimit-remaining", ""))
    resets = _reset_values(headers)
    wait = None
    if (remaining[:1] == [0] or reply.status == 429) and resets:
        wait = resets[0]
    blocked = resets[1] if len(remaining) > 1 and remaining[1] == 0 and len(resets) > 1 else None
    return Limits(per_second=per_second[0] if per_second else None, wait=wait, blocked_for=blocked)


def _numbers(header: str) -> list[float]:
    values = []
    for part in header.split(","):
        try:
            value = float(part.strip())
        except ValueError:
            return []
        if not 0 <= value < 1e12:
            return []
        values.append(value)
    return values


def parse_brave(body: Any) -> list[SearchResult]:
    """Brave's ``web.results[]`` as search results; no ``web`` means no results."""
    if not isinstance(body, dict):
        raise APIError(f"{WHAT} returned an unexpected response (not a JSON object).")
    web = body.get("web")
    if web is None:
        if body.get("type") != "search":  # no results look like {"type": "search", ...}
            raise APIError(f"{WHAT} returned an unexpected response (not a search result).")
        return []
    items = web.get("results", []) if isinstance(web, dict) else None
    if not isinstance(items, list):
        raise APIError(f"{WHAT} returned an unexpected response ('web.results' is not a list).")
    results = []
    for item in items:
        if not isinstance(item, dict):
            continue
        url = item.get("url")
        if not isinstance(url, str) or not url.strip():
            continue
        results.append(
            SearchResult(
                clean_text(item.get("title")), url.strip(), clean_text(item.get("description"))
            )
        )
    return results


def _retry_pause(reply: ProviderReply, error: WebtapError) -> float | None:
    """A 5xx, or Brave's per-second limit when its window resets soon, is worth one retry."""
    if reply.status < 500 and isinstance(error, RateLimit) and error.event is None:
        resets = _reset_values(reply.headers)  # the per-second limit, not the monthly quota
        pause = resets[0] if resets else 1.0
        return pause if pause <= MAX_RATE_WAIT else None
    return server_error_pause(reply, error)


def _failed(reply: ProviderReply) -> bool:
    body = reply.body
    return reply.status != 200 or (isinstance(body, dict) and body.get("type") == "ErrorResponse")


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
        resets = _reset_values(reply.headers)
        if code == "QUOTA_LIMITED" or _monthly_exhausted(reply.headers):
            from webtap.search.quota import brave_quota_exceeded

            return brave_quota_exceeded(resets[1] if len(resets) > 1 else None)
        wait = f"{resets[0]:g} s" if resets else "a moment"
        per_second = reply.headers.get("x-ratelimit-limit", "").split(",")[0].strip()
        allowed = f"{per_second} request(s)" if per_second.isdigit() else "only a few requests"
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


def _reset_values(headers: Mapping[str, str]) -> list[float]:
    """``X-RateLimit-Reset: 1, 1419704``: seconds until the per-second, then monthly, window."""
    values = []
    for part in headers.get("x-ratelimit-reset", "").split(","):
        try:
            value = float(part.strip())
        except ValueError:
            return []
        # "inf", "nan" or 1e300 parse as floats but are no time: a datetime cannot hold them.
        if not value <= MAX_RESET:
            return []
        values.append(max(0.0, value))
    return values


def _monthly_exhausted(headers: Mapping[str, str]) -> bool:
    parts = [p.strip() for p in headers.get("x-ratelimit-remaining", "").split(",")]
    return len(parts) > 1 and parts[1] == "0"
