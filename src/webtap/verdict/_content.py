"""Whether a page holds content: the one judge of a script shell, an empty page and thin content.

The converter reports what it saw (`webtap.convert.Facts`: the Markdown's words, the empty
mount points, the ``<noscript>`` text, whether the page runs scripts, whether its text was
recovered from where readers without scripts find it) and :func:`content_state` decides the
converter's ``Document.state`` from those facts; :func:`is_shell` and :func:`is_empty` decide
the same from the classifier's own reading of the page (:class:`Signals`) when no converter
judged it, and :func:`thin` whether content is thin enough to try the page's Markdown version.
Every limit is in :mod:`._words`, and every word counted with its counter.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from webtap.verdict._page import Signals
from webtap.verdict._words import (
    EMPTY_WORDS,
    FEW_WORDS,
    SHELL_WORDS,
    THIN_WORDS,
    count_words,
    markdown_words,
)

__all__ = [
    "MOUNT_ATTRIBUTES",
    "MOUNT_IDS",
    "MOUNT_TAGS",
    "ShellFacts",
    "content_state",
    "is_empty",
    "is_shell",
    "thin",
]

# Elements a single-page application mounts its view on, empty until its script runs: by id
# (React, Vue, Next.js, Nuxt, Gatsby, SvelteKit, Quasar, Rails' Webpacker, ...), by the
# attribute a framework marks them with, and by the tag of an Angular root.
MOUNT_IDS = frozenset((
    "root", "app", "__next", "__nuxt", "___gatsby", "svelte", "q-app", "main-app", "application",
))  # fmt: skip
MOUNT_ATTRIBUTES = ("ng-version", "data-reactroot", "data-server-rendered")
MOUNT_TAGS = ("app-root", "ng-component")

# A body that only says it is loading.
_LOADING = re.compile(
    r"^\W*(?:loading|please wait|one moment|chargement|wird geladen|lädt|laden|cargando"
    r"|carregando|caricamento|ładowanie|wczytywanie)\b",
    re.IGNORECASE,
)
_JAVASCRIPT = re.compile(r"javascript|\bjs\b", re.IGNORECASE)  # what a <noscript> asks for
# Text that is not a word but still says something: an emoji, a symbol (not ASCII, not
# whitespace, not the general punctuation block's dashes, quotes and spaces).
_SYMBOL = re.compile(r"[^\x00-\x7f\s\u2000-\u206f]")


class ShellFacts(Protocol):
    """What the converter reports of a page (`webtap.convert.Facts`)."""

    @property
    def words(self) -> int: ...
    @property
    def mounts(self) -> tuple[str, ...]: ...
    @property
    def noscript(self) -> str: ...
    @property
    def scripts(self) -> bool: ...
    @property
    def recovered(self) -> bool: ...


def content_state(markdown: str, facts: ShellFacts) -> str:
    """``"content"``, ``"empty"`` or ``"script_shell"`` for a converted page: a script shell
    has under :data:`FEW_WORDS` words and says so (an empty mount point, a ``<noscript>``
    asking for JavaScript, a "Loading…" body, or nothing to say at all beside scripts), and
    nothing was recovered for it; an empty page says nothing and runs no script."""
    if facts.words >= FEW_WORDS:
        return "content"
    if not count_words(markdown, 1) and not _SYMBOL.search(markdown):
        return "script_shell" if facts.scripts or _shows_shell(facts) else "empty"
    if facts.recovered:
        return "content"
    if _LOADING.search(markdown) or _shows_shell(facts):
        return "script_shell"
    return "content"


def _shows_shell(facts: ShellFacts) -> bool:
    return bool(facts.mounts) or asks_for_javascript(facts.noscript)


def asks_for_javascript(noscript: str) -> bool:
    """Whether a ``<noscript>``'s text asks for JavaScript."""
    return _JAVASCRIPT.search(noscript) is not None


def is_shell(signals: Signals | None, words: int | None) -> bool:
    """An application shell read from the page itself, when no converter said so: under
    :data:`SHELL_WORDS` visible words and Markdown ``words`` (when known), scripts, and a
    mount point or a ``<noscript>`` asking for JavaScript. Content this thin is no content
    whatever a converter's state says."""
    if signals is None or signals.words >= SHELL_WORDS or not signals.scripts:
        return False
    if words is not None and words >= SHELL_WORDS:
        return False
    return asks_for_javascript(signals.noscript) or not signals.ids.isdisjoint(MOUNT_IDS)


def is_empty(state: str | None, markdown: str | None, signals: Signals | None) -> bool:
    """No text: the converter says so (and the page agrees, under :data:`EMPTY_WORDS` visible
    words: a converter that lost a page's text is not the page's fault), or the Markdown and
    the page have none (whatever the converter's ``state`` says), or no document was made and
    the page has none. ``state`` None or ``"content"``: no converter judged it empty."""
    if state == "empty":
        return signals is None or signals.words < EMPTY_WORDS
    if state not in (None, "content"):
        return False
    if markdown is not None:
        return not markdown.strip() and (signals is None or signals.words == 0)
    return signals is not None and signals.words == 0 and not signals.iframes


def thin(document: Any) -> bool:
    """Whether a converted page's content came out thin: its state is not content (a converter
    said empty or script shell), or its Markdown has under :data:`THIN_WORDS` words."""
    if getattr(document, "state", "content") != "content":
        return True
    return markdown_words(document.markdown) < THIN_WORDS
