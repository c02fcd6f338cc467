"""A product page's own account of its product: what its markup declares, in schema.org terms.

A shop declares the product a page sells in one of three syntaxes: JSON-LD (an object whose
``@type`` is ``Product``, ``ProductGroup``, ...), microdata (``itemscope
itemtype=".../Product"`` with ``itemprop``s inside) or RDFa (``typeof="Product"`` with
``property``s). `read_product` reads the one product a page declares as its subject: its
name and description, its offer (price, availability), brand, SKU, rating and
``additionalProperty`` specifications. A product nested in another object (an ``ItemList``'s
item, a review's ``itemReviewed``) is not the page's subject, and a page declaring several
products is a listing of them: no product.

From that account main content takes two things. The description the page declares (its
JSON-LD's, its ``itemprop="description"``) is found where the page shows it (`described`:
the block holding its opening and closing words; a block named like boilerplate holding
half of its runs of words), and that block is the product's own text, kept whatever its
class names say (a details "modal" always in the page, a "read more" toggle). And when the
page's text does not show the description (a script shows it only when asked),
`product_card` gives it, with the facts the page declares and the content lacks (price,
availability, brand, SKU, rating, specifications), before the content.
"""

from __future__ import annotations

import html
import json
import re
from typing import NamedTuple

from lxml import etree

from webtap.convert._html import plain_text
from webtap.convert._prose import ProseCounts

__all__ = [
    "Described", "Product", "described", "describing", "product_card", "read_product", "within",
]  # fmt: skip

_PRODUCT_TYPES = frozenset(("Product", "ProductGroup", "IndividualProduct", "ProductModel"))
_WORD = re.compile(r"\w+")
_MARKUP = re.compile(r"<[^>]*>")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_RUN = 4  # words in a run: the page may word or break a description a little differently
_SHOWN = 0.5  # share of a description's runs the page's text holds when it shows it
_NEEDLE = 6  # words of a description's opening (and close) that find it in the page
# Microdata and RDFa items (one pass over the tree before it is cleaned).
_ITEMS = etree.XPath(
    "//*[@itemscope and contains(@itemtype, 'Product')]|//*[contains(@typeof, 'Product')]"
)


class Product(NamedTuple):
    name: str
    description: str  # plain text, or HTML when the page declares it so
    facts: list[tuple[str, str]]  # ("Price", "89.00 USD"), ("Availability", "In stock"), ...
    properties: list[tuple[str, str]]  # its ``additionalProperty`` name and value pairs


def read_product(root: etree._Element, data: list[str]) -> Product | None:
    """The one product the page declares as its subject (before ``clean``: microdata's
    ``<meta>`` and ``<span>`` are still there), from its JSON-LD texts ``data``, else its
    microdata, else its RDFa; None when it declares none, or several."""
    found = [node for text in data for node in _top_products(text)]
    if not found:
        found = [_item(el) for el in _ITEMS(root) if _top_item(el)]
    found = [node for node in found if _text(node.get("name"))]
    if len({_text(node["name"]) for node in found}) != 1:
        return None
    node = next((n for n in found if _text(n.get("description"))), found[0])
    description = html.unescape(_text(node.get("description")))
    return Product(_text(node["name"]), description, _facts(node), _properties(node))


def product_card(product: Product, markdown: str) -> str:
    """HTML for what ``markdown`` (the page's content) lacks of what the page declares of
    ``product``: the facts it does not show, its description when the text does not show it
    (with the specifications), and its name before them when the Markdown has no heading
    for it; "" when it shows them all."""
    have = _WORD.findall(markdown.lower())
    text = f" {' '.join(have)} "
    numbers = {n for w in _NUMBER.findall(markdown) for n in _numbers(w)}
    parts = []
    words = _WORD.findall(_MARKUP.sub(" ", product.description).lower())
    untold = len(words) >= _RUN and not _shown(words, have)
    # The page's text telling the description is its own account of the product; one
    # lacking it (a script shows it) gets the declared facts with it.
    missing = [
        (label, value)
        for label, value in product.facts
        if untold and not _told(value, text, numbers)
    ]
    if (missing or untold) and not markdown.startswith("#") and not _told(product.name, text):
        parts.append(f"<h2>{html.escape(product.name)}</h2>")
    if missing:
        items = (f"<li>{html.escape(label)}: {html.escape(value)}</li>" for label, value in missing)
        parts.append(f"<ul>{''.join(items)}</ul>")
    if untold:
        parts.append(_description_html(product.description))
        specs = [(name, value) for name, value in product.properties if not _told(value, text)]
        if specs:
            items = (f"<li>{html.escape(n)}: {html.escape(v)}</li>" for n, v in specs)
            parts.append(f"<ul>{''.join(items)}</ul>")
    return "".join(parts)


