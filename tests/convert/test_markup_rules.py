"""Main content decided by what the markup says about itself: panels a control opens, a
``<nav>`` that holds the page, a figure showing a table, a ``<main>`` left aria-hidden behind a
dialog, a teaser linked aria-hidden, link cards labelled "Related" set inside an article,
blocks announcing what comes next, a product's reviews in a section named for comments, code
examples in a column named like an aside, a form's choices, cross-sells named in two words,
shelves a heading announces, sections above the best block and a page that starts at its title
heading. Small hand-written pages."""

from __future__ import annotations

import pytest
from tests.convert.pages import FERRY

from webtap.convert import convert

STORY = FERRY
TEXT = "".join(f"<p>{p}</p>" for p in STORY)
MENU = "<ul class='site-menu'>" + "".join(
    f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(12)
)


def main(html: str) -> str:
    return convert(html, main_content=True).markdown


# -- panels a control opens ------------------------------------------------------------------


def test_panel_a_button_opens_is_content_without_a_label_of_its_own() -> None:
    html = (
        "<html><body><main><h1>Ferry</h1>" + TEXT + "<h3><button aria-controls='fares' "
        "aria-expanded='false'>Fares</button></h3><div id='fares' hidden><p>A single costs "
        "four pounds and a day return six.</p></div></main></body></html>"
    )
    for md in (convert(html).markdown, main(html)):
        assert "A single costs four pounds" in md


def test_collapsing_box_around_an_opened_panel_is_content() -> None:
    # The box that collapses holds the panel the button names (a Bootstrap-like accordion).
    html = (
        "<html><body><main><h1>Ferry</h1>" + TEXT + "<button aria-controls='dogs'>Dogs?"
        "</button><div class='collapse' style='display:none'><div id='dogs'><p>Dogs travel "
        "free on a lead.</p></div></div></main></body></html>"
    )
    assert "Dogs travel free on a lead." in convert(html).markdown


def test_opened_overlays_stay_hidden() -> None:
    html = (
        "<html><body><main><h1>Ferry</h1>" + TEXT + "<button aria-controls='tip'>?</button>"
        "<div id='tip' role='tooltip' hidden><p>Tooltip words.</p></div>"
        "<button aria-controls='signup'>Join</button><div id='signup' class='modal' hidden>"
        "<p>Modal words asking for an address.</p></div>"
        "<button aria-controls='box'>Open</button><div style='display:none'>"
        "<div id='box' role='dialog'><p>Dialog words.</p></div></div></main></body></html>"
    )
    md = convert(html).markdown
    assert STORY[0] in md
    for gone in ("Tooltip words", "Modal words", "Dialog words"):
        assert gone not in md


# -- a <nav> holding the page -----------------------------------------------------------------


def test_nav_holding_the_pages_heading_and_text_is_the_page() -> None:
    # A menu list left open in a header: libxml2 nests the rest of the page in the <nav>.
    html = (
        "<html><head><title>Ferry times</title></head><body><header><nav><ul><li>"
        "<a href='/'>Home</a><li><a href='/about'>About</a>"
        "<h1>Ferry times</h1>"
        + TEXT
        + TEXT.replace("ferry", "boat")
        + TEXT.replace("ferry", "launch")
        + "</body></html>"
    )
    for md in (convert(html).markdown, main(html)):
        assert all(p in md for p in STORY)
        assert "Ferry times" in md


def test_nav_of_links_beside_the_page_stays_out() -> None:
    html = (
        "<html><body><nav><h1>Site</h1>"
        + MENU
        + "</ul></nav><main><h1>Ferry times</h1>"
        + TEXT
        + "</main></body></html>"
    )
    md = main(html)
    assert STORY[1] in md and "Section 3" not in md


# -- a figure that shows data -------------------------------------------------------------


