"""Page to `Document`: parse, read the title and base URL, prune, convert.

The converter itself is split by concern: `_html` parses and prunes the tree in C, `_walk`
walks it, `_inline` writes inline marks, `_blocks` blocks, `_tables` tables, and
`_writer` holds the lines they write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webtap.convert import Document
from webtap.convert._html import clean, find_base, find_title, first_h1, parse
from webtap.convert._walk import MarkdownConverter

__all__ = ["MarkdownConverter", "convert_document"]


def convert_document(
    html: str | bytes,
    base_url: str | None = None,
    *,
    main_content: bool = False,
    inspect: Callable[[Any], None] | None = None,
) -> Document:
    """Parse, prune and convert a page (see `webtap.convert.convert`)."""
    root = parse(html)
    if root is None:
        return Document("", "")
    if inspect is not None:  # the tree as parsed, before any pruning
        inspect(root)
    title = find_title(root)
    base = find_base(root, base_url)
    clean(root)
    if not title:
        title = first_h1(root)
    if main_content:
        from webtap.convert._extract import extract_root

        content = extract_root(root)
        if content is not None:
            return Document(title, MarkdownConverter(base).convert(content), trimmed=True)
    return Document(title, MarkdownConverter(base).convert(root))
