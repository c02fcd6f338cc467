"""The ``web_fetch`` tool's handler: a request in, the protocol's response out.

Fields beyond the spec's (allowed: added, never renamed): ``content_mode`` when the content is
only the page's main content, and ``invisible_characters_removed`` when characters a person
would not see were taken out of the page (:func:`webtap.text.strip_invisible`).
"""

from __future__ import annotations

from typing import Any

from webtap.fetch.page import fetch
from webtap.fetch.paging import paginate

__all__ = ["web_fetch"]


def web_fetch(request: dict[str, Any], *, full_page: bool = False) -> dict[str, Any]:
    """The ``web_fetch`` tool: fetch ``url`` and return lines ``offset``.. of its Markdown.

    ``full_page`` asks for the whole page whatever ``WEBTAP_FETCH_MODE`` says (MCP's
    ``full_page``, ``webtap fetch --full``). When the Markdown is only the page's main content,
    the response says so with ``"content_mode": "main"``; when invisible characters were taken
    out of the page (its title and all its lines), ``"invisible_characters_removed"`` says how
    many.
    """
    page = fetch(request["url"], mode="page" if full_page else None)
    content, total = paginate(page.markdown, request.get("offset", 1), request.get("limit"))
    response: dict[str, Any] = {
        "success": True,
        "url": page.url,
        "title": page.title,
        "content": content,
        "total_lines": total,
    }
    if page.trimmed:
        response["content_mode"] = "main"
    if page.invisible_removed:
        response["invisible_characters_removed"] = page.invisible_removed
    if page.state != "content":
        from webtap.convert import STATE_NOTES

        response["page_state"] = f"{page.state}: {STATE_NOTES[page.state]}"
    return response