def test_figure_holding_a_table_or_code_is_content() -> None:
    html = (
        "<html><body><article><h1>Ferry</h1>" + TEXT + "<figure class='wp-block-table'>"
        "<table><tr><th>Boat</th><th>Leaves</th></tr><tr><td>Morning</td><td>08:00</td></tr>"
        "</table><figcaption>Winter timetable</figcaption></figure><figure class='highlight'>"
        "<pre><code>ferry --next</code></pre></figure><figure><img src='/boat.jpg'>"
        "<figcaption>The boat at the pier.</figcaption></figure><figure class='photo'>"
        "<img src='/quay.jpg'><p>Photograph by the harbour master.</p></figure>"
        + TEXT[:200]
        + "</p>"
        "</article></body></html>"
    )
    md = main(html)
    assert "| Morning | 08:00 |" in md
    assert "ferry --next" in md
    assert "The boat at the pier" not in md and "harbour master" not in md


# -- <main> aria-hidden behind a dialog -------------------------------------------------------


def test_main_left_aria_hidden_behind_an_open_dialog_is_read() -> None:
    html = (
        "<html><body><div role='dialog' aria-modal='true' class='consent'><p>We use "
        "cookies.</p><button>Accept</button></div><div><main aria-hidden='true'><h1>Ferry"
        "</h1>" + TEXT + "<p aria-hidden='true'>A copy kept from screen readers.</p></main>"
        "</div></body></html>"
    )
    for md in (convert(html).markdown, main(html)):
        assert STORY[2] in md
        assert "A copy kept from screen readers" not in md


def test_teaser_in_a_link_hidden_from_screen_readers_is_read_but_icons_are_not() -> None:
    # A list of stories links each teaser a second time, aria-hidden (the title's link was
    # heard already); the teaser is on screen. A share button or an icon link stays out.
    items = "".join(
        f"<article><h2><a href='/s{i}'>Crossing number {i}</a></h2><p><a href='/s{i}' "
        f"aria-hidden='true' tabindex='-1'>{STORY[i]}</a></p><a href='/share{i}' "
        "aria-hidden='true'>Share on Pinterest</a></article>"
        for i in range(4)
    )
    html = f"<html><body><main><h1>Crossings</h1>{items}</main></body></html>"
    for md in (convert(html).markdown, main(html)):
        assert all(STORY[i] in md for i in range(4))
        assert "Share on Pinterest" not in md


# -- link cards and announcements inside the content -------------------------------------------


def test_related_card_between_paragraphs_leaves_the_content() -> None:
    card = (
        "<div class='display-card'><span class='label'>Related</span><h5><a href='/other'>"
        "Another story about boats</a></h5><p>A line about that other story.</p></div>"
    )
    also = "<p>Also read: <a href='/more'>The lighthouse keeper's year</a></p>"
    sentence = (
        "<p>Read more about <a href='/fares'>the fares and the timetables of the harbour</a> "
        "on its board.</p>"
    )
    html = (
        "<html><body><article><h1>Ferry</h1>"
        + f"<p>{STORY[0]}</p>"
        + sentence
        + f"<p>{STORY[1]}</p>"
        + card
        + also
        + "".join(f"<p>{p}</p>" for p in STORY[2:])
        + "</article></body></html>"
    )
    md = main(html)
    assert all(p in md for p in STORY)
    assert "Another story about boats" not in md and "lighthouse keeper" not in md
    assert "timetables of the harbour" in md  # a sentence that starts "Read more" stays


def test_a_label_in_a_paragraph_of_its_own_takes_the_link_after_it_along() -> None:
    # "Also read:" set apart, its story's link in the next block: a card in two pieces,
    # in the piece's first half too (Finnish "Lue myös:" among the languages).
    html = (
        "<html><body><article><h1>Ferry</h1>"
        + f"<p>{STORY[0]}</p>"
        + "<p><strong>Lue myös:</strong></p><div><a href='/more'>Lighthouse keepers</a></div>"
        + f"<p>{STORY[1]}</p>"
        + "<p><b>Related:</b></p><p>The harbour board met on Monday and kept the fares.</p>"
        + "".join(f"<p>{p}</p>" for p in STORY[2:])
        + "</article></body></html>"
    )
    md = main(html)
    assert all(p in md for p in STORY)
    assert "Lue myös" not in md and "Lighthouse keepers" not in md
    assert "kept the fares" in md  # prose after a label is no card


