"""One error tree for webtap.

    WebtapError
    ├── InvalidInput        INVALID_INPUT    a request that breaks the tool's schema
    ├── InvalidURL          INVALID_URL      not an http(s) URL, or malformed
    ├── URLNotAllowed       URL_NOT_ALLOWED  the SSRF guard refused the address
    ├── NetworkError        NETWORK_ERROR    DNS, refused, reset, timeout, TLS
    ├── HTTPError           HTTP_ERROR       a web page answered with status >= 400
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
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "APIError",
    "AuthInvalid",
    "AuthMissing",
    "ConfigError",
    "HTTPError",
    "InternalError",
    "InvalidInput",
    "InvalidOutput",
    "InvalidURL",
    "NetworkError",
    "OutputTooLarge",
    "ParseError",
    "RateLimit",
    "ToolFailed",
    "ToolRunError",
    "ToolTimeout",
    "URLNotAllowed",
    "WebtapError",
]


class WebtapError(Exception):
    """Base class: a message safe to show a person or a model, and a protocol code."""

    code = "ERROR"

    def __init__(self, message: str, *, event: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        # An ``_event`` for the person (config_required, rate_limited), never for the model.
        self.event = event

    def to_response(self) -> dict[str, Any]:
        """The tool protocol's error envelope."""
        response: dict[str, Any] = {
            "success": False,
            "error": self.message,
            "error_code": self.code,
        }
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


def clip(text: str, width: int = 200) -> str:
    """``text`` cut to ``width`` characters for a message: a URL from a model may be megabytes
    long, and the message goes back to that model."""
    return text if len(text) <= width else text[: width - 3] + "..."
