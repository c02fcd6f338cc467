"""How a question is asked: the model, its limits and its time limits (spec 002)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webtap.errors import InvalidInput
from webtap.providers import ANTHROPIC
from webtap.settings import MODEL

__all__ = [
    "DEFAULT_FETCH_LIMIT",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MAX_TOOL_CALLS",
    "DEFAULT_MODEL",
    "DEFAULT_SETTINGS",
    "DEFAULT_TIME_LIMITS",
    "ENDPOINT_DEFAULT",
    "ENDPOINT_ENV",
    "MAX_TOOL_CALLS",
    "AskSettings",
    "TimeLimits",
    "check_settings",
    "default_model",
]

# A current model that the installed SDK does not list as deprecated (spec 002 named the model of
# its day; the setting WEBTAP_MODEL declares it); WEBTAP_MODEL overrides it for every front end,
# and --model / stps_set_model win.
DEFAULT_MODEL = MODEL.default
# Where the Anthropic API is (decision: Endpoints), as its record in webtap.providers declares
# it (every model provider's address is its record's: MODEL_PROVIDERS).
ENDPOINT_ENV = ANTHROPIC.endpoint_env
ENDPOINT_DEFAULT = ANTHROPIC.endpoint_default
DEFAULT_MAX_TOKENS = 1000
DEFAULT_MAX_TOOL_CALLS = 1  # spec 002: "Single tool call limit (max 1 search per query)"
DEFAULT_MAX_RETRIES = 2  # the SDK's own retries of 408/409/429/5xx/529 and connection errors
DEFAULT_FETCH_LIMIT = 400  # lines of a page given to the model when it does not ask for a limit
MAX_TOOL_CALLS = 20


@dataclass(frozen=True)
class TimeLimits:
    """Seconds: one model call, one search, and one whole question (spec 002, "Timeout"; its
    "Budget" adds them up). The question's becomes its :class:`~webtap.net.Deadline`."""

    model_call: float = 30.0
    search: float = 10.0
    total: float = 90.0


DEFAULT_TIME_LIMITS = TimeLimits()


@dataclass(frozen=True)
class AskSettings:
    """How one question is asked. ``model``: empty for :func:`default_model`.
    ``search_provider``: ``"brave"``, ``"searxng"``, ``"google"``, ``"none"``, or ``None`` for
    the first that is set up. ``citations``: what the tools read goes to the model as citable
    documents and the answer comes with its citations, each checked (off: the spec's texts)."""

    model: str = ""
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_tool_calls: int = DEFAULT_MAX_TOOL_CALLS
    search_provider: str | None = None
    time_limits: TimeLimits = DEFAULT_TIME_LIMITS
    fetch_limit: int = DEFAULT_FETCH_LIMIT
    max_retries: int = DEFAULT_MAX_RETRIES
    store_events: bool = True
    citations: bool = False
    schema: dict[str, Any] | None = None  # a typed answer's JSON Schema (webtap.answer_schema)
    unsupported: str = "keep"  # "null": a typed field whose quote does not verify is nulled


DEFAULT_SETTINGS = AskSettings()


def default_model() -> str:
    """``WEBTAP_MODEL`` when set, else :data:`DEFAULT_MODEL`."""
    return MODEL.get()


def check_settings(settings: AskSettings) -> None:
    if not settings.model.strip():
        raise InvalidInput("The model name is empty; give one such as " + DEFAULT_MODEL)
    if not settings.model.isprintable():
        raise InvalidInput(
            f"The model name {settings.model!r} contains control characters; give one such as "
            + DEFAULT_MODEL
        )
    if not 1 <= settings.max_tokens <= 128_000:
        raise InvalidInput(f"max_tokens must be between 1 and 128000 (got {settings.max_tokens})")
    if settings.unsupported not in ("keep", "null"):
        raise InvalidInput(f"unsupported must be 'keep' or 'null' (got {settings.unsupported!r})")
    if not 0 <= settings.max_tool_calls <= MAX_TOOL_CALLS:
        raise InvalidInput(
            f"max_tool_calls must be between 0 and {MAX_TOOL_CALLS} (got {settings.max_tool_calls})"
        )