def test_teaser_articles_around_the_titled_article_leave_the_content() -> None:
    # The piece's column holds other stories' tiles, each an <article> wrapped in its link,
    # before and after the <article> holding the title heading.
    tile = (
        "<article class='tile'><a href='/n{0}'><span>Storm warning for the coast number {0}"
        "</span> <span>New</span></a></article>"
    )
    tiles = "".join(tile.format(i) for i in range(20))
    body = "".join(f"<div class='text'><p>{p}</p></div>" for p in STORY)
    html = (
        f"<html><head><title>Ferry timetable</title></head><body>{MENU}<section>{tiles}<div>"
        f"<article><h1>Ferry timetable</h1>{body}</article>"
        f"</div>{tiles}</section></body></html>"
    )
    md = main(html)
    assert md.startswith("# Ferry") and all(p in md for p in STORY)
    assert "Storm warning" not in md


def test_articles_of_a_listing_or_a_thread_stay() -> None:
    # No title heading in an <article> of its own: a listing's items, however linked.
    tiles = "".join(
        f"<article><h2><a href='/p{i}'>Menu for week {i}, with the shopping list</a></h2>"
        f"<p>{STORY[i % 4]}</p></article>"
        for i in range(6)
    )
    md = main(
        "<html><head><title>Weekly menus</title></head>"
        f"<body>{MENU}<main><h1>Weekly menus</h1>{tiles}</main></body></html>"
    )
    assert "Menu for week 5" in md
    # Replies beside the first post: articles of prose, not links.
    posts = "".join(f"<article><p>Reply {i}. {STORY[i % 4]}</p></article>" for i in range(4))
    md = main(
        "<html><head><title>Ferry timetable</title></head>"
        f"<body>{MENU}<div><article><h1>Ferry timetable</h1>{TEXT}</article>{posts}</div>"
        "</body></html>"
    )
    assert "Reply 3." in md


def test_more_to_explore_after_the_article_leaves_it() -> None:
    teasers = "".join(
        f"<div><h4><a href='/p{i}'>Menu for week {i}</a></h4></div>" for i in range(4)
    )
    html = (
        "<html><body><div class='content'><h1>Ferry</h1>"
        + TEXT
        + TEXT
        + "<h4>More to explore</h4>"
        + teasers
        + "</div></body></html>"
    )
    md = main(html)
    assert STORY[3] in md and "Menu for week 2" not in md


# -- a product's reviews named as comments ----------------------------------------------------

PACK = "".join(
    f"<p>{p}</p>"
    for p in (
        "A light daypack for long summer walks, with a ventilated back panel of open mesh, "
        "two zipped pockets on the hip belt and a main compartment that opens wide.",
        "The fabric is recycled nylon with a water-repellent finish that sheds a passing "
        "shower, and the seams at the base are taped against wet grass and puddles.",
        "A sleeve inside holds a water bladder of up to two litres, with a port for its "
        "tube on either shoulder, and the lid pocket takes a map, keys and a phone.",
    )
)


SECTIONS = "".join(
    f"<section class='info'><h2>{title}</h2><p>{text}</p></section>"
    for title, text in (
        (
            "Delivery",
            "Orders placed before noon leave the warehouse the same day and arrive "
            "within three working days; returns are free for a month after delivery.",
        ),
        (
            "Care",
            "Brush off dried mud, wash the pack by hand in cool water with a little mild "
            "soap, and let it dry away from a fire or a radiator before storing it.",
        ),
        (
            "Warranty",
            "Every pack is guaranteed for five years against faults in its seams, "
            "buckles and zips; a fault is repaired or the pack replaced at no cost.",
        ),
    )
)


