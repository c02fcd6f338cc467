"""Where one model's calls go (decision: Model names): the provider, its address and its key.

Every adapter, the retry loop and the error messages name it; :mod:`webtap.agent.models`
makes one from a model's name.
"""

from __future__ import annotations

from typing import NamedTuple

from webtap.agent.rate import model_budget
from webtap.budget.rate import RateBudget
from webtap.providers import ANTHROPIC, ModelProvider

__all__ = ["ANTHROPIC_ENDPOINT", "Endpoint"]


class Endpoint(NamedTuple):
    """Where one model's calls go, as messages name it: the provider, its address, and its key
    (None: a provider without keys), which names the key's shared rate budget."""

    provider: ModelProvider
    base_url: str
    key: str | None = None

    @property
    def where(self) -> str:
        """``the Anthropic API``; ``Ollama at http://127.0.0.1:11434/v1``."""
        if self.provider.name == "anthropic":
            return self.provider.title
        return f"{self.provider.title} at {self.base_url}"

    def budget(self) -> RateBudget | None:
        """The key's requests-a-minute budget, shared wherever the key is used (decision: Rate
        budgets past one machine)."""
        if self.key is None or self.provider.key is None:
            return None
        return model_budget(self.key, self.provider)


ANTHROPIC_ENDPOINT = Endpoint(ANTHROPIC, ANTHROPIC.endpoint_default)
