"""Main-content extraction keeps all of the content: hand-written pages, one per rule, each
with text a reader wants that an earlier rule dropped (a label over the whole body, ...)."""

from __future__ import annotations

from tests.convert.pages import main, menu, page, paragraphs


def test_a_label_over_the_whole_body_keeps_it() -> None:
    # A subscription box opens the wrapper that holds the whole article: its label
    # ("Subscribe") announces the box, not the article after it.
    body = (
        '<div class="article-body" itemprop="articleBody"><div class="wrap">'
        '<div class="promo"><a href="/subscribe">Subscribe</a></div>'
        f'<div class="text">{paragraphs("Body", 6)}</div></div></div>'
    )
    doc = main(page(f"{menu()}<article>{body}</article>{menu('More')}"))
    assert "Body 0." in doc.markdown and "Body 5." in doc.markdown
    assert "Section 1" not in doc.markdown


def test_the_lead_between_title_and_body_stays() -> None:
    # A CMS sets the article's lead (standfirst) in its header, beside the title, apart
    # from the body, in a paragraph no class names: it stays, once, after the title's
    # opening (the byline and subtitle the header marks) and before the body.
    lead = (
        "The council agreed on a smaller budget after a long night of talks, its first cut "
        "in a decade. Roads, parks and libraries lose a third of their money from June."
    )
    header = (
        f"<header>{menu('Topic', 20)}<h1>Budget cut</h1><p class=byline>By Jane Doe, 3 May</p>"
        "<p class=subtitle>The council cuts its spending by a third, and the city waits.</p>"
        f"<p>{lead}</p></header>"
    )
    doc = main(
        page(
            f"{menu()}<article>{header}<div class=body>{paragraphs('Body', 12)}</div>"
            f"</article>{menu('More')}",
            title="Budget cut",
        )
    )
    assert doc.markdown.startswith(
        "# Budget cut\n\nBy Jane Doe, 3 May\n\n"
        f"The council cuts its spending by a third, and the city waits.\n\n{lead}\n\nBody 0."
    )
    assert doc.markdown.count(lead) == 1
    assert "Section 1" not in doc.markdown and "Topic 1" not in doc.markdown


def test_every_block_marked_as_the_body_stays() -> None:
    # The page marks each section of its body itemprop="articleBody", each in a wrapper of
    # its own with an ad slot between: the first wrapper alone is not the body.
    section = '<div class=wrap><section itemprop="articleBody">{}</section></div>'
    sections = '<div class="ad">Advertisement</div>'.join(
        section.format(paragraphs(word, 3)) for word in ("First", "Second", "Third")
    )
    doc = main(page(f"{menu()}<article><h1>T</h1><div class=container>{sections}</div></article>"))
    for word in ("First", "Second", "Third"):
        assert f"{word} 0." in doc.markdown and f"{word} 2." in doc.markdown
    assert "Section 1" not in doc.markdown


def test_a_section_of_prose_with_a_boilerplate_word_in_its_class_stays() -> None:
    # A report's sections, one of them marked as the variant with an ad slot beside it
    # (BEM's modifier "--ads"): paragraphs of prose are the report's, whatever the name;
    # the ad slot itself, a line, still goes, and so does a section of another kind.
    sections = (
        f'<section class="report__section">{paragraphs("First", 4)}</section>'
        f'<section class="report__section report__section--ads">{paragraphs("Second", 4)}'
        '<div class="ad-slot">Advertisement: buy our grills now</div></section>'
        f'<section class="report__section">{paragraphs("Third", 4)}</section>'
        f'<section class="sponsored">{paragraphs("Paid", 4)}</section>'
    )
    doc = main(page(f"{menu()}<article class=report><h1>T</h1>{sections}</article>"))
    for word in ("First", "Second", "Third"):
        assert f"{word} 0." in doc.markdown and f"{word} 3." in doc.markdown
    assert "Advertisement" not in doc.markdown and "Paid 0" not in doc.markdown
    assert "Section 1" not in doc.markdown


def test_a_post_body_written_by_a_script_is_read_from_its_noscript() -> None:
    # Blogger's post body: a script writes the post, and <noscript> holds the same text for
    # readers without scripts; the page around it (archive, labels) holds text of its own.
    archive = menu("Archive", 30)
    body = (
        '<div class="post-body"><script>document.write(render(post))</script>'
        f"<noscript>{paragraphs('Post', 3)}</noscript></div>"
        '<div class="note"><noscript><p>Please enable JavaScript to see the comments, '
        "which this blog loads from another server after the page has been shown, and "
        "which need it to be written at all: without it none of them is shown.</p>"
        "</noscript><p>Comments</p></div>"
    )
    doc = main(page(f"<div class=main><h1>T</h1>{body}</div><div class=side>{archive}</div>"))
    assert "Post 0." in doc.markdown and "Post 2." in doc.markdown
    assert "document.write" not in doc.markdown and "enable JavaScript" not in doc.markdown
    assert "Archive 1" not in doc.markdown


def test_a_heading_keeps_an_anchor_made_of_its_words() -> None:
    # A heading's id is the anchor its page's table of contents links to, made of its own
    # words ("nav_..."): it says nothing of the block. An id that is not its words
    # ("comments" over "No responses yet") still names the section the heading opens.
    body = (
        f"{paragraphs('First', 4)}<h3 id=nav_budget_cuts_ahead__1>Budget cuts ahead</h3>"
        f"{paragraphs('Second', 4)}"
    )
    comments = "<h2 id=comments>No responses yet</h2>"
    doc = main(page(f"{menu()}<article><h1>T</h1><div class=text>{body}</div>{comments}</article>"))
    assert "### Budget cuts ahead" in doc.markdown
    assert "Second 3." in doc.markdown and "No responses" not in doc.markdown


def test_teasers_marked_as_bodies_do_not_hide_the_post() -> None:
    # Related posts' cards, each marked up as a post with its excerpt as articleBody; the
    # page's own post is not marked: the excerpts are not its body.
    card = (
        '<div itemscope itemtype="https://schema.org/BlogPosting" class=card>'
        '<h3><a href="/p{0}">Post {0}</a></h3><div itemprop="articleBody">'
        "<p>Excerpt {0}: a short summary of another post, which a reader may open.</p></div></div>"
    )
    cards = "".join(card.format(i) for i in range(3))
    doc = main(
        page(
            f"{menu()}<article><h1>T</h1><div class=text>{paragraphs('Body', 8)}</div>"
            f"</article><aside>{cards}</aside>"
        )
    )
    assert "Body 0." in doc.markdown and "Body 7." in doc.markdown
    assert "Excerpt 1" not in doc.markdown
