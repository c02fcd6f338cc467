"""The Ray store: budgets held by named, detached Ray actors, shared by one Ray cluster.

Each provider key has its own actor, ``webtap-budget-<provider>-<key hash>`` in the ``webtap``
namespace; web hosts (politeness) share :data:`HOST_SHARDS` actors, so that a crawl of a
million hosts is not a million actors. An actor runs one call at a time, so each step
(:func:`webtap.budget.steps.book`, ``stamp``, ``learn``) is atomic, on the actor's clock.

A killed caller holds nothing. A killed actor is restarted by Ray (``max_restarts=-1``) and the
calls in flight are retried on it (``max_task_retries=-1``); it comes back without its state,
so for budgets it has not seen since it started it assumes a request was sent when it started:
no burst follows a restart. A cluster that cannot be reached, or an actor that does not answer
within :data:`CALL_TIMEOUT`, refuses with ``RATE_LIMIT``.
"""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

import ray
from ray.exceptions import GetTimeoutError, RayError

from webtap.budget.steps import Pace, Rule, Turn, book, learn, stamp
from webtap.budget.store import unreachable

__all__ = ["ACTOR_PREFIX", "HOST_SHARDS", "NAMESPACE", "BudgetKeeper", "RayStore", "actor_name"]

NAMESPACE = "webtap"
ACTOR_PREFIX = "webtap-budget-"
HOST_SHARDS = 16
CALL_TIMEOUT = 30.0  # seconds; an actor being restarted answers within a few
MAX_STATES = 100_000  # per actor: the least recently used go first (a crawl's hosts)


def actor_name(name: str) -> str:
    """The actor that keeps the budget ``name`` (``<provider>-<key hash>``)."""
    provider, _, key_id = name.partition("-")
    if provider == "host":
        return f"{ACTOR_PREFIX}host-{zlib.crc32(key_id.encode()) % HOST_SHARDS}"
    return ACTOR_PREFIX + name


class BudgetKeeper:
    """The actor: budgets' states, and the steps run on them one call at a time."""

    def __init__(self) -> None:
        self.started = time.time()
        self.states: dict[str, dict[str, Any]] = {}

    def book(self, name: str, rule: Rule, patience: float) -> Turn:
        return self._run(name, book, rule, patience)

    def stamp(self, name: str, rule: Rule) -> float:
        return self._run(name, stamp, rule)

    def learn(self, name: str, pace: Pace) -> None:
        self._run(name, learn, pace)

    def start_time(self) -> float:
        return self.started

    def _run(self, name: str, step: Callable[..., Any], *args: Any) -> Any:
        state = self.states.pop(name, None)
        if state is None:
            # Unknown here: a new key, or one this actor forgot by dying. Assume a request
            # went when the actor started; an actor up longer than a spacing loses nothing.
            state = {"sent": self.started}
        self.states[name] = state  # most recently used last
        while len(self.states) > MAX_STATES:
            self.states.pop(next(iter(self.states)))
        return step(state, time.time(), *args)


class RayStore:
    """Budgets in named actors of the Ray cluster this process is connected to."""

    def __init__(self) -> None:
        self._handles: dict[str, Any] = {}
        self._lock = threading.Lock()

    def book(self, name: str, rule: Rule, patience: float) -> Turn:
        return self._call(name, "book", rule, patience)

    def stamp(self, name: str, rule: Rule) -> float:
        return self._call(name, "stamp", rule)

    def learn(self, name: str, pace: Pace) -> None:
        self._call(name, "learn", pace)

    def keeper(self, name: str) -> Any:
        """The actor handle for the budget ``name``, made if it does not exist yet."""
        if not ray.is_initialized():
            raise unreachable(
                "Ray cluster",
                "this process is not connected to one",
                "call ray.init() first (Ray's workers are), or set WEBTAP_BUDGET to a redis:// "
                "URL.",
            )
        actor = actor_name(name)
        with self._lock:
            handle = self._handles.get(actor)
            if handle is None:
                keeper = ray.remote(BudgetKeeper).options(
                    name=actor,
                    namespace=NAMESPACE,
                    lifetime="detached",
                    get_if_exists=True,
                    max_restarts=-1,
                    max_task_retries=-1,
                    num_cpus=0,
                )
                handle = self._handles[actor] = keeper.remote()
            return handle

    def _call(self, name: str, method: str, *args: Any) -> Any:
        for attempt in range(2):
            try:
                handle = self.keeper(name)
                return ray.get(getattr(handle, method).remote(name, *args), timeout=CALL_TIMEOUT)
            except GetTimeoutError:
                why = f"its budget actor did not answer within {CALL_TIMEOUT:g} s"
            except (RayError, ConnectionError) as exc:
                # An actor killed for good: the next attempt makes it anew.
                why = f"{type(exc).__name__}"
                with self._lock:
                    self._handles.pop(actor_name(name), None)
            if attempt:
                break
        raise unreachable("Ray cluster", why, "check the cluster, or try again.")
