"""webtap's User-Agent: one honest string, computed in one place, with one override.

Every request webtap makes says who it is: ``webtap/VERSION (+https://pypi.org/project/webtap/)``,
or ``WEBTAP_USER_AGENT`` when set. robots.txt groups are matched against the product token at
its start (``webtap``), so a fetch, the robots.txt check and the browser path all go by one
name. Light on purpose: the executables read it before they import an HTTP stack.
"""

from __future__ import annotations

import re

from webtap import __version__
from webtap.errors import ConfigError, clip
from webtap.settings import USER_AGENT

__all__ = ["DEFAULT_USER_AGENT", "robots_token", "user_agent"]

DEFAULT_USER_AGENT = f"webtap/{__version__} (+https://pypi.org/project/webtap/)"
DEFAULT_TOKEN = "webtap"

_MAX_LENGTH = 512
# A header value http.client sends as it is: visible ASCII and spaces (no CR/LF to inject
# another header, no characters that Latin-1 cannot encode).
_SENDABLE = re.compile(r"[\x20-\x7e]+")
# RFC 9309 2.2.1: a product token is letters, "_" and "-".
_TOKEN = re.compile(r"[A-Za-z_-]+")


def user_agent() -> str:
    """``WEBTAP_USER_AGENT`` when set (surrounding spaces dropped), else :data:`DEFAULT_USER_AGENT`.

    A value that cannot be sent as a header (control characters, non-ASCII, over 512 characters)
    is a :class:`ConfigError` naming the variable.
    """
    raw = USER_AGENT.get()
    if not isinstance(raw, str):
        return DEFAULT_USER_AGENT
    if len(raw) > _MAX_LENGTH or not _SENDABLE.fullmatch(raw):
        raise ConfigError(
            f"{USER_AGENT.name} must be printable ASCII of at most {_MAX_LENGTH} characters, "
            f"such as 'mybot/1.0 (+https://example.org/bot)' (got {clip(raw, 60)!r}); fix it, "
            "or unset it to use webtap's own"
        )
    return raw


def robots_token(agent: str | None = None) -> str:
    """The product token robots.txt groups are matched against: the letters, ``_`` and ``-`` at
    the start of ``agent`` (default :func:`user_agent`), as in ``webtap`` from
    ``webtap/0.1.0 (+...)``; ``webtap`` when the agent does not start with one."""
    match = _TOKEN.match(user_agent() if agent is None else agent)
    return match.group(0) if match else DEFAULT_TOKEN
