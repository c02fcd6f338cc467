"""The fetch tool's settings: the mode, the deadline and connect timeout, the size cap.

Read from the environment on each fetch (a long-running server sees a changed environment);
a value that is not what the setting needs is a :class:`~webtap.errors.ConfigError` naming it.
``webtap.net`` is imported only to build its settings objects, never for the cache's checks.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from webtap.errors import ConfigError, clip

if TYPE_CHECKING:
    from webtap.net import Limits, Timeouts

__all__ = [
    "CONNECT_TIMEOUT_ENV",
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_FETCH_TIMEOUT",
    "DEFAULT_MAX_BYTES",
    "FETCH_TIMEOUT_ENV",
    "MAX_BYTES_ENV",
    "MODES",
    "MODE_ENV",
    "checked_mode",
    "fetch_limits",
    "fetch_mode",
    "fetch_timeouts",
    "max_body",
]

CONNECT_TIMEOUT_ENV = "WEBTAP_CONNECT_TIMEOUT"
FETCH_TIMEOUT_ENV = "WEBTAP_FETCH_TIMEOUT"
MAX_BYTES_ENV = "WEBTAP_MAX_BYTES"
MODE_ENV = "WEBTAP_FETCH_MODE"
MODES = ("main", "page")  # the page's main content, or the whole page

DEFAULT_CONNECT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 10 * 1024 * 1024  # net.Limits().max_body, without importing webtap.net
DEFAULT_FETCH_TIMEOUT = 30.0


def fetch_timeouts() -> Timeouts:
    """Connect timeout and overall deadline, from the environment or the defaults."""
    from webtap.net import Timeouts
    from webtap.settings import env_float

    total = env_float(FETCH_TIMEOUT_ENV, DEFAULT_FETCH_TIMEOUT)
    connect = env_float(CONNECT_TIMEOUT_ENV, DEFAULT_CONNECT_TIMEOUT)
    return Timeouts(connect=min(connect, total), read=total, total=total)


def fetch_mode() -> str:
    """``WEBTAP_FETCH_MODE``: ``"main"`` (the default) or ``"page"``; else a ConfigError."""
    raw = os.environ.get(MODE_ENV, "").strip()
    if not raw:
        return MODES[0]
    if raw.lower() in MODES:
        return raw.lower()
    raise ConfigError(
        f"{MODE_ENV} must be 'main' (an HTML page's main content) or 'page' (the whole page), "
        f"got {clip(raw)!r}; fix it, or unset it to use the default (main)"
    )


def checked_mode(mode: str) -> str:
    """A mode a caller passed: one of :data:`MODES`, else ``ValueError`` (a bug, not input)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


def fetch_limits() -> Limits:
    """Size cap (decoded bytes) and redirect limit, from the environment or the defaults."""
    from webtap.net import Limits
    from webtap.settings import env_int

    default = Limits()
    return Limits(max_body=env_int(MAX_BYTES_ENV, default.max_body, "bytes"))


def max_body(limits: Limits | None) -> int:
    """The size cap, without importing the HTTP stack when the setting is left alone."""
    if limits is not None:
        return limits.max_body
    if os.environ.get(MAX_BYTES_ENV, "").strip():
        return fetch_limits().max_body
    return DEFAULT_MAX_BYTES
