"""Walls a site puts up itself: a login form, a paywall, a consent wall, a soft 404.

Words alone decide nothing: articles say "log in", "subscribe", "cookies" and "not found" all
the time. Each rule needs the page to be thin (few visible words, and little main content
when the converted document is known) and a structural sign: a password or e-mail input,
schema.org's ``isAccessibleForFree: false``, a consent host, a title that is a "not found"
phrase rather than contains one.

The patterns are strings, compiled by :mod:`re` (and kept in its cache) the first time a thin
page needs them: compiling them all costs a fresh process about 3 ms, which a fetch of an
ordinary page need not pay.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from webtap.verdict._page import Signals
from webtap.verdict._words import THIN_PAGE, WORD_CAP

__all__ = ["consent_wall", "login_wall", "paywall", "soft_404"]

_LOGIN = (
    r"\b(log ?in|sign ?in|signin|login|log on|logon|anmelden|connexion|se connecter"
    r"|iniciar sesi[oó]n|accedi|inloggen|zaloguj)\b"
)
_LOGIN_PATH = (
    r"/(log-?in|sign-?in|sign_in|signin|session|sessions/new|auth|sso|account/login"
    r"|accounts/login|users/sign_in|u/login|oauth2?/authorize)(/|$|\?|\.)"
)
_ACCOUNT_INPUTS = frozenset(("password", "email"))

# A title part or heading that *is* a "not found" phrase (matched whole), not one that has it.
_NOT_FOUND_TITLE = (
    r"(?:(?:oops|whoops|sorry|uh oh|error)[!.,:]*\s+)?(?:"
    r"(?:error\s*)?404(?:\s*error)?(?:\s*[-:]?\s*(?:page\s+)?not\s+found)?(?:\s+page)?"
    r"|(?:the\s+)?(?:page|file|document|article|content|post|resource|product|url)?\s*"
    r"(?:was\s+)?not\s+found"
    r"|(?:that|this|the)\s+page\s+(?:cannot|can.?t|could\s*not|couldn.?t)\s+be\s+found"
    r"|(?:the\s+)?page\s+(?:you\s+requested\s+)?(?:does\s*not|doesn.?t|no\s+longer)\s+exists?"
    r"|nothing\s+(?:was\s+)?found(?:\s+for\s+.+)?"
    r"|seite\s+nicht\s+gefunden|page\s+introuvable|p[aá]gina\s+no\s+encontrada"
    r"|pagina\s+non\s+trovata|pagina\s+niet\s+gevonden|страница\s+не\s+найдена"
    r")"
)
_TITLE_PARTS = r"\s+[|\-–—·:•»]\s+|\s*[|–—·•»]\s*"
_NOT_FOUND_TEXT = (
    r"\bthe\s+page\s+you\s+(?:are|were|re)?\s*(?:looking\s+for|requested|tried\s+to\s+reach)\s+"
    r"(?:could\s*not|cannot|can.?t|does\s*not|doesn.?t|no\s+longer|was\s+not|is\s+not|isn.?t"
    r"|wasn.?t|has\s+been|might\s+have\s+been|may\s+have\s+been)"
)

_PAYWALL_TEXT = (
    "subscribe to continue reading",
    "subscribe to keep reading",
    "subscribe to read the full",
    "to continue reading, subscribe",
    "continue reading your article with",
    "this article is for subscribers",
    "this article is exclusive to subscribers",
    "this content is for subscribers",
    "available to subscribers only",
    "for subscribers only",
    "you have reached your free article limit",
    "you've reached your free article limit",
    "create a free account to continue reading",
    "become a member to read",
    "unlock this article",
)

_CONSENT_HOSTS = ("consent.", "guce.", "cmp.", "privacy-gate.")
_CONSENT_PATH = r"/(consent|cookie-?consent|collectconsent|privacy-gate|gdpr)\b"
# Titles and headings of consent pages: a consent wall is a page of its own, while a banner
# over a page with content ("We use cookies") leaves the content there.
_CONSENT_TITLES = (
    "before you continue",
    "consent",
    "cookie settings",
    "cookie preferences",
    "use of cookies",
    "privacy settings",
    "privacy choices",
    "your privacy",
    "we value your privacy",
    "datenschutz",
    "einwilligung",
    "avant de continuer",
    "antes de continuar",
)
_CONSENT_TERMS = (
    "cookie",
    "consent",
    "accept all",
    "reject all",
    "i agree",
    "agree and continue",
    "partners",
    "personalised",
    "personalized",
    "legitimate interest",
    "privacy settings",
    "before you continue",
)


def _thin(page: Signals, limit: int, content_words: int | None, content_limit: int) -> bool:
    """Few visible words, and little main content when the converted document is known (a
    page whose content the converter missed is not thin for that)."""
    if page.words >= limit:
        return False
    return content_words is None or content_words < content_limit


def login_wall(page: Signals, url: str | None, content_words: int | None) -> str | None:
    """Evidence that the page is a sign-in form standing in for the content, or None.

    A password or e-mail input (a login may ask for the address first), a title, heading or
    URL that says "log in", and a thin page: a forum thread with a login box in its header has
    its posts, an article about logging in has no password field.
    """
    if not _ACCOUNT_INPUTS & set(page.inputs):
        return None
    if not _thin(page, THIN_PAGE, content_words, 150):
        return None
    named = [t for t in (page.title, *page.headings) if re.search(_LOGIN, t.lower())]
    if named:
        return f"a sign-in form titled {named[0]!r}"
    if "password" not in page.inputs:
        return None
    path = urlsplit(url).path.lower() if url else ""
    actions = (a.lower() for a in page.form_actions)
    if re.search(_LOGIN_PATH, path) or any(re.search(_LOGIN_PATH, a) for a in actions):
        return "a sign-in form at a login address"
    return None


def paywall(page: Signals, content_words: int | None) -> str | None:
    """Evidence that only a paywalled article's teaser came back, or None.

    Publishers mark paywalled articles for search engines with schema.org's
    ``isAccessibleForFree: false``; many of them send the whole text anyway (a metered wall
    counts in the browser), so the mark counts only when the article came back short. A
    subscription prompt in the page counts the same way.
    """
    words = content_words if content_words is not None else page.words
    if words >= 250:
        return None
    if page.not_free:
        return "isAccessibleForFree: false, and a short article"
    prompt = next((p for p in _PAYWALL_TEXT if p in page.text), None)
    if prompt is not None:
        return f"{prompt!r}, and a short article"
    return None


def consent_wall(page: Signals, url: str | None, content_words: int | None) -> str | None:
    """Evidence that a cookie-consent wall stands where the content should be, or None.

    A consent page of its own: at a consent address (``consent.google.com``,
    ``guce.yahoo.com``, a ``/consent`` path), or a thin page titled as one ("Before you
    continue", "Privacy settings") whose words are about cookies and consent. A consent banner
    over a page that has its content is not a wall: the content is there.
    """
    if not _thin(page, THIN_PAGE, content_words, 100):
        return None
    parts = urlsplit(url) if url else None
    host = (parts.hostname or "") if parts else ""
    if host.startswith(_CONSENT_HOSTS) or (parts and re.search(_CONSENT_PATH, parts.path.lower())):
        return f"a consent page at {host}"
    heading = " ".join((page.title, *page.headings)).lower()
    named = next((phrase for phrase in _CONSENT_TITLES if phrase in heading), None)
    if named is None:
        return None
    terms = [term for term in _CONSENT_TERMS if term in page.text]
    if len(terms) >= 2:
        return f"a page titled {named!r} about {', '.join(terms[:3])}"
    return None


def soft_404(page: Signals, content_words: int | None) -> str | None:
    """Evidence that the page says "not found" although served with success, or None.

    The title (one of its parts, split at `` | `` and the like) or the first heading must be a
    "not found" phrase, or the page must be thin and say that the page asked for is gone.
    """
    if not _thin(page, WORD_CAP, content_words, 300):
        return None
    for text in (page.title, *page.headings[:1]):
        for part in re.split(_TITLE_PARTS, text.lower()):
            if re.fullmatch(_NOT_FOUND_TITLE, part.strip(" .!?\t")):
                return f"the {'title' if text == page.title else 'heading'} {text!r}"
    thin = page.words < 120 and (content_words is None or content_words < 80)
    if thin and re.search(_NOT_FOUND_TEXT, page.text):
        return "the page says the page asked for is not there"
    return None
