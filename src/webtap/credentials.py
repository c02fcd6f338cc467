"""Where keys come from: one table of sources (:data:`KEY_SOURCES`), one resolver
(:func:`resolve`) that takes the precedence its caller needs, and one choice of search provider
(:func:`pick_provider`). The SQL side (:mod:`webtap.keys`) adds its own sources in front.

The tools' precedence (spec 000 "Credential Discovery", DESIGN 6), field by field:

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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from pathlib import Path

    # A source of keys: for a key's name and its KeySource, ``(value, where it came from)``,
    # or None when it has no such key.
    Source = Callable[[str, "KeySource"], tuple[str, str] | None]

from webtap.errors import AuthMissing, ConfigError
from webtap.protocol import loads_json

__all__ = [
    "BRAVE_AUTH_MISSING",
    "GOOGLE_AUTH_MISSING",
    "KEY_SOURCES",
    "PROVIDER_ARGUMENTS",
    "PROVIDER_KEYS",
    "PROVIDER_ORDER",
    "SEARXNG_AUTH_MISSING",
    "BraveCredentials",
    "CredentialsFile",
    "GoogleCredentials",
    "KeySource",
    "SearxngConfig",
    "brave_key",
    "configured_keys",
    "configured_providers",
    "credentials_path",
    "from_environment",
    "google_credentials",
    "pick_provider",
    "read_file",
    "require_brave",
    "require_google",
    "require_searxng",
    "resolve",
    "tool_order",
    "value_at",
]


class KeySource:
    """Where one key may come from. The tools read the environment, then the file; the SQL
    side reads a value set from SQL, the environment, ``~/.stps``, then the file. (A plain
    class: a NamedTuple or dataclass costs the executables' start-up a few hundred µs.)"""

    __slots__ = ("env", "file_path", "label", "stps_file")

    def __init__(self, env: str, stps_file: str, file_path: tuple[str, ...], label: str) -> None:
        self.env = env  # the environment variable
        self.stps_file = stps_file  # a file name in ~/.stps (the SQL side only)
        self.file_path = file_path  # the path in credentials.json
        self.label = label  # for people: "Brave API key"


# The one table of keys and their sources (DESIGN 6 and 8).
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

# The keys each search provider needs. DESIGN 7: with no choice made, the first provider
# configured in this order is used.
# Each provider's keys, by the argument of its search function they are passed as.
PROVIDER_ARGUMENTS: dict[str, dict[str, str]] = {
    "brave": {"api_key": "brave"},
    "searxng": {"url": "searxng"},
    "google": {"api_key": "google_api_key", "engine_id": "google_cse_id"},
}
PROVIDER_KEYS = {name: tuple(keys.values()) for name, keys in PROVIDER_ARGUMENTS.items()}
PROVIDER_ORDER = tuple(PROVIDER_KEYS)

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


class _Found:
    """What a tool needs from its credentials; the values stay out of ``repr`` (a log line or
    a traceback shows only where they came from). Plain classes: importing dataclasses costs a
    fresh search process about 10 ms."""

    __slots__ = ()
    source: str  # where the values came from, for messages: "BRAVE_API_KEY" or the file

    def __repr__(self) -> str:
        return f"{type(self).__name__}(source={self.source!r})"


class BraveCredentials(_Found):
    __slots__ = ("api_key", "source")

    def __init__(self, api_key: str, source: str) -> None:
        self.api_key = api_key
        self.source = source


class SearxngConfig(_Found):
    __slots__ = ("source", "url")

    def __init__(self, url: str, source: str) -> None:
        self.url = url  # may carry a user and password
        self.source = source


class GoogleCredentials(_Found):
    __slots__ = ("api_key", "engine_id", "source")

    def __init__(self, api_key: str, engine_id: str, source: str) -> None:
        self.api_key = api_key
        self.engine_id = engine_id
        self.source = source


def credentials_path() -> Path:
    """``~/.config/ikigai/credentials.json`` under the current ``HOME`` (the spec's path)."""
    from pathlib import Path  # only when the file is read: a key in the environment needs none

    return Path.home() / ".config" / "ikigai" / "credentials.json"


def require_brave() -> BraveCredentials:
    """The Brave key, or :class:`AuthMissing` with the spec's text and event."""
    found = resolve(["brave"], *tool_order())
    if "brave" not in found:
        raise AuthMissing(
            BRAVE_AUTH_MISSING,
            event=_config_required(BRAVE_CONFIG_REQUIRED, BRAVE_EVENT_DATA),
        )
    return BraveCredentials(*found["brave"])


def require_google() -> GoogleCredentials:
    """The Google key and engine id, or :class:`AuthMissing` with the spec's text and event."""
    found = resolve(["google_api_key", "google_cse_id"], *tool_order())
    if len(found) < 2:
        raise AuthMissing(
            GOOGLE_AUTH_MISSING,
            event=_config_required(GOOGLE_CONFIG_REQUIRED, GOOGLE_EVENT_DATA),
        )
    (key, key_source), (engine, engine_source) = found["google_api_key"], found["google_cse_id"]
    source = key_source if key_source == engine_source else f"{key_source} and {engine_source}"
    return GoogleCredentials(key, engine, source)


def require_searxng() -> SearxngConfig:
    """The SearXNG instance's base URL, or :class:`AuthMissing` with setup text and event."""
    found = resolve(["searxng"], *tool_order())
    if "searxng" not in found:
        raise AuthMissing(
            SEARXNG_AUTH_MISSING,
            event=_config_required(SEARXNG_CONFIG_REQUIRED, SEARXNG_EVENT_DATA),
        )
    return SearxngConfig(*found["searxng"])


def configured_keys() -> dict[str, str]:
    """The search providers' keys that resolve from the environment and the file (the tools'
    order); a key whose source is unusable counts as missing."""
    order = tool_order()  # one file reader: the file is read once for all keys
    found: dict[str, str] = {}
    for name in dict.fromkeys(key for keys in PROVIDER_KEYS.values() for key in keys):
        try:
            hit = resolve([name], *order).get(name)
        except ConfigError:
            continue
        if hit:
            found[name] = hit[0]
    return found


def configured_providers() -> dict[str, bool]:
    """Which search providers have what they need, from the environment and the file."""
    keys = configured_keys()
    return {name: pick_provider(keys, name) is not None for name in PROVIDER_ORDER}


def pick_provider(
    keys: Mapping[str, str | None],
    preferred: str | None = None,
    among: Sequence[str] = PROVIDER_ORDER,
) -> str | None:
    """The one place that picks a search provider (DESIGN 7), from the keys in effect
    (``{"brave": "...", ...}``, names of :data:`KEY_SOURCES`).

    ``preferred`` ("brave", "searxng", "google") when its keys are there, else None; ``"none"``
    means no search; with no preference, the first provider of ``among`` whose keys are there.
    """
    if preferred == "none":
        return None
    candidates = among if preferred is None else (preferred,)
    return next(
        (
            name
            for name in candidates
            if name in PROVIDER_KEYS and all(keys.get(key) for key in PROVIDER_KEYS[name])
        ),
        None,
    )


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


def resolve(names: Iterable[str], *order: Source) -> dict[str, tuple[str, str]]:
    """The one credential resolver: for each key of ``names`` (of :data:`KEY_SOURCES`) that
    a source has, ``(value, where it came from)``, from the first source in ``order`` that has
    it. A source's :class:`ConfigError` is raised: a caller that only wants it noted wraps the
    source (the SQL side does, for files)."""
    found: dict[str, tuple[str, str]] = {}
    for name in names:
        source = KEY_SOURCES[name]
        for read in order:
            hit = read(name, source)
            if hit is not None:
                found[name] = hit
                break
    return found


def tool_order() -> tuple[Source, Source]:
    """The tools' precedence (DESIGN 6): the environment, then the credentials file."""
    return from_environment, CredentialsFile()


def from_environment(name: str, source: KeySource) -> tuple[str, str] | None:
    """The key's variable, if set and not blank; a value that cannot be a key is an error."""
    value = os.environ.get(source.env, "").strip()
    return (check_key(value, f"the key in {source.env}"), source.env) if value else None


class CredentialsFile:
    """``credentials.json`` as a source: read on first need and only once (its error too)."""

    def __init__(self) -> None:
        self._data: dict[str, Any] | None = None
        self._error: ConfigError | None = None

    def __call__(self, name: str, source: KeySource) -> tuple[str, str] | None:
        if self._error is not None:
            raise self._error
        if self._data is None:
            try:
                self._data = read_file()
            except ConfigError as exc:
                self._error = exc
                raise
        value = value_at(self._data, source.file_path)
        return (value, FILE_DISPLAY) if value else None


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
