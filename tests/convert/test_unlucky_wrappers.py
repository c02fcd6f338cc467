"""A block named like boilerplate that holds most of the prose stays only when it wraps the
content (`webtap.convert._extract._wraps`): it holds the content's start, or the site names
its title's frame with the same word. Related posts that outweigh a short article go, and so
does a post's footer whose author box does."""

from __future__ import annotations

from tests.convert.pages import main, menu, page, paragraphs

EXCERPT = (
    "Sailing season starts in May and the club invites all members to the opening regatta "
    "on the lake where the new boats will be shown to the public for the first time this year"
)


def teasers(count: int, tag: str = "div") -> str:
    # A related post's card: its linked title, then a long excerpt of its opening.
    return "".join(
        f'<{tag} class="card"><h4><a href="/post{i}">Other post {i}</a></h4>'
        f"<p>Teaser {i}. {EXCERPT} and more {EXCERPT}</p></{tag}>"
        for i in range(count)
    )


TITLE = "Clean water"


def test_related_posts_outweighing_a_short_article_go() -> None:
    html = page(
        f"<header>{menu()}</header><main><article><h1>Clean water</h1>"
        f"{paragraphs('Body', 3)}</article>"
        f'<div class="section related-posts"><h2>Related posts</h2>{teasers(2)}</div></main>',
        title=TITLE,
    )
    text = main(html).markdown
    assert "Body 1." in text
    assert "Teaser 2." not in text and "Other post 0" not in text


def test_a_teaser_list_inside_the_chosen_block_goes() -> None:
    html = page(
        f"<header>{menu()}</header><div class=story><h1>Clean water</h1>"
        f"{paragraphs('Body', 3)}"
        f'<ul class="timeline similar">{teasers(2, "li")}</ul>'
        "</div>",
        title=TITLE,
    )
    text = main(html).markdown
    assert "Body 2." in text
    assert "Teaser 3." not in text


def test_a_wrapper_holding_the_title_stays_however_named() -> None:
    html = page(
        f"<header>{menu()}</header><div class=story>"
        '<div class="left-navigation-wrapper"><h1>Clean water</h1>'
        f"{paragraphs('Body', 4)}</div>{paragraphs('More', 3)}</div>"
        f'<div class="sidebar"><h3>Trending</h3>{menu("Trend", 8)}</div>',
        title=TITLE,
    )
    text = main(html).markdown
    assert "Body 3." in text and "More 2." in text
    assert "Trend 3" not in text


def test_a_page_builders_frames_named_like_the_titles_stay() -> None:
    # Page builders (Flatsome, ...) name every section a "banner": the title's own frame
    # is one, so the word names frames of content on this site, not promotions.
    html = page(
        f"<header>{menu()}</header><main>"
        '<div class="banner"><div class="text-box"><h1>Clean water</h1>'
        f"{paragraphs('Intro', 3)}</div></div>"
        f'<div class="row"><div class="banner"><div class="banner-layer">'
        f"<h2>Why choose us</h2>{paragraphs('Body', 4)}</div></div></div>"
        "</main>",
        title=TITLE,
    )
    text = main(html).markdown
    assert "Body 3." in text


def test_a_post_footer_whose_author_box_outweighs_a_short_post_goes() -> None:
    # The footer holds most of the page's prose (the author's bio), so the walk first takes
    # it for a layout wrapper; inside the post it is the post's footer, after its start.
    bio = " ".join(
        f"The author {i} writes about sailing on lakes in small boats." for i in range(7)
    )
    html = page(
        f"<header>{menu()}</header><article class='post'><h1>Clean water</h1>"
        f"<div class='entry-content'>{paragraphs('Body', 1)}</div>"
        "<footer class='entry-meta'>This entry was posted in <a href='/c'>News</a>."
        f"<div id='author-info'><h2>About the author</h2>{bio}</div></footer></article>",
        title=TITLE,
    )
    text = main(html).markdown
    assert "Body 0." in text
    assert "This entry was posted" not in text and "The author 3" not in text


def test_a_wrapper_named_like_boilerplate_around_the_best_block_stays() -> None:
    html = page(
        f"<header>{menu()}</header><div class='l-sidebar-fixed l-article-body'>"
        f"<h1>Clean water</h1><div class='body'>{paragraphs('Body', 5)}</div></div>"
        f"<aside>{paragraphs('Aside', 1)}</aside>",
        title=TITLE,
    )
    text = main(html).markdown
    assert "Body 4." in text and "Aside 0." not in text


FEED = "".join(
    f"<li><a href='/feed{i}'>Feed story {i}</a><div>Feed {i}. {EXCERPT}, {EXCERPT}.</div></li>"
    for i in range(4)
)
POST = (
    "<p>The club's spring meeting moved to the boathouse, where the new dinghies are kept "
    "until the lake is clear of ice; members may bring guests, and tea is served at four.</p>"
    "<p>The committee will report on the repairs to the slipway, which cost less than feared, "
    "and on the plan to lend boats to the school's sailing club on Wednesday afternoons.</p>"
)


def test_a_sidebar_whose_feed_outweighs_a_short_post_is_no_wrapper() -> None:
    # The sidebar (named so and nothing else) holds most of the prose and the best block,
    # but not the title: the region it says, not a wrapper of the content.
    html = page(
        f"<div id='header'><h1>Clean water</h1>{menu()}</div><div id='content'>"
        f"<h2>Spring meeting</h2>{POST}</div><div id='sidebar'><ul>{FEED}</ul></div>",
        title="Spring meeting | Clean water",
    )
    text = main(html).markdown
    assert "boathouse" in text
    assert "Feed 1." not in text


def test_a_wrapper_named_sidebar_that_holds_the_title_stays() -> None:
    html = page(
        f"<header>{menu()}</header><div id='sidebar'><h1>Clean water</h1>"
        f"{paragraphs('Body', 5)}</div>",
        title=TITLE,
    )
    assert "Body 4." in main(html).markdown
