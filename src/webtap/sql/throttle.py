"""How many rows may start a model call now: the concurrency setting, lowered while the
model account's rate limit is near."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from webtap.net.retry_after import header_number, retry_after

if TYPE_CHECKING:
    from webtap.agent.rate import RateHeaders

__all__ = ["POLL", "Throttle"]

POLL = 0.1  # seconds between checks for Ctrl-C while rows are being answered


class Throttle:
    """Fewer rows in flight when the model account's limit is near.

    Every response's remaining requests (the header its adapter names: Anthropic's
    ``anthropic-ratelimit-requests-remaining``, OpenAI's ``x-ratelimit-remaining-requests``)
    caps the rows that may start
    (never below one), and ``retry-after`` on a 429/529 holds new rows back until then; a
    response with room again lifts the cap back to the concurrency setting.
    """

    MAX_PAUSE = 60.0

    def __init__(self, concurrency: Callable[[], int]) -> None:
        self._concurrency = concurrency
        self._allowed: int | None = None  # None: the concurrency setting
        self._active = 0
        self._resume_at = 0.0
        self._cond = threading.Condition()

    def __enter__(self) -> None:
        with self._cond:
            while True:
                wait = self._resume_at - time.monotonic()
                allowed = self._allowed or self._concurrency()
                if wait <= 0 and self._active < allowed:
                    self._active += 1
                    return
                self._cond.wait(timeout=wait if wait > 0 else POLL)

    def __exit__(self, *exc: object) -> None:
        with self._cond:
            self._active -= 1
            self._cond.notify_all()

    def observe(self, response: Any, names: RateHeaders) -> None:
        """The SDK's HTTP response hook: read the account's rate-limit headers, as ``names``
        (the adapter's) says them."""
        headers = response.headers
        remaining = header_number(headers.get(names.remaining))
        wait = retry_after(headers)
        with self._cond:
            if wait is not None and response.status_code in (429, 529):
                pause = min(wait, self.MAX_PAUSE)
                self._resume_at = max(self._resume_at, time.monotonic() + pause)
            if remaining is not None:
                self._allowed = max(1, int(remaining)) if remaining < self._concurrency() else None
            self._cond.notify_all()

    @property
    def allowed(self) -> int:
        return self._allowed or self._concurrency()
