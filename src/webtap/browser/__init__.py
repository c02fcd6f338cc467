"""Pages built by JavaScript, rendered in a guarded Chrome-family browser (issue 21).

webtap drives a browser the person installed (:mod:`~webtap.browser.find`) over the DevTools
protocol on a pipe (:mod:`~webtap.browser.cdp`: no driver library, no Node process), and lets it
reach the network only through a proxy on 127.0.0.1 that applies ``web_fetch``'s own SSRF guard
to every connection (:mod:`~webtap.browser.proxy`, :mod:`~webtap.browser.launch`). A page is
rendered in a fresh context until it has settled or the deadline comes
(:mod:`~webtap.browser.tab`); :func:`render` does one page with a browser of its own, a
:class:`Browser` keeps one Chromium for many pages (:mod:`~webtap.browser.pool`).

Nothing on the plain fetch path imports this package (tests/test_cold_start.py); its modules
load on first use of their names.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webtap.browser.find import BROWSER_ENV, BrowserNotFound, browser_path, find_browser
    from webtap.browser.launch import kill_all
    from webtap.browser.pool import Browser, render
    from webtap.browser.proxy import Policy, ProxyLimits, Refusal
    from webtap.browser.tab import OUTCOMES, Rendered, RenderFailed

__all__ = [
    "BROWSER_ENV",
    "OUTCOMES",
    "Browser",
    "BrowserNotFound",
    "Policy",
    "ProxyLimits",
    "Refusal",
    "RenderFailed",
    "Rendered",
    "browser_path",
    "find_browser",
    "kill_all",
    "render",
]

_HOME = {
    "BROWSER_ENV": "find",
    "BrowserNotFound": "find",
    "browser_path": "find",
    "find_browser": "find",
    "kill_all": "launch",
    "Browser": "pool",
    "render": "pool",
    "Policy": "proxy",
    "ProxyLimits": "proxy",
    "Refusal": "proxy",
    "OUTCOMES": "tab",
    "RenderFailed": "tab",
    "Rendered": "tab",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'webtap.browser' has no attribute {name!r}")
    return getattr(import_module(f"webtap.browser.{home}"), name)
