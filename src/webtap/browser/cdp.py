"""The Chrome DevTools Protocol over ``--remote-debugging-pipe``: messages as NUL-ended JSON.

Chromium reads commands on its fd 3 and writes answers and events on its fd 4. A pipe, not a
WebSocket on a TCP port: no port on the machine that another local process (or a page, were the
guard ever off) could reach, no WebSocket library to import, and when this process dies, however
it dies, Chromium reads end-of-file and exits by itself.

:class:`Connection` is the one pipe: a reader thread splits the stream into messages, hands
each answer to the thread waiting for it (by ``id``) and each event to the queue of the session
it belongs to (flat sessions: ``Target.attachToTarget(flatten=True)`` puts a ``sessionId`` on
every message of a tab). Nothing here knows about pages; :mod:`webtap.browser.tab` does.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import threading
from typing import Any

__all__ = ["CDPError", "Connection", "ConnectionClosed", "Event"]

_CHUNK = 1 << 16
MAX_MESSAGE = 256 * 1024 * 1024  # an answer bigger than this ends the connection


class CDPError(Exception):
    """Chromium answered a command with an error (its message)."""


class ConnectionClosed(CDPError):
    """The browser went away: the pipe ended, or it was closed on purpose."""


Event = tuple[str, dict[str, Any]]  # (method, params)


class _Waiter:
    __slots__ = ("answer", "done")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.answer: dict[str, Any] | None = None


class Connection:
    """One browser's DevTools pipe, shared by every thread that drives one of its tabs."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._read_fd = read_fd
        self._write_fd = write_fd
        self._ids = itertools.count(1)
        self._write_lock = threading.Lock()
        self._lock = threading.Lock()
        self._waiters: dict[int, _Waiter] = {}
        self._queues: dict[str, queue.SimpleQueue[Event]] = {}
        self.closed = threading.Event()
        self._reader = threading.Thread(target=self._read_loop, name="webtap-cdp", daemon=True)
        self._reader.start()

    # --- commands -----------------------------------------------------------------------

    def call(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session: str | None = None,
        timeout: float,
    ) -> dict[str, Any]:
        """Send one command and wait up to ``timeout`` seconds for its answer's ``result``.

        Raises :class:`CDPError` for an error answer, :class:`ConnectionClosed` when the
        browser is gone, ``TimeoutError`` when no answer came in time.
        """
        if self.closed.is_set():
            raise ConnectionClosed("the browser has exited")
        number = next(self._ids)
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        waiter = _Waiter()
        with self._lock:
            self._waiters[number] = waiter
        try:
            self._write(json.dumps(message, separators=(",", ":")).encode() + b"\0")
            if not waiter.done.wait(max(timeout, 0.0)):
                raise TimeoutError(f"the browser did not answer {method} in time")
        finally:
            with self._lock:
                self._waiters.pop(number, None)
        answer = waiter.answer
        if answer is None:
            raise ConnectionClosed("the browser exited before answering")
        if "error" in answer:
            error = answer["error"]
            raise CDPError(f"{method}: {error.get('message', error)}")
        return answer.get("result", {})

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        with self._write_lock:
            try:
                while view:
                    view = view[os.write(self._write_fd, view) :]
            except OSError:
                self._close()
                raise ConnectionClosed("the browser has exited") from None

    # --- events -------------------------------------------------------------------------

    def events(self, session: str) -> queue.SimpleQueue[Event]:
        """The queue that will receive ``session``'s events from now on (one per session)."""
        with self._lock:
            return self._queues.setdefault(session, queue.SimpleQueue())

    def forget(self, session: str) -> None:
        """Stop keeping ``session``'s events (its tab is gone)."""
        with self._lock:
            self._queues.pop(session, None)

    # --- the reader ---------------------------------------------------------------------

    def _read_loop(self) -> None:
        pending = bytearray()
        try:
            while True:
                try:
                    chunk = os.read(self._read_fd, _CHUNK)
                except OSError:
                    break
                if not chunk:
                    break
                start = len(pending)
                pending += chunk
                end = pending.find(b"\0", start)
                while end != -1:
                    self._dispatch(bytes(pending[:end]))
                    del pending[: end + 1]
                    end = pending.find(b"\0")
                if len(pending) > MAX_MESSAGE:
                    break
        finally:
            self._close()

    def _dispatch(self, raw: bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            return  # not ours to crash on: Chromium writes only JSON here
        if not isinstance(message, dict):
            return
        number = message.get("id")
        with self._lock:
            if number is not None:
                waiter = self._waiters.get(number)
                if waiter is not None:
                    waiter.answer = message
                    waiter.done.set()
                return
            box = self._queues.get(message.get("sessionId", ""))
        if box is not None:
            box.put((message.get("method", ""), message.get("params") or {}))

    def _close(self) -> None:
        with self._lock:
            if self.closed.is_set():
                return
            self.closed.set()
            waiters = list(self._waiters.values())
            boxes = list(self._queues.values())
        for waiter in waiters:
            waiter.done.set()  # answer stays None: ConnectionClosed
        for box in boxes:
            box.put(("webtap.closed", {}))

    def close(self, wait: float = 1.0) -> None:
        """Close our end of the pipe (the browser then exits by itself); the read end is
        closed once the reader has seen the browser's end close, within ``wait`` seconds."""
        self._close()
        with self._write_lock:
            fd, self._write_fd = self._write_fd, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
        if threading.current_thread() is not self._reader:
            self._reader.join(wait)
        if not self._reader.is_alive() and self._read_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._read_fd)
            self._read_fd = -1
