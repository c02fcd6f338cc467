"""The HTTP layer: one client factory, value-object settings, and one translation of errors.

Every HTTP user in webtap takes an ``httpx.Client`` (tests inject ``httpx.MockTransport`` or
point the ``*_URL`` variables at a 127.0.0.1 server) and calls it inside
:func:`translate_errors`, so that httpx's exception tree becomes webtap's in one place.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx

from webtap import __version__
from webtap.errors import NetworkError

__all__ = [
    "DEFAULT_LIMITS",
    "DEFAULT_TIMEOUTS",
    "USER_AGENT",
    "Limits",
    "Timeouts",
    "env_float",
    "make_client",
    "translate_errors",
]

USER_AGENT = f"webtap/{__version__} (+https://pypi.org/project/webtap/)"


@dataclass(frozen=True)
class Timeouts:
    """Seconds. ``connect`` bounds each connection; ``total`` bounds a whole operation."""

    connect: float = 10.0
    read: float = 20.0
    total: float = 30.0

    def httpx(self) -> httpx.Timeout:
        return httpx.Timeout(self.read, connect=self.connect)


@dataclass(frozen=True)
class Limits:
    """Sizes in bytes and counts."""

    max_body: int = 10 * 1024 * 1024
    max_redirects: int = 10


DEFAULT_TIMEOUTS = Timeouts()
DEFAULT_LIMITS = Limits()


def env_float(name: str, default: float) -> float:
    """A positive number from the environment, or ``default`` when unset, empty or unusable."""
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw)
    except ValueError:
        return default
    return value if value > 0 else default


def make_client(timeouts: Timeouts = DEFAULT_TIMEOUTS, **kwargs: object) -> httpx.Client:
    """A client with webtap's User-Agent and timeouts; redirects are the caller's business."""
    headers = {"User-Agent": USER_AGENT}
    headers.update(kwargs.pop("headers", None) or {})  # type: ignore[arg-type]
    return httpx.Client(
        timeout=timeouts.httpx(),
        headers=headers,
        follow_redirects=False,
        **kwargs,  # type: ignore[arg-type]
    )


@contextmanager
def translate_errors(what: str = "request") -> Iterator[None]:
    """Turn httpx's transport errors into :class:`NetworkError`, most specific first.

    ``what`` names the operation for the message ("Failed to fetch URL", "Brave Search").
    """
    try:
        yield
    except httpx.ConnectTimeout:
        raise NetworkError(f"{what}: connection timed out") from None
    except httpx.TimeoutException:
        raise NetworkError(f"{what}: timed out waiting for the server") from None
    except httpx.ConnectError as exc:
        raise NetworkError(f"{what}: {_connect_reason(exc)}") from None
    except httpx.RemoteProtocolError as exc:
        raise NetworkError(f"{what}: connection closed unexpectedly ({exc})") from None
    except httpx.TransportError as exc:
        raise NetworkError(f"{what}: {type(exc).__name__}: {exc}") from None


def _connect_reason(exc: httpx.ConnectError) -> str:
    text = str(exc)
    lowered = text.lower()
    if (
        "name or service not known" in lowered
        or "nodename nor servname" in lowered
        or ("temporary failure in name resolution" in lowered)
        or "no address associated" in lowered
    ):
        return "DNS lookup failed (host not found)"
    if "refused" in lowered:
        return "connection refused"
    if "certificate" in lowered or "ssl" in lowered or "tls" in lowered:
        return f"TLS error: {text}"
    if "reset" in lowered:
        return "connection reset by peer"
    return f"connection failed: {text}"
