"""The page's title heading leads its main content (``convert(main_content=True)``): a
heading above the block that scored best is put back before it, once; a site's logo is not."""

from __future__ import annotations

from webtap.convert import Document, convert

PROSE = (
    "The committee met on Tuesday to discuss the budget, which had grown by a third since "
    "last year, and agreed to cut spending on roads, parks and libraries by the same amount."
)
BODY = "".join(f"<p>Point {i}. {PROSE}</p>" for i in range(4))


def main(body: str, title: str = "App") -> Document:
    html = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    doc = convert(html, main_content=True)
    assert doc.trimmed, "expected the main content, got the whole page"
    return doc


def test_script_built_article_keeps_its_heading() -> None:
    doc = main(f"<article><h1>Rendered Title</h1>{BODY}</article>")
    assert doc.markdown.startswith("# Rendered Title\n\nPoint 0.")


def test_heading_above_a_div_of_paragraphs_leads() -> None:
    doc = main(f"<h1>Rendered Title</h1><div>{BODY}</div><footer>Copyright 2024</footer>")
    assert doc.markdown.startswith("# Rendered Title\n\nPoint 0.")


def test_heading_in_main_stays_first() -> None:
    doc = main(f"<main><h1>Rendered Title</h1>{BODY}</main>")
    assert doc.markdown.startswith("# Rendered Title\n\nPoint 0.")


def test_heading_saying_the_title_leads_among_several() -> None:
    doc = main(
        f"<h1>Budget cut for roads and parks</h1><div>{BODY}</div><h1>Elsewhere</h1>",
        title="Budget cut for roads and parks | The Daily",
    )
    assert doc.markdown.startswith("# Budget cut for roads and parks\n\nPoint 0.")


def test_a_logo_heading_in_the_header_is_not_pulled() -> None:
    doc = main(f'<header><h1><a href="/">Daily Site</a></h1></header><div>{BODY}</div>')
    assert "Daily Site" not in doc.markdown
    assert doc.markdown.startswith("Point 0.")


def test_content_holding_its_title_keeps_one_copy() -> None:
    doc = main(
        f"<h1>Budget cut for roads and parks</h1>"
        f"<div><h2>Budget cut for roads and parks</h2>{BODY}</div>",
        title="Budget cut for roads and parks",
    )
    assert doc.markdown.count("Budget cut for roads and parks") == 1


def test_heading_below_the_content_is_not_moved_up() -> None:
    doc = main(f"<div>{BODY}</div><div><h1>Comments</h1></div>")
    assert doc.markdown.startswith("Point 0.")


def test_the_only_h1_leads_when_the_title_is_worded_as_a_subheading() -> None:
    doc = main(
        f"<header><h1>Road budget explained</h1></header>"
        f"<div><h2>Which roads lose their budget?</h2>{BODY}</div>",
        title="Which roads lose their budget? | The Daily",
    )
    assert doc.markdown.startswith("# Road budget explained\n\n## Which roads lose their budget?")


def test_a_threads_title_leads_its_posts() -> None:
    from tests.convert.test_threads import POSTS, discourse_like

    doc = convert(discourse_like(), main_content=True)
    assert doc.markdown.startswith("# Upgrading with an old config file\n\n")
    assert doc.markdown.count("Upgrading with an old config file") == 1
    assert POSTS[0][2] in doc.markdown


def test_a_logo_h1_gives_way_to_the_heading_saying_the_title() -> None:
    doc = main(
        f'<header><a href="/"><h1>Daily Site</h1></a></header>'
        f"<article><h2>Budget cut for roads and parks</h2><div>{BODY}</div></article>",
        title="Budget cut for roads and parks | Daily Site",
    )
    assert doc.markdown.startswith("## Budget cut for roads and parks\n\nPoint 0.")
    assert "Daily Site" not in doc.markdown


def test_a_title_in_a_banner_inside_the_content_still_leads() -> None:
    # A "banner" is boilerplate by its name: the content's pruning drops it, title and all.
    doc = main(f'<div><div class="banner"><h1>Rentals for a week</h1></div>{BODY}</div>')
    assert doc.markdown.startswith("# Rentals for a week\n\nPoint 0.")


def test_standfirst_and_byline_come_between_title_and_body() -> None:
    doc = main(
        "<h1>Budget cut for roads and parks</h1>"
        '<p class="standfirst">The council trims a third from three services.</p>'
        '<div class="byline">By <a rel="author" href="/staff/jane">Jane Roe</a></div>'
        f"<div>{BODY}</div>"
    )
    assert doc.markdown.startswith(
        "# Budget cut for roads and parks\n\n"
        "The council trims a third from three services.\n\n"
        "By [Jane Roe](/staff/jane)\n\nPoint 0."
    )


