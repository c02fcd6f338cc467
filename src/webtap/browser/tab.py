"""One render: a fresh browser context, one tab, the page loaded until it has settled.

Each render gets its own browser context (no cookies, storage, cache or service workers from
another render), with its own proxy listener (so its caps and refusals are its own), downloads
denied, and is disposed of at the end with every tab the page opened.

*Settled* (issue 21, "waiting well"): the load event has fired, then a quiet spell
(:data:`QUIET` seconds, 0.3: 0.15 was measured too short) passes with no request in flight, no
request started or finished and no change to the DOM (a ``MutationObserver`` installed before
the page's own scripts run). Each main-frame navigation (``location = ...``, a redirect by
script) clears the set of requests in flight and waits for its own load event. All of it is
capped by the deadline, minus a reserve to read the page: at the deadline the render stops and
returns what the page shows then, saying so (``outcome="deadline"``).
"""

from __future__ import annotations

import contextlib
import queue
import time
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

from webtap.browser.cdp import CDPError, ConnectionClosed
from webtap.browser.proxy import DEFAULT_PROXY_LIMITS, ProxyLimits, ProxySession, Refusal
from webtap.errors import NetworkError, clip
from webtap.guard import AddressRefused

if TYPE_CHECKING:
    from webtap.browser.cdp import Connection
    from webtap.browser.proxy import Policy
    from webtap.net.deadline import Deadline

__all__ = ["OUTCOMES", "QUIET", "BrowserExited", "RenderFailed", "Rendered", "render_tab"]

QUIET = 0.3  # seconds of no request and no DOM change that make a page settled
POLL = 0.1  # seconds between looks at the DOM while the network is quiet
OUTCOMES = ("settled", "deadline", "capped")

# Counts DOM changes from before the page's first script; read by Runtime.evaluate.
_OBSERVER = """
(() => {
  let count = 0, last = performance.now();
  new MutationObserver(() => { count++; last = performance.now(); }).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true });
  Object.defineProperty(window, "__webtapQuiet", { value: () => performance.now() - last });
})();
"""
_QUIET_FOR = "typeof __webtapQuiet === 'function' ? __webtapQuiet() / 1000 : 0"
_READ = """
(() => {
  const d = document;
  const doctype = d.doctype ? new XMLSerializer().serializeToString(d.doctype) : "";
  const html = doctype + (d.documentElement ? d.documentElement.outerHTML : "");
  return [html.length > %d ? html.slice(0, %d) : html, html.length > %d, location.href];
})()
"""


class RenderFailed(NetworkError):
    """The browser could not render the page (it crashed, exited, or the page hung it)."""


class BrowserExited(RenderFailed):
    """The browser itself went away during the render (not the page's doing, as a rule)."""


class Rendered(NamedTuple):
    """What the browser made of a page.

    ``outcome`` says why the render stopped: ``"settled"`` (loaded, then quiet), ``"deadline"``
    (the deadline came first: ``html`` is what the page showed then) or ``"capped"`` (the
    proxy's byte or request cap was reached). ``requests`` counts the connections and plain
    requests the proxy handled, ``refused`` the ones it did not make and why. ``status`` and
    ``headers`` (names in lower case) are the page's own response's, the last one a main-frame
    navigation got.
    """

    url: str
    final_url: str
    status: int | None
    headers: dict[str, str]
    html: str
    outcome: str
    requests: int
    refused: tuple[Refusal, ...]
    truncated: bool = False


class _State:
    __slots__ = ("final_url", "headers", "in_flight", "last", "loaded", "main_request", "status")

    def __init__(self, url: str) -> None:
        self.final_url = url
        self.in_flight: set[str] = set()
        self.last = time.monotonic()
        self.loaded = False
        self.main_request: str | None = None
        self.status: int | None = None
        self.headers: dict[str, str] = {}


