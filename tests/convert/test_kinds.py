"""Main content of pages that are not articles: a product, a service, a listing, a manual's
section. Small hand-written pages shaped like the real kinds (no text copied from a page)."""

from __future__ import annotations

import json

from webtap.convert import convert

CONSENT = (
    "<div id='consent-banner' class='cookie-consent'><h3>We value your privacy</h3>"
    + "<p>We and our partners use cookies to store and access information on your device, "
    "to measure audiences and to personalise advertising and content, as described in our "
    "policy; you can change your choices at any time in the settings.</p>"
    * 3
    + "<button>Accept all</button></div>"
)
NAV = "<header><nav>" + "".join(f"<a href='/c{i}'>Category {i}</a>" for i in range(10))
NAV += "</nav></header>"
FOOTER = (
    "<footer class='site-footer'><ul>"
    + "".join(f"<li><a href='/f{i}'>Footer link {i}</a></li>" for i in range(12))
    + "</ul><p>© 2026 Example Outdoor Ltd. All rights reserved.</p></footer>"
)


def product_page(ld: dict | None = None, description: bool = True) -> str:
    cards = "".join(
        f"<li class='product-card'><a href='/p/{i}'><span>Trail bottle {i}</span>"
        f"<span class='price'>$1{i}.00</span></a></li>"
        for i in range(6)
    )
    text = (
        "<section class='description'><h2>Description</h2><p>A light daypack for long summer "
        "walks: the back panel is ventilated mesh, the hip belt carries two zipped pockets, "
        "and the main compartment opens wide for packing in a hurry.</p><p>The fabric is "
        "recycled nylon with a water-repellent finish that sheds a passing shower.</p>"
        "</section>"
        if description
        else ""
    )
    script = f"<script type='application/ld+json'>{json.dumps(ld)}</script>" if ld else ""
    return (
        "<html><head><title>Ridge 22 Daypack | Example Outdoor</title>"
        f"<meta property='og:type' content='product'>{script}</head><body>{CONSENT}{NAV}"
        "<main><div class='product'><h1>Ridge 22 Daypack</h1><p class='price'>$89.00</p>"
        "<form class='buy'><label>Colour <select><option>Blue</option></select></label>"
        f"<button>Add to cart</button></form>{text}"
        "<section class='specs'><h2>Specifications</h2><table><tr><th>Volume</th>"
        "<td>22 litres</td></tr><tr><th>Weight</th><td>640 g</td></tr></table></section>"
        "<section class='reviews'><h2>Reviews</h2><div class='review'><p><b>Sam</b> "
        "Comfortable on a six-hour walk, the hip pockets hold a phone and a snack bar."
        "</p></div><div class='review'><p><b>Ana</b> The mesh back keeps it cool; the side "
        "pocket is a little tight for a wide bottle.</p></div></section></div>"
        f"<aside class='related'><h2>Customers also bought</h2><ul>{cards}</ul></aside>"
        f"</main>{FOOTER}</body></html>"
    )


def test_product_keeps_name_price_description_specs_and_reviews() -> None:
    md = convert(product_page(), main_content=True).markdown
    for kept in ("Ridge 22 Daypack", "$89.00", "ventilated mesh", "22 litres", "640 g",
                 "six-hour walk", "side pocket is a little tight"):  # fmt: skip
        assert kept in md
    for gone in ("Customers also bought", "Trail bottle", "We value your privacy",
                 "Category 3", "Footer link", "All rights reserved"):  # fmt: skip
        assert gone not in md


def test_product_description_only_in_json_ld_comes_first() -> None:
    ld = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": "Ridge 22 Daypack",
        "description": "A light daypack for long summer walks, with a ventilated back panel "
        "and a hip belt with two zipped pockets.",
        "offers": {"@type": "Offer", "price": "89.00", "priceCurrency": "USD"},
        "additionalProperty": [{"@type": "PropertyValue", "name": "Volume", "value": "22 l"}],
    }
    md = convert(product_page(ld, description=False), main_content=True).markdown
    assert md.index("A light daypack for long summer walks") < md.index("Specifications")
    assert "Volume: 22 l" in md


