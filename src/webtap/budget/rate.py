"""One rate budget per key, shared by every caller that uses the key (decisions: Rate budgets; Rate
budgets past one machine).

:class:`RateBudget` is what callers use: a search provider's key here, the Anthropic key
(:mod:`webtap.agent.rate`) and, for politeness, a web host (:mod:`webtap.scale.rows`). Its steps are
pure functions in :mod:`webtap.budget.steps`, and where their state lives is a
:mod:`webtap.budget.store` (``WEBTAP_BUDGET``): a small JSON file per key under ``flock`` (one
machine, the default), a named Ray actor (one Ray cluster) or Redis (any engine). Keys are named
by a hash of the provider and the key (never the key). A caller books the slot after the last
one booked (:func:`book`), sleeps until it, and then records its send (:func:`stamp`) once the
last send is a full spacing ago: the state is held for a read and a write, never while waiting
or calling, so a caller killed at any point never blocks anyone, and sends are evenly spaced,
never a burst.

A caller whose slot lies beyond its own deadline books nothing and fails at once with
``RATE_LIMIT``, instead of spending a request the provider would refuse.

The spacing starts from the provider's record (:mod:`webtap.providers`: Brave's free plan, 1
request a second; Google, 100 a minute), overridable with its variable (``WEBTAP_BRAVE_RATE`` /
``WEBTAP_GOOGLE_RATE``, requests per second), and then follows what the provider says in its
replies (Brave's ``X-RateLimit-Limit``/``-Remaining``/``-Reset``): a paid plan's higher limit
speeds callers up, a used-up monthly quota stops them until it resets. A budget that cannot be
kept (read-only folder, no ``flock``) lets requests through unpaced rather than fail them; a
cluster store that cannot be reached refuses (``RATE_LIMIT``) rather than fall back to
per-machine files, which would multiply the key's rate.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from typing import Any

from webtap.budget.file_store import FileStore, budget_path
from webtap.budget.steps import MARGIN, Pace, Rule, Turn, book, learn, stamp
from webtap.budget.store import Store
from webtap.errors import ConfigError, RateLimit, WebtapError, clip
from webtap.net import Deadline
from webtap.providers import PROVIDERS
from webtap.settings import BUDGET, env_float

__all__ = [
    "MARGIN",
    "Pace",
    "RateBudget",
    "Rule",
    "Turn",
    "TurnDeadline",
    "book",
    "budget_store",
    "learn",
    "stamp",
]


class TurnDeadline(Deadline):
    """A search's deadline that starts when its turn in the rate budget comes.

    The caller may wait for its turn up to ``wait`` seconds (its own larger deadline: the ask
    loop's whole question), and then has ``seconds`` for the search itself, as if it had just
    begun; never past the end of the wait.
    """

    def __init__(self, seconds: float, wait: float) -> None:
        super().__init__(min(seconds, wait))
        self.search_seconds = seconds
        self.wait_end = time.monotonic() + wait
        self.started = False

    def wait_remaining(self) -> float:
        return self.wait_end - time.monotonic()

    def start(self) -> None:
        """The turn came: the search's own seconds count from now (once)."""
        if not self.started:
            self.started = True
            self.end = min(time.monotonic() + self.search_seconds, self.wait_end)


def _patience(deadline: Deadline) -> float:
    """How long a caller may wait for its turn."""
    if isinstance(deadline, TurnDeadline) and not deadline.started:
        return deadline.wait_remaining()
    return deadline.remaining()


def _started(deadline: Deadline) -> None:
    if isinstance(deadline, TurnDeadline):
        deadline.start()


# -- the budget of one key ----------------------------------------------------------------------


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
        return FileStore()
    # The other stores are the optional extra's (Ray, Redis): imported only when named.
    if setting == "ray":
        from webtap.budget.ray_store import RayStore

        return RayStore()
    if setting.startswith(("redis://", "rediss://", "unix://")):
        from webtap.budget.redis_store import RedisStore

        return RedisStore(setting)
    # The value may be a mistyped URL with a password in it: it is quoted only without one.
    shown = f" (got {clip(setting, 40)!r})" if "@" not in setting else ""
    raise ConfigError(
        f"{BUDGET.name} must be 'file' (one machine, the default), 'ray' (one Ray cluster) or a "
        f"redis:// URL (any engine){shown}; fix it, or unset it to use the default"
    )


class RateBudget:
    """The shared budget of one provider key (or of one web host, for politeness).

    ``rate`` (requests a second; 0 for none until the provider says) overrides the provider's
    default; ``store`` the one ``WEBTAP_BUDGET`` names. ``calls`` and ``hint`` word the error
    of a turn that would come too late.
    """

    def __init__(
        self,
        provider: str,
        key: str,
        *,
        what: str,
        quota_error: Callable[[float], WebtapError] | None = None,
        rate: float | None = None,
        store: Store | None = None,
        calls: str = "search(es)",
        hint: str = "give searches a longer deadline (WEBTAP_SEARCH_DEADLINE)",
    ) -> None:
        self.provider = provider
        self.what = what
        self.quota_error = quota_error
        self.rate = rate
        self.calls = calls
        self.hint = hint
        self._store = store
        digest = hashlib.sha256(f"{provider}\0{key}".encode("utf-8", "surrogatepass"))
        self.key_id = digest.hexdigest()[:32]
        self.name = f"{provider}-{self.key_id}"

    @property
    def store(self) -> Store:
        """Where the budget's state lives: ``store=``, else the one ``WEBTAP_BUDGET`` names."""
        if self._store is None:
            self._store = budget_store()
        return self._store

    @property
    def path(self) -> Any:
        """The file that holds this budget when the store is the file (one machine)."""
        return budget_path(self.name)

    def default_rate(self) -> float:
        """Requests per second before the provider has said anything: its record's rate and
        the variable that overrides it (:mod:`webtap.providers`)."""
        record = PROVIDERS.get(self.provider)
        default = record.rate if record is not None and record.rate else 1.0
        name = record.rate_env if record is not None else None
        return env_float(name, default) if name else default

    def rule(self) -> Rule:
        rate = self.default_rate() if self.rate is None else self.rate
        return Rule(1 / rate if rate > 0 else 0.0, self.quota_error is not None)

    def acquire(self, deadline: Deadline, margin: float = 0.5) -> None:
        """Wait for this caller's turn, or raise ``RATE_LIMIT`` when it would come too late:
        less than ``margin`` seconds before the deadline.

        First a slot is booked in line (callers go in the order they asked); then, at the
        slot, the request is stamped as sent only once the last one sent is a full spacing
        ago, so a caller that left its slot late cannot make the next one arrive too early.
        """
        rule = self.rule()
        turn = self.store.book(self.name, rule, _patience(deadline) - margin)
        if turn is None:
            _started(deadline)
            return  # no budget can be kept here: go unpaced
        if turn.resets_in is not None and self.quota_error is not None:
            raise self.quota_error(turn.resets_in)
        if not turn.booked:
            raise self._too_late(turn.wait, turn.interval)
        if turn.wait > 0:
            time.sleep(turn.wait)
        while wait := self.store.stamp(self.name, rule):
            if wait > _patience(deadline) - margin:
                raise self._too_late(wait, turn.interval)
            time.sleep(wait)
        _started(deadline)

    def learn(self, pace: Pace) -> None:
        """Adopt what the provider said: its per-second limit, a wait, a used-up quota."""
        if pace != Pace():
            self.store.learn(self.name, pace)

    def _too_late(self, wait: float, interval: float) -> RateLimit:
        if interval:
            queued = max(1, round(wait / interval))
            said = (
                f"allows {1 / interval:.3g} request(s) per second for this key, and about "
                f"{queued} other {self.calls} are queued ahead of this one"
            )
        else:
            said = "asked callers of this key to wait"
        return RateLimit(
            f"Rate limit: {self.what} {said}; its turn would come in {wait:.1f} s, after its "
            f"deadline. Try again shortly, or {self.hint}."
        )
