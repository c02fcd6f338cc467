"""What a store of rate budgets is, and how one that cannot be reached refuses.

Where rate budgets keep their state is one setting, ``WEBTAP_BUDGET`` (decision: Rate budgets past
one machine).

=================  ======================================================================
``file``           the default: a small JSON file per key under ``flock``, in the user cache
                   folder; every process and thread of the user on one machine shares it
``ray``            a named, detached Ray actor per provider and key hash (web hosts share a
                   few): every worker of one Ray cluster shares it
``redis://…``      Redis (``rediss://`` and ``unix://`` too): two short Lua steps on the
                   server's clock, for any engine, several clusters, a laptop beside them
=================  ======================================================================

The logic is the same everywhere (:mod:`webtap.budget.steps`: book a slot, then record the
send; even spacing, never a burst); a store only keeps the state and runs the steps atomically
on one clock. A store has three methods, each on the budget named ``name``
(``<provider>-<key hash>``; a key itself never reaches a store):

- ``book(name, rule, patience) -> Turn | None``
- ``stamp(name, rule) -> float | None`` (0.0: stamped; else seconds to wait first)
- ``learn(name, pace) -> None``

The file store answers None when it cannot keep a budget here (callers go unpaced, as on one
machine they always have); a cluster store that cannot be reached raises ``RATE_LIMIT``: falling
back to per-machine files would multiply the key's rate by the number of machines.
"""

from __future__ import annotations

from typing import Protocol

from webtap.budget.steps import Pace, Rule, Turn
from webtap.errors import RateLimit

__all__ = ["Store", "unreachable"]


class Store(Protocol):
    """Where budgets keep their state; each step runs atomically on the budget ``name``."""

    def book(self, name: str, rule: Rule, patience: float) -> Turn | None: ...

    def stamp(self, name: str, rule: Rule) -> float | None: ...

    def learn(self, name: str, pace: Pace) -> None: ...


def unreachable(store: str, why: str, fix: str) -> RateLimit:
    """The refusal of a cluster store that cannot be reached: no fallback to files."""
    return RateLimit(
        f"Rate limit: the {store} that keeps this key's rate budget cannot be reached ({why}). "
        "webtap does not fall back to per-machine budgets, which would multiply the key's rate; "
        f"{fix}"
    )
