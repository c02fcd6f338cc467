"""Settings from the environment: one reader per kind of value, one way to refuse a bad one.

An empty or unset variable means the default. Any other value that is not what the setting
needs is a :class:`ConfigError` naming the variable, the value and the default: silently falling
back would hide a typo such as ``WEBTAP_FETCH_TIMEOUT=5s``, and truncating would turn
``WEBTAP_MAX_BYTES=0.5`` into a cap of 0 bytes. Light on purpose: the tools read settings before
they import an HTTP stack.
"""

from __future__ import annotations

import math
import os

from webtap.errors import ConfigError, clip

__all__ = ["env_choice", "env_float", "env_int", "env_ttl", "size_text"]


def env_float(name: str, default: float) -> float:
    """A number above 0 (seconds, a rate), or ``default`` when unset or empty."""
    raw, value = _number(name)
    if raw is None:
        return default
    if not value > 0:
        raise _refused(name, raw, "a number above 0", f"{default:g}")
    return value


def env_ttl(name: str, default: float) -> float:
    """Seconds an entry stays fresh: a number, 0 or more (0: never fresh)."""
    raw, value = _number(name)
    if raw is None:
        return default
    if not value >= 0:
        raise _refused(name, raw, "a number of seconds, 0 or more", f"{default:g}")
    return value


def env_int(name: str, default: int, unit: str = "") -> int:
    """A whole number above 0 (a size in bytes, a count of pages or calls); ``_`` may group
    digits (``1_000_000``). ``unit`` names what it counts, for the message."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    digits = raw.replace("_", "")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18 or int(digits) == 0:
        of = f" of {unit}" if unit else ""
        raise ConfigError(
            f"{name} must be a number above 0 (got {clip(raw, 40)!r}): a whole number{of}, "
            f"such as {default}; fix it, or unset it to use the default"
        )
    return int(digits)


def env_choice(name: str, choices: tuple[str, ...], default: str) -> str | None:
    """One of ``choices`` (case-insensitive, returned lower-case), or None when unset or empty.
    ``default`` says in words what unset means, for the message."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if raw.lower() in choices:
        return raw.lower()
    spelled = " or ".join(repr(choice) for choice in choices)
    raise _refused(name, raw, spelled, default)


def _number(name: str) -> tuple[str | None, float]:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None, math.nan
    try:
        value = float(raw)
    except ValueError:
        return raw, math.nan
    return raw, math.nan if math.isinf(value) else value


def _refused(name: str, raw: str, what: str, default: str) -> ConfigError:
    return ConfigError(
        f"{name} must be {what} (got {clip(raw, 40)!r}); "
        f"fix it, or unset it to use the default ({default})"
    )


def size_text(n: int) -> str:
    """``10 MB``, ``100 KB`` or ``1000 bytes``: a size cap as a person reads it in a message."""
    if n >= 1024 * 1024 and n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KB"
    return f"{n} bytes"
