"""The fetch tool's settings: the mode, the deadline and connect timeout, the size cap.

Each is declared once in :mod:`webtap.settings` (``FETCH_MODE``, ``FETCH_TIMEOUT``,
``CONNECT_TIMEOUT``, ``MAX_BYTES``) and read through its declaration on each fetch (a
long-running server sees a changed environment); a value that is not what the setting needs is
a :class:`~webtap.errors.ConfigError` naming it.
``webtap.net`` is imported only to build its settings objects, never for the cache's checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from webtap.settings import CONNECT_TIMEOUT, FETCH_MODE, FETCH_TIMEOUT, MAX_BYTES

if TYPE_CHECKING:
    from webtap.net import Limits, Timeouts

__all__ = [
    "DEFAULT_MAX_BYTES",
    "MODES",
    "checked_mode",
    "fetch_limits",
    "fetch_mode",
    "fetch_timeouts",
    "max_body",
]

MODES = FETCH_MODE.choices  # the page's main content, or the whole page
DEFAULT_MAX_BYTES = MAX_BYTES.default  # net.Limits().max_body, without importing webtap.net


def fetch_timeouts() -> Timeouts:
    """Connect timeout and overall deadline, from the environment or the defaults."""
    from webtap.net import Timeouts  # not for the cache's checks (module doc)

    total = FETCH_TIMEOUT.get()
    connect = CONNECT_TIMEOUT.get()
    return Timeouts(connect=min(connect, total), read=total, total=total)


def fetch_mode() -> str:
    """``WEBTAP_FETCH_MODE``: ``"main"`` (the default) or ``"page"``; else a ConfigError."""
    return FETCH_MODE.get()


def checked_mode(mode: str) -> str:
    """A mode a caller passed: one of :data:`MODES`, else ``ValueError`` (a bug, not input)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


def fetch_limits() -> Limits:
    """Size cap (decoded bytes) and redirect limit, from the environment or the defaults."""
    from webtap.net import Limits  # not for the cache's checks (module doc)

    return Limits(max_body=MAX_BYTES.get())


def max_body(limits: Limits | None) -> int:
    """The size cap, without importing the HTTP stack when the setting is left alone."""
    if limits is not None:
        return limits.max_body
    return MAX_BYTES.get()
