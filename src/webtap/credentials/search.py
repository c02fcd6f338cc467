"""What a search provider needs, and which provider is set up.

:func:`require` is what every search tool does first: the provider's typed credentials
(:class:`webtap.providers.Found`) in the tools' order, or :class:`AuthMissing` with the
provider's spec text and ``config_required`` event. :func:`pick_provider` is the one place that
picks a provider (DESIGN 7): the CLI, the ask loop, SQL and a quota message's alternative all
ask it, so they agree on every configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from webtap.credentials.sources import resolve, tool_order
from webtap.errors import AuthMissing, ConfigError
from webtap.providers import (
    PROVIDERS,
    BraveCredentials,
    Found,
    GoogleCredentials,
    Provider,
    SearxngConfig,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = [
    "brave_key",
    "configured_keys",
    "configured_providers",
    "google_credentials",
    "pick_provider",
    "require",
    "require_brave",
    "require_google",
    "require_searxng",
]


def require(provider: Provider, given: Mapping[str, str | None] | None = None) -> Found:
    """``provider``'s credentials: ``given`` (by argument, ``{"api_key": ...}``) when it has
    them all; else discovered in the tools' order (environment, then the credentials file),
    with a given value still winning over a discovered one. Nothing found:
    :class:`AuthMissing` with the provider's setup text and ``config_required`` event."""
    kind = provider.credentials
    given = {argument: value for argument, value in (given or {}).items() if value}
    if given and all(argument in given for argument in kind.keys):
        return kind(*(given[argument] for argument in kind.keys), source=kind.given)
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
    values.update(given)
    return kind(*(values[argument] for argument in kind.keys), source=" and ".join(sources))


def require_brave() -> BraveCredentials:
    """The Brave key, or :class:`AuthMissing` with the spec's text and event."""
    return cast(BraveCredentials, require(PROVIDERS["brave"]))


def require_google() -> GoogleCredentials:
    """The Google key and engine id, or :class:`AuthMissing` with the spec's text and event."""
    return cast(GoogleCredentials, require(PROVIDERS["google"]))


def require_searxng() -> SearxngConfig:
    """The SearXNG instance's base URL, or :class:`AuthMissing` with setup text and event."""
    return cast(SearxngConfig, require(PROVIDERS["searxng"]))


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
    """The one place that picks a search provider (DESIGN 7), from the keys in effect
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