def _told(value: str, text: str, numbers: set[float] | None = None) -> bool:
    """Whether the Markdown's words ``text`` show ``value``: its words in a row, or (with
    the Markdown's ``numbers``) every number it holds, however written ("$39.00" shows a
    price of "39.0 USD")."""
    if f" {' '.join(_WORD.findall(value.lower()))} " in text:
        return True
    given = [_numbers(n)[0] for n in _NUMBER.findall(value)]
    return numbers is not None and bool(given) and all(n in numbers for n in given)


def _numbers(text: str) -> tuple[float, ...]:
    """What a number as a page writes it may be: "1,099.99" and "149,00" (a decimal comma)
    alike; a schema.org value ("149.00") is the first."""
    plain = float(text.replace(",", ""))
    whole, comma, cents = text.rpartition(",")
    if comma and len(cents) <= 2 and "." not in cents:
        return plain, float(f"{whole.replace(',', '')}.{cents}")
    return (plain,)


class Described(NamedTuple):
    """Where the page shows its product's declared description."""

    blocks: set[etree._Element]  # each the smallest element holding its opening and close
    words: list[str]  # its words, lower-cased: a block holding enough of them shows it too


def described(root: etree._Element, product: Product | None) -> Described | None:
    """Where the (cleaned) page shows ``product``'s declared description: the blocks each
    holding its opening words and its closing ones, and its words for `describing`; None
    when it declares none. A page may show it twice (a summary by the price, the details in
    a dialog): both are the product's."""
    if product is None:
        return None
    words = _WORD.findall(_MARKUP.sub(" ", product.description))
    if len(words) < _RUN:
        return None
    ends: set[etree._Element] = set()
    for end in _locate(root, words[-_NEEDLE:]):
        ends.update((end, *end.iterancestors()))
    found = set()
    for start in _locate(root, words[:_NEEDLE]):
        block = next((a for a in (start, *start.iterancestors()) if a in ends), start)
        found.add(start if block.tag in ("body", "html") else block)
    return Described(found, [w.lower() for w in words])


def describing(page: ProseCounts, described: Described | None) -> set[etree._Element]:
    """The blocks of ``page`` that are the product's own text: those showing its declared
    description (`described`), and the blocks named like boilerplate whose words show it
    (a dialog or a toggle holding the description in other breaks or with other words
    between: half of its runs of words)."""
    if described is None:
        return set()
    found = set(described.blocks)
    for el in page.boilerplate:
        if el not in found and _shown(described.words, _WORD.findall(_words_of(el))):
            found.add(el)
    return found


def _words_of(el: etree._Element) -> str:
    return " ".join(el.itertext()).lower()


def within(el: etree._Element, blocks: set[etree._Element]) -> bool:
    """Whether ``el`` is one of ``blocks``, holds one or is inside one: a block named like
    boilerplate around the description (a details dialog) is the product's too."""
    if not blocks:
        return False
    if el in blocks or any(a in blocks for a in el.iterancestors()):
        return True
    return any(el in b.iterancestors() for b in blocks)


def _locate(root: etree._Element, words: list[str]) -> list[etree._Element]:
    """The elements whose own text holds ``words`` in a row (any spacing and punctuation)."""
    pattern = re.compile(r"\W+".join(map(re.escape, words)), re.IGNORECASE)
    found = []
    for node in _TEXTS(root, first=words[0]):
        el = node.getparent()
        if el is not None and node.is_tail:
            el = el.getparent()
        if el is not None and pattern.search(node):
            found.append(el)
    return found


_TEXTS = etree.XPath("//text()[contains(., $first)]")


def _shown(words: list[str], have: list[str]) -> bool:
    """Whether the Markdown's words ``have`` show a description's ``words``: half of its
    runs of ``_RUN`` words."""
    runs = {tuple(words[i : i + _RUN]) for i in range(len(words) - _RUN + 1)}
    seen = {tuple(have[i : i + _RUN]) for i in range(max(len(have) - _RUN + 1, 0))}
    return len(runs & seen) >= _SHOWN * len(runs)


def _description_html(text: str) -> str:
    if "</" in text or "<br" in text:
        return f"<div>{text}</div>"
    lines = (line.strip() for line in text.splitlines())
    return "".join(f"<p>{html.escape(line)}</p>" for line in lines if line)


def _top_products(text: str) -> list[dict]:
    """The products one JSON-LD text declares as subjects: Product objects at its top, in
    an array or its ``@graph``, not those inside another object (an ``ItemList``'s items, a
    review's ``itemReviewed``, a group's variants)."""
    try:
        value = json.loads(text)
    except ValueError:
        return []
    tops = value if isinstance(value, list) else [value]
    found: list[dict] = []
    for top in tops:
        if not isinstance(top, dict):
            continue
        graph = top.get("@graph")
        nodes = graph if isinstance(graph, list) else [top]
        found.extend(n for n in nodes if isinstance(n, dict) and _is_product(n.get("@type")))
    return found