@pytest.mark.parametrize("spread", [False, True], ids=["one-block", "many-sections"])
def test_product_reviews_in_a_section_named_comments_are_content(spread: bool) -> None:
    reviews = "".join(
        f"<div class='review'><p>Reviewer {i}</p><p>The pack sat well on a long walk and the "
        f"pockets held everything, review number {i} says.</p></div>"
        for i in range(3)
    )
    html = (
        "<html><head><meta property='og:type' content='product'></head><body><main>"
        "<div class='product'><h1>Ridge 22 Daypack</h1><p>$89.00</p>" + PACK + "</div>"
        "<section class='specs'><h2>Details</h2><p>Twenty-two litres, six hundred and forty "
        "grams, recycled nylon with a water-repellent finish.</p></section>"
        + f"<section class='testimonials-comments'><h2>Reviews</h2>{reviews}</section>"
        "</main>" + (f"<div class='more'>{SECTIONS}</div>" if spread else "") + "</body></html>"
    )
    md = main(html)
    assert "review number 2 says" in md
    # On an article, a section named so is its comments and stays out.
    article = html.replace("content='product'", "content='article'")
    assert "review number 2 says" not in main(article)


# -- no block stands out: the smallest one holding the page's prose ----------------------------


def test_guide_of_small_entries_is_the_block_that_holds_them() -> None:
    # Each place has a box of its own, none holding much of the page: the content is the
    # smallest block that holds most of the prose, without the text around it.
    places = "".join(
        f"<div class='entry'><h2>Café number {i}</h2><ul><li>Harbour Street {i}</li>"
        f"<li><a href='/map/{i}'>Map</a></li></ul><div class='text'><p>Café {i} serves soup "
        f"and bread by the window, with a view of the ferry pier; the owner bakes every "
        f"morning at five, and "
        f"the seats fill up by noon on the days the boats run.</p></div></div>"
        for i in range(8)
    )
    html = (
        "<html><head><title>Cafés by the harbour</title></head><body><div class='top'>"
        "<p>Our office is open on weekdays from nine to five, and the switchboard answers "
        "questions about advertising in the printed guide.</p></div><div class='layout'>"
        f"<h1>Cafés by the harbour</h1><div class='entries'>{places}</div></div>"
        "<div class='bottom'><p>The guide is printed twice a year and sent to every house "
        "on the island, free of charge, in spring and in autumn.</p></div></body></html>"
    )
    doc = convert(html, main_content=True)
    assert doc.trimmed
    assert all(f"Café {i} serves soup" in doc.markdown for i in range(8))
    assert "switchboard" not in doc.markdown and "printed twice a year" not in doc.markdown


def test_upsell_and_cross_sell_sections_leave_a_product() -> None:
    cards = "".join(
        f"<li><a href='/p/{i}'>Bottle cage model {i}</a><p>A light cage of bent aluminium "
        f"rod for bottle number {i}.</p></li>"
        for i in range(4)
    )
    html = (
        "<html><head><meta property='og:type' content='product'></head><body><main>"
        "<div class='product'><h1>Ridge 22 Daypack</h1><p>$89.00</p>" + PACK + "</div>"
        f"<section class='up-sells upsells products'><h2>Goes well with</h2><ul>{cards}</ul>"
        "</section></main></body></html>"
    )
    md = main(html)
    assert "A light daypack for long summer walks" in md
    assert "Bottle cage model 2" not in md


@pytest.mark.parametrize("spread", [False, True], ids=["one-block", "many-sections"])
@pytest.mark.parametrize("label", ["Customers also bought", "Recently viewed", "Zobacz także"])
def test_shelf_a_heading_announces_as_other_products_leaves_a_product(
    label: str, spread: bool
) -> None:
    # The shelf is nested (wrapper, section, heading, cards) and named for nothing; only its
    # heading says what it is. Reviews under a heading of their own stay.
    cards = "".join(
        f"<div class='tile'><a href='/p/{i}'>Trail bottle model {i}</a><span>$1{i}.00</span></div>"
        for i in range(6)
    )
    html = (
        "<html><head><meta property='og:type' content='product'></head><body><main>"
        "<div class='product'><h1>Ridge 22 Daypack</h1><p>$89.00</p>" + PACK + "</div>"
        "<div class='block'><section class='reviews'><h2>Customer reviews</h2><p>The pack "
        "sat well on a long walk and the pockets held everything, one reviewer says.</p>"
        f"</section></div><div class='block'><div class='inner'><h2>{label}</h2>"
        f"<div class='row'>{cards}</div></div></div></main>"
        + (f"<div class='more'>{SECTIONS}</div>" if spread else "")
        + "</body></html>"
    )
    md = main(html)
    assert "A light daypack for long summer walks" in md
    assert "one reviewer says" in md
    assert "Trail bottle model 3" not in md and label not in md


