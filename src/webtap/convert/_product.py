"""A product page's own account of its product, from its JSON-LD, when the page's visible text
lacks it.

Shops describe the product they sell in schema.org JSON-LD (``@type`` ``Product`` or
``ProductGroup``): its name, price, description and properties. Some show the description
only once a script has run, or in a dialog; then the main content, however well found, misses
what the agent came for. `product_card` gives that description (with the name, price and
properties the Markdown lacks) as HTML to put before the main content; nothing when the
description is already there, or when the page lists several products (a collection).
The same description says where the page shows it: a block named like boilerplate (IKEA's
details "modal" always in the page, a "read more" toggle) that holds it is the product's text
(`describing`), and main content keeps it.
"""

from __future__ import annotations

import html
import json
import re

from lxml import etree

from webtap.convert._prose import PROSE, ProseCounts
from webtap.convert._schema import json_objects

__all__ = ["describing", "product_card", "product_words", "within"]

_PRODUCT_TYPES = frozenset(("Product", "ProductGroup", "IndividualProduct", "ProductModel"))
_MIN_DESCRIPTION = 80  # characters a description needs to be worth adding
_MAX_PRODUCTS = 3  # more named products than this: a collection, not a product page
_SHOWN = 0.2  # share of a description's word runs that says the page shows it
_WORD = re.compile(r"\w+")
_DESCRIBED = 200  # prose a block named like boilerplate needs to be read for the description


def product_card(data: list[str], markdown: str) -> str | None:
    """HTML for the page's product (from JSON-LD texts ``data``) when ``markdown`` lacks its
    description: the name and price unless the Markdown has them, the description, and its
    properties as a list."""
    products = [node for text in data for node in _products(text)]
    named = [p for p in products if isinstance(p.get("name"), str)]
    if not named or len(named) > _MAX_PRODUCTS:
        return None
    product = next((p for p in named if isinstance(p.get("description"), str)), named[0])
    description = product.get("description")
    if not isinstance(description, str) or len(description.strip()) < _MIN_DESCRIPTION:
        return None
    have = _WORD.findall(markdown.lower())
    if _shown(_WORD.findall(html.unescape(description).lower()), have):
        return None
    have_text = " ".join(have)
    parts = []
    name = product["name"].strip()
    if " ".join(_WORD.findall(name.lower())) not in have_text:
        parts.append(f"<h2>{html.escape(name)}</h2>")
    price = _price(product.get("offers"))
    if price and price not in markdown:
        parts.append(f"<p>{html.escape(price)}</p>")
    text = html.unescape(description)
    if "</" in text or "<br" in text:
        parts.append(f"<div>{text}</div>")
    else:
        lines = (line.strip() for line in text.splitlines())
        parts.extend(f"<p>{html.escape(line)}</p>" for line in lines if line)
    specs = [
        f"<li>{html.escape(str(p['name']))}: {html.escape(str(p['value']))}</li>"
        for p in product.get("additionalProperty") or []
        if isinstance(p, dict) and p.get("name") and p.get("value") not in (None, "")
    ]
    if specs:
        parts.append(f"<ul>{''.join(specs)}</ul>")
    return "".join(parts)


def product_words(data: list[str]) -> list[str]:
    """The words of the page's product description (from JSON-LD texts ``data``), lower-cased;
    none when the page names no product, or several (a collection)."""
    named = [p for text in data for p in _products(text) if isinstance(p.get("name"), str)]
    if not named or len(named) > _MAX_PRODUCTS:
        return []
    description = next(
        (p["description"] for p in named if isinstance(p.get("description"), str)), ""
    )
    if len(description.strip()) < _MIN_DESCRIPTION:
        return []
    return _WORD.findall(html.unescape(description).lower())


def _shown(words: list[str], have: list[str]) -> bool:
    """Whether the Markdown's words ``have`` show some of a description's ``words``: a fifth
    of its runs of four words (the page may word or break it a little differently)."""
    runs = {tuple(words[i : i + 4]) for i in range(max(len(words) - 3, 1))}
    seen = {tuple(have[i : i + 4]) for i in range(max(len(have) - 3, 1))}
    return len(runs & seen) >= _SHOWN * len(runs)


def _products(text: str) -> list[dict]:
    """The Product items of one JSON-LD text, in order (variants of a group left out)."""
    try:
        value = json.loads(text)
    except ValueError:
        return []
    # A group's variants are the same product.
    return [node for node in json_objects(value, _is_product) if _is_product(node)]


def _is_product(node: dict) -> bool:
    kind = node.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(k in _PRODUCT_TYPES for k in kinds if isinstance(k, str))


def _price(offers: object) -> str:
    """ "119.00 USD" from an offer (the first of several; a range from an aggregate)."""
    if isinstance(offers, list):
        offers = next((o for o in offers if isinstance(o, dict)), None)
    if not isinstance(offers, dict):
        return ""
    currency = offers.get("priceCurrency") or ""
    price = offers.get("price")
    if price in (None, "") and offers.get("lowPrice") not in (None, ""):
        price = f"{offers['lowPrice']}–{offers.get('highPrice', '')}".rstrip("–")
    if price in (None, ""):
        return ""
    return f"{price} {currency}".strip() if isinstance(currency, str) else str(price)


def describing(page: ProseCounts, words: list[str] | None) -> set[etree._Element]:
    """The blocks named like boilerplate (a "modal", a "read more" toggle) that hold the
    product's own description as its JSON-LD gives it (``words``, `product_words`): a fifth
    of its runs of four words. They are content, and so is what they hold (`within`)."""
    if not words:
        return set()
    found = set()
    for el in page.boilerplate:
        counters = page.stats.get(el)
        if (
            counters is not None
            and counters[PROSE] >= _DESCRIBED
            and _shown(words, _WORD.findall(" ".join(el.itertext()).lower()))
        ):
            found.add(el)
    return found


def within(el: etree._Element, blocks: set[etree._Element]) -> bool:
    """Whether ``el`` is one of ``blocks`` or inside one."""
    return el in blocks or any(a in blocks for a in el.iterancestors())
