"""The text a model is given for a URL: what a quote from that page is checked against.

The one place that says which text that is, so that checking a quote and reading a page never
disagree: today the page fetched now, as ``web_fetch`` gives it (its Markdown, the main content
unless ``WEBTAP_FETCH_MODE`` says the whole page, the page cache first); to become the URL's
latest snapshot, fetched when there is none.
"""

from __future__ import annotations

from webtap.fetch.page import fetch

__all__ = ["text_of"]


def text_of(url: str, *, model_chose: bool = True) -> str:
    """The Markdown a model reading ``url`` is given, whole (every page of lines together).

    ``model_chose``: as for ``web_fetch`` (robots.txt obeyed); ``webtap verify`` passes False
    for a person's URL. Raises the fetch's :class:`~webtap.errors.WebtapError`.
    """
    return fetch(url, model_chose=model_chose).markdown
