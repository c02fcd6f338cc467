"""Text a script would show, and pages that hold none: ``<noscript>`` of a script shell,
React's streamed segments, ``<template>`` fragments, structured data when nothing else holds
the text, decoys kept out, tab panels and accordions kept in, and ``Document.state``."""

from __future__ import annotations

import json

import pytest
from tests.convert.pages import FERRY

from webtap.convert import CONTENT, EMPTY, SCRIPT_SHELL, STATE_NOTES, Document, convert

STORY = FERRY[:3]
TEXT = "".join(f"<p>{p}</p>" for p in STORY)


def both(html: str) -> list[Document]:
    return [convert(html), convert(html, main_content=True)]


# -- <noscript> ---------------------------------------------------------------------------


def test_noscript_is_the_page_when_the_visible_body_is_a_script_shell() -> None:
    html = (
        "<html><body><div id='app'></div><script src='/bundle.js'></script>"
        f"<noscript><h1>Ferry times</h1>{TEXT}</noscript></body></html>"
    )
    for doc in both(html):
        assert all(p in doc.markdown for p in STORY)
        assert doc.state == CONTENT


def test_noscript_stays_out_when_the_visible_body_holds_the_page() -> None:
    other = "A different text for readers without scripts, about the harbour's history. " * 4
    html = (
        f"<html><body><main><h1>Ferry times</h1>{TEXT}</main>"
        f"<noscript><p>{other}</p></noscript></body></html>"
    )
    for doc in both(html):
        assert STORY[2] in doc.markdown
        assert "harbour's history" not in doc.markdown


# -- streamed segments and templates ------------------------------------------------------


def test_streamed_segment_moves_to_its_placeholder() -> None:
    # Next.js (React) streams a Suspense boundary's content after the page, hidden, with a
    # script that moves it into the <template id="B:0"> placeholder: where it is read.
    html = (
        "<html><body><div id='__next'><main><h1>Ferry times</h1>"
        "<template id='B:0'></template><p>Loading timetable…</p>"
        "<p>Operated by the island council.</p></main></div>"
        f"<div hidden id='S:0'>{TEXT}</div>"
        "<script>$RC('B:0','S:0')</script></body></html>"
    )
    md = convert(html).markdown
    assert md.index("Ferry times") < md.index(STORY[0]) < md.index(STORY[2])
    assert md.index(STORY[2]) < md.index("Loading") < md.index("Operated by the island council")
    assert all(p in convert(html, main_content=True).markdown for p in STORY)


def test_hidden_element_that_is_no_segment_stays_hidden() -> None:
    html = f"<html><body><main>{TEXT}</main><div hidden id='S-0'><p>Secret draft.</p></div>"
    assert all("Secret draft" not in doc.markdown for doc in both(html))


def test_template_fragments_of_a_script_shell_are_read() -> None:
    html = (
        "<html><body><app-root></app-root><script src='/main.js'></script>"
        f"<template id='view'><h1>Ferry times</h1>{TEXT}</template></body></html>"
    )
    for doc in both(html):
        assert all(p in doc.markdown for p in STORY)


def test_template_stays_out_of_a_page_that_shows_its_text() -> None:
    html = (
        f"<html><body><main>{TEXT}</main><template id='row'><p>{{{{name}}}} costs "
        "{{price}} per crossing, booked in advance online or at the ticket office.</p>"
        "</template></body></html>"
    )
    assert all("{{name}}" not in doc.markdown for doc in both(html))


def test_declarative_shadow_root_is_shown_where_it_stands() -> None:
    html = (
        "<html><body><ferry-card><template shadowrootmode='open'><p>Inside the card.</p>"
        "</template></ferry-card><p>After the card.</p></body></html>"
    )
    md = convert(html).markdown
    assert md.index("Inside the card.") < md.index("After the card.")


# -- hidden decoys, tab panels and accordions -----------------------------------------------


def test_hidden_decoys_stay_out_tab_panels_and_accordions_stay_in() -> None:
    decoys = (
        "<div style='position:absolute; top:0; left:-9999px'><a href='/x'>Cheap pills</a></div>"
        "<p style='text-indent: -10000px'>Keyword stuffing off screen.</p>"
        "<div style='height:0;overflow:hidden'>Zero-sized copy of the text.</div>"
        "<div style='display:none'>A display-none decoy paragraph.</div>"
        "<p aria-hidden='true'>An aria-hidden copy of the headline.</p>"
        "<span style='clip: rect(0 0 0 0); position: absolute'>Clipped to nothing.</span>"
    )
    tabs = (
        "<div role='tablist'><button role='tab' aria-controls='p1'>Summer</button>"
        "<button role='tab' aria-controls='p2'>Winter</button></div>"
        "<div role='tabpanel' id='p1'><p>Summer: boats every two hours.</p></div>"
        "<div role='tabpanel' id='p2' hidden><p>Winter: two boats a day.</p></div>"
    )
    accordion = (
        "<h3><button aria-expanded='false' aria-controls='a1' id='b1'>Bicycles?</button></h3>"
        "<div id='a1' aria-labelledby='b1' hidden><p>Bicycles travel free.</p></div>"
        "<button aria-controls='m1'>Menu</button>"
        "<div id='m1' role='menu' aria-labelledby='x' hidden><a href='/a'>Menu item</a></div>"
    )
    html = f"<html><body><main><h1>Ferry</h1>{TEXT}{decoys}{tabs}{accordion}</main></body></html>"
    for doc in both(html):
        md = doc.markdown
        for gone in ("Cheap pills", "Keyword stuffing", "Zero-sized", "display-none decoy",
                     "aria-hidden copy", "Clipped to nothing", "Menu item"):  # fmt: skip
            assert gone not in md
        for kept in ("Summer: boats", "Winter: two boats", "Bicycles travel free"):
            assert kept in md


