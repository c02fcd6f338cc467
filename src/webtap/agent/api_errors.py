"""A model SDK's exceptions as webtap's, with no key in any message.

Both SDKs webtap speaks through (``anthropic`` and ``openai``) are generated alike: the same
exception classes under the same names (``APITimeoutError``, ``APIConnectionError``,
``APIStatusError`` and its per-status subclasses), so one translation serves both, given the
SDK's module and the :class:`~webtap.agent.endpoint.Endpoint` the call went to. Each message is
one line that says what to do: which variable holds the key, which model to name instead,
``ollama serve`` when Ollama is not running.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from webtap.agent.endpoint import ANTHROPIC_ENDPOINT, Endpoint
from webtap.agent.settings import DEFAULT_MODEL
from webtap.errors import APIError, AuthInvalid, ConfigError, NetworkError, RateLimit, WebtapError
from webtap.redact import quote, redact

__all__ = ["ModelNotFound", "Refused", "ToolsUnsupported", "translate_api_errors"]


class Refused(APIError):
    """The model declined to answer (``stop_reason: refusal``)."""


class ModelNotFound(APIError):
    """The API does not serve the model asked for (404 ``not_found_error``): never retried."""


class ToolsUnsupported(APIError):
    """The server refused the request because the model cannot call tools (Ollama's
    "does not support tools", vLLM's "tool choice requires --enable-auto-tool-choice")."""


# How servers say that a model or the server itself takes no tools.
_NO_TOOLS = (
    "does not support tools",
    "tool choice requires",
    "tools are not supported",
    "tool use is not supported",
    "does not support function calling",
    "tool calling is not supported",
    "requires --jinja",  # llama.cpp's server started without its chat templates
)


@contextmanager
def translate_api_errors(
    secrets: list[str],
    timeout: float,
    retries: int,
    out_of_time: bool = False,
    *,
    model: str | None = None,
    sdk: Any = None,
    endpoint: Endpoint | None = None,
) -> Iterator[None]:
    """The SDK's exceptions as webtap's, most specific first, with no key in any message.

    ``retries`` were made before the failure; ``out_of_time`` when another was due but the
    question's deadline left no time for it; ``model`` names the model (its full name) in a
    404's message. ``sdk`` is the SDK's module (default ``anthropic``), ``endpoint`` where the
    call went (default the Anthropic API).
    """
    if sdk is None:
        import anthropic as sdk  # the SDK at the first model call (see webtap.agent)
    where = endpoint or ANTHROPIC_ENDPOINT
    title = where.where
    Title = title[0].upper() + title[1:]
    provider = where.provider
    try:
        yield
    except WebtapError:
        raise
    except sdk.NotFoundError as exc:
        said = _said(exc)
        if model is None or "model" not in said.lower():
            raise APIError(redact(f"{Title} answered 404: {said}", secrets)) from None
        raise ModelNotFound(_not_served(where, model, said, secrets)) from None
    except sdk.AuthenticationError:
        key = provider.key
        where_key = (
            f"Check {key.env}, ~/.stps/{key.stps_file}, or set it with "
            f"{key.setter.partition('(')[0]}()."
            if key
            else f"Check {provider.endpoint_env}: this server wants a key webtap does not send."
        )
        kind = "authentication_error" if provider.name == "anthropic" else "unauthorized"
        raise AuthInvalid(f"{Title} rejected the API key (401 {kind}). {where_key}") from None
    except sdk.PermissionDeniedError as exc:
        raise AuthInvalid(
            redact(f"{Title} key may not do this (403): {_said(exc)}", secrets)
        ) from None
    except sdk.RateLimitError as exc:
        after = _after(retries, out_of_time)
        raise RateLimit(
            redact(
                f"{Title} is rate limiting this key (429), {after}: "
                f"{_said(exc)} Wait a minute and try again, or lower the concurrency.",
                secrets,
            )
        ) from None
    except sdk.APIStatusError as exc:
        if exc.status_code == 529:  # by status: older SDKs have no OverloadedError class
            raise RateLimit(
                f"{Title} is overloaded (529), {_after(retries, out_of_time)}. "
                "Try again in a few minutes."
            ) from None
        said = _said(exc)
        if exc.status_code == 400 and any(words in said.lower() for words in _NO_TOOLS):
            raise ToolsUnsupported(_no_tools(where, model, said, secrets)) from None
        if model is not None and _code(exc) == "model_not_found":
            raise ModelNotFound(_not_served(where, model, said, secrets)) from None
        raise APIError(
            redact(
                f"{Title} answered {exc.status_code} ({_kind(exc)}): {said}",
                secrets,
            )
        ) from None
    except sdk.APITimeoutError:
        raise NetworkError(f"{Title} did not answer within {timeout:g} s.") from None
    except sdk.APIConnectionError as exc:
        raise _unreachable(where, exc, secrets) from None
    except Exception as exc:
        if not isinstance(exc, _base_error(sdk)):
            raise
        raise APIError(
            redact(f"{Title} call failed: {type(exc).__name__}: {exc}", secrets)
        ) from None


def _base_error(sdk: Any) -> type[Exception]:
    base = getattr(sdk, "AnthropicError", None) or getattr(sdk, "OpenAIError", None)
    return base if isinstance(base, type) else sdk.APIError  # type: ignore[no-any-return,unused-ignore]


def _not_served(where: Endpoint, model: str, said: str, secrets: list[str]) -> str:
    provider = where.provider
    name = model.partition(":")[2] if provider.name != "anthropic" and ":" in model else model
    if provider.name == "anthropic":
        return (
            f"The Anthropic API does not serve the model {model!r} (404 not_found_error). "
            f"Choose another with --model, WEBTAP_MODEL or stps_set_model(), e.g. "
            f"{DEFAULT_MODEL}."
        )
    if provider.local:
        return redact(
            f"{provider.title} has no model {name!r} ({said.rstrip('.')}). Pull it with "
            f"`{provider.name} pull {name}`, or choose another with --model, e.g. "
            f"{provider.spec(provider.example)}.",
            secrets,
        )
    return redact(
        f"{where.where} does not serve the model {name!r} (model_not_found). Choose another "
        f"with --model, WEBTAP_MODEL or stps_set_model(), e.g. "
        f"{provider.spec(provider.example)}.",
        secrets,
    )


def _no_tools(where: Endpoint, model: str | None, said: str, secrets: list[str]) -> str:
    provider = where.provider
    return redact(
        f"The model {model or 'asked for'} does not support tools ({provider.title} said: "
        f"{said.rstrip('.')}). Choose a model that does, e.g. "
        f"{provider.spec(provider.example)}, or answer without tools: --max-tool-calls 0.",
        secrets,
    )


def _unreachable(where: Endpoint, exc: Exception, secrets: list[str]) -> WebtapError:
    cause = exc.__cause__ or exc.__context__
    reason = f"{type(cause).__name__}: {cause}" if cause else str(exc)
    provider = where.provider
    given = os.environ.get(provider.endpoint_env, "").strip()
    if provider.name == "anthropic":
        if given and not given.lower().startswith(("http://", "https://")):
            return ConfigError(
                redact(
                    f"{provider.endpoint_env} must be an http:// or https:// URL (got "
                    f"{given!r}); fix it, or unset it to use the Anthropic API.",
                    secrets,
                )
            )
        advice = f"Check {provider.endpoint_env} ({given})" if given else "Check the network"
        return NetworkError(
            redact(f"Could not reach the Anthropic API ({reason}). {advice}.", secrets)
        )
    if provider.local:
        advice = (
            f"Is {provider.title} running? Start it with `{provider.name} serve`, or set "
            f"{provider.endpoint_env} to where it listens."
        )
    else:
        advice = f"Check {provider.endpoint_env} ({given})" if given else "Check the network"
        advice += "."
    return NetworkError(redact(f"Could not reach {where.where} ({reason}). {advice}", secrets))


def _after(retries: int, out_of_time: bool) -> str:
    """ "still after N retries", or why there were none: the question's budget."""
    if out_of_time and retries == 0:
        return "with no time left in the question's budget to retry"
    return f"still after {retries} retries"


def _kind(exc: Any) -> str:
    kind = getattr(exc, "type", None) or _code(exc)
    return kind if isinstance(kind, str) and kind else "error"


def _code(exc: Any) -> str | None:
    code = getattr(exc, "code", None)
    if isinstance(code, str):
        return code
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body["error"] if isinstance(body.get("error"), dict) else body
        code = inner.get("code")
    return code if isinstance(code, str) else None


def _said(exc: Any) -> str:
    """The API's own message, or the start of the body."""
    message = getattr(exc, "api_message", None)
    if not (isinstance(message, str) and message.strip()):
        body = getattr(exc, "body", None)
        if isinstance(body, dict):  # OpenAI's {"error": {"message": ...}}, or {"message": ...}
            inner = body.get("error") if isinstance(body.get("error"), dict) else body
            message = inner.get("message") if isinstance(inner, dict) else None
            if not isinstance(message, str) and isinstance(body.get("error"), str):
                message = body["error"]  # Ollama's native {"error": "..."}
    if isinstance(message, str) and message.strip():
        return message.strip().rstrip(".") + "."
    body = getattr(exc, "body", None)
    text = json.dumps(body) if isinstance(body, dict | list) else str(body or "no details")
    return quote(text, 200)
