"""Product pages read from what their markup declares (schema.org Product in JSON-LD,
microdata or none at all): what main content keeps. Hand-written pages, no text copied from
a shop."""

from __future__ import annotations

import json

import pytest

from webtap.convert import convert

NAV = "<header><nav>" + "".join(f"<a href='/c{i}'>Department {i}</a>" for i in range(10))
NAV += "</nav></header>"
FOOTER = (
    "<footer><ul>"
    + "".join(f"<li><a href='/f{i}'>Help page {i}</a></li>" for i in range(10))
    + "</ul><p>© 2026 Example Kettles Ltd.</p></footer>"
)
SHELF = (
    "<aside class='related'><h2>You may also like</h2><ul>"
    + "".join(
        f"<li class='product-card'><a href='/p/{i}'>Mug number {i}</a> <span>$1{i}.00</span></li>"
        for i in range(6)
    )
    + "</ul></aside>"
)
DESCRIPTION = (
    "A stovetop kettle of brushed steel that boils a litre in six minutes on gas, "
    "with a whistle you can lift away and a handle that stays cool."
)


FEATURES = (
    "<h2>Features</h2><ul><li>Brushed steel body that keeps its shine after years on the hob"
    "</li><li>Whistle that lifts away when you pour, and clicks back in place</li><li>Handle "
    "wrapped in beech wood so that it stays cool through a long boil</li><li>Wide opening "
    "that lets a hand in with a cloth to wipe the inside dry</li><li>Base wide enough for "
    "the largest gas ring, flat enough for induction</li><li>Lid on a hinge that stays open "
    "while you fill it from the tap</li><li>Spout with a fine lip that pours without a "
    "drip onto the counter</li></ul>"
)


def page(head: str, main: str) -> str:
    return (
        f"<html><head><title>Brook Kettle | Example Kettles</title>{head}</head><body>{NAV}"
        f"<main>{main}{SHELF}</main>{FOOTER}</body></html>"
    )


def ld(data: dict) -> str:
    return f"<script type='application/ld+json'>{json.dumps(data)}</script>"


PRODUCT_LD = {
    "@context": "https://schema.org",
    "@type": "Product",
    "name": "Brook Kettle",
    "description": DESCRIPTION,
    "brand": {"@type": "Brand", "name": "Brookworks"},
    "sku": "BK-17",
    "offers": {
        "@type": "Offer",
        "price": "49.00",
        "priceCurrency": "EUR",
        "availability": "https://schema.org/InStock",
    },
    "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.6", "reviewCount": 31},
}


def test_json_ld_product_its_description_in_a_block_named_like_a_dialog_is_kept() -> None:
    # The page shows the description the JSON-LD declares in a block whose name says
    # "modal" (opened as a drawer): that text is the product's, with what the block holds.
    main = (
        "<div class='product'><h1>Brook Kettle</h1><p class='price'>€49.00</p>"
        f"<button>Add to basket</button>{FEATURES}"
        f"<div class='details-modal'><h2>About this kettle</h2><p>{DESCRIPTION}</p>"
        "<p>Made in a small works by the river, each one polished by hand before it is "
        "packed in recycled card with a spare whistle and a cleaning cloth.</p></div>"
        "<section class='specs'><h2>Specifications</h2><table><tr><th>Capacity</th>"
        "<td>1.6 litres</td></tr><tr><th>Weight</th><td>980 g</td></tr></table></section></div>"
    )
    md = convert(page(ld(PRODUCT_LD), main), main_content=True).markdown
    for kept in ("Brook Kettle", "€49.00", "boils a litre in six minutes",
                 "polished by hand", "1.6 litres", "980 g"):  # fmt: skip
        assert kept in md
    for gone in ("You may also like", "Mug number", "Department 3", "Help page"):
        assert gone not in md
    assert md.count("boils a litre in six minutes") == 1  # shown: not given again


def test_json_ld_product_whose_text_a_script_shows_gets_its_declared_account() -> None:
    # The description and the facts wait for a script: main content gives what the page
    # declares, the price as the offer says it, once.
    main = (
        f"<div class='product'><h1>Brook Kettle</h1><div id='description-root'></div>{FEATURES}"
        "<section class='specs'><h2>Specifications</h2><table><tr><th>Capacity</th>"
        "<td>1.6 litres</td></tr><tr><th>Weight</th><td>980 g</td></tr></table></section></div>"
    )
    md = convert(page(ld(PRODUCT_LD), main), main_content=True).markdown
    assert "boils a litre in six minutes" in md
    assert md.index("boils a litre") < md.index("Brushed steel body") < md.index("1.6 litres")
    for fact in ("Price: 49.00 EUR", "Availability: In stock", "Brand: Brookworks",
                 "SKU: BK-17", "Rating: 4.6 of 5 (31 reviews)"):  # fmt: skip
        assert fact in md
    assert md.count("Brook Kettle") == 1