def teasers(count: int = 4) -> str:
    # Cards wrapped whole in a link: their titles and excerpts are not link text as such.
    return "".join(
        f"<article class='preview'><a href='/story/{i}'><h3>Harbour story {i}</h3><p>What "
        f"the harbour master saw on the pier that morning, in the fog, part {i}.</p></a>"
        "</article>"
        for i in range(count)
    )


def test_label_in_a_header_of_its_own_announces_the_cards_after_it() -> None:
    # The label sits under a kicker in the section's header (so it does not start a block);
    # the cards follow the header.
    more = (
        "<section class='container'><header><div><span>To Dos</span><h2>Mehr von Hafenblatt"
        f"</h2></div></header><div class='slider'>{teasers()}</div></section>"
    )
    md = main(f"<html><body><article><h1>Ferry</h1>{TEXT}{more}</article></body></html>")
    assert all(p in md for p in STORY)
    assert "Harbour story" not in md and "Mehr von" not in md


def test_label_heading_a_section_of_cards_wrapped_in_links_leaves_the_content() -> None:
    more = (
        "<div class='after'><p>Published by the harbour office.</p><div class='bottom'>"
        f"<h3>Das könnte Sie auch interessieren</h3>{teasers()}</div></div>"
    )
    md = main(f"<html><body><article><h1>Ferry</h1>{TEXT}{more}</article></body></html>")
    assert all(p in md for p in STORY) and "harbour office" in md
    assert "Harbour story" not in md and "Das könnte" not in md


def test_prose_after_a_label_in_a_header_of_its_own_stays() -> None:
    more = (
        "<section><header><div><span>Kicker</span><h2>Related</h2></div></header><div>"
        f"<p>{STORY[0]}</p></div></section>"
    )
    html = f"<html><body><article><h1>Ferry</h1>{''.join(f'<p>{p}</p>' for p in STORY[1:])}"
    md = main(html + more + "</article></body></html>")
    assert STORY[0] in md and STORY[-1] in md


@pytest.mark.parametrize(
    "link",
    [
        "<a href='/presse'><i class='icon'></i> zurück zur Listenansicht</a>",
        "<a href='#top'>nach oben</a>",
        "<a href='/'>Back to top</a>",
        "<a class='back' href='/news'>« Retour</a>",
        "<a href='/wprm_print/413209'>Rezept drucken</a>",
        "<a href='#recipe'>Print Recipe</a>",
    ],
)
def test_links_that_only_lead_back_or_print_leave_the_content(link: str) -> None:
    title = "<h3><a href='/film/1'>Back to the Future</a></h3><p>A film from 1985.</p>"
    md = main(
        f"<html><body><article><h1>Ferry</h1>{TEXT}{title}<p>{link}</p></article></body></html>"
    )
    assert all(p in md for p in STORY)
    assert "Back to the Future" in md  # a title, not a way back
    left = md.split("A film from 1985.")[1]
    assert not left.strip(), left


# -- sections between the title and the best block -------------------------------------------


