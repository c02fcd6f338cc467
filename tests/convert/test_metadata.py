"""Page metadata (issue 32): each source, the order of trust, and the dates that are none."""

from __future__ import annotations

import json

import pytest

from webtap.convert import Metadata, convert

BODY = "<p>" + "The harbour filled with boats and gulls as the tide came in. " * 20 + "</p>"


def metadata(head: str, body: str = "", url: str = "https://news.example/a/story") -> Metadata:
    page = f"<html><head>{head}</head><body>{body or '<h1>Story</h1>' + BODY}</body></html>"
    return convert(page, url, main_content=True).metadata


def ld(value: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(value)}</script>'


def test_json_ld_graph_with_referenced_author_and_publisher() -> None:
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "@id": "#site", "name": "Example Site"},
        {"@type": "Person", "@id": "#jane", "name": "Jane Doe"},
        {"@type": "WebPage", "@id": "#page", "datePublished": "2020-01-01"},
        {"@type": ["NewsArticle"], "datePublished": "2024-03-12T10:00:00+01:00",
         "dateModified": "2024-03-14T08:00:00Z", "author": [{"@id": "#jane"},
         {"@type": "Person", "name": "Max Muster"}], "publisher": {"@type": "Organization",
         "name": "The Daily"}, "image": {"@type": "ImageObject", "url": "/lead.jpg"},
         "description": "What happened at the harbour."},
    ]}  # fmt: skip
    said = metadata(ld(graph))
    assert said.published == "2024-03-12T10:00:00+01:00"  # the article's, not the page's
    assert said.modified == "2024-03-14T08:00:00Z"
    assert said.author == "Jane Doe, Max Muster"
    assert said.site_name == "The Daily"
    assert said.image == "https://news.example/lead.jpg"
    assert said.description == "What happened at the harbour."


@pytest.mark.parametrize("kind", [5, True, None, {"name": "Article"}])
def test_json_ld_of_no_type_or_a_number_for_a_type(kind: object) -> None:
    objects = [{"@type": kind, "datePublished": "2001-01-01"},
               {"@type": "NewsArticle", "datePublished": "2024-03-12"}]  # fmt: skip
    assert metadata(ld(objects)).published == "2024-03-12"


def test_broken_json_ld_still_gives_its_dates() -> None:
    text = '{"@type": "NewsArticle", "headline": "A "quote"", "datePublished": '
    text += '"2024-03-12T10:00:00Z", "dateModified" : "2024-03-13"}'  # (unescaped quotes)
    said = metadata(f'<script type="application/ld+json">{text}</script>')
    assert (said.published, said.modified) == ("2024-03-12T10:00:00Z", "2024-03-13")


def test_open_graph_and_article_meta() -> None:
    said = metadata(
        '<meta property="article:published_time" content="2023-07-01T09:30:00+0200">'
        '<meta property="article:modified_time" content="2023-07-02">'
        '<meta property="article:author" content="https://facebook.com/someone">'
        '<meta name="author" content="Anna Nowak">'
        '<meta property="og:site_name" content="Gazeta">'
        '<meta property="og:locale" content="pl_PL">'
        '<meta property="og:description" content="  Opis   strony ">'
        '<meta property="og:url" content="https://news.example/canonical">'
        '<meta property="og:image" content="img/a.png">'
    )
    assert said == Metadata(
        published="2023-07-01T09:30:00+02:00",
        modified="2023-07-02",
        author="Anna Nowak",  # a profile's URL is no name
        site_name="Gazeta",
        language="pl-PL",
        description="Opis strony",
        canonical_url="https://news.example/canonical",
        image="https://news.example/a/img/a.png",
    )


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        ('<meta name="DC.date.issued" content="2019-05-04">', "2019-05-04"),
        ('<meta name="citation_publication_date" content="2018/02/03">', "2018-02-03"),
        ('<meta name="parsely-pub-date" content="2021-11-30T12:00:00Z">', "2021-11-30T12:00:00Z"),
        ('<meta name="sailthru.date" content="Tue, 12 Mar 2024 10:00:00 GMT">', "2024-03-12"),
        ('<meta name="date" content="20170809">', "2017-08-09"),
    ],
)
def test_named_meta_dates(meta: str, expected: str) -> None:
    assert metadata(meta).published == expected


