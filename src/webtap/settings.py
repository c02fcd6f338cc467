"""Settings from the environment: each declared once, one reader per kind of value, one way
to refuse a bad one.

Every ``WEBTAP_*`` setting is a :class:`Setting` made by :func:`declare`, below in its section
of :data:`SECTIONS`: its variable, the kind of value it takes, its default and one line of doc.
Code reads a setting through its declaration (``FETCH_TIMEOUT.get()``); the README's settings
table is written from :data:`SETTINGS` (``tools/gen_settings.py``) and the commands' ``--help``
names the settings and their defaults from it (:func:`environment_help`); a test fails when
either drifts. A search provider's rate variable is declared by its record
(:func:`webtap.providers.register`), so that a new provider touches only its own module and
the registry. Endpoints (``BRAVE_SEARCH_URL``...) and keys are not settings: the provider
registry and the key table hold them, and the docs are written from those.

An empty or unset variable means the default. Any other value that is not what the setting
needs is a :class:`ConfigError` naming the variable, the value and the default: silently falling
back would hide a typo such as ``WEBTAP_FETCH_TIMEOUT=5s``, and truncating would turn
``WEBTAP_MAX_BYTES=0.5`` into a cap of 0 bytes. Light on purpose (no dataclasses, no pathlib):
every tool call imports it before it imports an HTTP stack.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, overload

from webtap.errors import ConfigError, clip

if TYPE_CHECKING:
    from typing import TypedDict, Unpack

    class _Kw(TypedDict, total=False):
        section: str
        choices: tuple[str, ...]
        unit: str
        shown: str

    # The kinds by the type of value they read.
    _Real = Literal["seconds", "ttl", "number"]
    _Whole = Literal["count", "limit", "bytes"]
    _Flag = Literal["flag"]
    _Text = Literal["choice", "text", "path", "url"]


__all__ = [
    "ALLOW_NETWORKS",
    "ALLOW_PRIVATE_NETWORKS",
    "ANTHROPIC_RPM",
    "BATCH_STOP_WAIT",
    "BROWSER",
    "BUDGET",
    "CACHE",
    "CACHE_DIR",
    "CONNECT_TIMEOUT",
    "DB",
    "FETCH_CACHE_MAX_BYTES",
    "FETCH_CACHE_TTL",
    "FETCH_MODE",
    "FETCH_TIMEOUT",
    "GOOGLE_MAX_CALLS",
    "HOST_RATE",
    "KINDS",
    "MAX_BYTES",
    "MCP_MAX_LINES",
    "MCP_TIMEOUT",
    "MCP_TOKEN",
    "MODEL",
    "PDF_MAX_EXPANDED",
    "PDF_MAX_PAGES",
    "RENDER",
    "ROBOTS",
    "SCHEMA_TIMEOUT",
    "SEARCH_CACHE_TTL",
    "SEARCH_DEADLINE",
    "SEARCH_TIMEOUT",
    "SECTIONS",
    "SETTINGS",
    "SQL_CANCEL_WAIT",
    "SYSTEM_TOOLS_DIR",
    "USER_AGENT",
    "Setting",
    "declare",
    "env_choice",
    "env_flag",
    "env_float",
    "env_int",
    "env_text",
    "env_ttl",
    "environment_help",
    "size_text",
]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", "none", "disabled"}


# --- Readers: one per kind of value ------------------------------------------------------------


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


def env_int(name: str, default: int, unit: str = "", *, minimum: int = 1) -> int:
    """A whole number of at least ``minimum`` (1: a size in bytes, a count of pages or calls;
    0: a cap that 0 turns off); ``_`` may group digits (``1_000_000``). ``unit`` names what it
    counts, for the message."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    digits = raw.replace("_", "")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18 or int(digits) < minimum:
        of = f" of {unit}" if unit else ""
        least = "a number above 0" if minimum == 1 else f"{minimum} or more"
        raise ConfigError(
            f"{name} must be {least} (got {clip(raw, 40)!r}): a whole number{of}, "
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


def env_flag(name: str, default: bool = False) -> bool:
    """True when the variable says so (``1``, ``true``, ``yes``, ``on``), False when it says
    ``0``, ``false``, ``no``, ``off``, ``none`` or ``disabled``; anything else is ``default``."""
    raw = os.environ.get(name, "").strip().lower()
    if raw in _TRUE:
        return True
    return False if raw in _FALSE else default


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

# The kinds of value a setting takes. seconds and number: above 0; ttl: 0 or more; count and
# bytes: a whole number above 0; limit: a whole number, 0 (no limit) or more.
_NUMBERS = ("seconds", "ttl", "number", "count", "limit", "bytes")
KINDS = (*_NUMBERS, "choice", "flag", "text", "path", "url")

# Where the docs list a setting: its section, by name, with the section's heading.
SECTIONS = {
    "fetch": "Fetch",
    "search": "Search",
    "ask": "Ask and SQL",
    "mcp": "MCP server",
    "files": "Caches and files",
    "tools": "Tool discovery",
    "scale": "Past one machine",
}

T = TypeVar("T")


class Setting(Generic[T]):
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
        default: T,
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

    def get(self) -> T:
        """The value in effect: the environment's, checked, else the default."""
        kind, name = self.kind, self.name
        default: Any = self.default
        value: Any
        if kind == "seconds" or kind == "number":
            value = env_float(name, float(default))
        elif kind == "ttl":
            value = env_ttl(name, float(default))
        elif kind in ("count", "bytes", "limit"):
            least = 0 if kind == "limit" else 1
            value = env_int(name, int(default), self.unit or kind, minimum=least)
        elif kind == "choice":
            fallback = str(default) if default is not None else self.choices[0]
            value = env_choice(name, self.choices, fallback) or default
        elif kind == "flag":
            value = env_flag(name, bool(default))
        else:
            value = env_text(name) or default
        return value

    def is_set(self) -> bool:
        """Whether the environment gives a value (not unset, not blank)."""
        return bool(os.environ.get(self.name, "").strip())

    def default_text(self) -> str:
        """The default as the docs and ``--help`` say it."""
        if self.shown:
            return self.shown
        default = self.default
        if default is None or default is False:
            return "unset"
        if default is True:
            return "on"
        if isinstance(default, float):
            return f"{round(default, 2):g}"
        if self.kind == "bytes" and isinstance(default, int) and default >= 1024:
            return f"{default} ({size_text(default)})"
        return str(default)

    def __repr__(self) -> str:
        return f"Setting({self.name!r}, {self.kind!r}, default={self.default!r})"


SETTINGS: dict[str, Setting[Any]] = {}
"""Every declared setting by its variable, in the order declared (within a section, the docs')."""


@overload
def declare(
    name: str, kind: _Real, default: float, doc: str, **kw: Unpack[_Kw]
) -> Setting[float]: ...
@overload
def declare(name: str, kind: _Whole, default: int, doc: str, **kw: Unpack[_Kw]) -> Setting[int]: ...
@overload
def declare(
    name: str, kind: _Flag, default: bool, doc: str, **kw: Unpack[_Kw]
) -> Setting[bool]: ...
@overload
def declare(name: str, kind: _Text, default: str, doc: str, **kw: Unpack[_Kw]) -> Setting[str]: ...
@overload
def declare(
    name: str, kind: _Text, default: None, doc: str, **kw: Unpack[_Kw]
) -> Setting[str | None]: ...
def declare(name: str, kind: str, default: Any, doc: str, **kw: Unpack[_Kw]) -> Setting[Any]:
    """Declare setting ``name`` once (the options are :class:`Setting`'s); a second declaration
    of the same name is a bug."""
    if name in SETTINGS:
        raise ValueError(f"setting {name} is declared twice")
    setting = SETTINGS[name] = Setting(name, kind, default, doc, **kw)
    return setting


def environment_help(*settings: Setting[Any], more: str = "") -> str:
    """The ``environment:`` section of a command's ``--help``: each setting with its line of doc
    and its default, as declared, then ``more`` (such as which keys a command reads)."""
    import textwrap  # only for --help (argparse has loaded it already)

    width = max(len(setting.name) for setting in settings)
    lines = ["environment:"]
    for setting in settings:
        said = f"{setting.doc} (default: {setting.default_text()})".replace("`", "")
        text = f"{setting.name.ljust(width)}  {said}"
        lines += textwrap.wrap(text, 96, initial_indent="  ", subsequent_indent=" " * (width + 4))
    lines += textwrap.wrap(more, 96, initial_indent="  ", subsequent_indent="    ")
    return "\n".join(lines) + "\n"


# --- The settings, by section (SECTIONS); the docs list them in this order ----------------------

# Fetch: web_fetch, webtap fetch, and every front door that fetches.
FETCH_TIMEOUT = declare(
    "WEBTAP_FETCH_TIMEOUT",
    "seconds",
    30.0,
    "seconds for a whole fetch (DNS, connect, TLS, redirects, body)",
    section="fetch",
)
CONNECT_TIMEOUT = declare(
    "WEBTAP_CONNECT_TIMEOUT", "seconds", 10.0, "seconds for one connection", section="fetch"
)
MAX_BYTES = declare(
    "WEBTAP_MAX_BYTES",
    "bytes",
    10 * 1024 * 1024,  # webtap.net.Limits().max_body
    "largest decoded body a fetch reads (a whole number of bytes)",
    section="fetch",
)
FETCH_MODE = declare(
    "WEBTAP_FETCH_MODE",
    "choice",
    "main",
    "`main`: an HTML page's main content; `page`: the whole page (also `webtap fetch --full`, "
    "MCP's `full_page`)",
    section="fetch",
    choices=("main", "page"),
)
ALLOW_PRIVATE_NETWORKS = declare(
    "WEBTAP_ALLOW_PRIVATE_NETWORKS",
    "flag",
    False,
    "`1` lets fetch reach loopback and private addresses (turns the SSRF guard off)",
    section="fetch",
)
ALLOW_NETWORKS = declare(
    "WEBTAP_ALLOW_NETWORKS",
    "text",
    None,
    "comma-separated networks fetch may reach despite the guard (`10.1.0.0/16,127.0.0.1`)",
    section="fetch",
)
FETCH_CACHE_TTL = declare(
    "WEBTAP_FETCH_CACHE_TTL",
    "ttl",
    600.0,
    "seconds a converted page stays fresh in the page cache (then revalidated)",
    section="fetch",
)
FETCH_CACHE_MAX_BYTES = declare(
    "WEBTAP_FETCH_CACHE_MAX_BYTES",
    "bytes",
    100 * 1024 * 1024,
    "bound of the page cache, oldest pages out first",
    section="fetch",
)
PDF_MAX_PAGES = declare(
    "WEBTAP_PDF_MAX_PAGES", "count", 2000, "pages of a PDF read", section="fetch", unit="pages"
)
PDF_MAX_EXPANDED = declare(
    "WEBTAP_PDF_MAX_EXPANDED",
    "bytes",
    64 * 1024 * 1024,
    "bytes a PDF's compressed streams may expand to",
    section="fetch",
)

ROBOTS = declare(
    "WEBTAP_ROBOTS",
    "choice",
    "auto",
    "robots.txt: `auto` obeys it for fetches a model chose (the tool, MCP, the ask loop, SQL) "
    "and not for `webtap fetch`; `obey` or `ignore` for every fetch",
    section="fetch",
    choices=("auto", "obey", "ignore"),
)
USER_AGENT = declare(
    "WEBTAP_USER_AGENT",
    "text",
    None,
    "the User-Agent of every request, whose first word robots.txt groups are matched against",
    section="fetch",
    shown="webtap/VERSION (+https://pypi.org/project/webtap/)",
)
# Rendering with a browser (issue 21; docs/fetch.md, "Rendering with a browser").
RENDER = declare(
    "WEBTAP_RENDER",
    "choice",
    "auto",
    "when web_fetch renders a page in a browser: `auto` (a page judged to be a script shell), "
    "`always` (every HTML page; also `webtap fetch --render`, MCP's `render`) or `off`",
    section="fetch",
    choices=("auto", "always", "off"),
    shown="auto (renders only when a browser is found)",
)
BROWSER = declare(
    "WEBTAP_BROWSER",
    "path",
    None,
    "the Chrome-family browser that renders pages (a name on PATH or a path)",
    section="fetch",
    shown="the first of chromium-headless-shell, chromium, google-chrome, ... on PATH",
)

# Search: the search tools, webtap search, the ask loop's searches. Each provider's rate
# (WEBTAP_BRAVE_RATE...) is declared by its record in webtap.providers.
SEARCH_TIMEOUT = declare(
    "WEBTAP_SEARCH_TIMEOUT", "seconds", 10.0, "seconds for one provider call", section="search"
)
SEARCH_DEADLINE = declare(
    "WEBTAP_SEARCH_DEADLINE",
    "seconds",
    30.0,
    "seconds for a whole search, its retry and its wait for a turn included",
    section="search",
)
SEARCH_CACHE_TTL = declare(
    "WEBTAP_SEARCH_CACHE_TTL",
    "ttl",
    3600.0,
    "seconds an identical search is answered from the cache (0: off)",
    section="search",
)
GOOGLE_MAX_CALLS = declare(
    "WEBTAP_GOOGLE_MAX_CALLS",
    "count",
    5,
    "most Google calls for one search over several allowed domains",
    section="search",
    unit="calls",
)

# Ask and SQL: webtap ask, the stps_* functions, webtap sql.
MODEL = declare(
    "WEBTAP_MODEL",
    "text",
    "claude-sonnet-5-5",
    "the ask loop's default model, for every front end",
    section="ask",
)
SQL_CANCEL_WAIT = declare(
    "WEBTAP_SQL_CANCEL_WAIT",
    "seconds",
    5.0,
    "`webtap sql`: seconds a statement gets to wind down after Ctrl-C",
    section="ask",
)

# MCP server: webtap mcp.
MCP_MAX_LINES = declare(
    "WEBTAP_MCP_MAX_LINES",
    "limit",
    500,
    "default for --max-lines: lines web_fetch returns when the client gives no limit (0: no cap)",
    section="mcp",
    unit="lines",
)
MCP_TIMEOUT = declare(
    "WEBTAP_MCP_TIMEOUT",
    "seconds",
    60.0,
    "default for --timeout: seconds a call of webtap's tools may take",
    section="mcp",
)
MCP_TOKEN = declare(
    "WEBTAP_MCP_TOKEN",
    "text",
    None,
    "the bearer token --http requires (16 or more printable characters; beyond loopback, one "
    "is made at start when unset)",
    section="mcp",
)

# Caches and files: where webtap keeps what it keeps.
CACHE = declare("WEBTAP_CACHE", "flag", True, "`off` turns every cache off", section="files")
CACHE_DIR = declare(
    "WEBTAP_CACHE_DIR",
    "path",
    None,
    "where the caches and the rate budgets live",
    section="files",
    shown="user cache dir",
)
DB = declare(
    "WEBTAP_DB",
    "path",
    None,
    "the SQLite file that keeps events",
    section="files",
    shown="user data dir",
)

# Tool discovery: how the host finds the tools on this machine (docs/host.md).
SCHEMA_TIMEOUT = declare(
    "WEBTAP_SCHEMA_TIMEOUT",
    "seconds",
    1.0,
    "seconds a tool's `--schema` may take before discovery leaves the tool out",
    section="tools",
)
SYSTEM_TOOLS_DIR = declare(
    "WEBTAP_SYSTEM_TOOLS_DIR",
    "path",
    None,
    "the system tools folder",
    section="tools",
    shown="`<prefix>/libexec/ikigai`",
)

# --- Past one machine: where rate budgets live, politeness per host, the model's rate ----------
# (docs/scale.md; read by webtap.budget.store, webtap.scale.rows and webtap.agent.rate)

BUDGET = declare(
    "WEBTAP_BUDGET",
    "text",
    None,
    "where rate budgets keep their state: file (one machine), ray (one Ray cluster) or a "
    "redis:// URL (any engine)",
    section="scale",
    shown="file",
)
BATCH_STOP_WAIT = declare(
    "WEBTAP_BATCH_STOP_WAIT",
    "seconds",
    1.0,
    "`webtap batch`: seconds a stopped run gets to keep its finished rows before the command ends",
    section="scale",
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
