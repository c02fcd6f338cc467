"""A page's Markdown version, when the HTML names one and its own content came out thin.

Sites write ``<link rel="alternate" type="text/markdown" href="...">`` for readers that want
the page as Markdown (documentation generators, llms.txt sites); when the HTML's content is
thin (under :data:`webtap.verdict.THIN_WORDS` words, or a shell of scripts), that Markdown
is fetched with the same session, guard and robots.txt check as the page, and used as it is
when it comes back as Markdown (or plain text, as many servers label ``.md`` files) with text
in it. Anything else keeps the HTML's own result: the version is a bonus, never an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from webtap.errors import ConfigError, WebtapError
from webtap.fetch.media import convert_body, parse_content_type

if TYPE_CHECKING:
    from webtap.fetch.media import Converted
    from webtap.fetch.session import Session

__all__ = ["MARKDOWN_ACCEPT", "markdown_version"]

MARKDOWN_ACCEPT = "text/markdown, text/x-markdown;q=0.9, text/plain;q=0.5"
_TYPES = ("text/markdown", "text/x-markdown", "text/plain")


def markdown_version(url: str, session: Session) -> Converted | None:
    """The Markdown at ``url`` (a page's ``rel=alternate`` link) as a converted page, or None
    when it cannot be had: refused, failed, not Markdown, or empty."""
    try:
        got = session.get(url, headers={"Accept": MARKDOWN_ACCEPT})
        media_type, charset = parse_content_type(got.content_type)
        if not 200 <= got.status < 300 or media_type not in _TYPES:
            return None
        as_markdown = "text/markdown" + (f"; charset={charset}" if charset else "")
        converted = convert_body(got.body, as_markdown, got.url, deadline=session.deadline())
    except ConfigError:
        raise  # the user's setting is wrong for the page too
    except WebtapError:
        return None
    return converted if converted.markdown.strip() else None
