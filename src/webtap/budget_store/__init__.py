"""Where rate budgets keep their state: one setting, ``WEBTAP_BUDGET`` (DESIGN 16).

=================  ======================================================================
``file``           the default: a small JSON file per key under ``flock``, in the user cache
                   folder; every process and thread of the user on one machine shares it
``ray``            a named, detached Ray actor per provider and key hash (web hosts share a
                   few): every worker of one Ray cluster shares it
``redis://…``      Redis (``rediss://`` and ``unix://`` too): two short Lua steps on the
                   server's clock, for any engine, several clusters, a laptop beside them
=================  ======================================================================

The logic is the same everywhere (:mod:`webtap.budget_store.steps`: book a slot, then record the
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

import threading
from typing import Protocol

from webtap.budget_store.steps import Pace, Rule, Turn
from webtap.errors import ConfigError, RateLimit, clip
from webtap.settings import BUDGET

__all__ = ["Store", "budget_store", "unreachable"]


class Store(Protocol):
    """Where budgets keep their state; each step runs atomically on the budget ``name``."""

    def book(self, name: str, rule: Rule, patience: float) -> Turn | None: ...

    def stamp(self, name: str, rule: Rule) -> float | None: ...

    def learn(self, name: str, pace: Pace) -> None: ...


_stores: dict[str, Store] = {}
_lock = threading.Lock()


def budget_store() -> Store:
    """The store ``WEBTAP_BUDGET`` names, made once per process and setting."""
    raw = BUDGET.get() or ""
    setting = raw.lower() if raw.lower() in ("", "file", "ray") else raw
    with _lock:
        store = _stores.get(setting)
        if store is None:
            store = _stores[setting] = _make(setting)
        return store


def _make(setting: str) -> Store:
    if setting in ("", "file"):
        from webtap.budget_store.file import FileStore

        return FileStore()
    if setting == "ray":
        from webtap.budget_store.ray_actor import RayStore

        return RayStore()
    if setting.startswith(("redis://", "rediss://", "unix://")):
        from webtap.budget_store.redis_store import RedisStore

        return RedisStore(setting)
    # The value may be a mistyped URL with a password in it: it is quoted only without one.
    shown = f" (got {clip(setting, 40)!r})" if "@" not in setting else ""
    raise ConfigError(
        f"{BUDGET.name} must be 'file' (one machine, the default), 'ray' (one Ray cluster) or a "
        f"redis:// URL (any engine){shown}; fix it, or unset it to use the default"
    )


def unreachable(store: str, why: str, fix: str) -> RateLimit:
    """The refusal of a cluster store that cannot be reached: no fallback to files."""
    return RateLimit(
        f"Rate limit: the {store} that keeps this key's rate budget cannot be reached ({why}). "
        "webtap does not fall back to per-machine budgets, which would multiply the key's rate; "
        f"{fix}"
    )