def test_citation_authors_each_once_and_the_canonical_link() -> None:
    said = metadata(
        '<meta name="citation_author" content="Curie, Marie">'
        '<meta name="citation_author" content="Pierre Curie">'
        '<link rel="canonical" href="/papers/1">'
    )
    assert said.author == "Curie, Marie, Pierre Curie"
    assert said.canonical_url == "https://news.example/papers/1"


def test_time_in_the_article_and_microdata() -> None:
    footer = '<footer><time datetime="2026-01-01">now</time></footer>'
    timed = metadata(
        "",
        f'<article><h1>Story</h1><time datetime="2022-02-22">Feb 22</time>{BODY}</article>{footer}',
    )
    assert timed.published == "2022-02-22"
    marked = metadata("", '<div itemscope itemtype="https://schema.org/BlogPosting">'
                      '<h1>Story</h1><span itemprop="author" itemscope><span itemprop="name">'
                      'Lee Chan</span></span><meta itemprop="datePublished" content="2021-06-05">'
                      f"{BODY}</div>")  # fmt: skip
    assert (marked.published, marked.author) == ("2021-06-05", "Lee Chan")


def test_microdata_anywhere_in_the_page_and_on_any_element() -> None:
    footer = ("<footer><span itemprop='datePublished' content='2021-06-05'>June</span>"
              "<span itemprop='dateModified'>7 June 2021</span><img itemprop='image' src='/i.png'>"
              "</footer>")  # fmt: skip
    said = metadata("", f"<div><div><h1>Story</h1>{BODY}</div></div>{footer}")
    assert (said.published, said.modified, said.image) == (
        "2021-06-05",
        "2021-06-07",
        "https://news.example/i.png",
    )


@pytest.mark.parametrize(
    ("line", "lang", "day", "author"),
    [
        ("By Jane Doe | March 12, 2024", "en", "2024-03-12", "Jane Doe"),
        ("Von Max Muster, 12. März 2024", "de", "2024-03-12", "Max Muster"),
        ("Par Jean Dupont, le 1er mars 2024", "fr", "2024-03-01", "Jean Dupont"),
        ("Autor: Anna Kowalska, 12 marca 2024", "pl", "2024-03-12", "Anna Kowalska"),
        ("12.03.2024", "de", "2024-03-12", ""),
        ("03/04/2024", "en-US", "2024-03-04", ""),
        ("03/04/2024", "fr", "2024-04-03", ""),
        ("März 12, 2024", "de", "2024-03-12", ""),
        ("Posted 2024/03/12, 10:05", "en", "2024-03-12", ""),
        ("٣ March 2024", "en", "2024-03-03", ""),  # a day in an Arabic-Indic digit
    ],
)
def test_the_visible_date_line(line: str, lang: str, day: str, author: str) -> None:
    page = f'<html lang="{lang}"><body><div><div><h1>Story</h1><p>{line}</p>{BODY}</div></div>'
    said = convert(page, main_content=True).metadata
    assert (said.published, said.author, said.language) == (day, author, lang)


@pytest.mark.parametrize(
    "line", ["3 days ago", "vor 3 Tagen", "il y a 3 jours", "wczoraj", "yesterday", "March 2024"]
)
def test_relative_and_partial_dates_are_none(line: str) -> None:
    assert metadata("", f"<div><div><h1>Story</h1><p>{line}</p>{BODY}</div></div>").published == ""


def test_json_ld_beats_the_footer_and_the_chrome_s_today() -> None:
    body = (
        "<header><p>Friday, 1 May 2026</p></header><main><h1>Story</h1>" + BODY + "</main>"
        "<footer><p>© 2025 The Daily, updated 3 January 2026</p></footer>"
    )
    assert metadata(ld({"@type": "Article", "datePublished": "2024-03-12"}), body).published == (
        "2024-03-12"
    )
    assert metadata("", body).published == ""  # neither the masthead's today nor the footer


def test_a_day_the_reader_sees_beats_data_a_day_off() -> None:
    body = f"<article><h1>Story</h1><p>Nov. 19, 2019 5:50 PM</p>{BODY}</article>"
    head = ld({"@type": "NewsArticle", "datePublished": "2019-11-20T01:50:59Z"})
    assert metadata(head, body).published == "2019-11-19"


