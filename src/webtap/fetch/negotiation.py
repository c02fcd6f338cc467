"""Markdown from the source, when the site offers it (issue 22).

Sites and CDNs now answer ``Accept: text/markdown`` with Markdown written or converted at the
source, often a fifth of the HTML's tokens. :data:`ACCEPT` asks for it first, HTML next; a
``text/markdown`` answer is used as it is, its title from its front matter or first heading
(:func:`markdown_title`). A page that answers HTML may name its Markdown with
``<link rel="alternate" type="text/markdown" href="...">`` (:func:`markdown_alternate`), worth
following when the HTML's main content comes out thin (:func:`thin_content`).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

__all__ = [
    "ACCEPT",
    "MARKDOWN_TYPES",
    "is_markdown",
    "markdown_alternate",
    "markdown_title",
    "thin_content",
]

# Markdown first; HTML next (what most sites send); then the other types web_fetch reads.
ACCEPT = (
    "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, text/plain;q=0.8, "
    "application/json;q=0.8, */*;q=0.5"
)
MARKDOWN_TYPES = frozenset(("text/markdown", "text/x-markdown"))

# Patterns as strings, compiled by re (and kept in its cache) when a Markdown answer needs
# them: most fetches never do.
_FRONT_MATTER = r"(?s)\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)"
_FRONT_TITLE = r"(?m)^title:[ \t]*(.+?)[ \t]*$"
_FENCE = r"^ {0,3}(`{3,}|~{3,})"
_ATX = r"^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$"
_SETEXT = r"^ {0,3}(=+|-+)[ \t]*$"
_BLOCKS = ("-", "*", "+", ">", "|")  # lines an underline does not make a heading of


def is_markdown(content_type: str) -> bool:
    """Whether a Content-Type header names Markdown (``text/markdown; charset=utf-8``)."""
    return content_type.split(";")[0].strip().lower() in MARKDOWN_TYPES


def markdown_title(text: str) -> str:
    """The title of a Markdown document: its YAML front matter's ``title``, else its first
    heading (ATX ``# Title`` or setext ``Title`` over ``===``), outside fenced code; ``""``
    when it has none."""
    front = re.match(_FRONT_MATTER, text)
    if front:
        found = re.search(_FRONT_TITLE, front.group(1))
        if found:
            return found.group(1).strip().strip("\"'").strip()
        text = text[front.end() :]
    fence = ""
    previous = ""
    for line in text.splitlines():
        opening = re.match(_FENCE, line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = ""
            continue
        if opening:
            fence = opening.group(1)
            previous = ""
            continue
        atx = re.match(_ATX, line)
        if atx:
            return atx.group(1).strip()
        if (
            re.match(_SETEXT, line)
            and previous.strip()
            and not previous.lstrip().startswith(_BLOCKS)
        ):
            return previous.strip()
        previous = line
    return ""


def markdown_alternate(root: Any, url: str) -> str | None:
    """The absolute URL of the Markdown version a page names, or None.

    ``root``: the page's lxml tree as parsed (before the converter drops ``<link>``);
    ``url``: the page's own URL (``<base href>`` counts too). Only ``http``/``https`` URLs
    other than the page's own are returned.
    """
    tree = root.getroottree().getroot()
    base = url
    for element in tree.iter("base"):
        href = element.get("href")
        if href:
            base = urljoin(url, href.strip())
            break
    for link in tree.iter("link"):
        rel = (link.get("rel") or "").lower().split()
        href = (link.get("href") or "").strip()
        if "alternate" not in rel or not href or not is_markdown(link.get("type") or ""):
            continue
        target = urljoin(base, href)
        if urlsplit(target).scheme not in ("http", "https"):
            continue
        if urldefrag(target).url == urldefrag(url).url:
            continue
        return target
    return None


def thin_content(document: Any) -> bool:
    """Whether a converted page's content came out thin: the converter says the page is
    empty or a script shell (``Document.state``), or its Markdown has under
    `webtap.verdict.THIN_WORDS` words (link targets not counted); `webtap.verdict.thin`
    judges."""
    # The verdict (with lxml) loads only for a page that names a Markdown version: this
    # module's ACCEPT is read by every download.
    from webtap.verdict import thin

    return thin(document)