def test_product_description_shown_on_the_page_is_not_repeated() -> None:
    ld = {
        "@type": "Product",
        "name": "Ridge 22 Daypack",
        "description": "A light daypack for long summer walks: the back panel is ventilated "
        "mesh, the hip belt carries two zipped pockets.",
    }
    md = convert(product_page(ld), main_content=True).markdown
    assert md.count("A light daypack") == 1


def test_listing_keeps_every_item_with_its_link() -> None:
    items = "".join(
        f"<article class='card'><h3><a href='/stories/{i}'>Story number {i} about the "
        f"harbour</a></h3><p>By Reporter {i} · March {i + 1}, 2025</p><p>A short summary of "
        f"story {i}, two lines long, telling what happened at the harbour this week.</p>"
        "</article>"
        for i in range(10)
    )
    filters = (
        "<aside class='filters'><h3>Filter</h3><ul>"
        + "".join(f"<li><a href='?tag={t}'>{t} (12)</a></li>" for t in ("Boats", "Tides"))
        + "</ul></aside>"
    )
    html = (
        f"<html><head><title>Harbour news</title></head><body>{NAV}<main>"
        "<h1>Harbour news</h1><p>Everything that happened at the harbour, newest first.</p>"
        f"<div class='grid'>{items}</div>{filters}</main>{FOOTER}</body></html>"
    )
    md = convert(html, "https://example.com/news", main_content=True).markdown
    for i in range(10):
        assert f"[Story number {i} about the harbour](https://example.com/stories/{i})" in md
    assert "Footer link" not in md and "Category 2" not in md and "Tides (12)" not in md


def test_manual_section_keeps_headings_code_tables_and_admonitions() -> None:
    sidebar = "<nav class='sidebar'><ul>" + "".join(
        f"<li><a href='/docs/{i}'>Chapter {i}</a><ul><li><a href='/docs/{i}/a'>Part {i}a</a>"
        "</li></ul></li>"
        for i in range(15)
    )
    sidebar += "</ul></nav>"
    switcher = (
        "<div class='version-switcher'><select><option>3.2</option><option>3.1</option>"
        "</select><a href='/v/3.1'>3.1</a> <a href='/v/3.0'>3.0</a></div>"
    )
    section = (
        "<article class='doc'><h1>Reading config files</h1><p>The loader reads every file "
        "in the config directory, in alphabetical order, and later files override earlier "
        "ones key by key.</p><h2>Syntax</h2><pre><code class='language-toml'>[server]\n"
        "port = 8080\n</code></pre><div class='admonition warning'><p class='admonition-title'>"
        "Warning</p><p>Keys are case-sensitive: Port and port are two different keys.</p>"
        "</div><h2>Keys</h2><table><thead><tr><th>Key</th><th>Default</th></tr></thead>"
        "<tbody><tr><td>port</td><td>8080</td></tr><tr><td>host</td><td>localhost</td></tr>"
        "</tbody></table><h3>Environment</h3><p>Every key can also be set from the "
        "environment, with the prefix APP_ and the key in capitals.</p>"
        "<p><a class='edit-link' href='https://git.example.com/edit/docs/config.md'>"
        "Edit this page</a></p></article>"
    )
    html = (
        "<html><head><title>Reading config files — Manual</title></head><body>"
        f"{switcher}{sidebar}<main>{section}</main>{FOOTER}</body></html>"
    )
    md = convert(html, main_content=True).markdown
    for kept in ("# Reading config files", "## Syntax", "```toml\n[server]\nport = 8080\n```",
                 "Keys are case-sensitive", "| port | 8080 |", "### Environment"):  # fmt: skip
        assert kept in md
    for gone in ("Chapter 3", "Part 4a", "3.1", "Edit this page"):
        assert gone not in md


