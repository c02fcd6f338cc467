"""Bot walls: a challenge or block page, and whose it is, from what the vendors document.

Each vendor leaves its own marks: a response header on its challenge responses, the script or
iframe its challenge page loads, the wording and reference number of its block page. Most of
those vendors also put a header or a sensor script on every page of a site they protect, so
the marks that also occur on ordinary pages (``server: cloudflare``, ``x-datadome``,
``x-iinfo``, Cloudflare's ``/cdn-cgi/challenge-platform/scripts/jsd/`` sensor, Imperva's
``_Incapsula_Resource`` script, PerimeterX's ``_pxAppId``) count only with an error status or
on a thin page (few visible words): a challenge page is a few sentences; an article that
quotes "Just a moment..." is not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from webtap.verdict._page import Signals

__all__ = ["THIN", "Wall", "bot_wall"]

THIN = 250  # visible words: a challenge or block page has fewer

_WALL_STATUSES = frozenset((401, 403, 405, 429, 503))
_AKAMAI_REFERENCE = r"reference #\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+"
_RAY_ID = r"ray id:? ?[0-9a-f]{16}"
_HUMAN_CHECK = (
    "verify you are human",
    "verifying you are human",
    "verify that you are human",
    "confirm you are human",
    "prove you are human",
    "are you a robot",
    "not a robot",
    "i am human",
    "unusual traffic",
    "automated requests",
    "automated access",
    "checking your browser",
    "checking if the site connection is secure",
    "complete the security check",
    "bot protection",
)


class Wall(NamedTuple):
    """A bot wall: whose (None: it does not say), challenge or block, and the mark seen."""

    vendor: str | None
    challenge: bool  # True: a check the client is asked to pass; False: a refusal
    evidence: str


def bot_wall(status: int, headers: Mapping[str, str], page: Signals | None) -> Wall | None:
    """The bot wall this answer is, or None. ``headers`` have lower-case names."""
    wall = _by_header(status, headers)
    if wall is not None:
        return wall
    if page is None or page.words >= THIN:
        return None
    return _by_page(status, headers, page) or _generic(status, headers, page)


def _by_header(status: int, headers: Mapping[str, str]) -> Wall | None:
    """Headers the vendors send on their challenge responses only."""
    if headers.get("cf-mitigated", "").strip().lower() == "challenge":
        return Wall("Cloudflare", True, "header cf-mitigated: challenge")
    action = headers.get("x-amzn-waf-action", "").strip().lower()
    if action:
        return Wall("AWS WAF", action != "block", f"header x-amzn-waf-action: {action}")
    vercel = headers.get("x-vercel-mitigated", "").strip().lower()
    if vercel in ("challenge", "deny"):
        return Wall("Vercel", vercel == "challenge", f"header x-vercel-mitigated: {vercel}")
    if status == 429 and any(name.startswith("x-kpsdk-") for name in headers):
        return Wall("Kasada", True, "HTTP 429 with Kasada's x-kpsdk- headers")
    return None


def _by_page(status: int, headers: Mapping[str, str], page: Signals) -> Wall | None:
    """A thin page with a vendor's challenge or block markup."""
    scripts, text, ids = page.scripts, page.text, page.ids
    iframes = " ".join(page.iframes)
    server = headers.get("server", "").lower()
    walled = status in _WALL_STATUSES

    # Cloudflare: the challenge page's options object and orchestration script; the block
    # page's "Ray ID" (its text names Cloudflare).
    if "_cf_chl_opt" in scripts or "/challenge-platform/h/" in scripts:
        return Wall("Cloudflare", True, "Cloudflare's challenge script (_cf_chl_opt)")
    if ids & {"challenge-form", "challenge-running", "cf-challenge-running"}:
        return Wall("Cloudflare", True, "Cloudflare's challenge form")
    if re.search(_RAY_ID, text) and ("cloudflare" in text or server == "cloudflare"):
        challenge = "just a moment" in page.title.lower()
        return Wall("Cloudflare", challenge, "Cloudflare's block page (Ray ID)")
    if walled and server == "cloudflare" and "just a moment" in page.title.lower():
        return Wall("Cloudflare", True, f"HTTP {status} 'Just a moment...' from server cloudflare")

    # DataDome: the challenge page loads its CAPTCHA from captcha-delivery.com.
    if "captcha-delivery.com" in scripts or "captcha-delivery.com" in iframes:
        return Wall("DataDome", True, "DataDome's captcha-delivery.com challenge")
    if walled and ("x-datadome" in headers or "x-dd-b" in headers):
        return Wall("DataDome", False, f"HTTP {status} with DataDome's x-datadome header")

    # PerimeterX / HUMAN: the "Press & Hold" challenge in #px-captcha.
    if "px-captcha" in ids or "press & hold" in text or "captcha.px-cdn.net" in scripts:
        return Wall("PerimeterX (HUMAN)", True, "PerimeterX's px-captcha challenge")
    if walled and ("_pxAppId" in scripts or "_pxhd" in headers.get("set-cookie", "")):
        return Wall("PerimeterX (HUMAN)", False, f"HTTP {status} with PerimeterX's _px markers")

    # Imperva (Incapsula): the block page's incident ID; the challenge page's one iframe.
    if "incapsula incident id" in text:
        return Wall("Imperva (Incapsula)", False, "Imperva's block page (Incapsula incident ID)")
    if "_Incapsula_Resource" in iframes:
        return Wall("Imperva (Incapsula)", True, "Imperva's _Incapsula_Resource challenge")
    if walled and ("x-iinfo" in headers or "incapsula" in headers.get("x-cdn", "").lower()):
        return Wall("Imperva (Incapsula)", False, f"HTTP {status} with Imperva's x-iinfo header")

    # Akamai: the edge's "Access Denied" page with its reference number; Bot Manager's
    # challenge script.
    if re.search(_AKAMAI_REFERENCE, text):
        return Wall("Akamai", False, "Akamai's block page (Reference #)")
    if "/_sec/cp_challenge/" in scripts or "sec-if-cpt-container" in ids:
        return Wall("Akamai", True, "Akamai Bot Manager's challenge")
    if walled and server.startswith("akamaighost"):
        return Wall("Akamai", False, f"HTTP {status} from server AkamaiGHost")

    # AWS WAF's challenge and CAPTCHA pages (gokuProps, *.awswaf.com); CloudFront's block.
    if "gokuProps" in scripts or "awswaf.com" in scripts:
        return Wall("AWS WAF", True, "AWS WAF's challenge script")
    if "generated by cloudfront" in text and "request blocked" in text:
        return Wall("Amazon CloudFront", False, "CloudFront's 'Request blocked' page")

    if "sucuri website firewall" in text or "sucuri website firewall" in page.title.lower():
        return Wall("Sucuri", False, "Sucuri WebSite Firewall's block page")
    if "generated by wordfence" in text:
        return Wall("Wordfence", False, "Wordfence's block page")
    if "our systems have detected unusual traffic" in text:
        return Wall("Google", True, "Google's 'unusual traffic' page")
    return None


def _generic(status: int, headers: Mapping[str, str], page: Signals) -> Wall | None:
    """A thin page that asks the client to prove it is human, without a vendor's name."""
    checks = [phrase for phrase in _HUMAN_CHECK if phrase in page.text]
    title = page.title.lower()
    checks += [phrase for phrase in _HUMAN_CHECK if phrase in title]
    captcha = page.captcha or any(
        mark in page.scripts for mark in ("recaptcha", "hcaptcha.com", "/turnstile/")
    )
    if "password" in page.inputs:
        return None  # a login form with a CAPTCHA is a login wall
    if (captcha and (status in _WALL_STATUSES or checks)) or (checks and status in _WALL_STATUSES):
        seen = f"'{checks[0]}'" if checks else "a CAPTCHA"
        return Wall(None, True, f"HTTP {status} with {seen} on a near-empty page")
    return None