def _is_product(kind: object) -> bool:
    kinds = kind if isinstance(kind, list) else [kind]
    return any(
        isinstance(k, str) and k.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1] in _PRODUCT_TYPES
        for k in kinds
    )


def _top_item(el: etree._Element) -> bool:
    """Whether a microdata or RDFa Product item is the page's subject: of a Product type,
    not a property of another item and not inside another product."""
    kind = el.get("itemtype") if el.get("itemscope") is not None else el.get("typeof")
    if not _is_product((kind or "").split()):
        return False
    if el.get("itemprop") is not None or el.get("property") is not None:
        return False
    return not any(_is_product((a.get("itemtype") or a.get("typeof") or "").split())
                   for a in el.iterancestors())  # fmt: skip


def _item(el: etree._Element) -> dict:
    """A microdata or RDFa item as a JSON-LD-like object: each property's first value, a
    nested item as an object of its own."""
    microdata = el.get("itemscope") is not None
    prop = "itemprop" if microdata else "property"
    out: dict = {}
    stack = list(reversed(el))
    while stack:
        child = stack.pop()
        if not isinstance(child.tag, str):
            continue
        names = child.get(prop)
        scope = "itemscope" if microdata else "typeof"
        scoped = child.get(scope) is not None
        if names:
            value = _item(child) if scoped else _value(child)
            for name in names.split():
                out.setdefault(name.rsplit("/", 1)[-1].rsplit(":", 1)[-1], value)
        if not scoped:
            stack.extend(reversed(child))
    return out


def _value(el: etree._Element) -> str:
    """A microdata or RDFa property's value: its ``content``, a link's target, else its
    text."""
    for attribute in ("content", "datetime", "href", "src"):
        value = el.get(attribute)
        if value is not None and (attribute == "content" or el.tag in ("a", "link", "time")):
            return value.strip()
    return plain_text(el)


def _text(value: object) -> str:
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str | dict)), None)
    if isinstance(value, dict):
        value = value.get("name") or value.get("@value")
    return value.strip() if isinstance(value, str) else ""


def _facts(node: dict) -> list[tuple[str, str]]:
    """What a product object says a buyer wants to know besides its text, labelled."""
    offer = node.get("offers")
    if isinstance(offer, list):
        offer = next((o for o in offer if isinstance(o, dict)), None)
    offer = offer if isinstance(offer, dict) else {}
    facts = [
        ("Price", _price(offer)),
        ("Availability", _availability(offer.get("availability"))),
        ("Brand", _text(node.get("brand"))),
        ("SKU", _text(node.get("sku")) or _text(node.get("mpn"))),
        ("Rating", _rating(node.get("aggregateRating"))),
    ]
    return [(label, value) for label, value in facts if value]


def _price(offer: dict) -> str:
    """ "119.00 USD" from an offer (a range from an aggregate offer)."""
    currency = _text(offer.get("priceCurrency"))
    price = _scalar(offer.get("price"))
    if not price and _scalar(offer.get("lowPrice")):
        high = _scalar(offer.get("highPrice"))
        price = f"{_scalar(offer['lowPrice'])}–{high}" if high else _scalar(offer["lowPrice"])
    return f"{price} {currency}".strip() if price else ""


def _availability(value: object) -> str:
    """ "In stock" from ``https://schema.org/InStock``."""
    name = _text(value).rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    words = _CAMEL.sub(" ", name).split()
    return " ".join([words[0], *(w.lower() for w in words[1:])]) if words else ""


def _rating(value: object) -> str:
    """ "4.4 of 5 (159 reviews)" from an ``aggregateRating``."""
    if not isinstance(value, dict):
        return ""
    rating = _scalar(value.get("ratingValue"))
    if not rating:
        return ""
    best = _scalar(value.get("bestRating")) or "5"
    count = _scalar(value.get("reviewCount")) or _scalar(value.get("ratingCount"))
    return f"{rating} of {best}" + (f" ({count} reviews)" if count else "")


def _scalar(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return ""
    return str(value).strip() if isinstance(value, str | int | float) else ""


def _properties(node: dict) -> list[tuple[str, str]]:
    given = node.get("additionalProperty")
    found = []
    for prop in given if isinstance(given, list) else [given]:
        if isinstance(prop, dict):
            name = _text(prop.get("name"))
            value = _scalar(prop.get("value")) or _text(prop.get("value"))
            if name and value:
                found.append((name, value))
    return found