def test_service_page_of_sections_keeps_them_all() -> None:
    sections = "".join(
        f"<section class='feature'><h2>{name}</h2><p>{name} for small teams: we set it up "
        "in a week, train your staff and stay on call for the first month.</p></section>"
        for name in ("Payroll", "Hiring", "Compliance", "Benefits", "Training")
    )
    html = (
        f"<html><head><title>HR services</title></head><body>{CONSENT}{NAV}<main>"
        "<h1>HR services</h1><p>Everything your people need, run by people who care.</p>"
        f"{sections}<section class='newsletter'><h2>Subscribe</h2><p>Monthly tips in your "
        f"inbox.</p></section></main>{FOOTER}</body></html>"
    )
    md = convert(html, main_content=True).markdown
    for name in ("Payroll", "Hiring", "Compliance", "Benefits", "Training"):
        assert f"## {name}" in md
    assert "run by people who care" in md
    for gone in ("Monthly tips", "We value your privacy", "Footer link"):
        assert gone not in md


def test_utility_class_variant_prefix_names_no_boilerplate() -> None:
    # "print:break-inside-avoid" says how to print a paragraph, not that it is a print bar.
    paragraphs = "".join(
        f"<p class='max-w-3xl print:break-inside-avoid md:text-lg'>Paragraph {n}: the loader "
        "reads every file in the config directory and merges them key by key.</p>"
        for n in range(4)
    )
    md = convert(f"<html><body><main>{paragraphs}</main></body></html>", main_content=True)
    assert all(f"Paragraph {n}:" in md.markdown for n in range(4))


def test_a_layout_repeated_for_small_screens_comes_once() -> None:
    # The same block twice in the HTML (desktop and mobile layouts, one shown by CSS).
    info = (
        "<h2>Ridge 22 Daypack for long summer walks</h2><p>Ventilated mesh back panel, hip "
        "belt with two zipped pockets, and a main compartment that opens wide.</p>"
    )
    html = (
        f"<html><head><title>Ridge 22</title></head><body>{NAV}<main>"
        f"<div class='hidden md:block'>{info}</div><div class='md:hidden'>{info}</div>"
        "<section><h2>Specifications</h2><p>22 litres, 640 grams, recycled nylon with a "
        "water-repellent finish that sheds a passing shower.</p></section>"
        f"<section><h2>Care</h2><p>Hand wash in cold water and dry away from the sun; never "
        f"tumble dry, the mesh shrinks.</p></section></main>{FOOTER}</body></html>"
    )
    md = convert(html, main_content=True).markdown
    assert md.count("Ventilated mesh back panel") == 1
    assert md.count("Ridge 22 Daypack for long summer walks") == 1


def test_an_article_keeps_the_paragraphs_it_repeats() -> None:
    # An article's author repeats on purpose (a meal plan's "same as day one"): kept.
    day = (
        "<p>Breakfast: oats with berries and a spoon of yoghurt, eaten within an hour of "
        "waking up.</p>"
    )
    body = "".join(f"<h2>Day {n}</h2>{day}<p>Dinner for day {n}: fish, rice and greens.</p>"
                   for n in range(1, 5))  # fmt: skip
    html = (
        "<html><head><title>Meal plan</title><meta property='og:type' content='article'>"
        f"</head><body><article><h1>Meal plan</h1>{body}</article></body></html>"
    )
    assert convert(html, main_content=True).markdown.count("Breakfast: oats") == 4


