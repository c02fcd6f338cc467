"""The ask side's keys: set from SQL or the API, the environment, ``~/.stps``, then the file.

Precedence for each key (DESIGN 8, as the DuckDB extension of spec 002 does it):

1. a value set with :meth:`Keys.set` (``stps_set_api_key`` and friends in SQL);
2. the environment: ``ANTHROPIC_API_KEY``, ``BRAVE_API_KEY``, ``SEARXNG_URL``,
   ``GOOGLE_SEARCH_API_KEY`` and ``GOOGLE_SEARCH_ENGINE_ID`` (an empty variable counts as unset);
3. the first line of ``~/.stps/anthropic_api_key``, ``~/.stps/brave_api_key``,
   ``~/.stps/searxng_url``, ``~/.stps/google_api_key`` or ``~/.stps/google_cse_id``;
4. ``~/.config/ikigai/credentials.json`` (``anthropic.api_key``, ``web_search.brave.api_key``,
   ``web_search.searxng.url``, ``web_search.google.api_key``, ``web_search.google.engine_id``).

:meth:`Keys.resolve` reads all of that once and returns :class:`Credentials`, whose ``repr``
shows where each key came from and never the key.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

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

SEARCH_PROVIDERS = credentials_file.PROVIDER_ORDER

ANTHROPIC_KEY_MISSING = (
    "No Anthropic API key found. Set ANTHROPIC_API_KEY, put the key on the first line of "
    "~/.stps/anthropic_api_key, or call stps_set_api_key('sk-ant-...') in SQL."
)


@dataclass(frozen=True)
class KeySource:
    """Where one key may come from, after a value set from SQL or the API."""

    env: str
    stps_file: str  # a file name in ~/.stps
    file_path: tuple[str, ...]  # the path in credentials.json
    label: str  # for people: "Anthropic API key"


KEY_SOURCES: dict[str, KeySource] = {
    "anthropic": KeySource(
        "ANTHROPIC_API_KEY", "anthropic_api_key", ("anthropic", "api_key"), "Anthropic API key"
    ),
    "brave": KeySource(
        "BRAVE_API_KEY", "brave_api_key", ("web_search", "brave", "api_key"), "Brave API key"
    ),
    "searxng": KeySource(
        "SEARXNG_URL", "searxng_url", ("web_search", "searxng", "url"), "SearXNG URL"
    ),
    "google_api_key": KeySource(
        "GOOGLE_SEARCH_API_KEY",
        "google_api_key",
        ("web_search", "google", "api_key"),
        "Google API key",
    ),
    "google_cse_id": KeySource(
        "GOOGLE_SEARCH_ENGINE_ID",
        "google_cse_id",
        ("web_search", "google", "engine_id"),
        "Google search engine id",
    ),
}


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
        ready = {
            "brave": bool(self.brave),
            "searxng": bool(self.searxng),
            "google": bool(self.google_api_key and self.google_cse_id),
        }
        return credentials_file.pick_provider(ready, preferred)

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
            chosen = dict(self._set)
        problems: list[str] = []
        file_data: dict[str, Any] | None = None
        for name, source in KEY_SOURCES.items():
            if name in chosen:
                continue
            value = _from_environment(source) or _attempt(partial(_from_stps, source), problems)
            if not value:
                if file_data is None:
                    # The credentials module owns that file's format and errors (DESIGN 6).
                    file_data = _attempt(credentials_file.read_file, problems) or {}
                dig = partial(credentials_file.value_at, file_data, source.file_path)
                value = _attempt(dig, problems)
            if value:
                chosen[name] = value
        return Credentials(**chosen, problem=problems[0] if problems else None)


def _attempt(function: Callable[[], Any], problems: list[str]) -> Any:
    """``function()``, or None with the problem noted."""
    try:
        return function()
    except ConfigError as exc:
        problems.append(exc.message)
        return None


def stps_dir() -> Path:
    """``~/.stps`` under the current ``HOME``."""
    return Path.home() / ".stps"


def _from_environment(source: KeySource) -> str | None:
    value = os.environ.get(source.env, "").strip()
    return credentials_file.check_key(value, f"the key in {source.env}") if value else None


def _from_stps(source: KeySource) -> str | None:
    path = stps_dir() / source.stps_file
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise ConfigError(f"Cannot read {path}: {reason}.") from None
    first = text.splitlines()[0].strip() if text.strip() else ""
    return credentials_file.check_key(first, f"the key in {path}") if first else None
