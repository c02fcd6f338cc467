"""What main content keeps after the article's body: headings left with nothing under them,
post footers, share bars and teaser lists. Small hand-written pages."""

from __future__ import annotations

import pytest
from tests.convert.pages import FERRY, main, page

TEXT = "".join(f"<p>{p}</p>" for p in FERRY)


# -- headings that end the content with nothing under them --------------------------------------


def test_heading_ending_the_content_with_nothing_under_it_goes() -> None:
    # The map, the share bar and the stories they headed were a script's to show.
    html = page(
        f"<article><h1>Ferry</h1>{TEXT}<h2>The map to save:</h2><iframe src='/map'></iframe>"
        "<div class='teasers'><h3>More stories</h3></div></article>",
        title="Ferry",
    )
    md = main(html).markdown
    assert FERRY[-1] in md
    assert "The map to save" not in md and "More stories" not in md
    assert md.lstrip().startswith("# Ferry")


QUOTE = "The crossing was calm, and the gulls followed us all the way to the pier."


@pytest.mark.parametrize(
    ("ending", "kept"),
    [
        ("<h2>Fares</h2><p>A single costs four pounds.</p>", "## Fares"),  # a section
        (f"<h4>{QUOTE}</h4>", QUOTE),  # a pull quote set as a heading: a sentence
        ("<h3><a href='/next'>The lighthouse</a></h3>", "The lighthouse"),  # a teaser's title
        ("<a href='/next'><h3>The lighthouse</h3></a>", "The lighthouse"),
    ],
)
def test_headings_that_head_or_say_something_stay(ending: str, kept: str) -> None:
    html = page(f"<article><h1>Ferry</h1>{TEXT}{ending}</article>", title="Ferry")
    assert kept in main(html).markdown


def test_an_authors_line_announcing_what_the_page_dropped_stays() -> None:
    # "See more photos:" over pictures main content leaves out: the author's sentence.
    html = page(
        f"<article><h1>Ferry</h1>{TEXT}<p>See more photos:</p><img src='/a.jpg'></article>",
        title="Ferry",
    )
    assert "See more photos:" in main(html).markdown


# -- teasers under a label ------------------------------------------------------------------------

EXCERPT = (
    "The lighthouse keeper's cottage opens to visitors this summer, with a small museum of "
    "charts and lamps and a café in the old boat shed"
)


def cards(count: int, label: str = "") -> str:
    # A grid of teasers: each a linked title over an excerpt longer than the title.
    items = "".join(
        f"<div class='card'><h3><a href='/story{i}'>Story {i}</a></h3><p>Excerpt {i}. "
        f"{EXCERPT}.</p><div>3 May</div></div>"
        for i in range(count)
    )
    return f"<section><div class='divider'><h2>{label}</h2></div></section><div>{items}</div>"


def test_teasers_with_excerpts_under_a_label_go() -> None:
    html = page(f"<article><h1>Ferry</h1>{TEXT}{cards(3, 'More stories')}</article>", title="Ferry")
    md = main(html).markdown
    assert FERRY[-1] in md
    assert "Excerpt 1." not in md and "Story 2" not in md and "More stories" not in md


def test_sections_with_linked_headings_no_label_announces_stay() -> None:
    html = page(
        f"<article><h1>Ferry</h1>{TEXT}{cards(3, 'Chapters of the guide')}</article>",
        title="Ferry",
    )
    md = main(html).markdown
    assert "Excerpt 1." in md and "Story 2" in md


@pytest.mark.parametrize(
    "label",
    [
        "Articles liés",
        "Seguí leyendo",
        "Lee también",
        "Empfehlungen der Redaktion",
        "Redaktionstipp",
        "Weitere Themen",
        "Lue myös",
    ],
)
def test_related_stories_labelled_in_other_languages_go(label: str) -> None:
    html = page(f"<article><h1>Ferry</h1>{TEXT}{cards(3, label)}</article>", title="Ferry")
    md = main(html).markdown
    assert FERRY[-1] in md and "Excerpt 1." not in md and label not in md


# -- a list alone is part of a text ---------------------------------------------------------------

