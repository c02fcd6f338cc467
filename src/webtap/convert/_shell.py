"""INTERIM: a small judgement of script shells, for ``Document.state`` until the main-content
work's own (with ``<noscript>`` and streamed-segment recovery) lands and replaces this module.

It names a shell only where any judge would: a page that runs scripts and shows fewer than
:data:`FEW_WORDS` words, and has an empty mount element (``<div id="root"></div>``,
``<app-root></app-root>``...), a ``<noscript>`` that asks for JavaScript, or a body that says it
is loading. Everything else is content. The browser path (:mod:`webtap.fetch.render`) reads the
state; its tests use pages that are shells by any judgement, to be checked again when this
module is replaced.
"""

from __future__ import annotations

import re

from webtap.convert import CONTENT, SCRIPT_SHELL

__all__ = ["FEW_WORDS", "interim_state"]

FEW_WORDS = 30

_WORD = re.compile(r"\w+")
# A script that runs code: not a data block (JSON, JSON-LD, templates).
_CODE_SCRIPT = re.compile(
    r"<script\b(?![^>]*\btype\s*=\s*[\"']?(?:application/(?:ld\+)?json|text/template))",
    re.IGNORECASE,
)
_EMPTY_MOUNT = re.compile(
    r"<(div|main|section)\b[^>]*\bid\s*=\s*[\"']?(?:root|app|__next|__nuxt|___gatsby|svelte)"
    r"(?![\w-])[^>]*>\s*</\1>|<app-root\b[^>]*>\s*</app-root>",
    re.IGNORECASE,
)
_NOSCRIPT = re.compile(r"<noscript\b[^>]*>(.*?)</noscript>", re.IGNORECASE | re.DOTALL)
_LOADING = re.compile(r"^\W*(?:loading|please wait)\b", re.IGNORECASE)


def interim_state(source: str | bytes, markdown: str) -> str:
    """`CONTENT` or `SCRIPT_SHELL` for a page sent as ``source`` and converted to ``markdown``."""
    if len(_WORD.findall(markdown)) >= FEW_WORDS:
        return CONTENT
    if isinstance(source, bytes):
        source = source.decode("utf-8", "replace")
    if not _CODE_SCRIPT.search(source):
        return CONTENT
    asks = any("javascript" in text.lower() for text in _NOSCRIPT.findall(source))
    if asks or _EMPTY_MOUNT.search(source) or _LOADING.search(markdown):
        return SCRIPT_SHELL
    return CONTENT
