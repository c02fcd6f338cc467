"""Wall time of a repeated action, shared by the benchmarks run as scripts from this folder."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def timed(action: Callable[[], object], runs: int, *, warm_up: bool = True) -> tuple[float, float]:
    """(best, median) wall time in seconds of ``runs`` runs, after one warm-up run unless
    ``warm_up`` is False (when the first run is the one that matters, e.g. a cold cache)."""
    if warm_up:
        action()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return min(samples), statistics.median(samples)
