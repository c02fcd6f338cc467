"""What the converter gives: a `Document`, the facts it saw of the page, and the page's state.

Its own module, below every other of the package: `webtap.convert` (the package's face) and
the modules that make a `Document` both import it, and neither imports the other to get it.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CONTENT", "EMPTY", "SCRIPT_SHELL", "STATE_NOTES", "Document", "Facts"]

# What a converted page holds (`Document.state`): the hook for the headless-browser path (which
# renders script shells) and the typed verdicts. `webtap.verdict.content_state` decides it.
CONTENT = "content"
"""The page has readable content."""
EMPTY = "empty"
"""The page holds no text at all (an empty body)."""
SCRIPT_SHELL = "script_shell"
"""The server sent a page whose content a script builds: few words, an empty mount element
(``#root``, ``#app``, ``#__next``, ``<app-root>``), a ``<noscript>`` asking for JavaScript or
a "Loading…" body, and nothing recovered from ``<noscript>``, streamed segments or
structured data."""
STATE_NOTES = {
    CONTENT: "the page has readable content",
    EMPTY: "the page holds no text (an empty body)",
    SCRIPT_SHELL: "the page's content is built by scripts in a browser; the server sent only "
    "a shell, and no text for readers without scripts",
}
"""One line saying what each state means, for a result that reports it."""


class Facts(NamedTuple):
    """What the converter saw of a page that says whether it holds content; the judgement is
    `webtap.verdict`'s. A page whose Markdown has `webtap.verdict.FEW_WORDS` words or more
    holds content whatever else it shows, so the signs of a shell (``mounts``, ``noscript``,
    ``scripts``) are only looked for on a page with fewer."""

    words: int = 0
    """The Markdown's words (`webtap.verdict.markdown_words`: link targets not counted, up to
    `webtap.verdict._words.WORD_CAP`)."""
    mounts: tuple[str, ...] = ()
    """Mount points a script would fill, left empty: ``#root``, ``[ng-version]``,
    ``app-root`` (`webtap.verdict.MOUNT_IDS`, ``MOUNT_ATTRIBUTES``, ``MOUNT_TAGS``)."""
    noscript: str = ""
    """The text of the page's ``<noscript>`` elements (those not shown as its content)."""
    scripts: bool = False
    """The page as sent has a ``<script>`` that runs code (not a data block)."""
    recovered: bool = False
    """The Markdown came from where a page keeps its text for readers without scripts
    (``<noscript>``, ``<template>``, JSON-LD, page props), not from its visible body."""


class Document(NamedTuple):
    """A converted page: its title and its Markdown."""

    title: str
    """``<title>``, else ``og:title``, else the first ``<h1>``; ``""`` when none."""
    markdown: str
    """The page as Markdown, ending in exactly one newline (``""`` for an empty page)."""
    trimmed: bool = False
    """True when ``markdown`` is the page's main content only (``convert(main_content=True)``
    found it); False when it is the whole page."""
    state: str = CONTENT
    """`CONTENT`, `EMPTY` or `SCRIPT_SHELL`: whether the page holds readable content, and if
    not, why (see ``docs/convert.md``); `webtap.verdict.content_state` of ``facts``."""
    facts: Facts = Facts()
    """What the converter saw that ``state`` was decided from."""
