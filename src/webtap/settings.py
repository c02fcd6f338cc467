"""Settings from the environment: each declared once, one reader per kind of value, one way
to refuse a bad one.

Every ``WEBTAP_*`` setting is a :class:`Setting` made by :func:`declare`: its name, the kind of
value it takes, its default and one line of doc. Code reads a setting through its declaration
(``FETCH_TIMEOUT.get()``), and the README's settings table and the commands' ``--help``
defaults are written from :data:`SETTINGS` (``tools/gen_settings.py``; a test fails when they
drift). The settings of one feature are declared here, in its section; a search provider
declares its rate variable in its own record (:mod:`webtap.providers`).

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

__all__ = [
    "ANTHROPIC_RPM",
    "BUDGET",
    "HOST_RATE",
    "SETTINGS",
    "Setting",
    "declare",
    "env_choice",
    "env_flag",
    "env_float",
    "env_int",
    "env_text",
    "env_ttl",
    "size_text",
]

_TRUE = {"1", "true", "yes", "on"}


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


def env_flag(name: str) -> bool:
    """True when the variable says so (``1``, ``true``, ``yes``, ``on``); anything else is off."""
    return os.environ.get(name, "").strip().lower() in _TRUE


def env_text(name: str) -> str | None:
    """The variable's text, stripped; None when unset or blank."""
    return os.environ.get(name, "").strip() or None


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


# --- Declarations ------------------------------------------------------------------------------

# The kinds of value a setting takes, each with its reader: (env name, default, setting) -> value.
KINDS = ("seconds", "ttl", "number", "count", "bytes", "choice", "flag", "text", "path", "url")


class Setting:
    """One setting: its variable, the kind of value it takes, its default and one line of doc.

    ``get()`` reads the environment each time it is called (a long-running server sees a
    changed environment) and refuses a bad value with a :class:`ConfigError` that names it.
    ``default`` is a value of the kind (``None`` for text, path and url: unset);
    ``shown`` is the default as the docs say it when the value alone would not
    ("user cache dir"); ``choices`` are a choice's values (the first is the default when
    ``default`` is None); ``unit`` names what a count counts, for messages. A slotted class:
    the executables read settings at start-up, where dataclasses cost a cold start ~10 ms.
    """

    __slots__ = ("choices", "default", "doc", "kind", "name", "section", "shown", "unit")

    def __init__(
        self,
        name: str,
        kind: str,
        default: object,
        doc: str,
        *,
        section: str = "",
        choices: tuple[str, ...] = (),
        unit: str = "",
        shown: str = "",
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"{name}: unknown kind {kind!r} (one of {', '.join(KINDS)})")
        self.name = name
        self.kind = kind
        self.default = default
        self.doc = doc
        self.section = section
        self.choices = choices
        self.unit = unit
        self.shown = shown

    def get(self) -> object:
        """The value in effect: the environment's, checked, else the default."""
        kind, name, default = self.kind, self.name, self.default
        if kind == "seconds" or kind == "number":
            return env_float(name, float(default))  # type: ignore[arg-type]
        if kind == "ttl":
            return env_ttl(name, float(default))  # type: ignore[arg-type]
        if kind in ("count", "bytes"):
            return env_int(name, int(default), self.unit or kind)  # type: ignore[call-overload]
        if kind == "choice":
            fallback = str(default) if default is not None else self.choices[0]
            return env_choice(name, self.choices, fallback) or default
        if kind == "flag":
            return env_flag(name) or bool(default)
        return env_text(name) or default

    def is_set(self) -> bool:
        """Whether the environment gives a value (not unset, not blank)."""
        return bool(os.environ.get(self.name, "").strip())

    def default_text(self) -> str:
        """The default as the docs and ``--help`` say it."""
        if self.shown:
            return self.shown
        if self.default is None or self.default is False:
            return "unset"
        if isinstance(self.default, float):
            return f"{self.default:g}"
        return str(self.default)

    def __repr__(self) -> str:
        return f"Setting({self.name!r}, {self.kind!r}, default={self.default!r})"


SETTINGS: dict[str, Setting] = {}
"""Every declared setting by its variable, in the order declared (the README's order)."""


def declare(
    name: str,
    kind: str,
    default: object,
    doc: str,
    *,
    section: str = "",
    choices: tuple[str, ...] = (),
    unit: str = "",
    shown: str = "",
) -> Setting:
    """Declare setting ``name`` once; a second declaration of the same name is a bug."""
    if name in SETTINGS:
        raise ValueError(f"setting {name} is declared twice")
    setting = Setting(
        name, kind, default, doc, section=section, choices=choices, unit=unit, shown=shown
    )
    SETTINGS[name] = setting
    return setting


# --- Past one machine: where rate budgets live, politeness per host, the model's rate ----------
# (docs/scale.md; read by webtap.budget_store, webtap.rows and webtap.agent.rate)

BUDGET = declare(
    "WEBTAP_BUDGET",
    "text",
    None,
    "where rate budgets keep their state: file (one machine), ray (one Ray cluster) or a "
    "redis:// URL (any engine)",
    section="scale",
    shown="file",
)
HOST_RATE = declare(
    "WEBTAP_HOST_RATE",
    "number",
    1.0,
    "fetches a second per web host in webtap batch and on Ray or Spark (politeness)",
    section="scale",
)
ANTHROPIC_RPM = declare(
    "WEBTAP_ANTHROPIC_RPM",
    "number",
    0.0,
    "model calls a minute per Anthropic key until the API says its limit (unset: unspaced)",
    section="scale",
    shown="unset",
)