def test_an_articles_header_brings_its_title_byline_and_date() -> None:
    # An <article>'s <header> named like a byline is pruned from the content as boilerplate.
    doc = main(
        '<article><header class="article-header"><h1>Budget cut for roads</h1>'
        '<div class="article-byline"><span class="author">Jane Roe</span> '
        '<time datetime="2019-11-20">Nov. 20, 2019</time></div></header>'
        f"{BODY}</article>"
    )
    assert doc.markdown.startswith("# Budget cut for roads\n\nJane Roe Nov. 20, 2019\n\nPoint 0.")


def test_a_share_bar_and_a_topic_list_between_title_and_body_stay_out() -> None:
    doc = main(
        "<h1>Budget cut for roads and parks</h1>"
        '<ul><li><a href="/politics">Politics</a></li><li><a href="/city">City</a></li></ul>'
        '<div><a href="https://twitter.com/intent/tweet?url=x">Tweet</a>'
        '<a href="https://www.facebook.com/sharer/sharer.php?u=x">Share</a></div>'
        '<p class="dateline"><time>20 November 2019</time></p>'
        f"<div>{BODY}</div>"
    )
    assert doc.markdown.startswith(
        "# Budget cut for roads and parks\n\n20 November 2019\n\nPoint 0."
    )
    for word in ("Tweet", "Share", "Politics"):
        assert word not in doc.markdown


def test_the_opening_stops_where_the_body_starts() -> None:
    # A date under a body's first paragraph is the body's, not the opening's: it stays put.
    doc = main(
        f"<article><header><h1>Budget cut</h1></header><p>Lead paragraph. {PROSE}</p>"
        f'<p class="date">Written 2019</p>{BODY}</article>'
    )
    assert doc.markdown.startswith("# Budget cut\n\nLead paragraph.")
    assert doc.markdown.count("Written 2019") <= 1


def test_a_grid_of_cards_after_the_title_is_no_opening() -> None:
    card = (
        '<div class="card"><a href="/p/{0}">Oil {0}</a> <span class="caption">From $3{0}</span>'
        "</div>"
    )
    doc = main(
        "<main><h1>Beard oils</h1>"
        f'<div class="grid">{"".join(card.format(i) for i in range(3))}</div>'
        f"<div>{BODY}</div></main>"
    )
    assert doc.markdown.startswith("# Beard oils\n\n")
    assert "From $30" not in doc.markdown.split("Point 0.")[0]


def test_an_authors_box_and_a_comment_count_are_no_byline() -> None:
    doc = main(
        '<h1><a href="/budget-cut">Budget cut for roads and parks</a></h1>'
        '<div class="author-box"><h4>About Jane Roe</h4><p>Jane writes on cities.</p></div>'
        '<p class="byline">By Jane Roe <a href="#comments">12 comments</a></p>'
        f"<div>{BODY}</div>"
    )
    assert doc.markdown.startswith("# Budget cut for roads and parks\n\nBy Jane Roe\n\nPoint 0.")
    assert "About Jane Roe" not in doc.markdown


def test_the_lead_pictures_caption_and_credit_are_no_opening() -> None:
    # The picture is left out of the content: its caption and credit (named "author" in a
    # picture's box, a figcaption, schema.org's image) go with it; the byline stays.
    doc = main(
        "<h1>Budget cut for roads and parks</h1>"
        '<div class="byline"><img class="avatar" src="/jane.jpg"> By Jane Roe</div>'
        '<div class="lead-img"><img src="/park.jpg"><div class="img-author">Photograph by '
        "Sam Poe</div></div>"
        '<div itemprop="image" itemscope><img src="/road.jpg"><figcaption>A road in the park'
        "</figcaption></div>"
        '<figure><img src="/map.jpg"><figcaption>The roads, mapped</figcaption></figure>'
        f"<div>{BODY}</div>"
    )
    assert doc.markdown.startswith("# Budget cut for roads and parks\n\nBy Jane Roe\n\nPoint 0.")
    for caption in ("Photograph by", "A road in the park", "mapped"):
        assert caption not in doc.markdown


