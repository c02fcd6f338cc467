"""The text a model was given for a URL: what a quote from that page is checked against.

The one place that says which text that is, so that checking a quote and reading a page never
disagree: the URL's latest snapshot (:mod:`webtap.snapshots`: the exact text an ask loop gave a
model, kept in the page cache's file), else the page fetched now, as ``web_fetch`` gives it
(its Markdown, the main content unless ``WEBTAP_FETCH_MODE`` says the whole page, the page
cache first).
"""

from __future__ import annotations

from webtap.fetch.page import fetch
from webtap.snapshots import Snapshots

__all__ = ["text_of"]


def text_of(url: str, *, model_chose: bool = True, snapshots: bool = True) -> str:
    """The text a model reading ``url`` was given: its latest snapshot, else its Markdown as
    ``web_fetch`` gives it now, whole (every page of lines together).

    ``model_chose``: as for ``web_fetch`` (robots.txt obeyed); ``webtap verify`` passes False
    for a person's URL. ``snapshots=False``: the page as it reads now. Raises the fetch's
    :class:`~webtap.errors.WebtapError`.
    """
    if snapshots:
        store = Snapshots()
        try:
            kept = store.latest(url)
        finally:
            store.close()
        if kept is not None:
            return kept.text
    return fetch(url, model_chose=model_chose).markdown
