"""The ask side's keys: set from SQL or the API, the environment, ``~/.stps``, then the file.

Precedence for each key (DESIGN 8, as the DuckDB extension of spec 002 does it):

1. a value set with :meth:`Keys.set` (``stps_set_api_key`` and friends in SQL);
2. the environment: ``ANTHROPIC_API_KEY``, ``BRAVE_API_KEY``, ``SEARXNG_URL``,
   ``GOOGLE_SEARCH_API_KEY`` and ``GOOGLE_SEARCH_ENGINE_ID`` (an empty variable counts as unset);
3. the first line of ``~/.stps/anthropic_api_key``, ``~/.stps/brave_api_key``,
   ``~/.stps/searxng_url``, ``~/.stps/google_api_key`` or ``~/.stps/google_cse_id``;
4. ``~/.config/ikigai/credentials.json`` (``anthropic.api_key``, ``web_search.brave.api_key``,
   ``web_search.searxng.url``, ``web_search.google.api_key``, ``web_search.google.engine_id``).

The names, paths and files are spelled once, in :data:`webtap.credentials.KEY_SOURCES`, and
resolved by :func:`webtap.credentials.resolve` with this order. :meth:`Keys.resolve` reads all
of that once and returns :class:`Credentials`, whose ``repr`` never shows a key.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from webtap import credentials as credentials_file
from webtap.errors import AuthMissing, ConfigError, InvalidInput

__all__ = [
    "ANTHROPIC_KEY_MISSING",
    "KEY_SOURCES",
    "SEARCH_PROVIDERS",
    "Credentials",
    "KeySource",
    "Keys",
]

# The table and the provider order live with the resolver (one place for both sides).
KEY_SOURCES = credentials_file.KEY_SOURCES
KeySource = credentials_file.KeySource
SEARCH_PROVIDERS = credentials_file.PROVIDER_ORDER

ANTHROPIC_KEY_MISSING = (
    "No Anthropic API key found. Set ANTHROPIC_API_KEY, put the key on the first line of "
    "~/.stps/anthropic_api_key, or call stps_set_api_key('sk-ant-...') in SQL."
)


@dataclass(frozen=True)
class Credentials:
    """The keys in effect at one moment; ``None`` where nothing resolved."""

    anthropic: str | None = field(default=None, repr=False)
    brave: str | None = field(default=None, repr=False)
    searxng: str | None = field(default=None, repr=False)  # a URL, not a key
    google_api_key: str | None = field(default=None, repr=False)
    google_cse_id: str | None = field(default=None, repr=False)
    # A credentials file that could not be read: reported when the Anthropic key is missing.
    problem: str | None = None

    def require_anthropic(self) -> str:
        """The Anthropic key, or :class:`AuthMissing` saying how to set one."""
        if self.anthropic:
            return self.anthropic
        message = ANTHROPIC_KEY_MISSING
        if self.problem:
            message += f" ({self.problem})"
        raise AuthMissing(message)

    def search_provider(self, preferred: str | None = None) -> str | None:
        """The search provider to offer: ``preferred`` when its keys resolve, else none.

        With no preference, the first configured of Brave, SearXNG, Google (DESIGN 7, decided
        by :func:`webtap.credentials.pick_provider`); ``"none"`` turns search off.
        """
        keys = {name: getattr(self, name) for name in KEY_SOURCES}
        return credentials_file.pick_provider(keys, preferred)

    def search_arguments(self, provider: str) -> dict[str, str | None]:
        """``provider``'s credentials as :func:`webtap.search.search` takes them."""
        arguments = credentials_file.PROVIDER_ARGUMENTS.get(provider, {})
        return {argument: getattr(self, key) for argument, key in arguments.items()}

    def secrets(self) -> list[str]:
        """Every key in effect, to scrub from messages."""
        values = (self.anthropic, self.brave, self.google_api_key, self.google_cse_id)
        return [value for value in values if value]


class Keys:
    """Keys set from SQL or the API, over the environment and the files. Thread-safe."""

    def __init__(self) -> None:
        self._set: dict[str, str] = {}
        self._lock = threading.Lock()

    def set(self, name: str, value: str | None) -> None:
        """Set key ``name`` (one of :data:`KEY_SOURCES`); ``None`` or blank clears it."""
        if name not in KEY_SOURCES:
            raise InvalidInput(f"Unknown key {name!r} (known: {', '.join(KEY_SOURCES)})")
        value = (value or "").strip()
        if value:
            credentials_file.check_key(value, f"the {KEY_SOURCES[name].label} given")
        with self._lock:
            if value:
                self._set[name] = value
            else:
                self._set.pop(name, None)

    def resolve(self) -> Credentials:
        """Read every source once and return the keys in effect.

        An unreadable ``~/.stps`` file or credentials file is skipped and reported through
        ``Credentials.problem`` (named in the missing-key error), never quoted.
        """
        with self._lock:
            given = dict(self._set)
        problems: list[str] = []
        found = credentials_file.resolve(
            KEY_SOURCES,
            partial(_given, given),
            credentials_file.from_environment,  # a variable set wrongly is an error
            partial(_noting, _from_stps, problems),
            partial(_noting, credentials_file.CredentialsFile(), problems),
        )
        values = {name: value for name, (value, _) in found.items()}
        return Credentials(**values, problem=problems[0] if problems else None)


def _given(given: dict[str, str], name: str, source: KeySource) -> tuple[str, str] | None:
    """A value set from SQL or the API."""
    return (given[name], "set") if name in given else None


def _noting(
    read: Callable[[str, KeySource], tuple[str, str] | None],
    problems: list[str],
    name: str,
    source: KeySource,
) -> tuple[str, str] | None:
    """``read``'s answer, or None with its problem noted: an unreadable file hides no other."""
    try:
        return read(name, source)
    except ConfigError as exc:
        problems.append(exc.message)
        return None


def stps_dir() -> Path:
    """``~/.stps`` under the current ``HOME``."""
    return Path.home() / ".stps"


def _from_stps(name: str, source: KeySource) -> tuple[str, str] | None:
    path = stps_dir() / source.stps_file
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise ConfigError(f"Cannot read {path}: {reason}.") from None
    first = text.splitlines()[0].strip() if text.strip() else ""
    return (credentials_file.check_key(first, f"the key in {path}"), str(path)) if first else None
