"""Fetching a page: the steps from a URL to a :class:`Page`, in order.

1. The URL is checked (:mod:`webtap.fetch.urls`) and the settings read
   (:mod:`webtap.fetch.settings`) into the fetch's :class:`~webtap.fetch.session.Session`,
   which every later step asks for its requests and conversions.
2. robots.txt is asked, when the fetch obeys it (a URL the model chose;
   :mod:`webtap.fetch.robots_file`): from the caches, else with one request per origin.
3. The page cache is asked (:mod:`webtap.fetch.page_cache`): a fresh page is the answer, with
   no request and no HTTP stack imported.
4. The page is downloaded (:meth:`Session.get <webtap.fetch.session.Session.get>`, a
   :class:`~webtap.fetch.download.Download`): over HTTP, redirects followed and
   every hop checked by the SSRF guard and robots.txt (:mod:`webtap.fetch.redirects`), a stale
   cached page asked for with a conditional request. A ``304`` serves the cached page.
5. The body is converted by its media type (:meth:`Session.convert
   <webtap.fetch.session.Session.convert>`, :mod:`webtap.fetch.media`), controls and
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
from urllib.parse import urlsplit

from webtap.fetch.negotiation import ACCEPT, thin_content
from webtap.fetch.render import Rendering, cached_page_serves, render_step
from webtap.fetch.robots import obeys_robots
from webtap.fetch.robots_file import robots_permit
from webtap.fetch.session import Session
from webtap.fetch.urls import check_url
from webtap.guard import AddressRefused
from webtap.useragent import user_agent

if TYPE_CHECKING:
    from webtap.fetch.media import Converted
    from webtap.fetch.page_cache import StoredPage
    from webtap.fetch.redirects import Permit
    from webtap.guard import Guard
    from webtap.net import Client, Limits, Timeouts
    from webtap.verdict import Verdict

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
    metadata: dict[str, str] | None = None
    """What the page says of itself (its date, author, site, language...: the fields of
    :class:`webtap.convert.Metadata` it said), None when it said none. A plain mapping, so that
    a page from the cache loads no converter."""


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
    These settings are the fetch's :class:`~webtap.fetch.session.Session`, which its every
    request and conversion asks.

    Raises the error of what came back when it is not content (:mod:`webtap.verdict`).
    """
    url = check_url(url)
    with Session(
        mode=mode,
        guard=guard,
        timeouts=timeouts,
        limits=limits,
        client=client,
        cache=cache,
        render=render,
    ) as session:
        return _fetch(url, session, model_chose)


def _fetch(url: str, session: Session, model_chose: bool) -> Page:
    """Steps 2 to 8 (the module doc), each asking ``session``."""
    pages, sent = session.pages, _varying_headers()
    session.permit = _robots(url, session, model_chose)
    key = pages.key(url, session.mode, session.guard, sent) if pages is not None else None
    hit = pages.lookup(key, session.max_body) if pages is not None else None
    if hit is not None and not cached_page_serves(hit.page, session.render):
        hit = None  # kept unrendered, and this fetch must render it: fetched again
    if hit is not None and hit.fresh:
        return _from_cache(hit.page, url)
    got = session.get(url, conditions=hit.page.conditions() if hit is not None else None)
    if pages is not None and hit is not None and got.status == HTTPStatus.NOT_MODIFIED:
        pages.refresh(key, hit.page, got.headers)
        return _from_cache(hit.page, url)
    step = render_step(session, url, Rendering(got, *session.convert(got)))
    got, converted, seen = step.download, step.converted, step.seen
    from webtap.fetch.judge import judge, refusal  # the verdict: not for a page from the cache

    verdict = judge(got, converted, seen)
    source = _markdown_source(verdict, step, session)
    if source is not None:
        converted, verdict = source
    elif not verdict.ok:
        raise refusal(verdict, got, step.note)
    assert converted is not None  # an answer that was not converted is an error
    markdown_url = seen.alternate if source is not None and seen is not None else None
    kept = step.keep or source is not None  # a note speaks of the page, not its Markdown
    if pages is not None and verdict.kind == "content" and kept:
        pages.remember(
            key, session.mode, session.guard, got, converted, sent, markdown_url, step.rendered
        )
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
        converted.metadata.fields() or None,
    )


# --- The steps ---------------------------------------------------------------------------------


def _varying_headers() -> dict[str, str]:
    """The request headers a server may vary its answer on, as webtap sends them: in the page
    cache's key, so that ``Vary: Accept`` or ``Vary: User-Agent`` holds."""
    return {"Accept": ACCEPT, "User-Agent": user_agent()}


def _robots(url: str, session: Session, model_chose: bool) -> Permit | None:
    """Step 2: robots.txt's word on ``url`` when the fetch obeys it (raises
    :class:`~webtap.errors.RobotsDisallowed`), and the check for the hops to come."""
    if not obeys_robots(model_chose):
        return None
    try:  # an address the guard refuses is refused as such, before its robots.txt is read
        session.guard.check_host(urlsplit(url).hostname or "")
    except AddressRefused as exc:
        raise exc.for_url(url) from None
    permit = robots_permit(session)
    permit(url)
    return permit


def _markdown_source(
    verdict: Verdict, step: Rendering, session: Session
) -> tuple[Converted, Verdict] | None:
    """Step 7: the page's Markdown version, when its HTML names one and came out thin (as
    content, an empty page or a script shell), as a page of content; else None."""
    converted, seen = step.converted, step.seen
    if converted is None or seen is None or seen.alternate is None:
        return None
    if verdict.kind not in ("content", "script_shell", "empty"):
        return None
    if not thin_content(converted):
        return None
    from webtap.fetch.alternate import markdown_version  # the request path, as judge's

    version = markdown_version(seen.alternate, session)
    if version is None:
        return None
    title = version.title or converted.title
    page = version._replace(title=title, metadata=converted.metadata)  # the HTML page's word
    return page, verdict._replace(kind="content")


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
        metadata=page.metadata,
    )
