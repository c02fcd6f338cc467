"""Where the search keys come from: the environment, then ``~/.config/ikigai/credentials.json``.

Precedence (spec 000 "Credential Discovery", DESIGN 6), field by field:

1. ``BRAVE_API_KEY``; ``GOOGLE_SEARCH_API_KEY`` and ``GOOGLE_SEARCH_ENGINE_ID``. An empty
   variable counts as unset.
2. ``~/.config/ikigai/credentials.json``: ``web_search.brave.api_key``,
   ``web_search.google.api_key``, ``web_search.google.engine_id``.
3. :class:`AuthMissing` with the spec's exact error text and a ``config_required`` event.

A credentials file that cannot be read or is not a JSON object is a :class:`ConfigError` that
names the file and never quotes its content. Keys are kept out of ``repr`` so that they cannot
reach a log line by accident. This module is light (no httpx): the CLI and the ask loop use it
to decide which provider to offer.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webtap.errors import AuthMissing, ConfigError
from webtap.protocol import loads_json

__all__ = [
    "BRAVE_AUTH_MISSING",
    "GOOGLE_AUTH_MISSING",
    "PROVIDER_ORDER",
    "SEARXNG_AUTH_MISSING",
    "BraveCredentials",
    "GoogleCredentials",
    "SearxngConfig",
    "brave_key",
    "configured_providers",
    "credentials_path",
    "google_credentials",
    "pick_provider",
    "read_file",
    "require_brave",
    "require_google",
    "require_searxng",
    "searxng_url",
    "value_at",
]

# DESIGN 7: with no choice made, the first provider configured in this order is used.
PROVIDER_ORDER = ("brave", "searxng", "google")

# The spec's exact texts (000, web-search-brave-tool / web-search-google-tool "Error Response").
BRAVE_AUTH_MISSING = (
    "Web search requires API key configuration.\n\n"
    "Brave Search offers 2,000 free searches/month.\n"
    "Get your key: https://brave.com/search/api/\n"
    "Add to: ~/.config/ikigai/credentials.json as 'web_search.brave.api_key'"
)
GOOGLE_AUTH_MISSING = (
    "Web search requires API key configuration.\n\n"
    "Google Custom Search offers 100 free searches/day.\n"
    "Get API key: https://developers.google.com/custom-search/v1/overview\n"
    "Get Search Engine ID: https://programmablesearchengine.google.com/controlpanel/create\n"
    "Add to: ~/.config/ikigai/credentials.json as 'web_search.google.api_key' and "
    "'web_search.google.engine_id'"
)
BRAVE_CONFIG_REQUIRED = (
    "⚠ Configuration Required\n\n"
    "Web search needs an API key. Brave Search offers 2,000 free searches/month.\n\n"
    "Get your key: https://brave.com/search/api/\n"
    "Add to: ~/.config/ikigai/credentials.json\n\n"
    'Example:\n{\n  "web_search": {\n    "brave": {\n      "api_key": "your-api-key-here"\n'
    "    }\n  }\n}"
)
GOOGLE_CONFIG_REQUIRED = (
    "⚠ Configuration Required\n\n"
    "Web search needs an API key and Search Engine ID. Google Custom Search offers 100 free "
    "searches/day.\n\n"
    "Get API key: https://developers.google.com/custom-search/v1/overview\n"
    "Get Search Engine ID: https://programmablesearchengine.google.com/controlpanel/create\n"
    "Add to: ~/.config/ikigai/credentials.json\n\n"
    'Example:\n{\n  "web_search": {\n    "google": {\n      "api_key": "your-api-key-here",\n'
    '      "engine_id": "your-search-engine-id"\n    }\n  }\n}'
)
SEARXNG_AUTH_MISSING = (
    "Web search through SearXNG needs the address of a SearXNG instance.\n\n"
    "SearXNG is a self-hosted metasearch engine: no API key, no quota. Start one with\n"
    "  docker run -p 8080:8080 searxng/searxng\n"
    "and enable JSON output (search.formats in its settings.yml).\n"
    "Set SEARXNG_URL=http://localhost:8080, or add to: ~/.config/ikigai/credentials.json as "
    "'web_search.searxng.url'"
)
SEARXNG_CONFIG_REQUIRED = (
    "⚠ Configuration Required\n\n"
    "Web search through SearXNG needs the address of your SearXNG instance (no API key, no "
    "quota).\n\n"
    "Start one: docker run -p 8080:8080 searxng/searxng\n"
    "Enable JSON output: in its settings.yml, under 'search:', set\n"
    "  formats:\n    - html\n    - json\n"
    "Then set SEARXNG_URL=http://localhost:8080, or add to: "
    "~/.config/ikigai/credentials.json\n\n"
    'Example:\n{\n  "web_search": {\n    "searxng": {\n      "url": "http://localhost:8080"\n'
    "    }\n  }\n}"
)
SEARXNG_EVENT_DATA = {
    "tool": "web_search_searxng",
    "credential": "url",
    "setup_url": "https://docs.searxng.org/admin/installation-docker.html",
}
BRAVE_EVENT_DATA = {
    "tool": "web_search_brave",
    "credential": "api_key",
    "signup_url": "https://brave.com/search/api/",
}
GOOGLE_EVENT_DATA = {"tool": "web_search_google", "credentials": ["api_key", "engine_id"]}

FILE_DISPLAY = "~/.config/ikigai/credentials.json"


@dataclass(frozen=True)
class BraveCredentials:
    api_key: str = field(repr=False)
    source: str  # where the key came from, for messages: "BRAVE_API_KEY" or the file


@dataclass(frozen=True)
class SearxngConfig:
    url: str = field(repr=False)  # may carry a user and password: kept out of repr
    source: str


@dataclass(frozen=True)
class GoogleCredentials:
    api_key: str = field(repr=False)
    engine_id: str = field(repr=False)
    source: str


def credentials_path() -> Path:
    """``~/.config/ikigai/credentials.json`` under the current ``HOME`` (the spec's path)."""
    return Path.home() / ".config" / "ikigai" / "credentials.json"


def require_brave() -> BraveCredentials:
    """The Brave key, or :class:`AuthMissing` with the spec's text and event."""
    ((key, source),) = _resolve([("BRAVE_API_KEY", ("web_search", "brave", "api_key"))])
    if key is None:
        raise AuthMissing(
            BRAVE_AUTH_MISSING,
            event=_config_required(BRAVE_CONFIG_REQUIRED, BRAVE_EVENT_DATA),
        )
    return BraveCredentials(key, source)


def require_google() -> GoogleCredentials:
    """The Google key and engine id, or :class:`AuthMissing` with the spec's text and event."""
    (key, key_source), (engine, engine_source) = _resolve(
        [
            ("GOOGLE_SEARCH_API_KEY", ("web_search", "google", "api_key")),
            ("GOOGLE_SEARCH_ENGINE_ID", ("web_search", "google", "engine_id")),
        ]
    )
    if key is None or engine is None:
        raise AuthMissing(
            GOOGLE_AUTH_MISSING,
            event=_config_required(GOOGLE_CONFIG_REQUIRED, GOOGLE_EVENT_DATA),
        )
    source = key_source if key_source == engine_source else f"{key_source} and {engine_source}"
    return GoogleCredentials(key, engine, source)


def require_searxng() -> SearxngConfig:
    """The SearXNG instance's base URL, or :class:`AuthMissing` with setup text and event."""
    ((url, source),) = _resolve([("SEARXNG_URL", ("web_search", "searxng", "url"))])
    if url is None:
        raise AuthMissing(
            SEARXNG_AUTH_MISSING,
            event=_config_required(SEARXNG_CONFIG_REQUIRED, SEARXNG_EVENT_DATA),
        )
    return SearxngConfig(url, source)


def searxng_url() -> str | None:
    """The SearXNG URL if one is configured; ``None`` when missing or the file is unusable."""
    try:
        return require_searxng().url
    except (AuthMissing, ConfigError):
        return None


def configured_providers() -> dict[str, bool]:
    """Which search providers have what they need, from the environment and the file."""
    return {
        "brave": brave_key() is not None,
        "searxng": searxng_url() is not None,
        "google": google_credentials() is not None,
    }


def pick_provider(ready: dict[str, bool], preferred: str | None = None) -> str | None:
    """The one place that picks a search provider (DESIGN 7).

    ``preferred`` ("brave", "searxng", "google") when it is ready, else None; ``"none"`` means
    no search; with no preference, the first ready provider in :data:`PROVIDER_ORDER`.
    """
    if preferred == "none":
        return None
    if preferred is not None:
        return preferred if ready.get(preferred) else None
    return next((name for name in PROVIDER_ORDER if ready.get(name)), None)


def brave_key() -> str | None:
    """The Brave key if one resolves; ``None`` when missing or the file is unusable."""
    try:
        return require_brave().api_key
    except (AuthMissing, ConfigError):
        return None


def google_credentials() -> tuple[str, str] | None:
    """``(api_key, engine_id)`` if both resolve; ``None`` when missing or the file is unusable."""
    try:
        found = require_google()
    except (AuthMissing, ConfigError):
        return None
    return found.api_key, found.engine_id


def _config_required(content: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "config_required", "content": content, "data": dict(data)}


def _resolve(fields: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str | None, str]]:
    """Each field's value and where it came from; the file is read at most once, and only
    when a variable is missing."""
    found: list[tuple[str | None, str]] = []
    data: dict[str, Any] | None = None
    for variable, path in fields:
        value = os.environ.get(variable, "").strip()
        if value:
            found.append((check_key(value, f"the key in {variable}"), variable))
            continue
        if data is None:
            data = read_file()
        found.append((value_at(data, path), FILE_DISPLAY))
    return found


