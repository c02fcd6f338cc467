"""A rate budget's logic, as pure steps on one key's state (decisions: Rate budgets; Rate budgets
past one machine).

A key's state is a dict of numbers (``next``: the first free slot; ``sent``: the last send;
``interval``, ``blocked_until``, ``resets_at``: what the provider said), and ``now`` is the store's
clock. :func:`book` books a caller's slot after the last booked and the last sent; at its slot,
the caller :func:`stamp`\\ s its send once the last send is a full spacing ago; :func:`learn`
adopts what the provider's reply said. Each store (:mod:`webtap.budget.store`) runs these steps
atomically where it keeps the state: under a file's ``flock``, in a Ray actor, or (the same steps
once more, in Lua) inside Redis. :class:`webtap.budget.rate.RateBudget` is what callers use.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = [
    "MARGIN",
    "MAX_AHEAD",
    "MAX_INTERVAL",
    "MIN_GAP",
    "RECHECK",
    "Pace",
    "Rule",
    "Turn",
    "book",
    "learn",
    "spacing",
    "stamp",
]

# Slots are spaced a little wider than the limit: requests leave on time but arrive with
# network jitter, and the provider counts arrivals.
MARGIN = 0.05
MIN_GAP = 0.1  # seconds added to a spacing, for the same reason (a tenth of it at most)

MAX_INTERVAL = 60.0  # a "limit" slower than a request a minute is a garbled header
MAX_AHEAD = 3600.0  # a booked slot further away than this is a garbled file or a clock jump
RECHECK = 600.0  # seconds a used-up quota is believed before one caller asks the provider again


def spacing(interval: float) -> float:
    """Seconds between two requests under a limit of one per ``interval`` seconds: wider by
    the margin and the gap, the gap no more than a tenth of the interval (a paid plan's
    50 requests a second must not be held to 10)."""
    return interval * (1 + MARGIN) + min(MIN_GAP, interval / 10)  # 0: unpaced


class Pace(NamedTuple):
    """What a provider's reply says about the pace it allows a key (each ``None`` when it says
    nothing): its rate, a wait, a used-up quota. (Not :class:`webtap.net.Limits`, a request's
    size and redirect limits.)"""

    per_second: float | None = None  # requests allowed per second
    wait: float | None = None  # seconds before the next request may go (window used up)
    blocked_for: float | None = None  # seconds until a used-up longer quota resets


class Rule(NamedTuple):
    """What a store needs to know of a budget besides its state."""

    interval: float  # seconds per request until the provider says otherwise (0: unpaced)
    quota: bool = False  # whether a used-up quota stops callers (the provider has one)


class Turn(NamedTuple):
    """A store's answer to a caller asking for its turn (:func:`book`)."""

    wait: float  # seconds until the caller's slot
    interval: float  # seconds per request in force (0: unpaced)
    booked: bool  # False: the slot lies beyond the caller's patience; nothing was booked
    resets_in: float | None = None  # a used-up quota: seconds until it resets (nothing booked)


def book(state: dict[str, Any], now: float, rule: Rule, patience: float) -> Turn:
    """Book the caller's slot: the first free one after the last booked and the last sent, if
    it comes within ``patience`` seconds."""
    interval = _interval(state, rule)
    blocked_until = float(state.get("blocked_until") or 0)
    if rule.quota and blocked_until > now:
        resets_at = float(state.get("resets_at") or blocked_until)
        return Turn(0.0, interval, False, max(resets_at - now, 0.0))
    gap = spacing(interval)
    slot = max(now, _near(state, "next", now), _near(state, "sent", now) + gap)
    wait = slot - now
    if wait > patience:
        return Turn(wait, interval, False)
    state["next"] = slot + gap
    return Turn(wait, interval, True)


def stamp(state: dict[str, Any], now: float, rule: Rule) -> float:
    """Record a send now if the last one is a full spacing ago (returns 0.0); else the seconds
    until it is, and nothing changes. A caller that left its slot late so cannot make the next
    one arrive too early."""
    ready = _near(state, "sent", now) + spacing(_interval(state, rule))
    if ready <= now:
        state["sent"] = now
        return 0.0
    return ready - now


def learn(state: dict[str, Any], now: float, pace: Pace) -> None:
    """Adopt what the provider said: its per-second limit, a wait, a used-up quota."""
    if pace.per_second and pace.per_second > 0:
        state["interval"] = 1 / pace.per_second
    if pace.wait is not None and pace.wait > 0:
        state["next"] = max(float(state.get("next") or 0), now + pace.wait)
    if pace.blocked_for is not None and pace.blocked_for > 0:
        # Callers stop until the quota resets, but one asks again every few minutes:
        # a plan upgraded meanwhile is not locked out for the rest of the month.
        state["blocked_until"] = now + min(pace.blocked_for, RECHECK)
        state["resets_at"] = now + pace.blocked_for


def _interval(state: dict[str, Any], rule: Rule) -> float:
    learned = float(state.get("interval") or 0)
    return min(learned or rule.interval, MAX_INTERVAL)


def _near(state: dict[str, Any], name: str, now: float) -> float:
    """A time from the state; one further ahead than :data:`MAX_AHEAD` (a garbled file, a clock
    that jumped back) counts as none."""
    value = float(state.get(name) or 0)
    return value if value < now + MAX_AHEAD else 0.0
