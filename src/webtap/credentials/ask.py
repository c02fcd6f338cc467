"""The ask loop's and SQL's keys: set from SQL or the API, over the environment and the files.

Precedence for each key of the table (decision: Ask keys, as the DuckDB extension of spec 002 does
it; :func:`webtap.credentials.ask_order`): a value set with :meth:`Keys.set` (``stps_set_api_key``
and friends in SQL), the key's variable, the first line of its ``~/.stps`` file, then
``~/.config/ikigai/credentials.json``. :meth:`Keys.resolve` reads all of that once and returns
:class:`Credentials`, whose ``repr`` never shows a key.
"""

from __future__ import annotations

import threading

from webtap.credentials.sources import KEY_SOURCES, ask_order, check_key, pick_provider, resolve
from webtap.errors import AuthMissing, InvalidInput
from webtap.providers import PROVIDERS, Found, ModelProvider

__all__ = ["ANTHROPIC_KEY_MISSING", "Credentials", "Keys"]

ANTHROPIC_KEY_MISSING = (
    "No Anthropic API key found. Set ANTHROPIC_API_KEY, put the key on the first line of "
    "~/.stps/anthropic_api_key, or call stps_set_api_key('sk-ant-...') in SQL."
)


class Credentials:
    """The keys in effect at one moment, by their name in the key table (``.anthropic``,
    ``.brave``, ``.searxng``, ``.google_api_key``, ...; ``None`` where nothing resolved).

    ``problem``: a credentials file that could not be read, reported when the Anthropic key is
    missing. A plain class, not a dataclass: the tools import this package.
    """

    __slots__ = ("_values", "problem")

    def __init__(self, values: dict[str, str] | None = None, problem: str | None = None) -> None:
        self._values = {name: value for name, value in (values or {}).items() if value}
        self.problem = problem

    def __getattr__(self, name: str) -> str | None:
        if name in KEY_SOURCES:
            return self._values.get(name)
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"Credentials(keys={sorted(self._values)!r}, problem={self.problem!r})"

    def require_anthropic(self) -> str:
        """The Anthropic key, or :class:`AuthMissing` saying how to set one."""
        key = self._values.get("anthropic")
        if key:
            return key
        message = ANTHROPIC_KEY_MISSING
        if self.problem:
            message += f" ({self.problem})"
        raise AuthMissing(message)

    def require_model_key(self, provider: ModelProvider) -> str | None:
        """``provider``'s key (None for a provider that takes none, such as Ollama), or
        :class:`AuthMissing` saying how to set one."""
        key = provider.key
        if key is None:
            return None
        if key.name == "anthropic":
            return self.require_anthropic()
        value = self._values.get(key.name)
        if value:
            return value
        setter = key.setter.partition("(")[0]
        message = (
            f"No {key.label} found for {provider.name}: models. Set {key.env}, put the key on "
            f"the first line of ~/.stps/{key.stps_file}, or call {setter}('...') in SQL."
        )
        if provider.key_url:
            message += f" Get one at {provider.key_url}"
        if self.problem:
            message += f" ({self.problem})"
        raise AuthMissing(message)

    def search_provider(self, preferred: str | None = None) -> str | None:
        """The search provider to offer: ``preferred`` when its keys resolve, else none.

        With no preference, the first configured in the registry's order (decision: Which search,
        decided by :func:`webtap.credentials.pick_provider`); ``"none"`` turns search off.
        """
        return pick_provider(self._values, preferred)

    def for_provider(self, provider: str) -> Found | None:
        """``provider``'s typed credentials, as :func:`webtap.search.search` takes them; None
        when they are not all there."""
        record = PROVIDERS.get(provider)
        if record is None or pick_provider(self._values, provider) is None:
            return None
        kind = record.credentials
        values = [self._values[key.name] for key in kind.keys.values()]
        return kind(*values, source=kind.given)

    def secrets(self) -> list[str]:
        """Every key in effect, in every form it travels in, to scrub from messages (derived
        from the key table: a SearXNG address's password and its ``Basic`` encoding too)."""
        return [
            form
            for name, value in self._values.items()
            for form in KEY_SOURCES[name].secrets(value)
        ]


class Keys:
    """Keys set from SQL or the API, over the environment and the files. Thread-safe."""

    def __init__(self) -> None:
        self._set: dict[str, str] = {}
        self._lock = threading.Lock()

    def set(self, name: str, value: str | None) -> None:
        """Set key ``name`` (one of the key table); ``None`` or blank clears it."""
        if name not in KEY_SOURCES:
            raise InvalidInput(f"Unknown key {name!r} (known: {', '.join(KEY_SOURCES)})")
        value = (value or "").strip()
        if value:
            check_key(value, f"the {KEY_SOURCES[name].label} given")
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
        found = resolve(KEY_SOURCES, *ask_order(given, problems))
        values = {name: value for name, (value, _) in found.items()}
        return Credentials(values, problem=problems[0] if problems else None)
