"""The Anthropic key's requests-per-minute budget, shared wherever the key is used (decision: Rate
budgets past one machine).

Before each attempt of a model call, :func:`take_turn` waits for the key's turn in the shared
rate budget (:mod:`webtap.budget.rate`, in the store ``WEBTAP_BUDGET`` names: one machine, one
Ray cluster or Redis); after it, :func:`observe` tells the budget what the API's headers said:
``anthropic-ratelimit-requests-limit`` (requests a minute: calls are spaced evenly to it,
because the API may enforce a minute's limit over a second), a used-up
``-requests-remaining`` until ``-requests-reset``, and ``retry-after`` on a 429 or 529, so that
one worker's 429 slows every worker of the key. Until the API has said its limit, calls are not
spaced unless ``WEBTAP_ANTHROPIC_RPM`` gives it (a cluster's first wave then stays within it).

The per-process :class:`~webtap.sql.throttle.Throttle` still caps the rows in flight.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from webtap.budget.rate import Pace, RateBudget
from webtap.net import Deadline
from webtap.net.retry_after import header_number, retry_after
from webtap.settings import ANTHROPIC_RPM

__all__ = ["MAX_WAIT", "model_budget", "observe", "pace_of", "take_turn"]

MAX_WAIT = 60.0  # seconds: a longer retry-after or reset is not believed (as Throttle.MAX_PAUSE)
WHAT = "the Anthropic API"


def model_budget(api_key: str) -> RateBudget:
    """The key's budget (named by a hash of it), at ``WEBTAP_ANTHROPIC_RPM`` until told."""
    rpm = ANTHROPIC_RPM.get()  # 0 when unset: unspaced until the API says
    return RateBudget(
        "anthropic",
        api_key,
        what=WHAT,
        rate=rpm / 60,
        calls="model call(s)",
        hint="give the question a longer budget, or lower the concurrency",
    )


def _api_key(client: Any) -> str | None:
    key = getattr(client, "api_key", None)
    return key if isinstance(key, str) and key else None


def take_turn(client: Any, seconds: float) -> None:
    """Wait for the key's turn, at most ``seconds``; else ``RATE_LIMIT``. A client without a
    key of its own (a scripted fake) has no budget."""
    key = _api_key(client)
    if key is not None:
        model_budget(key).acquire(Deadline(seconds), margin=0.0)


def observe(client: Any, response: Any) -> None:
    """Tell the key's budget what ``response`` (an httpx response) said of the limits."""
    key = _api_key(client)
    if key is not None and response is not None:
        model_budget(key).learn(pace_of(response.status_code, response.headers))


def pace_of(status: int, headers: Any) -> Pace:
    """What the API's rate-limit headers say; garbled values say nothing."""
    limit = header_number(headers.get("anthropic-ratelimit-requests-limit"))
    remaining = header_number(headers.get("anthropic-ratelimit-requests-remaining"))
    wait = None
    if status in (429, 529):
        wait = retry_after(headers)
    if wait is None and remaining == 0:
        wait = _until(headers.get("anthropic-ratelimit-requests-reset"))
    return Pace(
        per_second=limit / 60 if limit else None,
        wait=min(wait, MAX_WAIT) if wait else None,
    )


def _until(value: str | None) -> float | None:
    """Seconds until an RFC 3339 time (``-reset``), or None."""
    if not value:
        return None
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    return max(when.timestamp() - time.time(), 0.0)
