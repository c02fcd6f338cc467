"""Fetching a page: the steps from a URL to a :class:`Page`, in order.

1. The URL is checked (:mod:`webtap.fetch.urls`) and the settings read
   (:mod:`webtap.fetch.settings`).
2. robots.txt is asked, when the fetch obeys it (a URL the model chose;
   :mod:`webtap.fetch.robots_file`): from the caches, else with one request per origin.
3. The page cache is asked (:mod:`webtap.fetch.page_cache`): a fresh page is the answer, with
   no request and no HTTP stack imported.
4. The page is downloaded (:mod:`webtap.fetch.download`): over HTTP, redirects followed and
   every hop checked by the SSRF guard and robots.txt (:mod:`webtap.fetch.redirects`), a stale
   cached page asked for with a conditional request. A ``304`` serves the cached page.
5. The body is converted by its media type (:mod:`webtap.fetch.media`), controls and
   invisible characters taken out; the converter shows the verdict the page as parsed. A page
   whose content scripts build is then rendered in a browser, when it should be and can be,
   and converted the same way (:mod:`webtap.fetch.render`).
6. The verdict (:mod:`webtap.fetch.judge`): a bot wall, an HTTP error, a login or consent
   wall, a soft 404, an empty page or a script shell is the error it is; a paywall's teaser
   is returned, marked.
7. Thin content whose page names a Markdown version gets that version instead
   (:mod:`webtap.fetch.alternate`).
8. The page is kept in the cache when it is content and the server allows it.

Another way to get a page's bytes answers a :class:`~webtap.fetch.download.Download` as step 4
does; a step of its own goes in between the named steps of :func:`fetch`.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import TYPE_CHECKING, NamedTuple

from webtap.fetch.download import Session
from webtap.fetch.page_cache import page_cache
from webtap.fetch.settings import checked_mode, fetch_limits, fetch_mode, max_body
from webtap.fetch.urls import check_url
from webtap.guard import Guard

if TYPE_CHECKING:
    from webtap.fetch.download import Download
    from webtap.fetch.judge import Inspection
    from webtap.fetch.media import Converted
    from webtap.fetch.page_cache import Hit, PageCache, StoredPage
    from webtap.fetch.redirects import Permit
    from webtap.fetch.render import Rendering
    from webtap.net import Client, Limits, Timeouts
    from webtap.verdict import Verdict

# webtap.net's client (and with it http.client), the converters and the classifier are
# imported only where a request is made: a page from the cache costs none of them.

__all__ = ["Page", "fetch"]


class Page(NamedTuple):
    """A fetched page: where it ended up, its title, its Markdown and the media type read."""

    url: str
    title: str
    markdown: str
    media_type: str
    trimmed: bool = False
    """True when ``markdown`` is only the page's main content (see ``mode``)."""
    invisible_removed: int = 0
    """How many invisible characters were taken out of ``title`` and ``markdown``."""
    verdict: str = "content"
    """``"content"``, or ``"paywall"`` when only a paywalled article's teaser came back (every
    other verdict is an error: :mod:`webtap.verdict`)."""
    markdown_source: str | None = None
    """The URL of the page's Markdown version, when ``markdown`` is that (its HTML was thin)."""
    rendered: bool = False
    """True when ``markdown`` is the page as a browser rendered it (:mod:`webtap.fetch.render`)."""


