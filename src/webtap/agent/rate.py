"""A model key's requests-per-minute budget, shared wherever the key is used (decision: Rate
budgets past one machine).

Before each attempt of a model call, :func:`take_turn` waits for the key's turn in the shared
rate budget (:mod:`webtap.budget.rate`, in the store ``WEBTAP_BUDGET`` names: one machine, one
Ray cluster or Redis); after it, :func:`observe` tells the budget what the API's headers said,
as the adapter names them (:class:`RateHeaders`: Anthropic's ``anthropic-ratelimit-requests-*``,
OpenAI's ``x-ratelimit-*-requests``): the requests a minute (calls are spaced evenly to it,
because an API may enforce a minute's limit over a second), a used-up remainder until its
reset, and ``retry-after`` on a 429 or 529, so that one worker's 429 slows every worker of the
key. Until the API has said its limit, calls are not spaced unless the provider's setting gives
it (``WEBTAP_ANTHROPIC_RPM``: a cluster's first wave then stays within it).

The per-process :class:`~webtap.sql.throttle.Throttle` still caps the rows in flight.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from webtap.budget.rate import Pace, RateBudget
from webtap.net import Deadline
from webtap.net.retry_after import header_number, retry_after
from webtap.providers import ANTHROPIC

if TYPE_CHECKING:
    from webtap.providers import ModelProvider

__all__ = [
    "MAX_WAIT",
    "RateHeaders",
    "model_budget",
    "observe",
    "pace_of",
    "seconds_until",
    "seconds_within",
    "take_turn",
]

MAX_WAIT = 60.0  # seconds: a longer retry-after or reset is not believed (as Throttle.MAX_PAUSE)


class RateHeaders(NamedTuple):
    """How a protocol's answers say a key's request limit: the headers, and how the reset is
    written (an RFC 3339 time, or a duration such as ``6m0s``)."""

    limit: str
    remaining: str
    reset: str
    reset_seconds: Callable[[str | None], float | None]


def model_budget(api_key: str, provider: ModelProvider | None = None) -> RateBudget:
    """The key's budget (named by the provider and a hash of the key), at the provider's
    setting (calls a minute) until the API says."""
    provider = provider or ANTHROPIC
    rpm = provider.rpm_setting.get() if provider.rpm_setting else 0.0  # 0: unspaced until told
    return RateBudget(
        provider.name,
        api_key,
        what=provider.title,
        rate=rpm / 60,
        calls="model call(s)",
        hint="give the question a longer budget, or lower the concurrency",
    )


def take_turn(budget: RateBudget | None, seconds: float) -> None:
    """Wait for the key's turn, at most ``seconds``; else ``RATE_LIMIT``. No budget (a scripted
    fake, a provider without keys): no wait."""
    if budget is not None:
        budget.acquire(Deadline(seconds), margin=0.0)


def observe(budget: RateBudget | None, names: RateHeaders, response: Any) -> None:
    """Tell the key's budget what ``response`` (an httpx response) said of the limits."""
    if budget is not None and response is not None:
        budget.learn(pace_of(response.status_code, response.headers, names))


def pace_of(status: int, headers: Any, names: RateHeaders) -> Pace:
    """What the API's rate-limit headers say; garbled values say nothing."""
    limit = header_number(headers.get(names.limit))
    remaining = header_number(headers.get(names.remaining))
    wait = None
    if status in (429, 529):
        wait = retry_after(headers)
    if wait is None and remaining == 0:
        wait = names.reset_seconds(headers.get(names.reset))
    return Pace(
        per_second=limit / 60 if limit else None,
        wait=min(wait, MAX_WAIT) if wait else None,
    )


def seconds_until(value: str | None) -> float | None:
    """Seconds until an RFC 3339 time (Anthropic's ``-reset``), or None."""
    if not value:
        return None
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    return max(when.timestamp() - time.time(), 0.0)


_DURATION = re.compile(
    r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?"
    r"(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?"
)


def seconds_within(value: str | None) -> float | None:
    """Seconds in a Go-style duration (OpenAI's ``-reset``: ``1s``, ``6m0s``, ``120ms``)."""
    if not value or not (match := _DURATION.fullmatch(value.strip())) or not any(match.groups()):
        return None
    hours, minutes, seconds, millis = (float(part or 0) for part in match.groups())
    return hours * 3600 + minutes * 60 + seconds + millis / 1000
