"""Paging through a page's Markdown by lines, as ``web_fetch``'s ``offset`` and ``limit`` ask."""

from __future__ import annotations

from webtap.errors import InvalidInput

__all__ = ["paginate", "split_lines"]


def split_lines(markdown: str) -> list[str]:
    """The Markdown's lines, each with its ``\\n`` (the last may lack one).

    Only ``\\n`` ends a line: ``str.splitlines`` would also split on form feeds and other
    characters that text pages contain, and the counts would not match what a reader sees.
    """
    lines = markdown.split("\n")
    last = lines.pop()
    out = [line + "\n" for line in lines]
    if last:
        out.append(last)
    return out


def paginate(markdown: str, offset: int = 1, limit: int | None = None) -> tuple[str, int]:
    """``(content, total_lines)``: ``limit`` lines of ``markdown`` from line ``offset`` (1-based).

    An offset past the end gives empty content; a limit past the end gives the rest. The pages
    put together are the whole Markdown again.
    """
    if offset < 1:
        raise InvalidInput(f"Invalid input: field 'offset' must be >= 1 (got {offset})")
    if limit is not None and limit < 1:
        raise InvalidInput(f"Invalid input: field 'limit' must be >= 1 (got {limit})")
    lines = split_lines(markdown)
    if offset == 1 and limit is None:
        return markdown, len(lines)
    end = None if limit is None else offset - 1 + limit
    return "".join(lines[offset - 1 : end]), len(lines)
