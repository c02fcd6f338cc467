"""The verdict step of a fetch: what came back, judged before anything is kept
(decision: What a fetch got).

:func:`judge` gives every answer a :class:`~webtap.verdict.Verdict` (:mod:`webtap.verdict`),
and :func:`refusal` is the error of one that holds no content: a bot wall is ``BLOCKED``
whatever its status, a status of 400 or more an ``HTTP_ERROR`` that says whether trying again
can help, a "not found" page served with 200 an ``HTTP_ERROR`` too, a login or consent wall,
an empty page or a script shell ``NO_CONTENT``. A paywall's teaser is a success, marked. Only
content is ever stored in the page cache: a wall is not the page.

The classifier reads an HTML page as parsed, before the converter prunes its scripts, forms
and ``<link>`` elements: :class:`Inspection` is the converter's ``inspect`` hook, and reads the
page's signals (:func:`webtap.verdict.read_page`, about 1 ms) and its Markdown version's URL
(``<link rel="alternate" type="text/markdown">``) from the one parse. An error page (status
400 and over) is not converted: the head of its body is parsed for the signals alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webtap.fetch.media import sniff
from webtap.fetch.negotiation import markdown_alternate
from webtap.fetch.redirects import status_line
from webtap.verdict import Verdict, classify, read_page

if TYPE_CHECKING:
    from webtap.fetch.download import Download
    from webtap.fetch.media import Converted
    from webtap.verdict import Signals

__all__ = ["Inspection", "judge", "refusal"]

_HTML = ("text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml")


class Inspection:
    """The converter's ``inspect`` hook for one page: its signals and its Markdown version."""

    __slots__ = ("alternate", "page", "url")

    def __init__(self, url: str) -> None:
        self.url = url  # the page's final URL, against which links are resolved
        self.page: Signals | None = None
        self.alternate: str | None = None

    def __call__(self, root: Any) -> None:
        self.page = read_page(root)
        self.alternate = markdown_alternate(root, self.url)


def judge(got: Download, converted: Converted | None, seen: Inspection | None) -> Verdict:
    """The verdict on ``got`` as converted (None for a status of 400 or more, which is not),
    with what ``seen`` read of its tree. One without content is raised as :func:`refusal`,
    unless the page's Markdown version stands in for it."""
    page = seen.page if seen is not None else None
    if page is None and converted is None:
        page = _error_page(got)
    return classify(got.status, got.headers, page, converted, url=got.url)


def refusal(verdict: Verdict, got: Download, note: str = "") -> Exception:
    """The error a fetch raises for ``verdict`` on ``got``: an HTTP error keeps the server's
    own status line (``HTTP 404: Not Found``) at the start of its message. ``note``: what the
    render step says of a page it did not render (why, and how to have it rendered)."""
    error = verdict.error(status_line(got), note)
    assert error is not None  # only a verdict without content is refused
    return error


def _error_page(got: Download) -> Signals | None:
    """The signals of an error page that is HTML (by its type, or sniffed when it has none)."""
    if got.status < 400 or not got.body.strip():
        return None
    media_type = got.content_type.split(";")[0].strip().lower()
    if media_type not in _HTML:
        if media_type not in ("", "application/octet-stream"):
            return None
        if sniff(got.body) != "text/html":
            return None
    return read_page(got.body)
