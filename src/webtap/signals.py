"""Stopping a front door by signal: SIGTERM and SIGHUP end a command as Ctrl-C does.

The whole process's policy, for every front door (``webtap ask``, ``sql``, ``batch``, ``mcp``,
``tools run``): which signals stop it (:func:`stop_signals`), what a stop raises
(:class:`Terminated`, a ``KeyboardInterrupt`` whose ``exit_code`` is 128 + the signal), and how
a main thread that waits on a worker takes a signal without leaving a lock held
(:func:`noted_signals`, :func:`run_stoppable`). Killing the tools a stop leaves running is the
host's (:func:`webtap.host.process.stop_tools_on_signals`).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, TypeVar

from webtap.net.deadline import Deadline

__all__ = [
    "Terminated",
    "noted_signals",
    "run_stoppable",
    "signal_name",
    "stop_signals",
    "stopped_by",
]

T = TypeVar("T")


class Terminated(KeyboardInterrupt):
    """webtap was asked to stop by a signal; ``exit_code`` is 128 + its number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal_name(signum))
        self.exit_code = 128 + signum


def stop_signals() -> list[signal.Signals]:
    """The signals that stop a front door -- SIGINT (Ctrl-C), SIGTERM, SIGHUP -- less those
    this process was started ignoring: ``nohup`` ignores SIGHUP, and a shell without job
    control starts a background command with SIGINT ignored, on purpose."""
    found: list[signal.Signals] = []
    for signum in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
            found.append(signum)
    return found


def stopped_by(signum: int) -> KeyboardInterrupt:
    """What a stop by ``signum`` raises: ``KeyboardInterrupt`` for Ctrl-C, else
    :class:`Terminated`."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


@contextlib.contextmanager
def noted_signals() -> Iterator[list[int]]:
    """Within: the stop signals are noted in the list yielded, in order, instead of raising.

    For a main thread that waits on another thread: an exception raised by a signal handler
    can land anywhere, even between a lock's acquire and the ``with`` that would release it
    (``threading.Event.wait`` is such code), and a lock left held there stops both threads
    for good. Noted, the signal is acted on where the waiting code looks at the list. Outside
    the main thread, nothing changes (and nothing is noted).
    """
    received: list[int] = []
    previous: dict[signal.Signals, Any] = {}

    def note(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    try:
        for signum in stop_signals():
            try:
                previous[signum] = signal.signal(signum, note)
            except ValueError:  # not the main thread
                break
        yield received
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def run_stoppable(
    work: Callable[[], T],
    stop: Callable[[], None],
    grace: float,
    done: threading.Event | None = None,
) -> T:
    """``work()`` on a daemon thread of its own, this (main) thread waiting with the stop
    signals only noted (:func:`noted_signals`). The first signal calls ``stop`` and waits up to
    ``grace`` seconds (after a second signal: not at all) for ``work`` to end; then the signal
    is raised here (:func:`stopped_by`). ``done`` is set once ``work`` has ended: still unset
    after a stop, ``work`` runs on, abandoned."""
    outcome: dict[str, Any] = {}
    done = done or threading.Event()

    def target() -> None:
        try:
            outcome["result"] = work()
        except BaseException as exc:  # handed to the main thread
            outcome["error"] = exc
        finally:
            done.set()

    with noted_signals() as received:
        threading.Thread(target=target, name="webtap-stoppable", daemon=True).start()
        while not done.wait(0.1) and not received:
            pass
        if received and not done.is_set():
            stop()
            deadline = Deadline(grace)
            while len(received) < 2 and not done.is_set():
                left = deadline.remaining()
                if left <= 0:
                    break
                done.wait(min(left, 0.1))
    if received:
        raise stopped_by(received[0])
    if "error" in outcome:
        raise outcome["error"]
    result: T = outcome["result"]
    return result


def signal_name(number: int) -> str:
    """``11`` -> ``SIGSEGV``."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
