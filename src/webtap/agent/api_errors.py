"""The Anthropic SDK's exceptions as webtap's, with no key in any message."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from webtap.agent.settings import DEFAULT_MODEL, ENDPOINT_ENV
from webtap.errors import APIError, AuthInvalid, ConfigError, NetworkError, RateLimit, WebtapError
from webtap.redact import quote, redact

__all__ = ["ModelNotFound", "Refused", "translate_api_errors"]


class Refused(APIError):
    """The model declined to answer (``stop_reason: refusal``)."""


class ModelNotFound(APIError):
    """The API does not serve the model asked for (404 ``not_found_error``): never retried."""


@contextmanager
def translate_api_errors(
    secrets: list[str],
    timeout: float,
    retries: int,
    out_of_time: bool = False,
    *,
    model: str | None = None,
) -> Iterator[None]:
    """The SDK's exceptions as webtap's, most specific first, with no key in any message.

    ``retries`` were made before the failure; ``out_of_time`` when another was due but the
    question's deadline left no time for it; ``model`` names the model in a 404's message.
    """
    import anthropic  # at the first model call (the package's docstring)

    try:
        yield
    except WebtapError:
        raise
    except anthropic.NotFoundError as exc:
        said = _said(exc)
        if model is None or "model" not in said.lower():
            raise APIError(redact(f"The Anthropic API answered 404: {said}", secrets)) from None
        raise ModelNotFound(
            f"The Anthropic API does not serve the model {model!r} (404 not_found_error). "
            f"Choose another with --model, WEBTAP_MODEL or stps_set_model(), e.g. "
            f"{DEFAULT_MODEL}."
        ) from None
    except anthropic.AuthenticationError:
        raise AuthInvalid(
            "The Anthropic API rejected the API key (401 authentication_error). Check "
            "ANTHROPIC_API_KEY, ~/.stps/anthropic_api_key, or set it with stps_set_api_key()."
        ) from None
    except anthropic.PermissionDeniedError as exc:
        raise AuthInvalid(
            redact(f"The Anthropic API key may not do this (403): {_said(exc)}", secrets)
        ) from None
    except anthropic.RateLimitError as exc:
        after = _after(retries, out_of_time)
        raise RateLimit(
            redact(
                f"The Anthropic API is rate limiting this key (429), {after}: "
                f"{_said(exc)} Wait a minute and try again, or lower the concurrency.",
                secrets,
            )
        ) from None
    except anthropic.APIStatusError as exc:
        if exc.status_code == 529:  # by status: older SDKs have no OverloadedError class
            raise RateLimit(
                f"The Anthropic API is overloaded (529), {_after(retries, out_of_time)}. "
                "Try again in a few minutes."
            ) from None
        raise APIError(
            redact(
                f"The Anthropic API answered {exc.status_code} "
                f"({exc.type or 'error'}): {_said(exc)}",
                secrets,
            )
        ) from None
    except anthropic.APITimeoutError:
        raise NetworkError(f"The Anthropic API did not answer within {timeout:g} s.") from None
    except anthropic.APIConnectionError as exc:
        cause = exc.__cause__ or exc.__context__
        reason = f"{type(cause).__name__}: {cause}" if cause else str(exc)
        base_url = os.environ.get(ENDPOINT_ENV, "").strip()
        if base_url and not base_url.lower().startswith(("http://", "https://")):
            raise ConfigError(
                redact(
                    f"{ENDPOINT_ENV} must be an http:// or https:// URL (got {base_url!r}); "
                    "fix it, or unset it to use the Anthropic API.",
                    secrets,
                )
            ) from None
        advice = f"Check {ENDPOINT_ENV} ({base_url})" if base_url else "Check the network"
        raise NetworkError(
            redact(f"Could not reach the Anthropic API ({reason}). {advice}.", secrets)
        ) from None
    except anthropic.AnthropicError as exc:
        raise APIError(
            redact(f"The Anthropic API call failed: {type(exc).__name__}: {exc}", secrets)
        ) from None


def _after(retries: int, out_of_time: bool) -> str:
    """ "still after N retries", or why there were none: the question's budget."""
    if out_of_time and retries == 0:
        return "with no time left in the question's budget to retry"
    return f"still after {retries} retries"


def _said(exc: Any) -> str:
    """The API's own message, or the start of the body."""
    message = getattr(exc, "api_message", None)
    if isinstance(message, str) and message.strip():
        return message.strip().rstrip(".") + "."
    body = getattr(exc, "body", None)
    text = json.dumps(body) if isinstance(body, dict | list) else str(body or "no details")
    return quote(text, 200)
