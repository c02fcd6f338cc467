"""The two process models: a long-lived :class:`Browser` with a few tabs, and :func:`render`.

A one-shot caller (the fetch executable: one page, then exit) calls :func:`render`, which starts
a browser, renders, and kills it. A long-lived host (``webtap mcp``, the ask loop, the SQL
functions) keeps one :class:`Browser`: it starts Chromium on first use, renders up to ``tabs``
pages at once (each in its own context, see :mod:`webtap.browser.tab`), starts a new Chromium
when the old one died or stopped answering, and kills it on :meth:`Browser.close`, at exit, or
from :func:`webtap.browser.launch.kill_all` in a signal handler.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from webtap.browser.cdp import CDPError
from webtap.browser.find import browser_path
from webtap.browser.launch import BrowserProcess
from webtap.browser.proxy import DEFAULT_PROXY_LIMITS, DENY_ALL, Policy, ProxyLimits, ProxySession
from webtap.browser.tab import BrowserExited, Rendered, RenderFailed, render_tab
from webtap.errors import clip
from webtap.net.deadline import Deadline

if TYPE_CHECKING:
    from collections.abc import Collection
    from types import TracebackType

    from webtap.guard import Guard

__all__ = ["DEFAULT_TABS", "Browser", "render"]

DEFAULT_TABS = 3
_NEVER = 10 * 365 * 24 * 3600.0  # the deny-all listener lives as long as its browser
_RETRY_MIN = 2.0  # seconds left that make a second try in a new browser worth it


class Browser:
    """One Chromium for many renders, ``tabs`` at a time; restarted when it dies.

    Thread-safe: each render runs in the calling thread. Use it as a context manager, or call
    :meth:`close`.
    """

    def __init__(
        self,
        executable: str | None = None,
        *,
        tabs: int = DEFAULT_TABS,
        limits: ProxyLimits = DEFAULT_PROXY_LIMITS,
    ) -> None:
        if tabs < 1:
            raise ValueError(f"tabs must be 1 or more, got {tabs}")
        self.executable = executable or browser_path()
        self.limits = limits
        self.launches = 0  # how many times a Chromium was started (restarts show here)
        self._tabs = threading.BoundedSemaphore(tabs)
        self._lock = threading.Lock()
        self._process: BrowserProcess | None = None
        self._deny_all: ProxySession | None = None
        self._closed = False

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The running Chromium's process id (``None`` before the first render)."""
        process = self._process
        return process.pid if process is not None else None

    def render(
        self,
        url: str,
        *,
        deadline: Deadline | float,
        guard: Guard | None,
        origins: Collection[tuple[str, int]] = (),
        user_agent: str | None = None,
        max_html: int = 10 * 1024 * 1024,
    ) -> Rendered:
        """Render ``url`` until settled or the deadline (seconds, or a shared
        :class:`Deadline` that also bounds waiting for a free tab and starting Chromium).

        Every connection goes through the guard (``None``: only ``origins`` are reachable);
        ``origins`` are exact ``(host, port)`` pairs allowed past its address check.
        """
        if not isinstance(deadline, Deadline):
            deadline = Deadline(deadline)
        if not self._tabs.acquire(timeout=max(deadline.remaining(), 0.0)):
            raise RenderFailed(
                f"Failed to render {clip(url)}: no browser tab came free before the deadline"
            )
        policy = Policy(guard, frozenset((host.lower(), port) for host, port in origins))
        try:
            for attempt in (1, 2):
                process = self._running(deadline, url)
                try:
                    return render_tab(
                        process.connection,
                        url,
                        policy=policy,
                        deadline=deadline,
                        limits=self.limits,
                        user_agent=user_agent,
                        max_html=max_html,
                    )
                except BrowserExited:
                    # It died under us (killed, out of memory): once more, in a new one.
                    self._retire(process)
                    if attempt == 2 or deadline.remaining() < _RETRY_MIN:
                        raise
                except RenderFailed:
                    if not self._answers(process):
                        self._retire(process)
                    raise
            raise AssertionError("unreachable")
        finally:
            self._tabs.release()

    def _running(self, deadline: Deadline, url: str) -> BrowserProcess:
        """The live browser, started (again) if there is none or it died."""
        with self._lock:
            if self._closed:
                raise RenderFailed(f"Failed to render {clip(url)}: the browser was closed")
            process = self._process
            if process is not None and process.alive():
                return process
            if process is not None:
                self._stop_locked()
            self._deny_all = ProxySession(DENY_ALL, Deadline(_NEVER))
            try:
                process = BrowserProcess(self.executable, self._deny_all.address)
            except OSError as exc:
                self._deny_all.close()
                self._deny_all = None
                raise RenderFailed(
                    f"Failed to render {clip(url)}: the browser {self.executable} could not be "
                    f"started ({exc.strerror or exc})"
                ) from None
            self._process = process
            self.launches += 1
            try:
                process.connection.call(
                    "Browser.getVersion", timeout=max(deadline.remaining(), 0.05)
                )
            except (CDPError, TimeoutError):
                self._stop_locked()
                raise RenderFailed(
                    f"Failed to render {clip(url)}: the browser {self.executable} did not start "
                    "before the deadline"
                ) from None
            return process

    def _answers(self, process: BrowserProcess) -> bool:
        """Whether the browser still answers a command promptly."""
        if not process.alive():
            return False
        try:
            process.connection.call("Browser.getVersion", timeout=2.0)
        except (CDPError, TimeoutError):
            return False
        return True

    def _retire(self, process: BrowserProcess) -> None:
        with self._lock:
            if self._process is process:
                self._stop_locked()

    def _stop_locked(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process = None
        if self._deny_all is not None:
            self._deny_all.close()
            self._deny_all = None

    def close(self) -> None:
        """Kill the browser (and every process it started) and stop its proxy."""
        with self._lock:
            self._closed = True
            self._stop_locked()


def render(
    url: str,
    *,
    deadline: Deadline | float,
    guard: Guard | None,
    origins: Collection[tuple[str, int]] = (),
    limits: ProxyLimits = DEFAULT_PROXY_LIMITS,
    user_agent: str | None = None,
    max_html: int = 10 * 1024 * 1024,
    executable: str | None = None,
) -> Rendered:
    """One page in a browser of its own, started and killed within ``deadline``."""
    if not isinstance(deadline, Deadline):
        deadline = Deadline(deadline)
    with Browser(executable, tabs=1, limits=limits) as browser:
        return browser.render(
            url,
            deadline=deadline,
            guard=guard,
            origins=origins,
            user_agent=user_agent,
            max_html=max_html,
        )
