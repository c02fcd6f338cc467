"""One error tree for webtap.

    WebtapError
    ├── InvalidInput        INVALID_INPUT    a request that breaks the tool's schema
    ├── InvalidURL          INVALID_URL      not an http(s) URL, or malformed
    ├── URLNotAllowed       URL_NOT_ALLOWED  the SSRF guard refused the address
    ├── NetworkError        NETWORK_ERROR    DNS, refused, reset, timeout, TLS
    ├── HTTPError           HTTP_ERROR       a web page answered with status >= 400, or a
    │                                        "not found" page with 200 (a soft 404)
    ├── Blocked             BLOCKED          a bot challenge or block page, whatever its status
    ├── NoContent           NO_CONTENT       2xx without the content: a login or consent wall,
    │                                        an empty page, a script shell needing JavaScript
    ├── RobotsDisallowed    ROBOTS_DISALLOWED  the site's robots.txt refuses a fetch the
    │                                          model chose (the message quotes the rule)
    ├── ParseError          PARSE_ERROR      content that cannot be turned into Markdown
    ├── AuthMissing         AUTH_MISSING     no credentials configured (carries an event)
    ├── AuthInvalid         AUTH_INVALID     credentials rejected by the provider
    ├── RateLimit           RATE_LIMIT       quota or rate limit reached
    ├── APIError            API_ERROR        the provider answered with an error or nonsense
    ├── ConfigError         CONFIG_ERROR     a local configuration file is unusable
    ├── InternalError       INTERNAL_ERROR   a bug in webtap or a tool runner (redacted text)
    └── ToolRunError                         a tool's process gave no usable answer (the host)
        ├── ToolFailed      TOOL_FAILED      could not start, crashed, or exited non-zero
        ├── ToolTimeout     TIMEOUT          past its deadline (killed, or given up on)
        ├── OutputTooLarge  OUTPUT_TOO_LARGE printed more than the host reads
        └── InvalidOutput   INVALID_OUTPUT   printed nothing, or not one JSON object

Each subclass carries its protocol ``code`` (the strings are the contract: spec 000/001 and the
host's envelope). Only the edges (the tool envelope, the CLI, SQL, MCP, the host's output) turn
an error into an envelope, an exit code or an ``ERROR:`` value.

An error may carry :class:`Advice`: whether the same call can succeed if tried again, and what
else would help (``retry_with``: one of :data:`RETRY_WITH`, or None when nothing would), and
the same in words (``hint``). :meth:`WebtapError.to_response` adds it to the envelope as added
fields (``retryable``, ``retry_with``, ``advice``, and ``retry_after`` when the server said),
with the error's ``details`` (``verdict``, ``vendor``). The spec's own fields (``success``,
``error``, ``error_code``) stay exactly as they are: the message is never extended with the
advice (DESIGN decision 19; the spec compares ``"HTTP 404: Not Found"`` exactly). The texts
that are webtap's own (MCP's, the ask loop's, the CLI's) read :attr:`WebtapError.explained`,
the message followed by the advice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = [
    "RETRY_WITH",
    "APIError",
    "Advice",
    "AuthInvalid",
    "AuthMissing",
    "Blocked",
    "ConfigError",
    "HTTPError",
    "InternalError",
    "InvalidInput",
    "InvalidOutput",
    "InvalidURL",
    "NetworkError",
    "NoContent",
    "OutputTooLarge",
    "ParseError",
    "RateLimit",
    "RobotsDisallowed",
    "ToolFailed",
    "ToolRunError",
    "ToolTimeout",
    "URLNotAllowed",
    "WebtapError",
    "explain",
]


# What would help where trying the same call again will not (``Advice.retry_with``).
RETRY_WITH = (
    "later",  # the same call, after a while (rate limits, overload, outages)
    "render",  # a browser that runs the page's scripts (a script shell)
    "credentials",  # an account or key (a login wall, a paywall, HTTP 401)
    "another_url",  # another page or source for the same information
)

# The envelope's own fields: added fields never replace them.
_ENVELOPE = frozenset(("success", "error", "error_code", "_event"))


class Advice(NamedTuple):
    """Whether trying again can help, and what would.

    ``retryable``: the same call, unchanged, may succeed if made again (later). ``retry_with``:
    the one change most likely to help (see :data:`RETRY_WITH`), None when nothing would.
    ``retry_after``: seconds the server asked to wait (``Retry-After``), when it said. ``hint``:
    the same in words, for the message the model reads.
    """

    retryable: bool
    retry_with: str | None
    hint: str = ""
    retry_after: float | None = None

    def fields(self) -> dict[str, Any]:
        """The envelope's added fields."""
        fields: dict[str, Any] = {"retryable": self.retryable, "retry_with": self.retry_with}
        if self.hint:
            fields["advice"] = self.hint
        if self.retry_after is not None:
            fields["retry_after"] = self.retry_after
        return fields


