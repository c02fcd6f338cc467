"""Escape text for Markdown only where a character would otherwise change the meaning."""

from __future__ import annotations

import re

__all__ = [
    "MAYBE_SPECIAL",
    "code_fence",
    "code_span",
    "escape_heading_end",
    "escape_line_start",
    "escape_text",
    "escape_url",
]

# Characters that can matter inside a line; text without any of them is returned as is.
MAYBE_SPECIAL = re.compile(r"[\\`*_\[\]<&~]")
# "<" and "&" at the end of a node are escaped too: the next node may complete a tag.
_INLINE = re.compile(r"\\|`|\*+|_+|~+|\[|\]|<(?=[A-Za-z/!?]|$)|&(?=#?[A-Za-z0-9]+;|$)")
_SPACE = frozenset(" \t\n\r\f\v\x00\xa0")

# At the start of a line: ATX heading, block quote, list item, thematic break or setext
# underline, code fence, ordered list item.
_LINE_START = re.compile(
    r"#{1,6}(?=[ \t]|$)|>|[-+*](?=[ \t]|$)|([-*_])(?:[ \t]*\1){2,}[ \t]*$|[-=]+[ \t]*$|~~~"
    r"|\d{1,9}(?=[.)](?:[ \t]|$))"
)
_HEADING_END = re.compile(r"(^|[ \t])(#+)$")
_BACKTICKS = re.compile(r"`+")
_URL_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_URL_BACKSLASH = re.compile(r"\\(?=[!-/:-@[-`{-~])")


def escape_text(text: str, in_link: bool = False, in_emphasis: bool = False) -> str:
    """Escape one text node's inline metacharacters; leave ordinary text untouched.

    ``3*4``, ``snake_case_word`` and ``C#`` stay as they are; ``*emphasis*``, ``__init__``,
    ``[x](y)``, ``<tag>`` and backticks are escaped. Line-start constructs are handled later,
    by `escape_line_start`, once lines are known.
    """
    if MAYBE_SPECIAL.search(text) is None:
        return text

    def fix(match: re.Match[str]) -> str:
        found = match.group()
        first = found[0]
        start, end = match.start(), match.end()
        before = text[start - 1] if start else None
        after = text[end] if end < len(text) else None
        if first == "\\":
            # Before punctuation it escapes; before a line end it breaks the line; before a
            # space it may end up before either once spaces move. Only "C:\\Users" is safe.
            return found if after is not None and after.isalnum() else "\\\\"
        if first == "`":
            return "\\`"
        if first == "[":
            return "\\[" if in_link else found
        if first == "]":
            # "](", "][" and "]:" form links; a "]" ending the node is checked against the
            # next one by the writer (`MarkdownConverter.guard_bracket`).
            return "\\]" if in_link or (after is not None and after in "([:") else found
        if first in "<&":
            return "\\" + found
        # Delimiter runs: * _ ~
        if first == "~" and len(found) == 1 and not in_emphasis and text.count("~") == 1:
            return found  # GFM strikethrough needs a partner; "~/path" has none
        if before is not None and after is not None:
            if (
                before in _SPACE
                and after in _SPACE
                and text[: start - 1].strip()
                and text[end + 1 :].strip()
            ):
                # Spaces on both sides, and text beyond them that keeps them there when a
                # node's edge spaces are stripped or moved: this run opens and closes nothing.
                return found
            if before.isalnum() and after.isalnum():
                if first == "_":
                    return found  # intraword underscores never emphasise
                if not in_emphasis and not in_link and text.count(first) == len(found):
                    return found  # a lone 3*4 or a~b has no partner to pair with
        return "".join("\\" + c for c in found)

    return _INLINE.sub(fix, text)


def escape_line_start(line: str) -> str:
    """Escape a construct that would turn the start of a line into a block."""
    match = _LINE_START.match(line)
    if match is None:
        return line
    end = match.end()
    if line[0].isdigit():
        return line[:end] + "\\" + line[end:]
    return "\\" + line


def escape_heading_end(text: str) -> str:
    """A heading ending in `` #`` would lose it as an ATX closing sequence."""
    match = _HEADING_END.search(text)
    if match is None:
        return text
    return text[: match.start(2)] + "\\" + text[match.start(2) :]


def code_span(code: str) -> str:
    """Inline code with a delimiter longer than any backtick run inside it."""
    if "`" not in code:
        return f"`{code}`"
    runs = _BACKTICKS.findall(code)
    fence = "`" * (max(map(len, runs)) + 1)
    if code[0] == "`" or code[-1] == "`" or (code[0] == " " and code[-1] == " "):
        code = f" {code} "
    return f"{fence}{code}{fence}"


def code_fence(code: str) -> str:
    """A backtick fence (at least three) longer than any backtick run in ``code``."""
    runs = _BACKTICKS.findall(code) if "`" in code else ()
    longest = max(map(len, runs)) if runs else 0
    return "`" * max(3, longest + 1)


def escape_url(url: str) -> str:
    """Make a URL safe as a link destination: no spaces, brackets or unbalanced parens."""
    if " " in url or "<" in url or ">" in url or "\n" in url:
        url = url.replace("\n", "").replace(" ", "%20").replace("<", "%3C").replace(">", "%3E")
    if "\\" in url:
        url = _URL_BACKSLASH.sub(r"\\\\", url)  # "\\_" would read as an escaped "_"
    if "&" in url:
        url = _URL_ENTITY.sub(r"\\&", url)  # "&amp;" would be decoded to "&"
    if "(" in url or ")" in url:
        url = url.replace("(", "\\(").replace(")", "\\)")
    return url