AGENDA = (
    "<ol><li>Two or three short talks on the winter timetable (thirty minutes)</li>"
    "<li>What the crossing costs, and why<ol>"
    "<li>Three stories from the harbour: what worked, what did not, and what it cost us</li>"
    "<li>Lessons from the stories, in small groups, with a report to the room afterwards</li>"
    "<li>Next meeting: when, where, and who brings the coffee (thirty minutes)</li>"
    "</ol></li></ol>"
)


def test_a_list_found_as_the_content_comes_with_its_heading_and_lead_in() -> None:
    html = page(
        "<div id='page'><article class='post'><h1>Ferry meeting</h1><div class='entry-content'>"
        "<p><b>Host</b>: the harbour office, Quay Street 4</p><p><b>Chair</b>: Ann Lee</p>"
        f"<h2>Agenda</h2>{AGENDA}</div>"
        "<footer class='entry-meta'>Posted in <a href='/m'>Meetings</a>.</footer></article>"
        f"<div class='widget'><p>{FERRY[0]}</p></div></div>",
        title="Ferry meeting",
    )
    md = main(html).markdown
    assert "Chair" in md and "## Agenda" in md and "who brings the coffee" in md
    assert "Posted in" not in md and FERRY[0] not in md


def test_a_list_whose_items_are_posts_is_not_widened() -> None:
    # A blog's one post set as a list item: the item is the text, its list the layout.
    post = f"<li class='post'><h2>Ferry</h2>{TEXT}</li>"
    older = "<li class='nav'>Older posts: <a href='/p2'>the winter timetable</a></li>"
    html = page(f"<ul class='posts'>{post}{older}</ul>", title="Ferry")
    md = main(html).markdown
    assert md.lstrip().startswith("## Ferry") and FERRY[-1] in md


def test_links_a_bold_label_announces_go() -> None:
    # "<p><strong>Read also:</strong></p>": a heading in all but its tag.
    links = "".join(
        f"<p><a href='/s{i}'>Other story {i} about the harbour</a></p>" for i in range(4)
    )
    html = page(
        f"<article><h1>Ferry</h1>{TEXT}<div class='more'><p>Filed under harbours.</p>"
        f"<p><strong>Lesen Sie auch:</strong></p>{links}</div></article>",
        title="Ferry",
    )
    md = main(html).markdown
    assert FERRY[-1] in md
    assert "Lesen Sie auch" not in md and "Other story 2" not in md


def test_prose_under_a_bold_label_stays() -> None:
    html = page(
        f"<article><h1>Ferry</h1>{TEXT}<p><strong>Related:</strong></p>"
        "<p>The island's second ferry, which runs only in summer, is covered by the same "
        "ticket, and dogs travel free on both as long as they stay on a lead.</p></article>",
        title="Ferry",
    )
    assert "second ferry" in main(html).markdown


def test_a_follow_us_line_after_the_text_goes() -> None:
    social = "".join(f"<a href='https://social{i}.example/paper'>Net {i}</a>, " for i in range(3))
    html = page(
        f"<article><h1>Ferry</h1>{TEXT}<p><em>Síguenos en {social} para recibir todas "
        "nuestras actualizaciones</em></p></article>",
        title="Ferry",
    )
    md = main(html).markdown
    assert FERRY[-1] in md and "Síguenos" not in md


def test_stories_announced_after_the_body_go_on_a_page_of_sections() -> None:
    # The body holds too little of the page's prose to be all of it (a sidebar's long
    # notes), so the content is the page's sections; the announced teasers past the body go
    # though they stand in the first half of the page's text.
    notes = "".join(f"<div class='note'><p>Note. {p}</p></div>" for p in FERRY)
    html = page(
        f"<h1>Ferry</h1><div class='story'>{TEXT}</div>"
        f"<div class='more'>{cards(3, 'Weitere Meldungen')}</div><aside>{notes}</aside>",
        title="Ferry",
    )
    md = main(html).markdown
    assert FERRY[-1] in md
    assert "Excerpt 1." not in md and "Weitere Meldungen" not in md