def test_a_standfirst_set_as_a_heading_comes_as_a_paragraph() -> None:
    # A CMS sets the dek in an <h2> (in a wrapper named for it, its byline and share links
    # beside): sentences, where a section's heading names a topic.
    doc = main(
        '<div class="banner"><h1>Budget cut for roads and parks</h1>'
        '<div class="header-dek"><h2>The council trims a third from three services. Roads, parks '
        "and libraries lose the most of it.</h2>"
        '<div class="contributors">by <a href="/staff/jane">Jane Roe</a> '
        '<a class="social-link" href="javascript:;">Share</a></div></div></div>'
        f"<div>{BODY}</div>"
    )
    assert doc.markdown.startswith(
        "# Budget cut for roads and parks\n\n"
        "The council trims a third from three services. Roads, parks and libraries lose "
        "the most of it.\n\n"
        "by [Jane Roe](/staff/jane)\n\nPoint 0."
    )
    assert "Share" not in doc.markdown


def test_a_section_heading_after_the_title_ends_the_opening() -> None:
    doc = main(
        "<h1>Budget cut for roads and parks</h1><h2>What the council decided</h2>"
        f'<p class="byline">By Jane Roe</p><div>{BODY}</div>'
    )
    assert "By Jane Roe" not in doc.markdown.split("What the council decided")[0]


def test_a_standfirst_in_the_bodys_frame_comes_after_the_title() -> None:
    # The lead sits beside the body inside the frame that holds both; the frame's picture
    # caption and its byline are the body's apparatus and stay out with the rest of it.
    doc = main(
        "<header><h1>Budget cut for roads and parks</h1></header>"
        '<div class="frame"><figure class="lead-media"><figcaption>Photo: Jo Doe</figcaption>'
        '</figure><p class="byline">By Jane Roe</p>'
        '<div class="lead">The council trims a third from three services.</div>'
        f'<div class="body">{BODY}</div></div>'
    )
    assert doc.markdown.startswith(
        "# Budget cut for roads and parks\n\nThe council trims a third from three services."
        "\n\nPoint 0."
    )
    assert "Photo: Jo Doe" not in doc.markdown and "Jane Roe" not in doc.markdown


def test_a_standfirst_set_as_a_heading_comes_after_the_title() -> None:
    # A heading written as a sentence is no section's title; the opening ends with it, as
    # it ends at any heading.
    doc = main(
        "<header><h1>Budget cut for roads and parks</h1>"
        "<h2>Three services lose a third of their money.</h2>"
        '<p class="byline">By Jane Roe</p></header>'
        f'<div class="body">{BODY}</div>'
    )
    assert doc.markdown.startswith(
        "# Budget cut for roads and parks\n\n"
        "Three services lose a third of their money.\n\nPoint 0."
    )


def test_the_titles_subtitle_in_its_hgroup_comes_after_it() -> None:
    doc = main(
        "<header><hgroup><h1>Budget cut for roads and parks</h1>"
        "<h2>Three services lose a third</h2></hgroup></header>"
        f'<div class="body">{BODY}</div>'
    )
    assert doc.markdown.startswith(
        "# Budget cut for roads and parks\n\nThree services lose a third\n\nPoint 0."
    )


def test_a_section_heading_after_the_title_stays_in_its_place() -> None:
    doc = main(
        "<h1>Budget cut for roads and parks</h1><div class='intro'><h2>Background</h2>"
        f"<p>Lead paragraph. {PROSE}</p></div><div class='body'>{BODY}</div>"
    )
    text = doc.markdown
    assert not text.startswith("# Budget cut for roads and parks\n\nBackground")
    assert text.count("Background") <= 1


def test_a_heading_marked_as_the_headline_leads_whatever_its_level() -> None:
    doc = main(
        "<div class='news'><h3 itemprop='headline'>Budget cut for roads and parks</h3>"
        "<div itemprop='description'><p>Three services lose a third of their money.</p></div>"
        f"<div itemprop='articleBody'>{BODY}</div></div>",
        title="Budget cut for roads and parks - City News",
    )
    assert doc.markdown.startswith(
        "### Budget cut for roads and parks\n\nThree services lose a third of their money.\n\n"
        "Point 0."
    )


def test_the_pages_teaser_in_an_aside_does_not_take_the_titles_place() -> None:
    # The most-read box repeats the story with the site's name as its kicker: more of the
    # <title>'s words than the story's own heading says.
    doc = main(
        "<aside><ul><li><h2><a href='/s1'>City News Budget cut for roads and parks</a></h2>"
        "</li></ul></aside>"
        "<div class='story'><header><h1>Budget cut for roads and parks</h1>"
        "<p class='byline'>By Jane Roe</p></header>"
        f"<div class='body'>{BODY}</div></div>",
        title="Budget cut for roads and parks - City News",
    )
    assert doc.markdown.startswith("# Budget cut for roads and parks\n\nBy Jane Roe\n\nPoint 0.")
