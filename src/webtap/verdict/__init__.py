"""What a fetch got: the content, or a wall in front of it (decision: What a fetch got).

    >>> from webtap.verdict import classify
    >>> verdict = classify(403, {"cf-mitigated": "challenge"}, "<title>Just a moment...</title>")
    >>> verdict.kind, verdict.vendor, verdict.code
    ('blocked', 'Cloudflare', 'BLOCKED')

:func:`classify` reads the status, the headers, the page as parsed (an lxml tree before the
converter prunes it, or the HTML as text) and the converted document, and says which of
:data:`KINDS` the answer is:

============  ==============  ======================================================  ===========
kind          error_code      what                                                    retry_with
============  ==============  ======================================================  ===========
content       (success)       the page's content
paywall       (success)       only a paywalled article's teaser: returned, marked     credentials
blocked       BLOCKED         a bot challenge or block page, with the vendor's name   another_url
http_error    HTTP_ERROR      status >= 400 and no bot wall                           by status
soft_404      HTTP_ERROR      a "not found" page served with success                  another_url
login         NO_CONTENT      a sign-in form instead of the content                   credentials
consent       NO_CONTENT      a cookie-consent wall instead of the content            another_url
script_shell  NO_CONTENT      an application shell whose content needs JavaScript     render
empty         NO_CONTENT      no text at all                                          another_url
============  ==============  ======================================================  ===========

False positives are the risk that matters: an article that says "log in", "subscribe",
"cookies" or "not found" must stay content. Every rule but the bot-wall headers therefore
needs a thin page and a structural sign (see :mod:`._vendors` and :mod:`._walls`); of the 681
real pages in ``shared/data/html`` (modern and articles) three get another verdict, all three
right: two paywall teasers and one Next.js shell (``bench/verdicts.py``).

The package is also the one judge of whether a page holds content (:mod:`._content`): the
converter's ``Document.state`` is :func:`content_state` of the facts the converter reports,
:func:`thin` says whether content is thin enough to try the page's Markdown version, and
every word is counted by :func:`count_words`, against limits declared once (:mod:`._words`).

:meth:`Verdict.error` is the :class:`~webtap.errors.WebtapError` a fetch raises for it, with
:class:`~webtap.errors.Advice` and the details ``verdict`` (and ``vendor``) as added fields;
:meth:`Verdict.fields` are the fields a success adds (a paywall's mark).
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from typing import Any, NamedTuple

from webtap.errors import Advice, Blocked, HTTPError, NoContent, WebtapError, clip
from webtap.verdict._content import (
    MOUNT_ATTRIBUTES,
    MOUNT_IDS,
    MOUNT_TAGS,
    content_state,
    is_empty,
    is_shell,
    thin,
)
from webtap.verdict._page import Signals, read_page
from webtap.verdict._vendors import bot_wall
from webtap.verdict._walls import consent_wall, login_wall, paywall, soft_404
from webtap.verdict._words import FEW_WORDS, THIN_WORDS, count_words, markdown_words

__all__ = [
    "FEW_WORDS",
    "KINDS",
    "MOUNT_ATTRIBUTES",
    "MOUNT_IDS",
    "MOUNT_TAGS",
    "THIN_WORDS",
    "Signals",
    "Verdict",
    "classify",
    "content_state",
    "count_words",
    "markdown_words",
    "read_page",
    "retry_after",
    "status_advice",
    "thin",
]

KINDS = (
    "content",
    "paywall",
    "blocked",
    "http_error",
    "soft_404",
    "login",
    "consent",
    "script_shell",
    "empty",
)
_SUCCESSES = frozenset(("content", "paywall"))
# A converter's state that leaves the judgement to the classifier's own checks: none (a page
# not converted, such as an error page read for its verdict alone) or "content" (a page that
# thin is no content whatever the converter says; both checks need near-zero text).
_UNJUDGED = frozenset((None, "content"))

_ANOTHER_URL = "Try another source for this information."
_ADVICE = {
    "blocked": Advice(
        False,
        "another_url",
        "Retrying will not get past it (webtap does not solve bot checks); look for the "
        "information at another URL or site.",
    ),
    "soft_404": Advice(
        False, "another_url", "Check the URL, or search for the page's current address."
    ),
    "login": Advice(
        False,
        "credentials",
        f"webtap fetches without an account, so retrying will not help. {_ANOTHER_URL}",
    ),
    "consent": Advice(
        False,
        "another_url",
        f"webtap does not consent on anyone's behalf, so retrying will not help. {_ANOTHER_URL}",
    ),
    "script_shell": Advice(
        False,
        "render",
        "Fetching it again the same way will not help; a fetch that renders the page would, "
        "or another URL for the same information (an API, a static version).",
    ),
    "empty": Advice(False, "another_url", f"Retrying will not help. {_ANOTHER_URL}"),
}


class Verdict(NamedTuple):
    """What one answer is: a kind from :data:`KINDS`, with what was seen."""

    kind: str
    status: int = 200
    evidence: str = ""  # the mark that decided, for messages and logs
    vendor: str | None = None  # a bot wall's vendor, when the page or headers say
    challenge: bool = False  # a bot wall that asks for a check (else a plain refusal)
    title: str = ""
    retry_after: float | None = None  # seconds, from Retry-After

    @property
    def ok(self) -> bool:
        """Whether the answer holds content to return (a paywall's teaser does, marked)."""
        return self.kind in _SUCCESSES

    @property
    def code(self) -> str | None:
        """The ``error_code`` of the error this kind is, None for a success."""
        error = self.error()
        return None if error is None else error.code

    @property
    def advice(self) -> Advice | None:
        """Whether trying again can help, and what would (None for content)."""
        if self.kind == "http_error":
            return status_advice(self.status, self.retry_after)
        if self.kind == "paywall":
            return Advice(False, "credentials", "The rest of the article needs a subscription.")
        return _ADVICE.get(self.kind)

    def error(self, status_line: str | None = None, note: str = "") -> WebtapError | None:
        """The error a fetch raises for this verdict, None when it holds content.

        ``status_line`` is the fetch's own ``HTTP 404: Not Found`` (the server's reason
        phrase) for an ``http_error``; without it the standard phrase is used. ``note`` follows
        a ``NO_CONTENT`` message (a script shell's: why it was not rendered, and how to have it
        rendered; :mod:`webtap.fetch.render`).
        """
        if self.ok:
            return None
        details: dict[str, Any] = {"verdict": self.kind}
        advice = self.advice
        if self.kind == "blocked":
            details["vendor"] = self.vendor
            return Blocked(self._blocked_message(), advice=advice, details=details)
        if self.kind == "http_error":
            return HTTPError(status_line or _status_line(self.status), advice=advice)
        if self.kind == "soft_404":
            title = f": {clip(self.title, 80)!r}" if self.title else ""
            message = f"HTTP {self.status}, but the page says it was not found (a soft 404{title})."
            return HTTPError(message, advice=advice, details=details)
        message = f"{_NO_CONTENT[self.kind]} {note}" if note else _NO_CONTENT[self.kind]
        return NoContent(message, advice=advice, details=details)

    def _blocked_message(self) -> str:
        who = f"{self.vendor}'s bot protection" if self.vendor else "The site's bot protection"
        what = "a bot check (a CAPTCHA or a script test)" if self.challenge else "a block page"
        return (
            f"Blocked: {who} answered with {what} instead of the page "
            f"(HTTP {self.status}; seen: {self.evidence})."
        )

    def fields(self) -> dict[str, Any]:
        """Fields a successful fetch adds to its result: a paywall's mark, nothing for content."""
        if self.kind != "paywall":
            return {}
        advice = self.advice
        assert advice is not None
        notice = f"Only the teaser of a paywalled article came back. {advice.hint}"
        return {"verdict": "paywall", "notice": notice}


_NO_CONTENT = {
    "login": "The page is a sign-in form, not the content: it needs an account.",
    "consent": "A cookie-consent wall stands in front of the content.",
    "script_shell": (
        "The page is a JavaScript application shell: its content is drawn by scripts, which "
        "this fetch does not run."
    ),
    "empty": "The page is empty: it holds no text.",
}


def classify(
    status: int,
    headers: Mapping[str, str] | None = None,
    page: Any = None,
    document: Any = None,
    *,
    url: str | None = None,
) -> Verdict:
    """The :class:`Verdict` for one answer.

    ``status`` and ``headers`` as received (any case of names); ``page``: the HTML page as an
    lxml tree as parsed (before any pruning), as ``str``/``bytes``, an already read
    :class:`Signals`, or None for an answer that is not HTML; ``document``: the converted page
    (:class:`webtap.convert.Document`: its ``markdown`` and, when it has one, ``state``), or
    None; ``url``: the final URL, which names login and consent pages.
    """
    names = _lower(headers or {})
    signals = page if isinstance(page, Signals) else read_page(page)
    title = signals.title if signals is not None else str(getattr(document, "title", ""))
    wait = retry_after(names)
    wall = bot_wall(status, names, signals)
    if wall is not None:
        return Verdict("blocked", status, wall.evidence, wall.vendor, wall.challenge, title, wait)
    if status >= 400:
        return Verdict("http_error", status, f"HTTP {status}", title=title, retry_after=wait)
    if not 200 <= status < 300:
        return Verdict("content", status, title=title)
    markdown = getattr(document, "markdown", None)
    words = markdown_words(markdown) if markdown is not None else None
    if signals is not None:
        for kind, evidence in (
            ("soft_404", soft_404(signals, words)),
            ("login", login_wall(signals, url, words)),
            ("consent", consent_wall(signals, url, words)),
        ):
            if evidence:
                return Verdict(kind, status, evidence, title=_heading(signals))
    state = getattr(document, "state", None)
    if state == "script_shell" or (state in _UNJUDGED and is_shell(signals, words)):
        return Verdict("script_shell", status, "an application shell", title=title)
    if is_empty(state, markdown, signals):
        return Verdict("empty", status, "no text", title=title)
    if signals is not None:
        evidence = paywall(signals, words)
        if evidence:
            return Verdict("paywall", status, evidence, title=title)
    return Verdict("content", status, title=title)


def _heading(signals: Signals) -> str:
    return signals.title or next(iter(signals.headings), "")


def _lower(headers: Mapping[str, str]) -> dict[str, str]:
    names: dict[str, str] = {}
    for name, value in headers.items():
        key = name.lower()
        names[key] = f"{names[key]}, {value}" if key in names else str(value)
    return names


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds from ``Retry-After`` (:func:`webtap.net.retry_after.retry_after`; names
    lower-case), at most a day, or None when absent or unreadable."""
    # webtap.net (7 ms) loads with a verdict on an answer, not with this package: the
    # converter imports it for its judge of content (`content_state`).
    from webtap.net.retry_after import retry_after as asked

    wait = asked(headers)
    return None if wait is None else min(wait, 86400.0)


_LATER = frozenset((408, 425, 429, 500, 502, 503, 504, 509, 520, 521, 522, 523, 524, 529))
_CREDENTIALS = frozenset((401, 402, 407))


def status_advice(status: int, retry_after: float | None = None) -> Advice:
    """What may help after an HTTP error ``status`` (``retry_after``: seconds the server
    asked to wait)."""
    if status in _LATER:
        wait = f" (the server asks to wait {retry_after:g} s)" if retry_after else ""
        return Advice(True, "later", f"Try again later{wait}.", retry_after)
    if status in _CREDENTIALS:
        return Advice(
            False,
            "credentials",
            f"It needs credentials webtap does not have; retrying will not help. {_ANOTHER_URL}",
        )
    if status in (404, 410):
        return Advice(
            False, "another_url", "Check the URL, or search for the page's current address."
        )
    return Advice(False, "another_url", f"Retrying will not help. {_ANOTHER_URL}")


def _status_line(status: int) -> str:
    try:
        return f"HTTP {status}: {HTTPStatus(status).phrase}"
    except ValueError:
        return f"HTTP {status}"
