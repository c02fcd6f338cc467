"""Page to `Document`: parse, read the title and base URL, prune, convert.

The converter itself is split by concern: `_html` parses and prunes the tree in C, `_walk`
walks it, `_inline` writes inline marks, `_blocks` blocks, `_tables` tables, and
`_writer` holds the lines they write. `_shell` finds the text of pages that a script would
show and the facts of those that hold none, which `webtap.verdict.content_state` judges;
`_extract` finds the main content.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lxml import etree

from webtap.convert._copies import authors_repeats, fold_copies, words_key
from webtap.convert._html import clean, drop, find_base, find_title, first_h1, parse
from webtap.convert._schema import ARTICLE_TYPES, PRODUCT_TYPES
from webtap.convert._shell import Held, facts, hold, recover, structured
from webtap.convert._thread import microdata_types
from webtap.convert._types import Document, Facts, Metadata
from webtap.convert._walk import MarkdownConverter
from webtap.verdict import FEW_WORDS, content_state, count_words, markdown_words

if TYPE_CHECKING:
    from webtap.convert._product import Described, Product

__all__ = ["MarkdownConverter", "convert_document"]

_MARKED_BODY = etree.XPath("boolean(//*[@itemprop='articleBody'])")
# The schema.org product types `_kinds` keeps only when the page declares one product.
_DECLARED_PRODUCTS = PRODUCT_TYPES - {"og:product"}
# A product in microdata or RDFa (`webtap.convert._product` reads which): the attributes
# looked for, not every element tested (a third of the cost).
_PRODUCT_ITEM = etree.XPath(
    "boolean(//@itemtype[contains(., 'Product')][../@itemscope]|//@typeof[contains(., 'Product')])"
)
# List items left with nothing to show once the content was cut out of the page (their
# buttons, swatches and form controls gone): "-" lines that tell a reader nothing.
_EMPTY_ITEMS = etree.XPath(".//li[not(normalize-space())][not(.//img or .//svg or .//video)]")
_SHORT = 300  # words under which a whole page is read again with <noscript> and structured data
_CHARACTERS_A_WORD = 25  # Markdown this many characters a word long holds that many words
_COPIES = 0.3  # share of long paragraphs' text repeated that makes a page's layout copies
_PARAGRAPH = 200  # characters of a paragraph long enough that a second copy is a layout's
_REPEATED = 30  # characters a block needs for a second copy of it to be left out
_UNSAID = Metadata()
# A paragraph's last sentence ends so, before any closing quote or bracket (in CJK too).
_SENTENCE_END = re.compile(r"[.!?\u2026\u3002\uff01\uff1f][\"'\u201d\u2019\u00bb)]*$")
_SENTENCE_WORDS = 5  # words of a sentence that says something (a byline or a date has fewer)
_NOT_PROSE = ("#", "|", "!", "```", "[")  # Markdown blocks that are no paragraph of prose
_SOFT_HYPHEN = "\u00ad"


def convert_document(
    html: str | bytes,
    base_url: str | None = None,
    *,
    main_content: bool = False,
    inspect: Callable[[Any], None] | None = None,
) -> Document:
    """Parse, prune and convert a page (see `webtap.convert.convert`)."""
    if not main_content:
        # The whole page of any length needs nothing kept aside; a short one may be a shell
        # whose text waits elsewhere, and is read again with all of it.
        document = _whole(html, base_url, inspect)
        if document is not None:
            return document
        inspect = None  # it has seen the page as parsed already
    root = parse(html)
    if root is None:
        return _document("", "", False, Facts())
    if inspect is not None:  # the tree as parsed, before any pruning
        inspect(root)
    title = find_title(root)
    base = find_base(root, base_url)
    metadata = _metadata(root, base)
    held = hold(root)
    # The product the page declares, read before ``clean`` drops microdata's <meta>.
    product = _declared(root, held, _names(html, "Product")) if main_content else None
    clean(root, main_content, held.data)
    if not title:
        title = first_h1(root)
    # A script shell whose text waits in <noscript> (Discourse, Flarum): that text instead.
    shown = recover(root, held, main_content)
    page = root if shown is None else shown
    # What the page says it is (an article, a product, a discussion) guides main content.
    types = _kinds(held.types | microdata_types(page), product) if main_content else frozenset()
    fold_copies(page)  # a block laid out again for another screen: once, as a reader sees it
    described = _described(page, product)
    markdown, content = _convert(page, base, main_content, types, title, described)
    trimmed = content is not None
    repeated = page if content is None else content  # where an author's repeats are read
    if (
        content is not None
        and _short(markdown)
        and not _MARKED_BODY(content)
        and not _titled_piece(markdown)
    ):
        # Main content that came out tiny (and the page does not mark its body so, nor is it
        # a short piece under its title): the page without its chrome when that holds more,
        # else the whole page (a page all chrome: a shell whose menus are all it shows).
        light = _unchromed(html, base, title, markdown)
        whole = light or convert_document(html, base_url).markdown
        if len(whole) > 2 * len(markdown):
            markdown, trimmed = whole, bool(light)
    # A page assembled from templates repeats its layouts; an article's author does not, but
    # a site builder lays a whole article out again for each screen size.
    if main_content and (types.isdisjoint(ARTICLE_TYPES) or _copied(markdown)):
        markdown = _once(markdown, lambda: authors_repeats(repeated))
    if product is not None:
        markdown = _with_product(product, markdown, base)
    data = structured(held, markdown) if _short(markdown) else None
    if data is not None:
        markdown, content = _convert(data, base, main_content)
        trimmed = content is not None
    words = markdown_words(markdown)
    if words >= FEW_WORDS:
        return _document(title, markdown, trimmed, Facts(words), metadata)
    recovered = shown is not None or data is not None
    seen = facts(words, root, held, html, recovered)
    return _document(title, markdown, trimmed, seen, metadata)


def _short(markdown: str, words: int = FEW_WORDS) -> bool:
    """Whether Markdown as written (link targets too) has under ``words`` words, so that the
    page may hold more elsewhere (cheap on long Markdown: its length alone says no)."""
    return len(markdown) < _CHARACTERS_A_WORD * words and count_words(markdown, words) < words


def _document(
    title: str, markdown: str, trimmed: bool, seen: Facts, metadata: Metadata = _UNSAID
) -> Document:
    """The `Document`, its state judged from what the converter saw; without soft hyphens
    (U+00AD): where a line may break inside a word, which Markdown's reader re-flows anyway,
    and which parts a word for whoever reads the text as words ("réac\u00adtion")."""
    if _SOFT_HYPHEN in markdown or _SOFT_HYPHEN in title:
        markdown, title = markdown.replace(_SOFT_HYPHEN, ""), title.replace(_SOFT_HYPHEN, "")
    return Document(title, markdown, trimmed, content_state(markdown, seen), seen, metadata)


def _metadata(root: etree._Element, base: str | None) -> Metadata:
    """What the page says of itself, read before the tree is pruned (`_metadata`)."""
    from webtap.convert._metadata import read_metadata  # with the first page converted

    return read_metadata(root, base)


def _whole(
    html: str | bytes, base_url: str | None, inspect: Callable[[Any], None] | None = None
) -> Document | None:
    """The whole page, or None when it is short (under ``_SHORT`` words): then the text the
    page keeps for readers without scripts may be what it holds."""
    root = parse(html)
    if root is None:
        return _document("", "", False, Facts())
    if inspect is not None:
        inspect(root)
    title = find_title(root)
    base = find_base(root, base_url)
    metadata = _metadata(root, base)
    clean(root)
    fold_copies(root)
    markdown = MarkdownConverter(base).convert(root)
    words = markdown_words(markdown)
    if words < FEW_WORDS or _short(markdown, _SHORT):
        return None
    return _document(title or first_h1(root), markdown, False, Facts(words), metadata)


def _titled_piece(markdown: str) -> bool:
    """Whether short main content is a piece whole under its title heading (a news brief, a
    notice, a short post): it opens with a heading, and a paragraph below it says something
    in a sentence of ``_SENTENCE_WORDS`` words or more, not a byline or a date line alone."""
    head, _, rest = markdown.lstrip().partition("\n\n")
    if not head.startswith("#"):
        return False
    return any(
        not block.startswith(_NOT_PROSE)
        and _SENTENCE_END.search(block.rstrip("*_ "))
        and markdown_words(block) >= _SENTENCE_WORDS
        for block in rest.split("\n\n")
    )


def _unchromed(html: str | bytes, base: str | None, title: str, tiny: str) -> str:
    """The page's Markdown without its chrome (its header, footer and menus: `_light`) when
    that holds more than twice ``tiny`` (main content too small to trust), else ""."""
    from webtap.convert._extract import unchromed

    root = parse(html)
    if root is None:
        return ""
    clean(root)
    fold_copies(root)
    light = unchromed(root, title)
    if light is None:
        return ""
    markdown = MarkdownConverter(base).convert(light)
    return markdown if len(markdown) > 2 * len(tiny) else ""


def _copied(markdown: str) -> bool:
    """Whether the text is laid out more than once (a site builder's article for each screen
    size): its first long paragraph comes again, and ``_COPIES`` of its long paragraphs'
    characters repeat one before them word for word. A pull quote, or the same recipe in
    several weeks of a meal plan, repeats a part, not the text from its start."""
    paragraphs = [block for block in markdown.split("\n\n") if len(block) >= _PARAGRAPH]
    if not paragraphs or markdown.count(paragraphs[0]) < 2:
        return False
    seen: set[str] = set()
    repeated = 0
    for block in paragraphs:
        if block in seen:
            repeated += len(block)
        seen.add(block)
    return repeated > _COPIES * sum(len(block) for block in paragraphs)


def _once(markdown: str, authors: Callable[[], frozenset[str]] = frozenset) -> str:
    """Markdown without the blocks that repeat an earlier one word for word (a template's
    block shown again elsewhere, a layout's copy the tree did not show as one): paragraphs,
    headings and lists of ``_REPEATED`` characters or more, and the shorter ones right after
    such a repeat that repeat too; code blocks and tables (a manual repeats its tables of
    arguments) are left as they are, and so are the blocks an author repeats (``authors()``:
    `webtap.convert._copies.authors_repeats`, read only when a block repeats: it reads every
    element's words)."""
    blocks = markdown.split("\n\n")
    if len(blocks) < 2:
        return markdown
    seen: set[str] = set()
    kept = []
    repeats: frozenset[str] | None = None
    fenced = False
    repeating = False  # the block before was a repeat: short ones after it are too
    for block in blocks:
        if fenced or block.lstrip().startswith(("```", "~~~")):
            # Inside a code block (which may hold blank lines): kept whole, verbatim.
            fences = sum(1 for line in block.split("\n") if line.lstrip()[:3] in ("```", "~~~"))
            fenced = fenced != (fences % 2 == 1)
            kept.append(block)
            repeating = False
            continue
        key = block.strip()
        if key in seen and not key.startswith("|") and (repeating or len(key) >= _REPEATED):
            repeats = authors() if repeats is None else repeats
            if not (repeats and words_key(key) in repeats):
                repeating = True
                continue
        repeating = False
        seen.add(key)
        kept.append(block)
    return "\n\n".join(kept) if len(kept) < len(blocks) else markdown


def _declared(root: etree._Element, held: Held, name: bool = True) -> Product | None:
    """The product the page declares (`webtap.convert._product`), on a page that says it
    is one: a product type in its JSON-LD or ``og:type``, or a product in its microdata or
    RDFa (looked for only when the source may ``name`` one, `_names`)."""
    if held.types.isdisjoint(PRODUCT_TYPES) and not (name and _PRODUCT_ITEM(root)):
        return None
    from webtap.convert._product import read_product  # main content only: see `_convert`

    return read_product(root, held.data)


def _names(html: str | bytes, word: str) -> bool:
    """Whether the page's source may hold ``word`` (an attribute's value): False only when it
    surely does not, so that a search of its tree is saved (one C scan of the string). A page
    in UTF-16 or -32 (bytes with NULs) may hold it however it is spelt."""
    if isinstance(html, str):
        return word in html
    return word.encode() in html or b"\x00" in html[:1024]


def _kinds(types: frozenset[str], product: Product | None) -> frozenset[str]:
    """What the page says it is, a product only when it declares one as its subject (or its
    ``og:type`` says so): a product type nested in its JSON-LD (a list's items, a review's
    subject) or several products are no product page."""
    if product is not None:
        return types | {"Product"}
    return types - _DECLARED_PRODUCTS


def _described(root: etree._Element, product: Product | None) -> Described | None:
    """Where the page shows the declared product's description (`webtap.convert._product`)."""
    if product is None:
        return None
    from webtap.convert._product import described  # main content only: see `_convert`

    return described(root, product)


def _with_product(product: Product, markdown: str, base: str | None) -> str:
    """What the page declares of its product and its text does not show, before the
    Markdown, after its title heading (`webtap.convert._product`)."""
    from webtap.convert._product import product_card  # main content only: see `_convert`

    card = product_card(product, markdown)
    root = parse(f"<html><body>{card}</body></html>") if card else None
    if root is None:
        return markdown
    clean(root)
    head = MarkdownConverter(base).convert(root)
    if markdown.startswith("# "):
        title, _, rest = markdown.partition("\n")
        return f"{title}\n\n{head}\n{rest.lstrip()}" if rest.strip() else f"{title}\n\n{head}"
    return f"{head}\n{markdown}" if markdown else head


def _convert(
    root: etree._Element,
    base: str | None,
    main_content: bool,
    types: frozenset[str] = frozenset(),
    title: str = "",
    described: Described | None = None,
) -> tuple[str, etree._Element | None]:
    """The Markdown of the page's main content and the tree that held it, else of the whole
    page and None."""
    if main_content:
        # The main-content extractor (`_extract`, `_prose`, `_product`, ...: ~8 ms of imports)
        # loads with the first page asked for its main content, not with a whole page.
        from webtap.convert._extract import extract_root

        content = extract_root(root, types=types, title=title, described=described)
        if content is not None:
            drop(content, _EMPTY_ITEMS(content))
            return MarkdownConverter(base).convert(content), content
    return MarkdownConverter(base).convert(root), None