def test_sections_a_page_opens_with_above_its_best_block_are_content() -> None:
    # A service page built of blocks, each in wrappers of its own: its pitch in two of them
    # under the h1, then a long block of questions and answers that scores best and holds
    # most of the prose.
    def block(inner: str) -> str:
        return f"<div class='block'><div class='visible'><section>{inner}</section></div></div>"

    pitch = block(
        "<div class='copy'><p>We repair bicycles of every kind in our workshop by the "
        "station, usually on the day you bring them, with parts we keep in stock for the "
        "common makes.</p></div><a class='cta' href='/book'>Book a repair</a>"
    ) + block(
        "<h2>Why us</h2><div class='copy'><p>Our mechanics have trained for years, and each "
        "repair comes with a warranty of three months on both the parts and the work.</p>"
        "</div><a class='cta' href='/team'>Meet the team</a>"
    )
    answers = "".join(
        f"<h3>Question {i}?</h3><p>Answer {i}: {STORY[i % len(STORY)]}</p>" for i in range(10)
    )
    html = (
        "<html><head><title>Bicycle repairs</title></head><body><header>" + MENU + "</ul>"
        "</header><div class='page'>"
        + block("<h1>Repairs while you wait</h1>")
        + pitch
        + block(f"<h2>Questions</h2><div class='list'><div class='faq'>{answers}</div></div>")
        + "</div><footer><p>Bicycle Workshop Ltd, registered in Wales.</p></footer>"
        "</body></html>"
    )
    md = main(html)
    assert "We repair bicycles of every kind" in md and "warranty of three months" in md
    assert "Answer 9:" in md
    assert "Section 3" not in md and "registered in Wales" not in md


@pytest.mark.parametrize(
    "name", ["class='cross-sell'", "id='cross-sells-block'", "class='crossSell'"]
)
def test_cross_sells_named_in_two_words_leave_a_product(name: str) -> None:
    cards = "".join(
        f"<li><a href='/p/{i}'>Rain cover model {i}</a><p>A fitted cover of coated nylon "
        f"for packs of size {i}, with an elastic hem.</p></li>"
        for i in range(4)
    )
    html = (
        "<html><head><meta property='og:type' content='product'></head><body><main>"
        "<div class='product'><h1>Ridge 22 Daypack</h1><p>$89.00</p>" + PACK + "</div>"
        f"<section {name}><h2>Complete your kit</h2><ul>{cards}</ul></section>"
        "</main></body></html>"
    )
    md = main(html)
    assert "A light daypack for long summer walks" in md
    assert "Rain cover model 2" not in md


# -- code examples in a column named like an aside --------------------------------------------


def test_code_examples_in_a_column_named_aside_are_content() -> None:
    # An API reference sets each call's examples in a column beside its text.
    sections = "".join(
        f"<section class='api-section'><div class='api-section-main'><h2>Ferry call {i}</h2>"
        f"<p>{STORY[i]}</p></div><div class='api-section-aside'><pre><code>curl "
        f'https://ferry.example/v1/crossings/{i} -d seats={i}\n{{"id": "crossing_{i}", '
        f'"seats": {i}, "status": "booked"}}</code></pre></div></section>'
        for i in range(4)
    )
    html = (
        "<html><body><div class='sidebar'><p>Guides, changelog and the status of every "
        "service, updated each hour by the team on call.</p></div><main><h1>Crossings</h1>"
        + sections
        + "</main></body></html>"
    )
    md = main(html)
    assert all(p in md for p in STORY)
    assert all(f"crossing_{i}" in md for i in range(4))
    assert "updated each hour" not in md  # a sidebar of prose still leaves


# -- a form's choices -------------------------------------------------------------------------


def test_answers_of_a_questionnaire_are_not_the_page() -> None:
    # A self-assessment set in a service page: its answers are a form's choices (radio
    # buttons in their labels), not what the page says.
    questions = "".join(
        f"<div class='question'><p>{i}. How often does your crew check the ferry's "
        f"life jackets?</p>"
        + "".join(
            f"<label><input type='radio' name='q{i}' value='{v}'> {answer}</label>"
            for v, answer in enumerate(
                (
                    "Before every single crossing, with a signed log kept on board",
                    "Once a week, when the boat is tied up for its cleaning",
                    "Whenever the harbour master happens to remind us of it",
                )
            )
        )
        + "</div>"
        for i in range(6)
    )
    html = (
        "<html><head><meta property='og:type' content='article'></head><body><main>"
        "<h1>Ferry safety audits</h1>" + TEXT + f"<div class='assessment'>{questions}</div>"
        "</main></body></html>"
    )
    md = main(html)
    assert all(p in md for p in STORY)
    assert "signed log kept on board" not in md
    assert "signed log kept on board" in convert(html).markdown  # the whole page keeps them