def test_the_date_line_beats_the_data_and_an_update_line_does_not() -> None:
    head = ld({"@type": "Article", "datePublished": "2024-09-06", "author": "cms-admin"})
    shown = f"<article><h1>Story</h1><p>By Jo Bloggs November 14, 2025</p>{BODY}</article>"
    said = metadata(head, shown)
    assert (said.published, said.author) == ("2025-11-14", "Jo Bloggs")  # what the reader sees
    same_day = f"<article><h1>Story</h1><p>Sep 6, 2024</p>{BODY}</article>"
    timed = ld({"@type": "Article", "datePublished": "2024-09-06T09:30:00+02:00"})
    assert metadata(timed, same_day).published == "2024-09-06T09:30:00+02:00"  # its time kept
    updated = f"<article><h1>Story</h1><p>Updated: March 3, 2025</p>{BODY}</article>"
    assert metadata(head, updated).published == "2024-09-06"  # a change's date, not the piece's
    assert metadata("", updated).published == ""


@pytest.mark.parametrize(
    "lines",
    [
        "<p>Expires 01/01/26</p>",  # a coupon's end
        "<dl><dt>Joined</dt><dd>Nov 4, 2011</dd></dl>",  # the poster's, on a forum
        "<div><span>last post by</span> <a>someone</a> <time>Jan 8, 2026</time></div>",
        "<p>Mitglied seit 3. Mai 2019</p>",
    ],
)
def test_a_date_labelled_as_another_is_not_the_publication(lines: str) -> None:
    head = '<meta property="article:published_time" content="2025-03-20">'
    body = f"<article><h1>Story</h1>{lines}{BODY}</article>"
    assert metadata(head, body).published == "2025-03-20"


@pytest.mark.parametrize("line", ["9-23 Feb 2017 | Mo-Fr 9–16", "vom 9. bis 23. Februar 2017"])
def test_the_end_of_a_range_of_days_is_no_date(line: str) -> None:
    assert metadata("", f"<div><div><h1>Story</h1><p>{line}</p>{BODY}</div></div>").published == ""


def test_an_ambiguous_date_line_is_read_as_the_data_reads_it() -> None:
    page = (
        '<html lang="de"><head><meta property="article:published_time" '
        'content="2019-05-08T05:30:23Z"></head><body><article><h1>Story</h1>'
        f"<p>05/08/2019</p>{BODY}</article></body></html>"
    )  # day first in German: 5 August; the data: 8 May, the same line read month first
    assert convert(page, main_content=True).metadata.published == "2019-05-08T05:30:23Z"


def test_a_date_line_far_under_the_title_beats_the_data_only_a_day_off() -> None:
    teasers = "".join(f"<li><a href='/{n}'>Another story {n}</a></li>" for n in range(12))
    body = f"<div><div><h1>Story</h1><ul>{teasers}</ul><p>March 3, 2025</p>{BODY}</div></div>"
    head = '<meta property="article:published_time" content="2024-09-06">'
    assert metadata(head, body).published == "2024-09-06"  # a teaser's date, not the piece's
    off = '<meta property="article:published_time" content="2025-03-04T01:00:00Z">'
    assert metadata(off, body).published == "2025-03-03"  # the site's day of the data's time
    assert metadata("", body).published == "2025-03-03"  # nothing else says


def test_dates_in_sentences_and_captions_are_no_date_lines() -> None:
    sentence = "After a quiet year the chain runs its first campaign: it offers half off and is "
    sentence += "valid from November 26 to December 3, 2025, "
    body = (
        "<article><h1>Story</h1><figure><img src='a.jpg'><figcaption>Traders at work, "
        "November 18, 2019</figcaption></figure>"
        f"<p><em>{sentence}<strong>in every shop</strong> of the chain and online.</em></p>"
        f"{BODY}</article>"
    )
    assert metadata("", body).published == ""
    head = '<meta property="article:published_time" content="2025-11-24">'
    assert metadata(head, body).published == "2025-11-24"


def test_an_elementor_widget_is_no_chrome_but_a_sidebar_widget_is() -> None:
    line = "<ul><li><time>April 16, 2019</time></li></ul>"
    built = f'<h1>Story</h1><div class="elementor-widget-container">{line}</div>{BODY}'
    assert metadata("", f"<article>{built}</article>").published == "2019-04-16"
    sidebar = f'<h1>Story</h1><div class="widget widget_recent">{line}</div>{BODY}'
    assert metadata("", f"<div><div>{sidebar}</div></div>").published == ""