def test_responsive_box_with_zero_height_and_padding_is_not_hidden_text() -> None:
    # Only text kept from the reader's eye goes: a box that is zero-sized but not clipped
    # shows what it holds.
    html = "<p>Before.</p><div style='height:0; padding-bottom:56%'><p>Shown inside.</p></div>"
    assert "Shown inside." in convert(html).markdown


# -- structured data ------------------------------------------------------------------------


def ld(value: object) -> str:
    return f"<script type='application/ld+json'>{json.dumps(value)}</script>"


def test_json_ld_article_body_when_nothing_else_holds_the_text() -> None:
    body = "\n\n".join(STORY)
    html = (
        "<html><head><title>Ferry times</title>"
        f"{ld({'@type': 'NewsArticle', 'headline': 'Ferry times', 'articleBody': body})}"
        "</head><body><div id='root'></div><script src='/app.js'></script></body></html>"
    )
    for doc in both(html):
        assert all(p in doc.markdown for p in STORY)
        assert doc.state == CONTENT


def test_json_ld_article_body_stays_out_when_the_page_shows_its_text() -> None:
    other = "A summary for search engines that says something else entirely. " * 8
    html = (
        f"<html><head>{ld({'@type': 'Article', 'articleBody': other})}</head>"
        f"<body><article>{TEXT}</article></body></html>"
    )
    for doc in both(html):
        assert STORY[0] in doc.markdown and "search engines" not in doc.markdown


def test_json_ld_thread_gives_each_post_with_author_and_date() -> None:
    thread = {
        "@type": "QAPage",
        "mainEntity": {
            "@type": "Question",
            "text": STORY[0],
            "author": {"@type": "Person", "name": "marta"},
            "dateCreated": "2025-03-03",
            "suggestedAnswer": [
                {"@type": "Answer", "text": STORY[1], "author": {"name": "ilya"},
                 "dateCreated": "2025-03-04"},
                {"@type": "Answer", "text": STORY[2], "author": "noor"},
            ],
        },
    }  # fmt: skip
    html = f"<html><head>{ld(thread)}</head><body><div id='app'></div></body></html>"
    md = convert(html, main_content=True).markdown
    at = [md.index(x) for x in ("**marta · 2025-03-03**", STORY[0], "**ilya", STORY[1],
                                 "**noor**", STORY[2])]  # fmt: skip
    assert at == sorted(at)


def test_next_data_page_props_when_nothing_else_holds_the_text() -> None:
    props = {
        "props": {"pageProps": {"post": {"title": "Ferry times", "slug": "ferry",
                                         "bodyHtml": TEXT, "id": 12}}},
        "page": "/[slug]",
    }  # fmt: skip
    html = (
        "<html><body><div id='__next'></div><script id='__NEXT_DATA__' "
        f"type='application/json'>{json.dumps(props)}</script></body></html>"
    )
    for doc in both(html):
        assert all(p in doc.markdown for p in STORY)


# -- never silently empty -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "state"),
    [
        ("<html><body></body></html>", EMPTY),
        ("<html><body><div class='wrap'></div></body></html>", EMPTY),
        ("<html><body><div id='root'></div><script src='/a.js'></script></body></html>",
         SCRIPT_SHELL),
        ("<html><body><script src='/a.js'></script></body></html>", SCRIPT_SHELL),
        ("<html><body><noscript>You need to enable JavaScript to run this app.</noscript>"
         "<div id='root'></div></body></html>", SCRIPT_SHELL),
        ("<html><body><p>Loading…</p><script>start()</script></body></html>", SCRIPT_SHELL),
        ("<html><body><app-root></app-root><p>Example Shop</p></body></html>", SCRIPT_SHELL),
        ("<html><body><p>Gone fishing, back on Monday.</p></body></html>", CONTENT),
        ("<html><body><p>\U0001f44d\u200d\U0001f525</p></body></html>", CONTENT),  # emoji alone
        ("<html><body><p>\u2014 \u2026</p></body></html>", EMPTY),  # punctuation alone
        (f"<html><body><div id='root'>{TEXT}</div><script src='/a.js'></script></body></html>",
         CONTENT),
    ],
)  # fmt: skip
def test_state_says_why_a_page_has_no_text(html: str, state: str) -> None:
    for doc in both(html):
        assert doc.state == state
    assert STATE_NOTES[state]


def test_main_content_too_small_falls_back_to_the_whole_page() -> None:
    html = (
        "<html><body><div class='hero'><h1>Ferry</h1><p>Times and prices.</p></div>"
        "<ul><li><a href='/t'>Timetable</a></li><li><a href='/p'>Prices</a></li></ul>"
        "</body></html>"
    )
    doc = convert(html, main_content=True)
    assert not doc.trimmed and doc.state == CONTENT
    assert "Times and prices." in doc.markdown and "[Prices](/p)" in doc.markdown