def value_at(data: dict[str, Any], path: tuple[str, ...]) -> str | None:
    """The non-empty string at ``path`` in the file's data, ``None`` when absent; a value
    that is not a string, or a section on the way that is not an object (``"brave": "KEY"``),
    is a :class:`ConfigError` naming the entry (never its value)."""
    node: Any = data
    for depth, part in enumerate(path):
        if node is None:
            return None
        if not isinstance(node, dict):
            raise ConfigError(
                f"{credentials_path()}: '{'.'.join(path[:depth])}' must be an object with "
                f"'{part}' in it; fix it or remove the entry."
            )
        node = node.get(part)
    if node is None:
        return None
    if not isinstance(node, str):
        raise ConfigError(
            f"{credentials_path()}: '{'.'.join(path)}' must be a string; "
            "fix it or remove the entry."
        )
    value = node.strip()
    return (
        check_key(value, f"the key in {credentials_path()} ('{'.'.join(path)}')") if value else None
    )


# Printable ASCII but space, quotes and backslash: every real key is, any such value can go in an
# HTTP header, and repr() leaves it as it is, so scrubbing finds it in any message.
_KEY_TEXT = re.compile(r"[!#-&(-\[\]-~]+")


def check_key(value: str, source: str) -> str:
    """``value``, if it can be a key; else :class:`ConfigError` naming ``source`` ("the key in
    BRAVE_API_KEY"), never the value.

    A control character or line break in a key would otherwise end up in a header error that
    quotes the header, key included, escaped past every scrubber.
    """
    if not _KEY_TEXT.fullmatch(value):
        raise ConfigError(
            f"{source[:1].upper()}{source[1:]} is not usable: a key is printable ASCII "
            "without spaces, quotes or backslashes. Copy it again from the provider's dashboard."
        )
    return value


def read_file() -> dict[str, Any]:
    """The credentials file as a dict (empty when there is none), or :class:`ConfigError`."""
    path = credentials_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise ConfigError(
            f"Cannot read the credentials file {path}: {reason}. "
            "Fix its permissions or contents, or set the key in the environment."
        ) from None
    try:
        data = loads_json(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        # exc.msg and the position only: the message must never quote the file (it holds keys).
        raise ConfigError(
            f"The credentials file {path} is not valid JSON ({exc.msg} at line {exc.lineno} "
            f"column {exc.colno}). Fix it, or set the key in the environment."
        ) from None
    if not isinstance(data, dict):
        raise ConfigError(
            f"The credentials file {path} must hold a JSON object like "
            '{"web_search": {...}}. Fix it, or set the key in the environment.'
        )
    return data
