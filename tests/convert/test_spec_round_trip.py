"""HTML -> Markdown -> HTML on the CommonMark and GFM spec examples.

Each example's HTML (what the spec says its Markdown renders to) is converted by webtap and
the Markdown rendered again by markdown-it-py (CommonMark, GFM tables and strikethrough):
at least 97% must come back the same. The raw-HTML sections are left out (webtap writes
HTML as Markdown, never as HTML) and so are link titles (webtap leaves them out on purpose).
"Same" is the same elements, attributes and text, element for element (`canonical` with
``reader=False``: a loose list stays loose, emphasis nested in the same emphasis stays
nested, an empty item stays): code blocks byte for byte. The share "as read" (a normalisation
that also treats tight and loose lists, nested emphasis and such as equal) is printed too.

The examples are vendored in ``data/spec-examples.json`` (see ``data/README.md``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import lxml.html
from markdown_it import MarkdownIt

from webtap.convert import convert

EXAMPLES = json.loads((Path(__file__).parent / "data" / "spec-examples.json").read_text())
RAW_HTML_SECTIONS = {"Raw HTML", "HTML blocks", "Disallowed Raw HTML (extension)"}
RENDERER = MarkdownIt("commonmark").enable("table").enable("strikethrough")
TARGET = 0.97

_BLOCKS = frozenset((
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "table",
    "thead", "tbody", "tr", "th", "td", "hr", "div",
))  # fmt: skip
_KEPT_ATTRIBUTES = ("href", "src", "alt", "start", "align", "class")
_SPACES = re.compile(r"[ \t\n\r\f]+")
_BOUNDARY = re.compile(r" ?(\n|<br>) ?")
_CONTENT = ("img", "hr", "br")  # elements that show something without text
_SYNONYMS = {"s": "del", "b": "strong", "i": "em"}  # rendered the same


def canonical(html: str, reader: bool = True) -> str:
    """HTML in one spelling: a line per block, inline tags and text, whitespace collapsed
    outside ``<pre>``, link destinations percent-decoded, link titles left out.

    ``reader``: as a reader sees the page, also: a list item's paragraphs are its text (tight
    or loose is spacing), emphasis inside the same emphasis is the
    same emphasis, elements that show nothing (no text, image or rule) and links to nowhere
    are left out as webtap leaves them out, and a checkbox is GFM's ``[x]``."""
    root = lxml.html.fragment_fromstring(html, create_parent="div")
    for el in list(root.iter()):
        if not isinstance(el.tag, str):  # a comment
            el.drop_tree()
        else:
            el.tag = _SYNONYMS.get(el.tag, el.tag)
    if reader:
        _as_read(root)
    out: list[str] = []
    _write(root, out)
    text = _BOUNDARY.sub(r"\1", "".join(out))
    text = re.sub(r"(\n<[a-z0-9]+(?: [^>]*)?>) ", r"\1", text)  # spaces opening a block
    text = re.sub(r" (</[a-z0-9]+>\n)", r"\1", text)  # and closing it
    return re.sub(r"\n+", "\n", text).strip("\n")


def _as_read(root: lxml.html.HtmlElement) -> None:
    for el in list(root.iter()):
        if el is root or el.getparent() is None:
            continue
        if el.tag == "input":
            el.tail = ("[x]" if el.get("checked") is not None else "[ ]") + (el.tail or "")
            el.drop_tree()
        elif (
            (el.tag == "p" and el.getparent().tag == "li")
            or (
                el.tag in ("em", "strong", "del")
                and any(a.tag == el.tag for a in el.iterancestors())
            )
            or (el.tag == "a" and not el.get("href"))
        ):
            el.drop_tag()
        elif not "".join(el.itertext()).strip() and next(el.iter(*_CONTENT), None) is None:
            el.drop_tree()


def _write(el: lxml.html.HtmlElement, out: list[str]) -> None:
    tag = el.tag
    block = tag in _BLOCKS
    if block:
        out.append("\n")
    out.append(f"<{tag}{_attributes(el)}>")
    if tag == "pre":
        out.append(_code_text(el))
    else:
        out.append(_SPACES.sub(" ", el.text or ""))
        for child in el:
            _write(child, out)
    out.append(f"</{tag}>")
    if block:
        out.append("\n")
    out.append(_SPACES.sub(" ", el.tail or ""))


def _attributes(el: lxml.html.HtmlElement) -> str:
    attributes = dict(el.attrib)
    style = attributes.pop("style", "")
    if style.startswith("text-align:"):  # markdown-it's spelling of GFM's align
        attributes["align"] = style.split(":", 1)[1].strip().rstrip(";")
    if not attributes.get("alt", True):
        del attributes["alt"]
    if "href" in attributes:
        attributes["href"] = unquote(attributes["href"])
    kept = sorted((k, v) for k, v in attributes.items() if k in _KEPT_ATTRIBUTES)
    return "".join(f' {k}="{v}"' for k, v in kept)


def _code_text(pre: lxml.html.HtmlElement) -> str:
    code = pre.find("code")
    if code is None:
        return "".join(pre.itertext())
    return f"<code{_attributes(code)}>{''.join(code.itertext())}</code>"


def share_same(reader: bool) -> tuple[float, list[str]]:
    """The share of examples that render back the same, and those that do not."""
    examples = [e for e in EXAMPLES if e["section"] not in RAW_HTML_SECTIONS]
    failed = []
    for example in examples:
        markdown = convert(example["html"]).markdown
        rendered = RENDERER.render(markdown)
        if canonical(rendered, reader) != canonical(example["html"], reader):
            failed.append(f"{example['spec']} #{example['example']}: {example['html']!r}")
    return 1 - len(failed) / len(examples), failed


def test_spec_examples_render_back_the_same() -> None:
    strict, failed = share_same(reader=False)
    share, _ = share_same(reader=True)
    print(f"\nspec round trip: {strict:.1%} element for element ({share:.1%} as read)")
    print("\n".join(failed))
    assert strict >= TARGET, f"{strict:.1%} of the spec examples render back the same"