@pytest.mark.parametrize("encoding", [None, "utf-8", "utf-16"])
def test_microdata_product_is_read_like_json_ld(encoding: str | None) -> None:
    # No JSON-LD: the microdata item names the product, its offer and its description; the
    # description in a "read more" toggle is kept, and a script-less price is not repeated.
    # As text or bytes, in any encoding (the source is searched for "Product" first).
    main = (
        "<div itemscope itemtype='https://schema.org/Product' class='product'>"
        "<h1 itemprop='name'>Brook Kettle</h1>"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer'>"
        "<meta itemprop='priceCurrency' content='EUR'><span itemprop='price' content='49.00'>"
        "€49.00</span><link itemprop='availability' href='https://schema.org/InStock'>"
        "</div><button>Add to basket</button>"
        f"<div class='read-more-toggle'><p itemprop='description'>{DESCRIPTION}</p>"
        "<p>Each one is polished by hand before it is packed in recycled card with a spare "
        "whistle and a cleaning cloth, and it comes with a ten-year guarantee.</p></div>"
        f"{FEATURES}<h2>Specifications</h2><table><tr><th>Capacity</th><td>1.6 litres</td>"
        "</tr><tr><th>Weight</th><td>980 g</td></tr></table></div>"
    )
    html = page("", main)
    md = convert(html if encoding is None else html.encode(encoding), main_content=True).markdown
    for kept in ("Brook Kettle", "€49.00", "boils a litre in six minutes",
                 "ten-year guarantee", "1.6 litres"):  # fmt: skip
        assert kept in md
    assert "Price:" not in md  # the page shows its price
    assert "Mug number" not in md and "Help page" not in md


def test_product_without_structured_data_keeps_its_dl_specifications() -> None:
    # Nothing declared but og:type: the product's text and its <dl> of specifications are
    # the content, the shelf of other products and the chrome are not.
    main = (
        "<div class='product'><h1>Brook Kettle</h1><p class='price'>€49.00</p>"
        f"<p>{DESCRIPTION} Each one is polished by hand before it is packed in recycled "
        "card with a spare whistle and a cleaning cloth.</p>"
        "<h2>Specifications</h2><dl><dt>Capacity</dt><dd>1.6 litres</dd><dt>Weight</dt>"
        "<dd>980 g</dd><dt>Hobs</dt><dd>Gas, electric, induction</dd></dl></div>"
    )
    head = "<meta property='og:type' content='product'>"
    md = convert(page(head, main), main_content=True).markdown
    for kept in ("Brook Kettle", "€49.00", "polished by hand", "Capacity", "1.6 litres",
                 "Gas, electric, induction"):  # fmt: skip
        assert kept in md
    for gone in ("You may also like", "Mug number", "Department 3", "Help page"):
        assert gone not in md


def test_a_list_of_products_is_no_product_page() -> None:
    # Products declared inside an ItemList are the items of a listing: nothing of theirs is
    # added as if the page were one product's.
    items = [
        {"@type": "ListItem", "position": i, "item": {**PRODUCT_LD, "name": f"Kettle {i}"}}
        for i in range(3)
    ]
    data = {"@context": "https://schema.org", "@type": "ItemList", "itemListElement": items}
    cards = "".join(
        f"<article class='card'><h2><a href='/k/{i}'>Kettle {i}</a></h2><p>A stovetop kettle, "
        f"model {i}, in brushed steel with a lift-off whistle and a cool handle.</p></article>"
        for i in range(3)
    )
    md = convert(page(ld(data), f"<h1>Kettles</h1>{cards}"), main_content=True).markdown
    assert "Kettle 2" in md
    assert "boils a litre" not in md and "Price:" not in md


def test_microdata_product_item_bounds_the_product_sections() -> None:
    # The product's sections are spread (its heading above them, its features, its
    # specifications), and the page's <main> goes on past the item with prose of another
    # subject: the microdata item holding the product's properties is where it ends.
    main = (
        "<div itemscope itemtype='https://schema.org/Product'>"
        "<div class='buy'><h1 itemprop='name'>Brook Kettle</h1><p>€49.00</p></div>"
        f"<div class='about'><p itemprop='description'>{DESCRIPTION}</p></div>"
        f"<div class='features'>{FEATURES}</div>"
        "<div class='specs'><h2>Specifications</h2><table><tr><th>Capacity</th>"
        "<td>1.6 litres</td></tr><tr><th>Weight</th><td>980 g</td></tr></table></div></div>"
        "<div class='journal'><h2>From the workshop journal</h2><p>Our spring open day "
        "brought two hundred visitors to the works by the river; they watched the polishing "
        "line, tried the new whistles and left with a bag of seconds at half price.</p>"
        "<p>The next open day is in the autumn, when the river walk is at its best and the "
        "cafe by the weir serves its first soup of the season.</p></div>"
    )
    md = convert(page("", main), main_content=True).markdown
    for kept in ("Brook Kettle", "boils a litre in six minutes", "Brushed steel body",
                 "1.6 litres"):  # fmt: skip
        assert kept in md
    assert "workshop journal" not in md and "spring open day" not in md


def test_what_precedes_the_name_inside_the_product_block_stays() -> None:
    # The shop lays its gallery's notes and highlights out before the product's name inside
    # the product's block; a ticker before that block is what comes before the title.
    main = (
        "<div class='ticker'><p>Free delivery on orders over €60 this week only, in every "
        "country we ship to, with returns free for a month.</p></div>"
        "<div class='product'><div class='highlights'><p>Highlights: hand-polished steel, a "
        "lift-off whistle that never rattles, and a beech handle that stays cool to the "
        "touch while the water boils.</p></div><h1>Brook Kettle</h1><p>€49.00</p>"
        f"<p>{DESCRIPTION}</p>{FEATURES}</div>"
    )
    md = convert(page(ld(PRODUCT_LD), main), main_content=True).markdown
    assert "lift-off whistle that never rattles" in md
    assert "Brushed steel body" in md
    assert "Free delivery on orders" not in md
