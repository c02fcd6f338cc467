"""Time and size settings of a request, and the overall deadline that bounds all of it."""

from __future__ import annotations

import time
from typing import NamedTuple

__all__ = ["DEFAULT_LIMITS", "DEFAULT_TIMEOUTS", "Deadline", "Limits", "Timeouts"]


class Timeouts(NamedTuple):
    """Seconds. ``connect`` bounds each connection; ``read`` each read; ``total`` a whole
    operation (every hop, every read)."""

    connect: float = 10.0
    read: float = 20.0
    total: float = 30.0


class Limits(NamedTuple):
    """Sizes in bytes and counts."""

    max_body: int = 10 * 1024 * 1024
    max_redirects: int = 10


DEFAULT_TIMEOUTS = Timeouts()
DEFAULT_LIMITS = Limits()


class Deadline:
    """A point in time by which a whole operation (every hop, every read) must be done."""

    __slots__ = ("end", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def remaining(self) -> float:
        return self.end - time.monotonic()

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0

    def clamp(self, timeout: float | None, timeout_error: type[Exception]) -> float:
        """``timeout`` cut to what is left, or ``timeout_error`` when nothing is left."""
        left = self.remaining()
        if left <= 0:
            raise timeout_error(f"the overall deadline of {self.seconds:g} s has passed")
        return left if timeout is None else min(timeout, left)