def render_tab(
    conn: Connection,
    url: str,
    *,
    policy: Policy,
    deadline: Deadline,
    limits: ProxyLimits = DEFAULT_PROXY_LIMITS,
    user_agent: str | None = None,
    max_html: int = 10 * 1024 * 1024,
) -> Rendered:
    """Render ``url`` in a new context of the browser behind ``conn`` (see the module doc)."""
    proxy = ProxySession(policy, deadline, limits)
    context: str | None = None

    def call(method: str, params: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        return conn.call(method, params, timeout=max(deadline.remaining(), 0.05), **kw)

    try:
        context = call(
            "Target.createBrowserContext",
            {
                "disposeOnDetach": True,
                "proxyServer": proxy.address,
                "proxyBypassList": "<-loopback>",
            },
        )["browserContextId"]
        call("Browser.setDownloadBehavior", {"behavior": "deny", "browserContextId": context})
        target = call("Target.createTarget", {"url": "about:blank", "browserContextId": context})
        session = call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})[
            "sessionId"
        ]
        events = conn.events(session)
        try:
            for method, params in (
                ("Page.enable", None),
                ("Network.enable", None),
                ("Page.addScriptToEvaluateOnNewDocument", {"source": _OBSERVER}),
            ):
                call(method, params, session=session)
            if user_agent:
                call("Network.setUserAgentOverride", {"userAgent": user_agent}, session=session)
            state = _State(url)
            navigation = call("Page.navigate", {"url": url}, session=session)
            frame = navigation.get("frameId", "")
            error = navigation.get("errorText")
            if error:
                _raise_navigation(url, error, proxy.refused)
            outcome = _settle(conn, session, events, state, frame, proxy, deadline)
            html, truncated, final_url = _read(call, session, max_html)
        finally:
            conn.forget(session)
        if state.status is not None and state.status >= 400:
            refused = _refusal_for(final_url or state.final_url, proxy.refused)
            if refused is not None:  # a plain-http page the proxy refused shows as its 403
                _raise_refused(final_url or state.final_url, refused)
        return Rendered(
            url=url,
            final_url=final_url or state.final_url,
            status=state.status,
            headers=state.headers,
            html=html,
            outcome=outcome,
            requests=proxy.requests,
            refused=tuple(proxy.refused),
            truncated=truncated,
        )
    except ConnectionClosed:
        raise BrowserExited(f"Failed to render {clip(url)}: the browser exited") from None
    except TimeoutError:
        raise RenderFailed(
            f"Failed to render {clip(url)}: the browser did not answer before the deadline "
            f"of {deadline.seconds:g} s (the page's scripts may keep it busy)"
        ) from None
    except CDPError as exc:
        raise RenderFailed(f"Failed to render {clip(url)}: {exc}") from None
    finally:
        if context is not None:
            # On failure the caller finds the browser broken (it no longer answers) and
            # restarts it.
            with contextlib.suppress(CDPError, TimeoutError):
                conn.call(
                    "Target.disposeBrowserContext", {"browserContextId": context}, timeout=5.0
                )
        proxy.close()


def _settle(
    conn: Connection,
    session: str,
    events: queue.SimpleQueue[tuple[str, dict[str, Any]]],
    state: _State,
    frame: str,
    proxy: ProxySession,
    deadline: Deadline,
) -> str:
    """Handle the page's events until it has settled, the deadline is near or a cap is hit."""
    reserve = min(1.0, deadline.seconds * 0.2)  # time left to read the page
    next_look = 0.0
    while True:
        if proxy.capped:
            return "capped"
        left = deadline.remaining() - reserve
        if left <= 0:
            return "deadline"
        now = time.monotonic()
        quiet_network = state.loaded and not state.in_flight and now - state.last >= QUIET
        if quiet_network and now >= next_look:
            next_look = now + POLL
            dom_quiet = conn.call(
                "Runtime.evaluate",
                {"expression": _QUIET_FOR, "returnByValue": True},
                session=session,
                timeout=left,
            )
            quiet = dom_quiet.get("result", {}).get("value", 0)
            if isinstance(quiet, int | float) and quiet >= QUIET:
                return "settled"
        try:
            method, params = events.get(timeout=min(left, POLL))
        except queue.Empty:
            continue
        _handle(conn, session, state, frame, method, params, left)