def test_an_article_a_site_builder_lays_out_for_each_screen_comes_once() -> None:
    # The whole article three times (desktop, tablet, phone; CSS shows one), on a page that
    # says it is an article.
    story = "".join(
        f"<h2>Part {n}</h2><p>Paragraph {n}: the ferry leaves the pier at seven, crosses the "
        "sound in forty minutes when the tide allows, and waits at the island until the "
        "last passengers of the afternoon have boarded for the way back.</p>"
        for n in range(4)
    )
    html = (
        "<html><head><title>Ferry</title><meta property='og:type' content='article'></head>"
        "<body><h1>Ferry</h1>"
        + "".join(f"<div class='framer-{size}'>{story}</div>" for size in ("d", "t", "p"))
        + "</body></html>"
    )
    md = convert(html, main_content=True).markdown
    assert all(md.count(f"Paragraph {n}:") == 1 for n in range(4))


def test_product_description_in_a_block_named_like_a_modal_is_content() -> None:
    # The details are in the page, in a block whose name says "modal" (the page opens it as
    # a drawer); that it holds the description the JSON-LD gives says it is the product's own.
    ld = {
        "@type": "Product",
        "name": "Ridge 22 Daypack",
        "description": "A light daypack for long summer walks: the back panel is ventilated "
        "mesh, the hip belt carries two zipped pockets.",
    }
    details = (
        "<div class='product-details-modal'><h2>Product details</h2><p>A light daypack for "
        "long summer walks: the back panel is ventilated mesh, the hip belt carries two "
        "zipped pockets.</p><p>Designer: Kari Lund</p><h3>Care</h3><p>Wash by hand in cool "
        "water with mild soap and let it dry away from a radiator; brush dried mud off the "
        "base before washing, and store the pack loosely packed in a dry cupboard.</p></div>"
    )
    html = product_page(ld).replace("<section class='specs'>", details + "<section class='specs'>")
    md = convert(html, main_content=True).markdown
    assert "Designer: Kari Lund" in md and "store the pack loosely packed" in md
    assert "Customers also bought" not in md


def test_twenty_identical_paragraphs_an_author_wrote_are_all_kept() -> None:
    # The spec system's own large page: one paragraph twenty times, in one flow of text. An
    # author's repeats (a chorus, a refrain, a repeated clause) are no layout copies.
    paragraph = (
        "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
        "incididunt ut labore et dolore magna aliqua.</p>"
    )
    for page in (
        f"<html><head><title>Large</title></head><body>{paragraph * 20}</body></html>",
        f"<html><body><main><h1>Large</h1>{paragraph * 20}</main></body></html>",
        f"<html><body><div class='row'>{paragraph}</div>" * 20 + "</body></html>",
    ):
        for main in (True, False):
            assert convert(page, main_content=main).markdown.count("Lorem ipsum") == 20


def test_a_chorus_between_verses_is_kept_each_time() -> None:
    chorus = (
        "<div class='chorus'><p>Row the boat across the water,</p><p>row it home before the "
        "night.</p></div>"
    )
    song = "".join(
        f"<div class='verse'><p>Verse {n}: the river bends by the mill and the willows lean "
        f"low over the bank.</p></div>{chorus}"
        for n in range(3)
    )
    html = f"<html><body><article><h1>Boat song</h1>{song}</article></body></html>"
    assert convert(html, main_content=True).markdown.count("Row the boat across") == 3


def test_a_responsive_triple_folds_once_in_the_whole_page_too() -> None:
    # The same block in sibling containers meant for different screens (their classes say
    # so): a reader sees one.
    block = (
        "<h2>Opening hours</h2><p>The reading room opens at nine on weekdays and at ten on "
        "Saturdays; it closes an hour before the building does.</p>"
    )
    html = (
        "<html><body><main><h1>Library</h1>"
        + "".join(
            f"<div class='only-{size}'>{block}</div>" for size in ("desktop", "tablet", "phone")
        )
        + "<p>Members borrow up to twelve books at a time for three weeks each, renewable "
        "online twice unless another member has reserved the book.</p></main></body></html>"
    )
    for main in (True, False):
        md = convert(html, main_content=main).markdown
        assert md.count("The reading room opens at nine") == 1
        assert md.count("Opening hours") == 1
        assert "Members borrow up to twelve books" in md