def test_choice_holding_a_link_stays() -> None:
    # A product card's variants: each choice is a link to that variant's page.
    variants = "".join(
        f"<label><input type='radio' name='colour'><a href='/pack/{c}'>Ridge 22 Daypack in "
        f"{c}, twenty-two litres</a></label>"
        for c in ("slate", "moss", "ochre")
    )
    html = (
        "<html><head><meta property='og:type' content='product'></head><body><main>"
        "<div class='product'><h1>Ridge 22 Daypack</h1><p>$89.00</p>"
        + PACK
        + f"<fieldset>{variants}</fieldset></div></main></body></html>"
    )
    assert "Ridge 22 Daypack in moss" in main(html)


# -- a page where no block stands out starts at its title heading ------------------------------


def test_page_without_a_leading_block_starts_at_its_title_heading() -> None:
    # A shop's item with little prose under a menu of departments too big to be chrome.
    menu = "".join(
        f"<h3><a href='/d{i}'>Department {i}</a></h3><ul>"
        + "".join(f"<li><a href='/d{i}/{j}'>Shelf {j}</a></li>" for j in range(4))
        + "</ul>"
        for i in range(10)
    )
    sizes = "".join(f"<tr><td>Hinge {i}</td><td>{i + 20} mm</td></tr>" for i in range(30))
    html = (
        "<html><head><title>Brass hinge set</title></head><body><div class='departments'>"
        + menu
        + "</div><div class='item'><h1>Brass hinge set</h1><p>Sold by the box.</p><table>"
        + sizes
        + "</table></div></body></html>"
    )
    doc = convert(html, main_content=True)
    assert doc.trimmed
    assert "Sold by the box." in doc.markdown and "| Hinge 29 | 49 mm |" in doc.markdown
    assert "Department 3" not in doc.markdown and "Shelf 2" not in doc.markdown


# -- a page declared an article: its headline leads its body ----------------------------------

TEASERS = "".join(
    f"<div class='teaser'><h3><a href='/news/{i}'>Council votes on bus route {i}</a></h3><p>"
    f"Councillors decide on Thursday whether the number {i} bus should stop at the harbour, "
    "after the shopkeepers by the market asked for a stop of their own.</p></div>"
    for i in range(7)
)


def test_news_page_with_a_big_teaser_column_keeps_only_the_article_under_its_headline() -> None:
    # The teasers hold half as much prose again as the article; the article is the block under
    # the headline the <title> repeats.
    html = (
        "<html><head><title>Ferry times for winter</title><meta property='og:type' "
        "content='article'></head><body><div class='wrap'><div class='col-main'>"
        "<h1>Ferry times for winter</h1><div class='text'>"
        + TEXT
        + f"</div></div><div class='col-right'><h2>More news</h2>{TEASERS}</div></div>"
        "</body></html>"
    )
    md = main(html)
    assert all(p in md for p in STORY)
    assert "Council votes" not in md and "More news" not in md


def test_service_page_under_its_title_keeps_the_sections_after_its_pitch() -> None:
    # Not declared an article: the pitch under the h1 is not the page, its sections are too.
    names = ("Payroll", "Hiring", "Compliance", "Benefits", "Training", "Pensions")
    sections = "".join(
        f"<div class='card'><h3>{n}</h3><p>{n} for small teams: we set it up in a week, "
        "train your staff and stay on call for the first month, at a fixed price.</p></div>"
        for n in names
    )
    html = (
        "<html><head><title>HR services</title><meta property='og:type' content='website'>"
        "</head><body><div class='wrap'><div class='col-main'><h1>HR services</h1>"
        f"<div class='rich-text'>{TEXT}</div></div><div class='col-right'><h2>What we do</h2>"
        f"{sections}</div></div></body></html>"
    )
    md = main(html)
    assert all(p in md for p in STORY)
    assert all(f"{n} for small teams" in md for n in names)