def _handle(
    conn: Connection,
    session: str,
    state: _State,
    frame: str,
    method: str,
    params: dict[str, Any],
    left: float,
) -> None:
    now = time.monotonic()
    if method == "Network.requestWillBeSent":
        request = params.get("requestId", "")
        state.in_flight.add(request)
        state.last = now
        if params.get("type") == "Document" and params.get("frameId") == frame:
            state.main_request = request
    elif method in ("Network.loadingFinished", "Network.loadingFailed"):
        state.in_flight.discard(params.get("requestId", ""))
        state.last = now
    elif method == "Network.responseReceived":
        if params.get("requestId") == state.main_request:
            response = params.get("response", {})
            state.status = response.get("status")
            state.final_url = response.get("url", state.final_url)
            headers = response.get("headers") or {}
            state.headers = {str(name).lower(): str(value) for name, value in headers.items()}
    elif method == "Page.frameNavigated":
        navigated = params.get("frame", {})
        if not navigated.get("parentId"):
            # A new document: what the old one had in flight is gone, the new one must load.
            state.in_flight.clear()
            state.loaded = False
            state.last = now
            state.final_url = navigated.get("url", state.final_url)
    elif method == "Page.navigatedWithinDocument":
        if params.get("frameId") == frame:
            state.final_url = params.get("url", state.final_url)
            state.last = now
    elif method == "Page.loadEventFired":
        state.loaded = True
        state.last = now
    elif method == "Page.javascriptDialogOpening":
        # alert(), confirm(), beforeunload: dismissed, or the page would wait forever.
        conn.call("Page.handleJavaScriptDialog", {"accept": False}, session=session, timeout=left)
    elif method in ("Inspector.targetCrashed", "Inspector.detached"):
        raise CDPError("the page's renderer crashed")
    elif method == "webtap.closed":
        raise ConnectionClosed("the browser exited")


def _read(call: Any, session: str, max_html: int) -> tuple[str, bool, str]:
    """The page's HTML as the DOM now is (cut at ``max_html`` characters), and its URL.

    Read in an isolated world, where the page's scripts cannot have replaced what we call.
    """
    tree = call("Page.getFrameTree", session=session)["frameTree"]["frame"]["id"]
    world = call(
        "Page.createIsolatedWorld", {"frameId": tree, "worldName": "webtap"}, session=session
    )["executionContextId"]
    result = call(
        "Runtime.evaluate",
        {
            "expression": _READ % (max_html, max_html, max_html),
            "contextId": world,
            "returnByValue": True,
        },
        session=session,
    )
    if "exceptionDetails" in result:
        raise CDPError("the page's HTML could not be read")
    html, truncated, href = result["result"]["value"]
    return html, bool(truncated), href


def _authority(url: str) -> tuple[str, int] | None:
    try:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(parts.scheme)
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return parts.hostname.lower(), port


def _refusal_for(url: str, refused: list[Refusal]) -> Refusal | None:
    """The proxy's refusal of ``url``'s host and port, if it refused them."""
    key = _authority(url)
    return next((r for r in refused if (r.host, r.port) == key), None)


def _raise_refused(url: str, refusal: Refusal) -> None:
    if refusal.guarded:
        raise AddressRefused(refusal.host, refusal.reason).for_url(url)
    raise RenderFailed(f"Failed to render {clip(url)}: {refusal.reason}")


def _raise_navigation(url: str, error: str, refused: list[Refusal]) -> None:
    refusal = _refusal_for(url, refused)
    if refusal is not None:
        _raise_refused(url, refusal)
    raise RenderFailed(f"Failed to render {clip(url)}: the browser said {error}")
