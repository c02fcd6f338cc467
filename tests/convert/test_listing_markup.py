"""Listings and collections read by what their markup says about itself: items of one kind
side by side (a film's year, length and rating, each in a span of one class), a link whose
``aria-label`` speaks for the visible text it hides from screen readers (a rating's stars and
count), a separator hidden from screen readers that still parts two items on screen, and the
answers of a page's questions, closed under them, that its JSON-LD gives. Small hand-written
pages."""

from __future__ import annotations

import json

from tests.convert.pages import FERRY

from webtap.convert import convert

TEXT = "".join(f"<p>{p}</p>" for p in FERRY)
BOATS = (
    ("Morning Star", "1998", "2h 10m", "4.5", "1,203"),
    ("Island Queen", "2004", "1h 55m", "3.9", "87"),
    ("Harbour Light", "2011", "2h 02m", "4.1", "410"),
    ("Sea Swallow", "1987", "1h 40m", "4.8", "2,950"),
)


def main(html: str) -> str:
    return convert(html, main_content=True).markdown


def _card(name: str, year: str, length: str, stars: str, count: str) -> str:
    slug = name.lower().replace(" ", "-")
    return (
        f"<li class='card'><h3><a href='/boats/{slug}'>{name}</a></h3>"
        f"<div class='meta'><span class='meta-item'>{year}</span>"
        f"<span class='meta-item'>{length}</span><span class='meta-item'>Crossing</span></div>"
        f"<a class='rating' href='/boats/{slug}/reviews' aria-label='{stars} out of 5 stars, "
        f"{count} ratings'><span aria-hidden='true' class='icon-star'><span>{stars} out of 5 "
        f"stars</span></span> <span aria-hidden='true'>{count}</span></a>"
        f"<p>A boat that has crossed to the island since {year}, with room for cars.</p></li>"
    )


LISTING = (
    "<html><head><title>Boats on the island run</title></head><body><header>"
    "<ul class='menu'><li><a href='/'>Home</a></li><li><a href='/help'>Help</a></li></ul>"
    "</header><main><h1>Boats on the island run</h1><ol class='grid'>"
    + "".join(_card(*boat) for boat in BOATS)
    + "</ol></main></body></html>"
)


# -- items of one kind side by side ------------------------------------------------------------


def test_items_of_one_class_side_by_side_keep_their_words_apart() -> None:
    for md in (convert(LISTING).markdown, main(LISTING)):
        for name, year, length, *_ in BOATS:
            assert name in md
            assert f"{year} {length} Crossing" in md


def test_runs_of_a_paragraph_and_letters_of_a_word_are_not_items() -> None:
    # An editor's runs split anywhere, even inside a word; an animation splits a word into
    # its letters: neither is a row of items.
    html = (
        "<html><body><article><h1><span class='ch'>F</span><span class='ch'>e</span>"
        "<span class='ch'>r</span><span class='ch'>r</span><span class='ch'>y</span></h1>"
        f"<p><span class='s1'>{FERRY[0][:40]}</span><span class='s1'>{FERRY[0][40:]}</span></p>"
        f"<div><span class='s2'>The harbour</span><span class='s2'>master's long list of every "
        f"boat that ever called here</span></div>{TEXT}</article></body></html>"
    )
    for md in (convert(html).markdown, main(html)):
        assert "# Ferry" in md
        assert FERRY[0] in md
        assert "The harbourmaster's long list" in md


# -- a link's label speaking for what it shows -------------------------------------------------


def test_rating_a_link_labels_for_screen_readers_is_shown() -> None:
    for md in (convert(LISTING).markdown, main(LISTING)):
        for *_, stars, count in BOATS:
            assert f"{stars} out of 5 stars {count}" in md


def test_hidden_copies_beside_visible_text_stay_out() -> None:
    # The link shows text of its own: its aria-hidden part is a copy. A picture drawn in
    # markup and labelled like an image is not a link: its drawn words stay out.
    html = (
        "<html><body><main><h1>Ferry</h1>" + TEXT + "<a href='/fares' aria-label='Fares'>"
        "Fares<span aria-hidden='true'>A copy kept from screen readers</span></a>"
        "<div aria-label='Three boats in a row'><div aria-hidden='true'><span>Drawn "
        "boat words</span></div></div></main></body></html>"
    )
    for md in (convert(html).markdown, main(html)):
        assert FERRY[1] in md
        assert "A copy kept" not in md and "Drawn boat words" not in md


# -- answers a page's JSON-LD gives --------------------------------------------------------------

QUESTIONS = (
    ("Do dogs travel free?", "Dogs travel free on a lead, and must stay on the car deck."),
    ("Can I take a bicycle?", "Bicycles travel free when loaded before the cars."),
)


def _faq(ld: bool) -> str:
    data = {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {"@type": "Question", "name": q, "acceptedAnswer": {"@type": "Answer", "text": a}}
            for q, a in QUESTIONS
        ],
    }
    script = f"<script type='application/ld+json'>{json.dumps(data)}</script>" if ld else ""
    return (
        f"<html><head>{script}</head><body><main><h1>Ferry</h1>{TEXT}"
        "<div class='faqs'><h2>Questions</h2>"
        + "".join(
            f"<div class='faq'><div class='question'>{q}</div>"
            f"<div class='answer' style='display: none'><p>{a}</p></div></div>"
            for q, a in QUESTIONS
        )
        + "<div style='display:none'><p>A hidden note the page never answers with.</p></div>"
        "</div></main></body></html>"
    )


def test_closed_answers_the_pages_json_ld_gives_are_content() -> None:
    md = main(_faq(ld=True))
    assert all(q in md and a in md for q, a in QUESTIONS)
    assert "A hidden note" not in md


def test_closed_panels_without_the_pages_word_for_them_stay_hidden() -> None:
    md = main(_faq(ld=False))
    assert FERRY[2] in md
    assert not any(a in md for _, a in QUESTIONS)


def test_a_separator_hidden_from_screen_readers_still_parts_the_words() -> None:
    html = (
        "<html><body><main><h1>Ferry</h1>" + TEXT + "<div class='story-meta'><span>The harbour"
        "master</span><span aria-hidden='true'>·</span><span>3 min read</span>"
        "<span aria-hidden='true'><b>|</b></span><span>Updated today</span></div>"
        "</main></body></html>"
    )
    for md in (convert(html).markdown, main(html)):
        assert "The harbourmaster 3 min read Updated today" in md
