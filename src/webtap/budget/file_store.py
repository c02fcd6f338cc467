"""The file store: one small JSON file per budget, under an exclusive ``flock``.

Every process and thread of the user on one machine shares it. The lock is held for a read and
a write, never while waiting or calling. The kernel drops a ``flock`` when its holder dies, even
by SIGKILL, so a killed process never blocks anyone; a file that a killed writer left
half-written reads as a fresh budget. Where no budget can be kept (a read-only folder, no
``flock``), every step answers None and callers go unpaced.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from webtap.budget.steps import Pace, Rule, Turn, book, learn, stamp
from webtap.cache import cache_dir

__all__ = ["FileStore", "budget_path"]

MAX_TIME = 1e11
MAX_BYTES = 65536


def budget_path(name: str) -> Path:
    return cache_dir() / "ratelimit" / f"{name}.json"


class FileStore:
    """Budgets in ``<cache folder>/ratelimit/<provider>-<key hash>.json``."""

    def book(self, name: str, rule: Rule, patience: float) -> Turn | None:
        return self._run(name, book, rule, patience)

    def stamp(self, name: str, rule: Rule) -> float | None:
        return self._run(name, stamp, rule)

    def learn(self, name: str, pace: Pace) -> None:
        self._run(name, learn, pace)

    def _run(self, name: str, step: Callable[..., Any], *args: Any) -> Any:
        with _state(budget_path(name)) as state:
            if state is None:
                return None
            return step(state, time.time(), *args)


@contextlib.contextmanager
def _state(path: Path) -> Iterator[dict[str, Any] | None]:
    """The budget's state under an exclusive ``flock``; changes are written back.

    Yields None when the file cannot be used (the caller then goes unpaced).
    """
    try:
        import fcntl  # not on every platform: without flock, the budget goes unpaced

        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(path, flags, 0o600)
    except (ImportError, OSError, ValueError):
        yield None
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            state = _read(fd)
        except OSError:
            state = None
        before = dict(state) if state is not None else None
        yield state
        if state is not None and state != before:
            with contextlib.suppress(OSError):
                _write(fd, state)
    finally:
        os.close(fd)  # closing drops the lock


def _read(fd: int) -> dict[str, Any]:
    os.lseek(fd, 0, os.SEEK_SET)
    raw = b""
    while chunk := os.read(fd, 4096):
        raw += chunk
        if len(raw) > MAX_BYTES:
            break
    try:
        state = json.loads(raw) if raw.strip() else {}
    except ValueError:  # half-written by a killed process: start afresh
        return {}
    if not isinstance(state, dict):
        return {}
    # Only numbers are trusted; anything else is dropped.
    return {k: v for k, v in state.items() if type(v) in (int, float) and 0 <= v < MAX_TIME}


def _write(fd: int, state: dict[str, Any]) -> None:
    data = json.dumps(state, sort_keys=True).encode()
    os.lseek(fd, 0, os.SEEK_SET)
    os.ftruncate(fd, 0)
    os.write(fd, data)