@pytest.mark.parametrize(
    ("names", "aside"),
    [
        ('class="SideBar"', True),
        ('id="Related-Posts"', True),
        ('class="post-meta"', False),
        ('class="größe-Footer"', True),
        ('class="ſidebar"', True),  # (the long s: case folded, an s)
    ],
)
def test_chrome_by_its_class_or_id_in_any_case(names: str, aside: bool) -> None:
    line = f"<div {names}><p>April 16, 2019</p></div>"
    page = f"<div><div><h1>Story</h1>{line}{BODY}</div></div>"
    assert metadata("", page).published == ("" if aside else "2019-04-16")


@pytest.mark.parametrize(
    ("line", "author"),
    [
        ('By <a href="/jane">Jane Doe</a> and <a href="/max">Max Muster</a> on Monday, '
         "November 18th, 2019 at 11:08 a.m.", "Jane Doe, Max Muster"),
        ("Posted on <time>March 30, 2015</time> by <a>Admin</a>", "Admin"),
        ("By Meg James Staff Writer Nov. 19, 2019 5:50 PM", "Meg James"),
        ("Written By: Tom May 15 December 2025", "Tom May"),
        ("By Amanda Furrer Updated: Dec. 2, 2025", "Amanda Furrer"),
        ("By J.O. Haselhoef On 3 May 2024", "J.O. Haselhoef"),
        ("Von Markus Balser , Berlin", "Markus Balser"),  # a place after the name
        ("Par Kab Niang Le 17/02/2020", "Kab Niang"),
        ("by Jeff Foust Monday, November 18, 2019", "Jeff Foust"),
        ("Written by Marc-André Lemburg.", "Marc-André Lemburg"),
        ("By Daniel Burstein, Senior Director, Content", "Daniel Burstein"),
        ("Von <span>Moritz Bachmann</span> publiziert am 30. Juli 2018", "Moritz Bachmann"),
        ("Text: Anna Menin · 20 November 2019", "Anna Menin"),
        ("Text Link", ""),  # a page builder's placeholder, not "Text: <name>"
        ("by jo 3 May 2024", ""),  # a handle, not a name
    ],
)  # fmt: skip
def test_the_byline_by_the_title(line: str, author: str) -> None:
    head = ld({"@type": "Article", "author": {"@type": "Person", "name": author or "Data"}})
    said = metadata(head, f"<article><h1>Story</h1><p>{line}</p>{BODY}</article>")
    assert said.author == (author or "Data")  # the byline's names, else the data's


@pytest.mark.parametrize(
    "line", ["BY JANE DOE | MARCH 12, 2024", "Text: Jane Doe", "AUTOR: Jane Doe"]
)
def test_a_byline_s_word_in_any_case(line: str) -> None:
    head = '<meta name="author" content="Data Desk">'
    said = metadata(head, f"<article><h1>Story</h1><p>{line}</p>{BODY}</article>")
    assert said.author.casefold() == "jane doe"


def test_a_heading_is_a_byline_only_when_named_one() -> None:
    head = '<meta name="author" content="Christoph von Ritter">'
    teaser = f"<article><h1>Story</h1><h2>Von Risiken und Nebenwirkungen</h2>{BODY}</article>"
    assert metadata(head, teaser).author == "Christoph von Ritter"
    byline = '<h3 class="byline">by Jeff Foust<br><span>Monday, November 18, 2019</span></h3>'
    assert metadata(head, f"<article><h1>Story</h1>{byline}{BODY}</article>").author == (
        "Jeff Foust"
    )


def test_a_by_in_a_sentence_is_no_byline() -> None:
    sentence = "Earnings rose by a tenth this year, according to data by AM Best. " * 3
    body = f"<article><h1>Story</h1><p>{sentence}</p>{BODY}</article>"
    assert metadata('<meta name="author" content="Oleg Parashchak">', body).author == (
        "Oleg Parashchak"
    )


def test_language_order_and_no_metadata() -> None:
    assert metadata('<meta property="og:locale" content="de_AT">').language == "de-AT"
    page = '<html lang="fr"><head><meta property="og:locale" content="en_US"></head><p>x</p>'
    assert convert(page).metadata.language == "fr"
    assert convert("<p>Hello</p>").metadata == Metadata()
    assert Metadata(author="A").fields() == {"author": "A"}


