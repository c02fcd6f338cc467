"""The worker pool that runs the rows' model calls (and, for :mod:`webtap.scale.rows`, their
fetches)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

__all__ = ["Pool"]


class Pool:
    """A bounded pool of daemon threads, so that a cancelled query never holds the process
    open while its abandoned model calls run to their timeout."""

    def __init__(self, workers: int, name: str = "stps_ask_ai") -> None:
        self.workers = workers
        self.name = name  # its threads' names: name_0, name_1, ...
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._queue.put((future, function, args))
        with self._lock:
            if len(self._threads) < self.workers:
                thread = threading.Thread(
                    target=self._work, name=f"{self.name}_{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
        return future

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            future, function, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(function(*args))
            except BaseException as exc:
                future.set_exception(exc)

    def shutdown(self, cancel: bool = True) -> None:
        """No more work; with ``cancel``, the waiting items are cancelled too."""
        if cancel:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
        with self._lock:
            for _ in self._threads:
                self._queue.put(None)