def fetch(
    url: str,
    *,
    mode: str | None = None,
    timeouts: Timeouts | None = None,
    limits: Limits | None = None,
    guard: Guard | None = None,
    client: Client | None = None,
    cache: bool | None = None,
    model_chose: bool = False,
    render: bool | None = None,
) -> Page:
    """Fetch ``url`` and convert it to Markdown.

    ``mode`` is ``"main"`` (an HTML page's main content) or ``"page"`` (all of it); the default
    is :func:`fetch_mode`. Settings default to the environment (:func:`fetch_timeouts`,
    :func:`fetch_limits`, :meth:`Guard.from_env`). ``client`` is for embedders: a
    :class:`webtap.net.Client` (with any transport); with it, names are checked by the client's
    own guard (if it has one), URLs that spell an address by ``guard`` as always. ``cache``:
    whether to use the converted-page cache (:mod:`webtap.fetch.page_cache`); by default only
    when webtap makes its own client, since a client of yours may see a different web than
    webtap's. A page is only ever cached after a fetch under the same guard policy (it is in
    the key), so an address the guard refuses is never served from the cache either.
    ``model_chose``: a model chose ``url`` (the tool, MCP, the ask loop), so robots.txt is
    obeyed, unless ``WEBTAP_ROBOTS`` says otherwise (:func:`webtap.fetch.robots.obeys_robots`).
    ``render``: render the page in a browser (True), never (False), or as ``WEBTAP_RENDER``
    says (None; see :mod:`webtap.fetch.render`), which, like the cache, is only when webtap
    makes its own client: the browser does not see the web a client of yours sees.

    Raises the error of what came back when it is not content (:mod:`webtap.verdict`).
    """
    url = check_url(url)
    mode = fetch_mode() if mode is None else checked_mode(mode)
    guard = guard or Guard.from_env()
    pages = page_cache() if (client is None if cache is None else cache) else None
    sent = _varying_headers()
    with Session(guard, timeouts, client) as session:
        permit = _robots(url, session, pages, model_chose)
        key = pages.key(url, mode, guard, sent) if pages is not None else None
        hit = pages.lookup(key, max_body(limits)) if pages is not None else None
        if hit is not None and not _serves(hit.page, render):
            hit = None  # kept unrendered, and this fetch must render it: fetched again
        if hit is not None and hit.fresh:
            return _from_cache(hit.page, url)
        limits = limits or fetch_limits()
        got = _download(url, session, limits, hit, permit)
        if pages is not None and hit is not None and got.status == HTTPStatus.NOT_MODIFIED:
            pages.refresh(key, hit.page, got.headers)
            return _from_cache(hit.page, url)
        converted, seen = _convert(got, mode, session)
        step = _render(url, got, converted, seen, mode, session, limits, pages, render, client)
        got, converted, seen = step.download, step.converted, step.seen
        verdict = _judge(got, converted, seen)
        source = _markdown_source(verdict, converted, seen, session, limits, permit)
        if source is not None:
            converted, verdict = source
        elif not verdict.ok:
            from webtap.fetch.judge import refusal

            raise refusal(verdict, got, step.note)
        assert converted is not None  # an answer that was not converted is an error
        markdown_url = seen.alternate if source is not None and seen is not None else None
        kept = step.keep or source is not None  # a note speaks of the page, not its Markdown
        if pages is not None and verdict.kind == "content" and kept:
            pages.remember(key, mode, guard, got, converted, sent, markdown_url, step.rendered)
        if source is None:  # a page whose rendering was asked for says why it was not
            converted = step.noted(converted)
        return Page(
            got.url,
            converted.title,
            converted.markdown,
            converted.media_type,
            converted.trimmed,
            converted.invisible_removed,
            verdict.kind,
            markdown_url,
            step.rendered,
        )


# --- The steps ---------------------------------------------------------------------------------


def _varying_headers() -> dict[str, str]:
    """The request headers a server may vary its answer on, as webtap sends them: in the page
    cache's key, so that ``Vary: Accept`` or ``Vary: User-Agent`` holds."""
    from webtap.fetch.negotiation import ACCEPT
    from webtap.useragent import user_agent

    return {"Accept": ACCEPT, "User-Agent": user_agent()}


