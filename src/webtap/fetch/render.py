"""A page whose content scripts build, rendered in a browser: the step of a fetch after
conversion (issue 21; :mod:`webtap.browser` does the rendering).

**When** (``WEBTAP_RENDER``, :data:`webtap.settings.RENDER`; a caller's ``render`` overrides it
for one fetch: ``True`` is ``always``, ``False`` is ``off``): ``auto``, the default, renders an
HTML page the converter judged to be a script shell (``Document.state``), and only when a
browser is installed; ``always`` renders every HTML page; ``off`` none. The page is fetched and
converted as always first: the fetch's guard has checked it and every redirect, its media type
is known, and most pages need no browser.

**How**: the browser loads the URL through a proxy that applies the same guard
(:meth:`Guard.from_env <webtap.guard.Guard.from_env>`, as the fetch) to every connection, with
webtap's one User-Agent, within what is left of the fetch's deadline; the DOM it settles on,
without its scripts and ``<noscript>`` (they have run), is a
:class:`~webtap.fetch.download.Download` converted by the same converter in the same mode and
judged as the page. A page still judged a shell after rendering is not taken.

**What if not**: a shell that is not rendered (rendering off, no browser, the render failed or
did not help) keeps its state (``script_shell``), which the verdict turns into its
``NO_CONTENT`` error (``retry_with: "render"``), and :attr:`Rendering.note` says why it was not
rendered and how to have it rendered, for that error's message. A page that is no shell, whose
rendering was asked for and did not happen, is returned with the note as the first line of its
Markdown (:meth:`Rendering.noted`). A setting that cannot be honoured is an error: ``always``
(or ``render=True``) with no browser installed is a
:class:`~webtap.browser.find.BrowserNotFound` that says how to get one. A guard refusal in the
browser (the page sent itself to a private address) is the fetch's error, as without it.

**Memory**: what rendering did for a URL is kept a day in the page cache (beside its pages,
under the same guard policy), so that the next read in ``auto`` does not judge again: a URL
rendering helped is rendered, one it did not help (still a shell) is not. A rendered page
itself is kept like any page (marked ``rendered``), but without the shell's validators: its
content came from more than the one response they describe.

**Which browser process**: by default each render starts a browser and kills it (a one-shot
executable). A long-lived host -- ``webtap mcp``, the ask loop, the SQL functions -- holds
:func:`keep_browser` while it runs: its renders share one browser with a few tabs, restarted
when it dies, closed when the last hold is let go (and killed at exit, or on a stop signal by
``webtap.host.process.kill_running``, which calls :func:`webtap.browser.kill_all`).

Nothing here imports :mod:`webtap.browser` until a page is to be rendered: a plain fetch never
loads it (tests/test_cold_start.py), nor, from the cache, the converter.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urldefrag

from webtap.fetch.download import Download
from webtap.settings import RENDER
from webtap.useragent import user_agent

if TYPE_CHECKING:
    from types import TracebackType

    from webtap.browser import Browser, Rendered
    from webtap.fetch.judge import Inspection
    from webtap.fetch.media import Converted
    from webtap.fetch.page_cache import PageCache, StoredPage
    from webtap.fetch.session import Session
    from webtap.guard import Guard
    from webtap.net import Deadline

__all__ = [
    "MEMORY_TTL",
    "BrowserKept",
    "Rendering",
    "cached_page_serves",
    "keep_browser",
    "render_step",
]

MEMORY_TTL = 24 * 3600.0  # seconds what rendering did for a URL is remembered
MIN_SECONDS = 1.0  # of the fetch's deadline left, to be worth starting a render
# media.py's HTML types, spelled here so that a page from the cache imports no converter.
_HTML_TYPES = ("text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml")
_MEMORY = "rendering"  # the mode slot of the page cache's key for what rendering did
_RENDERED_TYPE = "text/html; charset=utf-8"  # the DOM as the browser serialized it
_NOT_REVALIDATED = ("etag", "last-modified")
# The rendered DOM is the page as shown, its scripts run: without them and without <noscript>
# (which a browser that runs scripts does not show), it is judged as a page, not as the shell
# that asks for JavaScript. Their text is raw text in such a DOM, so it cannot hold their end
# tag. Data blocks (JSON-LD, page props) stay: the converter reads them.
_NOT_SHOWN = re.compile(
    r"<noscript\b[^>]*>.*?</noscript\s*>"
    r"|<script\b(?![^>]*\btype\s*=\s*[\"']?application/(?:ld\+)?json)[^>]*>.*?</script\s*>",
    re.IGNORECASE | re.DOTALL,
)


class Rendering(NamedTuple):
    """What the step made of a page: the download, conversion and inspection to judge and use
    (the browser's, when ``rendered``), and ``note``, when a page that needed rendering, or
    whose rendering was asked for, was not rendered: why, and how to have it rendered."""

    download: Download
    converted: Converted | None
    seen: Inspection | None
    rendered: bool = False
    note: str = ""
    complete: bool = True  # False: the render stopped at the deadline or a cap

    def noted(self, converted: Converted) -> Converted:
        """``converted`` with the note, if any, as the first line of its Markdown."""
        if not self.note:
            return converted
        markdown = converted.markdown
        note = f"[{self.note}]"
        return converted._replace(markdown=f"{note}\n\n{markdown}" if markdown else f"{note}\n")

    @property
    def keep(self) -> bool:
        """Whether the page may be kept in the page cache: complete, and no note (a note
        speaks of this moment: a browser may be installed, rendering turned on)."""
        return self.complete and not self.note


def wanted(render: bool | None) -> str:
    """``"auto"``, ``"always"`` or ``"off"``: the caller's ``render``, else the setting."""
    if render is not None:
        return "always" if render else "off"
    return str(RENDER.get())


def cached_page_serves(page: StoredPage, render: bool | None) -> bool:
    """Whether a page from the cache answers a fetch asking ``render``: any page does, but
    an HTML page that was not rendered does not answer one that must be rendered."""
    if page.rendered or page.media_type not in _HTML_TYPES:
        return True
    return wanted(render) != "always"


def render_step(session: Session, url: str, plain: Rendering) -> Rendering:
    """The page fetched from ``url`` as downloaded and converted (``plain``; not converted for
    an error status), rendered if it should be and can be (see the module doc), in
    ``session``'s mode, under its guard, within its deadline; by default only through
    webtap's own client."""
    from webtap.convert import CONTENT, SCRIPT_SHELL  # the converter: not from the cache

    converted = plain.converted
    if converted is None or converted.media_type not in _HTML_TYPES:
        return plain
    render = False if session.render is None and session.embedded else session.render
    how = wanted(render)
    shell = converted.state == SCRIPT_SHELL

    def unrendered(note: str) -> Rendering:
        # Said for a shell (its error says it), and for a page rendering was asked for.
        return plain._replace(note=note) if shell or how == "always" else plain

    if how == "off":
        return unrendered(
            "It was not rendered in a browser (render was false); ask for it with render: true."
            if render is False
            else f"Rendering in a browser is off ({RENDER.name}=off): set {RENDER.name}=auto, "
            "or ask for this page rendered (webtap fetch --render; web_fetch's render argument "
            "in webtap mcp)."
        )
    pages, guard, deadline = session.pages, session.guard, session.deadline()
    if how == "auto":
        helped_before = _recall(pages, url, guard)
        if helped_before is False:
            return unrendered(
                "A browser rendered it earlier and it showed no content there either; ask for "
                "it rendered (render: true) to try again."
            )
        if not (shell or helped_before):
            return plain
        from webtap.browser.find import INSTALL_HINT, find_browser  # the browser: only here

        if find_browser() is None:  # a WEBTAP_BROWSER that names nothing raises here
            return unrendered(f"No browser is installed to render it: {INSTALL_HINT}.")
    if deadline.remaining() < MIN_SECONDS:
        return unrendered("Too little of the fetch's deadline was left to render it in a browser.")
    from webtap.browser import RenderFailed  # the browser: only for a page to render

    try:
        page = _render(url, deadline, guard, session.limits.max_body)
    except RenderFailed as exc:
        return unrendered(f"Rendering it in a browser failed ({exc}).")
    download = _as_download(url, plain.download, page)
    made, inspection = session.convert(download)
    assert made is not None  # the DOM is converted as a page (its status is under 400)
    complete = page.outcome == "settled" and not page.truncated
    helped = made.state == CONTENT and (shell or len(made.markdown) > 2 * len(converted.markdown))
    if pages is not None and complete:
        # Remembered: that it helped, or that a shell stayed one; else nothing (a page that
        # needs no browser is not judged by this memory).
        _memorize(pages, url, guard, helped if helped or shell else None)
    if made.state != CONTENT:
        return unrendered("A browser rendered it, and it showed no content there either.")
    return Rendering(download, made, inspection, rendered=True, complete=complete)


def _as_download(url: str, got: Download, page: Rendered) -> Download:
    """The rendered DOM as what a download answers: the URL the page ended on, the DOM without
    its scripts and ``<noscript>``, the page's own response's status and headers (the fetch's,
    if the browser saw none) without validators."""
    headers = page.headers or got.headers
    kept = {name: value for name, value in headers.items() if name not in _NOT_REVALIDATED}
    status = page.status if page.status is not None and page.status < 400 else got.status
    final, fragment = urldefrag(page.final_url)
    redirected = bool(final) and final != urldefrag(url).url
    return Download(
        page.final_url if redirected else url,
        _RENDERED_TYPE,
        _NOT_SHOWN.sub("", page.html).encode("utf-8", "replace"),
        kept,
        status=status,
        final_url=final if redirected else None,
        final_fragment=fragment if redirected else "",
    )


# --- What rendering did for a URL ------------------------------------------------------------


def _recall(pages: PageCache | None, url: str, guard: Guard) -> bool | None:
    """Whether rendering helped ``url`` when it was last rendered (within a day); None: not
    known."""
    key = pages.key(url, _MEMORY, guard) if pages is not None else None
    entry = pages.cache.get(key) if pages is not None and key is not None else None
    if entry is None or entry.age() >= MEMORY_TTL or not isinstance(entry.value, dict):
        return None
    helped = entry.value.get("helped")
    return helped if isinstance(helped, bool) else None


def _memorize(pages: PageCache, url: str, guard: Guard, helped: bool | None) -> None:
    key = pages.key(url, _MEMORY, guard)
    if key is None:
        return
    if helped is None:
        pages.cache.delete(key)
    else:
        pages.cache.put(key, {"helped": helped})


# --- Which browser process -------------------------------------------------------------------

_lock = threading.Lock()
_holds = 0
_kept: Browser | None = None


class BrowserKept:
    """A hold on this process's long-lived browser (:func:`keep_browser`); :meth:`close` (or
    the end of a ``with`` block) lets go of it, once."""

    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held = True

    def __enter__(self) -> BrowserKept:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        global _holds, _kept
        with _lock:
            if not self._held:
                return
            self._held = False
            _holds -= 1
            browser, _kept = (_kept, None) if _holds == 0 else (None, _kept)
        if browser is not None:
            browser.close()


def keep_browser() -> BrowserKept:
    """Until the hold is let go, renders in this process share one browser (started on the
    first render, restarted when it dies). Holds nest: the last one closes the browser. Starts
    nothing and imports no browser code by itself."""
    global _holds
    with _lock:
        _holds += 1
    return BrowserKept()


def _render(url: str, deadline: Deadline, guard: Guard, max_html: int) -> Rendered:
    """``url`` rendered in the kept browser, else in a browser of its own."""
    global _kept
    from webtap.browser import Browser, render  # the browser: only for a page to render

    agent = user_agent()  # the one User-Agent of every request webtap makes

    with _lock:
        if _holds and _kept is None:
            _kept = Browser()  # finds the executable; starts it on its first render
        browser = _kept
    if browser is not None:
        return browser.render(
            url, deadline=deadline, guard=guard, user_agent=agent, max_html=max_html
        )
    return render(url, deadline=deadline, guard=guard, user_agent=agent, max_html=max_html)