class WebtapError(Exception):
    """Base class: a message safe to show a person or a model, and a protocol code.

    ``advice`` says whether trying again can help (its ``hint`` is in :attr:`explained`, never
    in ``message``);
    ``details`` are added envelope fields that say more about what happened (a fetch's
    ``verdict``, a bot wall's ``vendor``).
    """

    code = "ERROR"

    def __init__(
        self,
        message: str,
        *,
        event: dict[str, Any] | None = None,
        advice: Advice | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        # An ``_event`` for the person (config_required, rate_limited), never for the model.
        self.event = event
        if advice is not None and advice.retry_with not in (None, *RETRY_WITH):
            raise ValueError(f"retry_with must be one of {RETRY_WITH} or None")
        self.advice = advice
        self.details = {k: v for k, v in (details or {}).items() if k not in _ENVELOPE}

    @property
    def explained(self) -> str:
        """The message followed by the advice in words: for webtap's own texts (MCP, the ask
        loop, the CLI), never for the protocol's ``error`` field."""
        return explain(self.message, self.advice.hint if self.advice is not None else "")

    def to_response(self) -> dict[str, Any]:
        """The tool protocol's error envelope, with the advice and details as added fields."""
        response: dict[str, Any] = {
            "success": False,
            "error": self.message,
            "error_code": self.code,
        }
        response.update(self.details)
        if self.advice is not None:
            response.update(self.advice.fields())
        if self.event is not None:
            response["_event"] = self.event
        return response


class InvalidInput(WebtapError):
    code = "INVALID_INPUT"


class InvalidURL(WebtapError):
    code = "INVALID_URL"


class URLNotAllowed(WebtapError):
    code = "URL_NOT_ALLOWED"


class NetworkError(WebtapError):
    code = "NETWORK_ERROR"


class HTTPError(WebtapError):
    code = "HTTP_ERROR"


class Blocked(WebtapError):
    """A bot challenge or block page answered instead of the page (``details["vendor"]``)."""

    code = "BLOCKED"


class NoContent(WebtapError):
    """The server answered with success, but not with the content (``details["verdict"]``)."""

    code = "NO_CONTENT"


class RobotsDisallowed(WebtapError):
    """The site's robots.txt disallows a fetch the model chose (the message quotes the rule)."""

    code = "ROBOTS_DISALLOWED"


class ParseError(WebtapError):
    code = "PARSE_ERROR"


class AuthMissing(WebtapError):
    code = "AUTH_MISSING"


class AuthInvalid(WebtapError):
    code = "AUTH_INVALID"


class RateLimit(WebtapError):
    code = "RATE_LIMIT"


class APIError(WebtapError):
    code = "API_ERROR"


class ConfigError(WebtapError):
    code = "CONFIG_ERROR"


class InternalError(WebtapError):
    code = "INTERNAL_ERROR"


class ToolRunError(WebtapError):
    """A tool's process gave no answer the host can use; the model hears that the call failed."""

    code = "TOOL_FAILED"


class ToolFailed(ToolRunError):
    code = "TOOL_FAILED"


class ToolTimeout(ToolRunError):
    code = "TIMEOUT"


class OutputTooLarge(ToolRunError):
    code = "OUTPUT_TOO_LARGE"


class InvalidOutput(ToolRunError):
    code = "INVALID_OUTPUT"


def explain(message: str, advice: object) -> str:
    """``message`` followed by ``advice`` (an envelope's ``advice`` field) when it is text:
    webtap's own wording of an error for a person or a model."""
    if not isinstance(advice, str) or not advice or message.endswith(advice):
        return message
    # "HTTP 404: Not Found" ends without a stop; the advice is a sentence of its own.
    stop = "" if message.endswith((".", "!", "?", ":")) else "."
    return f"{message}{stop} {advice}"


def clip(text: str, width: int = 200) -> str:
    """``text`` cut to ``width`` characters for a message: a URL from a model may be megabytes
    long, and the message goes back to that model."""
    return text if len(text) <= width else text[: width - 3] + "..."
