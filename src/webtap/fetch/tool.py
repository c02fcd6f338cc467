"""The ``web_fetch`` tool's handler: a request in, the protocol's response out.

Fields beyond the spec's (allowed: added, never renamed): ``content_mode`` when the content is
only the page's main content, ``invisible_characters_removed`` when characters a person
would not see were taken out of the page (:func:`webtap.text.strip_invisible`),
``verdict`` and ``notice`` when only a paywalled article's teaser came back, and
``markdown_source`` when the content is the page's own Markdown version, and ``rendered`` when
it is the page as a browser rendered it (:mod:`webtap.fetch.render`), and what the page says of
itself (:class:`webtap.convert.Metadata`: ``published``, ``modified``, ``author``,
``site_name``, ``language``, ``description``, ``canonical_url``, ``image``), each only when the
page says it. A failure's added
fields (``retryable``, ``retry_with``, ``verdict``, ``vendor``...) are its error's
(:meth:`webtap.errors.WebtapError.to_response`).
"""

from __future__ import annotations

from typing import Any

from webtap.fetch.page import fetch
from webtap.fetch.paging import paginate

__all__ = ["web_fetch"]


def web_fetch(
    request: dict[str, Any],
    *,
    full_page: bool = False,
    model_chose: bool = True,
    render: bool | None = None,
) -> dict[str, Any]:
    """The ``web_fetch`` tool: fetch ``url`` and return lines ``offset``.. of its Markdown.

    ``full_page`` asks for the whole page whatever ``WEBTAP_FETCH_MODE`` says (MCP's
    ``full_page``, ``webtap fetch --full``). ``model_chose``: the URL is a model's (the
    executable, MCP, the ask loop), so robots.txt is obeyed; ``webtap fetch`` passes False for
    a person's URL. When the Markdown is only the page's main content,
    the response says so with ``"content_mode": "main"``; when invisible characters were taken
    out of the page (its title and all its lines), ``"invisible_characters_removed"`` says how
    many. ``render`` asks for the page rendered in a browser (True) or never (False), instead of
    what ``WEBTAP_RENDER`` says (MCP's ``render``, ``webtap fetch --render``); a rendered page
    says ``"rendered": true``.
    """
    page = fetch(
        request["url"],
        mode="page" if full_page else None,
        model_chose=model_chose,
        render=render,
    )
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
    if page.markdown_source:
        response["markdown_source"] = page.markdown_source
    if page.rendered:
        response["rendered"] = True
    response.update(page.metadata or {})
    if page.verdict != "content":
        from webtap.verdict import Verdict  # the classifier: not for a page from the cache

        response.update(Verdict(page.verdict).fields())
    return response
