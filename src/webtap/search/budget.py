"""One rate budget per key, shared by every process and thread of the user (DESIGN 13).

Each key has a small JSON file in ``<cache folder>/ratelimit/``, named by a hash of the
provider and the key (never the key). A caller takes the file's ``flock``, reads when the next
request may go, books the slot after it, writes, and lets go: the lock is held for a read and a
write, never while waiting or calling. Then it sleeps until its slot. The kernel drops a
``flock`` when its holder dies, even by SIGKILL, so a killed process never blocks anyone; a file
that a killed writer left half-written reads as a fresh budget.

A caller whose slot lies beyond its own deadline books nothing and fails at once with
``RATE_LIMIT``, instead of spending a request the provider would refuse.

The spacing starts from a documented default per provider (Brave's free plan: 1 request a
second; Google: 100 a minute), overridable with ``WEBTAP_BRAVE_RATE`` / ``WEBTAP_GOOGLE_RATE``
(requests per second), and then follows what the provider says in its replies (Brave's
``X-RateLimit-Limit``/``-Remaining``/``-Reset``): a paid plan's higher limit speeds callers up, a
used-up monthly quota stops them until it resets. A budget that cannot be kept (read-only
folder, no ``flock``) lets requests through unpaced rather than fail them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from webtap.errors import RateLimit, WebtapError
from webtap.net import Deadline

__all__ = ["MARGIN", "Pace", "RateBudget", "TurnDeadline"]

# Slots are spaced a little wider than the limit: requests leave on time but arrive with
# network jitter, and the provider counts arrivals.
MARGIN = 0.05
MIN_GAP = 0.1  # seconds added to a spacing, for the same reason (a tenth of it at most)

MAX_INTERVAL = 60.0  # a "limit" slower than a request a minute is a garbled header
MAX_AHEAD = 3600.0  # a booked slot further away than this is a garbled file or a clock jump
MAX_TIME = 1e11
RECHECK = 600.0  # seconds a used-up quota is believed before one caller asks the provider again


def _spacing(interval: float) -> float:
    """Seconds between two requests under a limit of one per ``interval`` seconds: wider by
    the margin and the gap, the gap no more than a tenth of the interval (a paid plan's
    50 requests a second must not be held to 10)."""
    return interval * (1 + MARGIN) + min(MIN_GAP, interval / 10)


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


class Pace(NamedTuple):
    """What a provider's reply says about the pace it allows a key (each ``None`` when it says
    nothing): its rate, a wait, a used-up quota. (Not :class:`webtap.net.Limits`, a request's
    size and redirect limits.)"""

    per_second: float | None = None  # requests allowed per second
    wait: float | None = None  # seconds before the next request may go (window used up)
    blocked_for: float | None = None  # seconds until a used-up longer quota resets


class RateBudget:
    """The shared budget of one provider key."""

    def __init__(
        self,
        provider: str,
        key: str,
        *,
        what: str,
        quota_error: Callable[[float], WebtapError] | None = None,
    ) -> None:
        self.provider = provider
        self.what = what
        self.quota_error = quota_error
        digest = hashlib.sha256(f"{provider}\0{key}".encode("utf-8", "surrogatepass"))
        self.key_id = digest.hexdigest()[:32]

    @property
    def path(self) -> Any:
        from webtap.cache import cache_dir

        return cache_dir() / "ratelimit" / f"{self.provider}-{self.key_id}.json"

    def default_rate(self) -> float:
        """Requests per second before the provider has said anything: its record's rate, or
        the variable that overrides it (the setting its record declares,
        :mod:`webtap.providers`)."""
        from webtap.providers import PROVIDERS

        record = PROVIDERS.get(self.provider)
        if record is None or not record.rate:
            return 1.0
        return record.rate_setting.get() if record.rate_setting is not None else record.rate

    def acquire(self, deadline: Deadline) -> None:
        """Wait for this caller's turn, or raise ``RATE_LIMIT`` when it would come too late.

        First a slot is booked in line (callers go in the order they asked); then, at the
        slot, the request is stamped as sent only once the last one sent is a full spacing
        ago, so a caller that left its slot late cannot make the next one arrive too early.
        """
        now = time.time()
        with self._state() as state:
            if state is None:
                _started(deadline)
                return  # no budget can be kept here: go unpaced
            blocked_until = float(state.get("blocked_until") or 0)
            if blocked_until > now and self.quota_error is not None:
                resets_at = float(state.get("resets_at") or blocked_until)
                raise self.quota_error(max(resets_at - now, 0.0))
            interval = self._interval(state)
            spacing = _spacing(interval)
            slot = max(now, _near(state, "next", now), _near(state, "sent", now) + spacing)
            wait = slot - now
            if wait > _patience(deadline) - 0.5:
                raise self._too_late(wait, interval)
            state["next"] = slot + spacing
        if wait > 0:
            time.sleep(wait)
        self._stamp(deadline)
        _started(deadline)

    def _stamp(self, deadline: Deadline) -> None:
        """Record the send, once the previous send is a full spacing ago."""
        while True:
            now = time.time()
            with self._state() as state:
                if state is None:
                    return
                interval = self._interval(state)
                ready = _near(state, "sent", now) + _spacing(interval)
                if ready <= now:
                    state["sent"] = now
                    return
            wait = ready - now
            if wait > _patience(deadline) - 0.5:
                raise self._too_late(wait, interval)
            time.sleep(wait)

    def _interval(self, state: dict[str, Any]) -> float:
        learned = float(state.get("interval") or 0)
        return min(learned or 1 / self.default_rate(), MAX_INTERVAL)

    def learn(self, pace: Pace) -> None:
        """Adopt what the provider said: its per-second limit, a wait, a used-up quota."""
        if pace == Pace():
            return
        now = time.time()
        with self._state() as state:
            if state is None:
                return
            if pace.per_second and pace.per_second > 0:
                state["interval"] = 1 / pace.per_second
            if pace.wait is not None and pace.wait > 0:
                state["next"] = max(float(state.get("next") or 0), now + pace.wait)
            if pace.blocked_for is not None and pace.blocked_for > 0:
                # Callers stop until the quota resets, but one asks again every few minutes:
                # a plan upgraded meanwhile is not locked out for the rest of the month.
                state["blocked_until"] = now + min(pace.blocked_for, RECHECK)
                state["resets_at"] = now + pace.blocked_for

    def _too_late(self, wait: float, interval: float) -> RateLimit:
        queued = max(1, round(wait / interval)) if interval else 1
        return RateLimit(
            f"Rate limit: {self.what} allows {1 / interval:.3g} request(s) per second for this "
            f"key, and about {queued} other search(es) are queued ahead of this one; its turn "
            f"would come in {wait:.1f} s, after its deadline. Try again shortly, or give "
            "searches a longer deadline (WEBTAP_SEARCH_DEADLINE)."
        )

    @contextlib.contextmanager
    def _state(self) -> Iterator[dict[str, Any] | None]:
        """The budget's state under an exclusive ``flock``; changes are written back.

        Yields None when the file cannot be used (the caller then goes unpaced).
        """
        try:
            import fcntl

            path = self.path
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


def _near(state: dict[str, Any], name: str, now: float) -> float:
    """A time from the file; one further ahead than :data:`MAX_AHEAD` (a garbled file, a clock
    that jumped back) counts as none."""
    value = float(state.get(name) or 0)
    return value if value < now + MAX_AHEAD else 0.0


def _read(fd: int) -> dict[str, Any]:
    os.lseek(fd, 0, os.SEEK_SET)
    raw = b""
    while chunk := os.read(fd, 4096):
        raw += chunk
        if len(raw) > 65536:
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
