"""Header fields: checked before they are sent, joined when they are read, Basic credentials."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["basic_auth", "check_headers", "joined"]


def check_headers(headers: Mapping[str, str]) -> None:
    """Refuse a header value http.client would refuse, without quoting it (it may be a key)."""
    for name, value in headers.items():
        if any((ord(ch) < 32 and ch != "\t") or ord(ch) == 127 for ch in value):
            raise ValueError(
                f"the {name} header's value contains a line break or a control character; "
                "it was not sent"
            )


def joined(fields: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Header fields as one dict: names in lower case, a repeated field's values joined with
    ``", "`` (as httpx's ``Headers.get``)."""
    headers: dict[str, str] = {}
    for name, value in fields:
        key = name.lower()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return headers


def basic_auth(userinfo: str) -> str:
    """The ``Authorization`` (or ``Proxy-Authorization``) value for ``"user:password"``."""
    import base64  # only for a URL or proxy with credentials

    return "Basic " + base64.b64encode(userinfo.encode("utf-8")).decode("ascii")
