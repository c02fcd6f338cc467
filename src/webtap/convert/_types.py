"""What the converter gives: a `Document`, the facts it saw of the page, and the page's state.

Its own module, below every other of the package: `webtap.convert` (the package's face) and
the modules that make a `Document` both import it, and neither imports the other to get it.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CONTENT", "EMPTY", "SCRIPT_SHELL", "STATE_NOTES", "Document", "Facts", "Metadata"]

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


class Metadata(NamedTuple):
    """What a page says of itself: when, by whom, where (``webtap.convert._metadata`` reads
    it; ``docs/fetch.md`` says from where). ``""`` for what the page does not say."""

    published: str = ""
    """When it was first published: an ISO 8601 date, or date and time (with the zone the page
    gave, when it gave one)."""
    modified: str = ""
    """When it was last changed, the same way."""
    author: str = ""
    """Its author, or its authors joined by ", "."""
    site_name: str = ""
    """The name of the site or publication it is part of."""
    language: str = ""
    """Its language tag (``en``, ``de-AT``)."""
    description: str = ""
    """The summary it gives of itself."""
    canonical_url: str = ""
    """The URL it names as its own (``rel=canonical``, else ``og:url``), absolute."""
    image: str = ""
    """The URL of the image it names as its lead (``og:image``...), absolute."""

    def fields(self) -> dict[str, str]:
        """The fields the page said, by name (those it did not say are left out)."""
        return {name: value for name, value in zip(self._fields, self, strict=True) if value}


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
    metadata: Metadata = Metadata()
    """What the page says of itself (its date, author, site...), read from the same parse."""
