"""Politeness per host, provable (decision: Polite crawl): never two requests to a host closer
than its delay, a few connections at most, and a ``Retry-After`` waited out by everyone.

A host's delay is its robots.txt's ``Crawl-delay`` (or ``Request-rate``) for webtap's token,
else ``WEBTAP_HOST_RATE``; ``--rate`` only ever makes it longer. The spacing itself is the
host's :class:`~webtap.budget.rate.RateBudget` (the one ``webtap batch`` uses for the host), so
two crawls of one site, or a crawl and a batch, share it, in the store ``WEBTAP_BUDGET`` names
(a file on one machine; Ray's or Redis's on a cluster). A ``429`` or ``503`` with
``Retry-After`` pushes the host's next slot past the wait, in the budget and here, so a
request booked before the answer came waits too.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from webtap.budget.rate import RateBudget
from webtap.budget.steps import Pace
from webtap.net import Deadline
from webtap.settings import HOST_RATE

__all__ = ["MAX_WAIT", "Host", "spacing"]

MAX_WAIT = 3600.0  # seconds a request may wait for its host's turn
HOST_CALLS = "fetch(es) of this host"


def spacing(delay: float | None, rate: float | None = None) -> float:
    """Seconds between two requests to a host: its robots.txt's ``delay``, else
    ``WEBTAP_HOST_RATE``'s; ``rate`` (requests a second) only ever widens it."""
    if delay is None:
        delay = 1 / HOST_RATE.get()
    return max(delay, 1 / rate) if rate else delay


class Host:
    """One host's turn-taking: its spacing (``interval`` seconds, 0 for none), its pause."""

    def __init__(self, name: str, interval: float, connections: int) -> None:
        self.name = name
        self.interval = interval
        self.connections = connections
        self.busy = 0  # requests in flight (the crawler's loop counts them)
        self._paused_until = 0.0
        self._lock = threading.Lock()
        self._budget: Any = None

    def budget(self) -> Any:
        if self._budget is None:
            self._budget = RateBudget(
                "host",
                self.name,
                what=f"politeness to {self.name}",
                rate=1 / self.interval if self.interval > 0 else 0.0,
                calls=HOST_CALLS,
                hint="let the crawl take its time",
            )
        return self._budget

    def turn(self) -> None:
        """Wait for this host's next slot (a pause included); then the request may go."""
        while True:
            self.budget().acquire(Deadline(MAX_WAIT), margin=0.0)
            with self._lock:
                paused = self._paused_until - time.monotonic()
            if paused <= 0:
                return
            time.sleep(paused)

    def pause(self, seconds: float) -> None:
        """The host asked for ``seconds`` of quiet (``Retry-After``)."""
        with self._lock:
            self._paused_until = max(self._paused_until, time.monotonic() + seconds)
        self.budget().learn(Pace(wait=seconds))

    def free(self) -> bool:
        return self.busy < self.connections
