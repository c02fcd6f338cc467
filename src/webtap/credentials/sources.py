"""Where keys come from: one table (:data:`KEY_SOURCES`), the sources, and one resolver
(:func:`resolve`) that takes them in the order its caller needs.

The table is the Anthropic key and each search provider's keys as its record declares them
(:mod:`webtap.providers`): the variable, the path in ``credentials.json``, the ``~/.stps`` file.
Two orders read it:

- the tools' (:func:`tool_order`, spec 000 "Credential Discovery", decision: Credentials): the
  environment (an empty variable counts as unset), then ``~/.config/ikigai/credentials.json``;
- the ask loop's and SQL's (:func:`ask_order`, decision: Ask keys): a value set from SQL, the
  environment, the first line of the key's ``~/.stps`` file, then ``credentials.json``.

What every search tool does first is :func:`require`: the provider's typed credentials
(:class:`webtap.providers.Found`) in the tools' order, or :class:`AuthMissing` with the
provider's spec text and ``config_required`` event; :func:`available` is the same without the
error. Nothing here names a provider: each is a record of :mod:`webtap.providers`, and what is
one provider's own (``brave_key()``) is in its module under :mod:`webtap.search`.
:func:`pick_provider` is the one place that picks a provider (decision: Which search): the CLI,
the ask loop, SQL and a quota message's alternative all ask it, so they agree on every
configuration.

A credentials file that cannot be read or is not a JSON object is a :class:`ConfigError` that
names the file and never quotes its content; so is a value that cannot be a key.
"""

from __future__ import annotations

import json
import os
import re
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from webtap.errors import AuthMissing, ConfigError
from webtap.protocol import loads_json
from webtap.providers import ANTHROPIC, MODEL_PROVIDERS, PROVIDERS, Found, KeySource, Provider

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    # A source of keys: for a key's name and its KeySource, ``(value, where it came from)``,
    # or None when it has no such key.
    Source = Callable[[str, KeySource], tuple[str, str] | None]

__all__ = [
    "ANTHROPIC_KEY",
    "FILE_DISPLAY",
    "KEY_SOURCES",
    "CredentialsFile",
    "KeySource",
    "ask_order",
    "available",
    "check_key",
    "configured_keys",
    "configured_providers",
    "credentials_path",
    "from_environment",
    "from_stps",
    "pick_provider",
    "read_file",
    "require",
    "resolve",
    "stps_dir",
    "tool_order",
    "value_at",
]

ANTHROPIC_KEY = cast("KeySource", ANTHROPIC.key)  # the first of the table, as before

# The one table of keys and their sources (decisions: Credentials; Ask keys), by name.
KEY_SOURCES: dict[str, KeySource] = {
    source.name: source
    for source in (
        *(model.key for model in MODEL_PROVIDERS.values() if model.key),
        *(key for provider in PROVIDERS.values() for key in provider.keys.values()),
    )
}

FILE_DISPLAY = "~/.config/ikigai/credentials.json"


def resolve(names: Iterable[str], *order: Source) -> dict[str, tuple[str, str]]:
    """The one credential resolver: for each key of ``names`` (of :data:`KEY_SOURCES`) that
    a source has, ``(value, where it came from)``, from the first source in ``order`` that has
    it. A source's :class:`ConfigError` is raised: a caller that only wants it noted wraps the
    source (:func:`ask_order` does, for files)."""
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
    """The tools' precedence (decision: Credentials): the environment, then the credentials file."""
    return from_environment, CredentialsFile()


def ask_order(given: dict[str, str], problems: list[str]) -> tuple[Source, ...]:
    """The ask loop's and SQL's precedence (decision: Ask keys): ``given`` (set from SQL or the
    API), the environment, ``~/.stps``, then the credentials file. An unreadable file is skipped and
    its problem added to ``problems``; a variable set wrongly is an error."""
    return (
        partial(_given, given),
        from_environment,
        partial(_noting, from_stps, problems),
        partial(_noting, CredentialsFile(), problems),
    )


# -- what a search provider needs, and which one is set up ----------------------------------


def require(provider: Provider, given: Mapping[str, str | None] | None = None) -> Found:
    """``provider``'s credentials: ``given`` (by argument, ``{"api_key": ...}``) when it has
    them all; else discovered in the tools' order (environment, then the credentials file),
    with a given value still winning over a discovered one. Nothing found:
    :class:`AuthMissing` with the provider's setup text and ``config_required`` event."""
    kind = provider.credentials
    passed = {argument: value for argument, value in (given or {}).items() if value}
    if passed and all(argument in passed for argument in kind.keys):
        return kind(*(passed[argument] for argument in kind.keys), source=kind.given)
    names = {key.name: argument for argument, key in kind.keys.items()}
    found = resolve(names, *tool_order())
    if len(found) < len(names):
        event = {
            "kind": "config_required",
            "content": provider.config_required,
            "data": dict(provider.event_data),
        }
        raise AuthMissing(provider.auth_missing, event=event)
    sources = list(dict.fromkeys(source for _, source in found.values()))
    values = {names[name]: value for name, (value, _) in found.items()}
    values.update(passed)
    return kind(*(values[argument] for argument in kind.keys), source=" and ".join(sources))


def available(provider: Provider) -> Found | None:
    """``provider``'s credentials if they resolve (:func:`require`); None when they are missing
    or the file is unusable."""
    try:
        return require(provider)
    except (AuthMissing, ConfigError):
        return None


def configured_keys() -> dict[str, str]:
    """The search providers' keys that resolve from the environment and the file (the tools'
    order); a key whose source is unusable counts as missing."""
    order = tool_order()  # one file reader: the file is read once for all keys
    found: dict[str, str] = {}
    names = (key.name for provider in PROVIDERS.values() for key in provider.keys.values())
    for name in dict.fromkeys(names):
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
    return {name: pick_provider(keys, name) is not None for name in PROVIDERS}


def pick_provider(
    keys: Mapping[str, str | None],
    preferred: str | None = None,
    among: Sequence[str] | None = None,
) -> str | None:
    """The one place that picks a search provider (decision: Which search), from the keys in effect
    (``{"brave": "...", ...}``, names of the key table).

    ``preferred`` (a provider's name) when its keys are there, else None; ``"none"`` means no
    search; with no preference, the first provider of ``among`` (default: all, in the
    registry's order) whose keys are there.
    """
    if preferred == "none":
        return None
    candidates = (among or tuple(PROVIDERS)) if preferred is None else (preferred,)
    return next(
        (
            name
            for name in candidates
            if name in PROVIDERS
            and all(keys.get(key.name) for key in PROVIDERS[name].keys.values())
        ),
        None,
    )


# -- the sources ------------------------------------------------------------------------------


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


def stps_dir() -> Path:
    """``~/.stps`` under the current ``HOME``."""
    return Path.home() / ".stps"


def from_stps(name: str, source: KeySource) -> tuple[str, str] | None:
    """The first line of the key's file in ``~/.stps``."""
    path = stps_dir() / source.stps_file
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise ConfigError(f"Cannot read {path}: {reason}.") from None
    first = text.splitlines()[0].strip() if text.strip() else ""
    return (check_key(first, f"the key in {path}"), str(path)) if first else None


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


def credentials_path() -> Path:
    """``~/.config/ikigai/credentials.json`` under the current ``HOME`` (the spec's path)."""
    return Path.home() / ".config" / "ikigai" / "credentials.json"


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