def test_a_products_reviews_are_not_the_pages_author_nor_its_date() -> None:
    product = {"@context": "https://schema.org", "@type": "Product", "name": "Shelf unit",
               "review": [{"@type": "Review", "author": {"@type": "Person", "name": "Dorothy"},
                           "datePublished": "2026-02-03", "reviewBody": "Sturdy."}],
               "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.7"}}  # fmt: skip
    said = metadata(ld(product), "<h1>Shelf unit</h1>" + BODY)
    assert (said.published, said.author) == ("", "")


def test_a_list_of_articles_gives_no_date_of_one_of_them() -> None:
    listing = {
        "@type": "ItemList",
        "itemListElement": [
            {
                "@type": "ListItem",
                "item": {
                    "@type": "NewsArticle",
                    "datePublished": "2024-01-01",
                    "author": "Jo Bloggs",
                },
            }
        ],
    }
    said = metadata(ld(listing), "<h1>Latest news</h1>" + BODY)
    assert (said.published, said.author) == ("", "")


@pytest.mark.parametrize(
    ("byline", "author"),
    [
        # hNews and its kin: the names' element is named for the author, with no "By".
        (
            '<span class="author">Lisa Kaczke and Trevor J. Mitchell</span>'
            '<span class="publication">Argus Leader</span>',
            "Lisa Kaczke, Trevor J. Mitchell",
        ),
        (
            '<div class="article-author"><a rel="author" href="/tom">Tom Gillespie</a>'
            "<p>News reporter</p></div>",
            "Tom Gillespie",
        ),
        # "Posted by" and the name in an hCard of its own.
        (
            '<li>Posted by <span class="vcard author"><span class="fn">Vortex</span></span></li>',
            "Vortex",
        ),
        (
            '<div>By</div><div class="name">Summer Swann</div><div>June 12, 2025</div>',
            "Summer Swann",
        ),
        # A name's last letter set apart for its type: the element's whole text.
        (
            '<div class="byline__name"><a class="byline__name-link">Molly Woo<span>d</span></a>'
            "</div>",
            "Molly Wood",
        ),
        # Each author in an element of its own, joined by the page's commas.
        (
            '<p><a rel="author" class="name">Ibtisam Mahdi</a>, <a rel="author" class="name">'
            "Ruwaida Kamal Amer</a></p>",
            "Ibtisam Mahdi, Ruwaida Kamal Amer",
        ),
        # Capitals are the byline's type, not the names'; an acronym keeps them.
        (
            "<p>By LISA MASCARO, MARY CLARE JALONICK and ERIC TUCKER</p>",
            "Lisa Mascaro, Mary Clare Jalonick, Eric Tucker",
        ),
        ('<p class="byline">BBC NEWS</p>', "BBC News"),
        # The role after a second name is the first author's, not an author.
        ("<p>By TOM KRISHER, AP Auto Writer</p>", "Tom Krisher"),
    ],
)
def test_a_byline_the_markup_names(byline: str, author: str) -> None:
    assert metadata("", f"<article><h1>Story</h1>{byline}{BODY}</article>").author == author


@pytest.mark.parametrize(
    "line",
    [
        '<div>Sort by</div><div class="sort">Ranking</div>',  # a listing's control
        '<div class="author-links"><a class="author-bio">Biography</a></div>',
        '<div class="has-byline">Heard on</div><div>All Things Considered</div>',
        '<p class="author">Follow the author of this article</p>',
    ],
)
def test_no_author_from_what_only_stands_where_a_byline_may(line: str) -> None:
    assert metadata("", f"<article><h1>Story</h1>{line}{BODY}</article>").author == ""


def test_the_heading_saying_the_title_leads_where_the_only_h1_is_the_sites_name() -> None:
    body = (
        "<header><h1>Whatever</h1></header><main><article><h2>The long walk home</h2>"
        "<p>Posted on March 3, 2024 by John Scalzi</p>" + BODY + "</article></main>"
    )
    said = metadata("<title>The long walk home – Whatever</title>", body)
    assert (said.published, said.author) == ("2024-03-03", "John Scalzi")