def _robots(
    url: str, session: Session, pages: PageCache | None, model_chose: bool
) -> Permit | None:
    """Step 2: robots.txt's word on ``url`` when the fetch obeys it (raises
    :class:`~webtap.errors.RobotsDisallowed`), and the check for the hops to come."""
    from webtap.fetch.robots import obeys_robots

    if not obeys_robots(model_chose):
        return None
    from urllib.parse import urlsplit

    from webtap.fetch.robots_file import robots_permit
    from webtap.guard import AddressRefused

    try:  # an address the guard refuses is refused as such, before its robots.txt is read
        session.guard.check_host(urlsplit(url).hostname or "")
    except AddressRefused as exc:
        raise exc.for_url(url) from None
    permit = robots_permit(session, pages.cache if pages is not None else None)
    permit(url)
    return permit


def _download(
    url: str, session: Session, limits: Limits, hit: Hit | None, permit: Permit | None
) -> Download:
    """Step 4: the page's bytes, whatever the status (a stale page asked for conditionally)."""
    from webtap.fetch.download import download

    conditions = hit.page.conditions() if hit is not None else None
    return download(
        url,
        session.timeouts,
        session.deadline(),
        limits,
        session.guard,
        session.client(),
        conditions,
        permit=permit,
    )


def _convert(
    got: Download, mode: str, session: Session
) -> tuple[Converted | None, Inspection | None]:
    """Step 5: the body as Markdown, and what the verdict saw of an HTML page as parsed (an
    answer with a status of 400 or more is not converted)."""
    if got.status >= 400:
        return None, None
    from webtap.fetch.judge import Inspection
    from webtap.fetch.media import convert_body

    seen = Inspection(got.url)
    converted = convert_body(
        got.body,
        got.content_type,
        got.url,
        main_content=mode == "main",
        deadline=session.deadline(),
        inspect=seen,
    )
    return converted, seen


def _render(
    url: str,
    got: Download,
    converted: Converted | None,
    seen: Inspection | None,
    mode: str,
    session: Session,
    limits: Limits,
    pages: PageCache | None,
    render: bool | None,
    client: Client | None,
) -> Rendering:
    """Step 5, continued: a page whose content scripts build, rendered in a browser
    (:mod:`webtap.fetch.render`); by default only through webtap's own client."""
    from webtap.fetch.render import render_step

    return render_step(
        url,
        got,
        converted,
        seen,
        render=False if render is None and client is not None else render,
        mode=mode,
        session=session,
        limits=limits,
        pages=pages,
    )


def _judge(got: Download, converted: Converted | None, seen: Inspection | None) -> Verdict:
    """Step 6: what came back (:mod:`webtap.verdict`)."""
    from webtap.fetch.judge import judge

    return judge(got, converted, seen)


def _markdown_source(
    verdict: Verdict,
    converted: Converted | None,
    seen: Inspection | None,
    session: Session,
    limits: Limits,
    permit: Permit | None,
) -> tuple[Converted, Verdict] | None:
    """Step 7: the page's Markdown version, when its HTML names one and came out thin (as
    content, an empty page or a script shell), as a page of content; else None."""
    if converted is None or seen is None or seen.alternate is None:
        return None
    if verdict.kind not in ("content", "script_shell", "empty"):
        return None
    from webtap.fetch.negotiation import thin_content

    if not thin_content(converted):
        return None
    from webtap.fetch.alternate import markdown_version

    version = markdown_version(seen.alternate, session, limits, permit)
    if version is None:
        return None
    title = version.title or converted.title
    return version._replace(title=title), verdict._replace(kind="content")


def _from_cache(page: StoredPage, url: str) -> Page:
    return Page(
        page.url_for(url),
        page.title,
        page.markdown,
        page.media_type,
        page.trimmed,
        page.invisible_removed,
        markdown_source=page.markdown_source,
        rendered=page.rendered,
    )


def _serves(page: StoredPage, render: bool | None) -> bool:
    from webtap.fetch.render import cached_page_serves  # light: no browser, no converter

    return cached_page_serves(page, render)
