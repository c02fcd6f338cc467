"""Credentials in one place: one table of keys, one resolver, typed credentials per provider.

- :mod:`~webtap.credentials.sources`: the table (:data:`KEY_SOURCES`: the Anthropic key and
  each search provider's keys as its record in :mod:`webtap.providers` declares them), where a
  key may come from, and :func:`resolve`, which takes the sources in the order its caller
  needs: the tools' (:func:`tool_order`: environment, then ``credentials.json``) or the ask
  loop's and SQL's (:func:`ask_order`: set from SQL, environment, ``~/.stps``, file); what a
  search tool needs (:func:`require`, with the spec's ``AUTH_MISSING`` text and
  ``config_required`` event) and which provider is set up (:func:`pick_provider`, decision: Which
  search).
- :mod:`~webtap.credentials.ask`: :class:`Keys` and the :class:`Credentials` in effect for
  the ask loop and SQL (imported on first use: a tool call needs neither).

What is secret is derived from the table (:meth:`KeySource.secrets`): a key as it is; an
address's user and password in every form they travel in, ``Basic`` encoding included. Light
(no httpx, dataclasses or pathlib on import, two modules): every tool call imports it.
"""

from typing import TYPE_CHECKING, Any

from webtap.credentials import sources
from webtap.credentials.sources import *  # noqa: F403 - the table, the resolver, require...
from webtap.providers import (
    BRAVE,
    GOOGLE,
    PROVIDERS,
    SEARXNG,
    BraveCredentials,
    Found,
    GoogleCredentials,
    SearxngConfig,
)

__all__ = [
    *sources.__all__,
    "ANTHROPIC_KEY_MISSING",
    "BRAVE_AUTH_MISSING",
    "BRAVE_CONFIG_REQUIRED",
    "BRAVE_EVENT_DATA",
    "GOOGLE_AUTH_MISSING",
    "GOOGLE_CONFIG_REQUIRED",
    "GOOGLE_EVENT_DATA",
    "PROVIDER_ORDER",
    "SEARXNG_AUTH_MISSING",
    "SEARXNG_CONFIG_REQUIRED",
    "SEARXNG_EVENT_DATA",
    "BraveCredentials",
    "Credentials",
    "Found",
    "GoogleCredentials",
    "Keys",
    "SearxngConfig",
]

if TYPE_CHECKING:
    from webtap.credentials.ask import ANTHROPIC_KEY_MISSING, Credentials, Keys

_ASK_SIDE = ("ANTHROPIC_KEY_MISSING", "Credentials", "Keys")


def __getattr__(name: str) -> Any:
    """The ask side's names, from :mod:`webtap.credentials.ask` when first asked for."""
    if name in _ASK_SIDE:
        from webtap.credentials import ask

        return getattr(ask, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# With no choice made, the first provider configured in this order is used (decision: Which
# search).
PROVIDER_ORDER = tuple(PROVIDERS)

# The spec's setup texts and event data, by their old names (each provider's record holds them).
BRAVE_AUTH_MISSING = BRAVE.auth_missing
BRAVE_CONFIG_REQUIRED = BRAVE.config_required
BRAVE_EVENT_DATA = BRAVE.event_data
SEARXNG_AUTH_MISSING = SEARXNG.auth_missing
SEARXNG_CONFIG_REQUIRED = SEARXNG.config_required
SEARXNG_EVENT_DATA = SEARXNG.event_data
GOOGLE_AUTH_MISSING = GOOGLE.auth_missing
GOOGLE_CONFIG_REQUIRED = GOOGLE.config_required
GOOGLE_EVENT_DATA = GOOGLE.event_data
