"""Main-content extraction (``convert(main_content=True)``) on small hand-written pages,
one page per rule: what must stay, what must go, and when the whole page comes back."""

from __future__ import annotations

import pytest
from tests.convert.pages import PROSE, main, menu, page, paragraphs

from webtap.convert import Document, convert
from webtap.convert._boilerplate import name_verdict


def test_article_without_menus_and_footer() -> None:
    doc = main(
        page(
            f"<div class=top>{menu()}</div><div class=story>{paragraphs('Body')}</div>"
            f"<div class=links>{menu('More')}<p>Copyright 2024 Example Media Group.</p></div>"
        )
    )
    assert doc.title == "T"
    assert "Body 0." in doc.markdown and "Body 3." in doc.markdown
    assert "Section" not in doc.markdown and "More 1" not in doc.markdown
    assert "Copyright" not in doc.markdown


def test_whole_page_by_default() -> None:
    html = page(f"{menu()}<div>{paragraphs('Body')}</div>")
    doc = convert(html)
    assert doc.trimmed is False
    assert "Section 1" in doc.markdown and "Body 1." in doc.markdown
    assert convert(html) == Document(doc.title, doc.markdown, facts=doc.facts)


def test_split_body_chunks_belong_together() -> None:
    # An article body cut into chunks with the same class, with an ad and a teaser between.
    chunk = '<div class="article-chunk">{}</div>'
    html = page(
        f"{menu()}<main><h1>Headline</h1>"
        + chunk.format(paragraphs("First", 2))
        + '<div class="ad-slot"><p>Buy our product today, limited offer for you!</p></div>'
        + chunk.format(paragraphs("Second", 2))
        + '<div class="promo"><a href="/x">Watch the video</a></div>'
        + chunk.format(paragraphs("Third", 2))
        + f"</main><aside>{menu('Popular')}</aside>"
    )
    text = main(html).markdown
    assert text.index("First 0.") < text.index("Second 0.") < text.index("Third 1.")
    assert "Buy our product" not in text
    assert "Popular" not in text and "Section" not in text


def test_chunks_wrapped_alone_belong_together() -> None:
    # Each chunk alone in its own grid row: the rows are the siblings.
    row = '<div class="grid"><div class="grid-item body">{}</div></div>'
    html = page(
        f"{menu()}<article>"
        + row.format(paragraphs("First", 3))
        + row.format(paragraphs("Second", 3))
        + f"</article>{menu('Footer')}"
    )
    text = main(html).markdown
    assert "First 0." in text and "Second 2." in text
    assert "Footer" not in text


def test_nested_related_articles_are_left_out() -> None:
    teaser = (
        '<article class="teaser"><h3><a href="/t{0}">Other story {0}</a></h3><p>{1}</p></article>'
    )
    html = page(
        f"{menu()}<article class=post><h1>Headline</h1>{paragraphs('Body', 5)}"
        + "".join(teaser.format(i, PROSE) for i in range(4))
        + "</article>"
    )
    text = main(html).markdown
    assert "Body 4." in text
    assert "Other story" not in text


@pytest.mark.parametrize(
    "label",
    [
        "You may also like", "Czytaj także", "Auch interessant", "À lire également",
        "Weitere Beiträge", "Zum Weiterlesen", "Mehr zu Klima und Konsum", "Entdecken Sie jetzt",
        "Vos réactions",
    ],
)  # fmt: skip
def test_siblings_announcing_related_links_are_left_out(label: str) -> None:
    html = page(
        f"<div class=row>{paragraphs('Body', 5)}</div>"
        f"<div class=row><h3>{label}</h3>{paragraphs('Teaser', 2)}</div>"
    )
    text = main(html).markdown
    assert "Body 4." in text
    assert "Teaser" not in text and label not in text


def test_link_dense_product_cards_that_are_content() -> None:
    # Whole cards wrapped in a link: their text is not link text (its owner is not <a>).
    card = (
        '<a class="card" href="/p{0}"><h3>Kettle model {0}</h3>'
        "<p>A steel kettle, 1.7 litres, with a blue light, auto shut-off and a 360 degree "
        "base, for tea, coffee and soups.</p></a>"
    )
    html = page(
        f"<header>{menu()}</header><div class=products>"
        + "".join(card.format(i) for i in range(8))
        + f"</div><footer>{menu('Help')}</footer>"
    )
    text = main(html).markdown
    assert all(f"Kettle model {i}" in text for i in range(8))
    assert "Section 3" not in text and "Help 3" not in text


def test_reference_page_keeps_every_section_heading_table_and_code() -> None:
    section = (
        '<section id="s{0}"><h2>Function number {0}</h2><p>{1}</p>'
        "<pre><code>result = function_{0}(value, flag=True)\n\n\nprint(result)</code></pre>"
        "<table><tr><th>Argument</th><th>Meaning</th></tr>"
        "<tr><td>value</td><td>the input</td></tr></table>"
        "<dl><dt>flag</dt><dd>Whether to round.</dd></dl></section>"
    )
    sidebar = '<div class="sphinxsidebar"><h3>Table of Contents</h3>' + menu("Topic", 30) + "</div>"
    html = page(
        '<div class="document"><div class="body"><section id="top"><h1>The library</h1>'
        f"<p>{PROSE}</p>"
        + "".join(section.format(i, PROSE) for i in range(8))
        + f"</section></div></div>{sidebar}"
    )
    whole = convert(html).markdown
    text = main(html).markdown
    assert text.count("\n## Function number") == 8
    assert "# The library" in text
    assert text.count("```") == whole.count("```") == 16
    assert text.count("| Argument | Meaning |") == 8
    assert "result = function_7(value, flag=True)" in text
    assert "Topic 12" not in text


def test_one_long_entry_among_many_widens_to_all_of_them() -> None:
    # A manual page of many entries, one much longer than the rest: all entries stay.
    entry = '<dl class="py function"><dt id="f{0}">f{0}(x)</dt><dd><p>{1}</p></dd></dl>'
    long_entry = entry.format(0, " ".join([PROSE] * 12))
    html = page(
        f'<div class="body"><section><h1>Built-in functions</h1>{long_entry}'
        + "".join(entry.format(i, PROSE) for i in range(1, 15))
        + f"</section></div><div class=related>{menu()}</div>"
    )
    text = main(html).markdown
    assert "# Built-in functions" in text
    assert all(f"f{i}(x)" in text for i in range(15))


def test_images_captions_share_bars_comments_and_newsletters_are_left_out() -> None:
    html = page(
        f"{menu()}<article><h1>Headline</h1>"
        '<div class="share-bar"><a href="/fb">Facebook</a><a href="/tw">Twitter</a></div>'
        f"{paragraphs('Body', 2)}"
        '<figure><img src="/a.jpg" alt="A photo"><figcaption>The mayor, photographed on '
        "Tuesday at the town hall, during the meeting.</figcaption></figure>"
        f"{paragraphs('More', 2)}"
        '<div class="newsletter-signup"><p>Get our best stories every morning, free.</p></div>'
        '<section id="comments"><h2>3 comments</h2><p>Great article, thanks for writing it, '
        "I learnt a lot about the budget.</p></section>"
        "</article>"
    )
    text = main(html).markdown
    assert "Body 1." in text and "More 1." in text
    for gone in ("Facebook", "A photo", "/a.jpg", "photographed", "best stories", "Great article"):
        assert gone not in text


def test_a_pictures_caption_known_by_its_credit_goes_with_the_picture() -> None:
    # Captions with no figcaption nor a caption's name: in the picture's box (a <span>
    # unwrapped into it), or the block right after it; the box goes whole.
    html = page(
        f"{menu()}<article><h1>Headline</h1>{paragraphs('Body', 2)}"
        '<p><span class="rte-image"><img src="/a.jpg"><span class="caption">The stoat in '
        "winter. (jroe / iStock.com)</span></span></p>"
        f"{paragraphs('More', 2)}"
        '<div class="pic"><img src="/b.jpg"><div class="cont"><div>The island from the sea.'
        "</div><div>Photograph by Sam Poe</div></div></div>"
        '<a href="/c.jpg"><img src="/c.jpg"></a><p></p><p><em>© Press Office | Jo Doe</em></p>'
        f"{paragraphs('Last', 2)}"
        "</article>"
    )
    text = main(html).markdown
    assert "Body 1." in text and "More 1." in text and "Last 1." in text
    for gone in ("iStock", "stoat", "island from the sea", "Sam Poe", "Press Office"):
        assert gone not in text


def test_a_link_card_between_paragraphs_goes_on_a_page_of_sections_too() -> None:
    # The best block holds too little of the page's prose: the content is the page's <main>
    # without boilerplate; a "Lesen Sie auch" card amid the prose is still a teaser.
    card = (
        '<div class="embed-article"><h4>Lesen Sie auch</h4><ul><li><a href="/a">Darf ich '
        'umpflanzen?</a></li><li><a href="/b">Ist sie giftig?</a></li></ul></div>'
    )
    html = page(
        f"{menu()}<main><h1>Headline</h1>"
        f"<section>{paragraphs('Body', 2)}{card}{paragraphs('More', 3)}"
        '<div><a href="/series">More from the series</a><p>Price $79.99</p></div></section>'
        f"</main><div>{paragraphs('Else', 4)}</div>"
    )
    text = main(html).markdown
    assert "Body 1." in text and "More 2." in text
    assert "Lesen Sie auch" not in text and "giftig" not in text
    assert "Price $79.99" in text  # a card that is no teaser amid prose: an offer, say


def test_links_to_the_pages_own_comments_leave_the_content() -> None:
    # A count of the page's comments, a "join the discussion" link named for its comments:
    # controls, not what the page says. A listing's counts, each story's, stay.
    html = page(
        f"{menu()}<article><h1>Headline</h1>"
        '<div class="meta"><a href="https://example.org/story#comments">Your reactions (11)'
        '</a> <a class="label--comment" href="#interactions">Join the discussion</a></div>'
        f"{paragraphs('Body', 4)}"
        '<p>Earlier: <a href="/older">the older story</a> and <a href="/older#comment-4">one '
        "reply to it</a>.</p></article>"
    )
    text = main(html).markdown
    assert "Body 3." in text and "the older story" in text and "one reply to it" in text
    assert "reactions" not in text and "discussion" not in text
    listing = page(
        f"{menu()}<main>"
        + "".join(
            f'<div class="story"><h2><a href="/s{i}">Story {i}</a></h2><p>Story {i}. {PROSE}'
            f'</p><a href="/s{i}#comments">{i} comments</a></div>'
            for i in range(4)
        )
        + "</main>"
    )
    assert "3 comments" in main(listing).markdown


def test_a_reading_time_estimate_leaves_the_content() -> None:
    html = page(
        f'{menu()}<article><div class="reading"><p>11 minut czytania</p></div>'
        "<h1>Headline</h1><p>Nov. 20, 2019 · 3 min read</p>"
        f"<ul><li>Lesezeit: 2 Minuten</li></ul>{paragraphs('Body', 4)}"
        "<p>The walk takes 5 minutes.</p></article>"
    )
    text = main(html).markdown
    assert "Body 3." in text and "The walk takes 5 minutes." in text
    assert "3 min read" in text  # in the date line: the line is the piece's
    assert "czytania" not in text and "Lesezeit" not in text


@pytest.mark.parametrize(
    "link", ["weiter lesen", "» Weiter lesen «", "Weiterlesen…", "Read more →"]
)
def test_a_column_of_excerpts_beside_a_piece_is_neither_its_thread_nor_its_content(
    link: str,
) -> None:
    # Two dated columns side by side, the piece's and one of news excerpts each cut short
    # before its "weiter lesen" (the marks around a link's words say nothing more): no thread
    # of two posts, and the excerpts leave the page.
    teasers = "".join(
        f"<div><div>0{i}.10.2016</div> <div>Story {i}</div><div>Story {i}. The council met "
        "on Monday to discuss the fares of the ferry, which had grown by half since...</div>"
        f'<a href="/news/{i}">{link}</a></div>'
        for i in range(1, 9)
    )
    html = page(
        f"{menu()}<div><div><div>22.05.2014</div> <div><div>{paragraphs('Body', 4)}</div></div>"
        f"</div><div>{teasers}</div></div>"
    )
    text = main(html).markdown
    assert "Body 2." in text
    assert "Story 3" not in text and link not in text


def test_a_blogs_front_page_keeps_its_excerpts() -> None:
    teasers = "".join(
        f'<div class="post"><h2><a href="/p/{i}">Post {i}</a></h2><p>May {i}, 2024</p>'
        f'<p>Post {i}. {PROSE}</p><a href="/p/{i}">Read more</a></div>'
        for i in range(1, 7)
    )
    text = main(page(f"{menu()}<main>{teasers}</main>")).markdown
    assert all(f"Post {i}." in text for i in range(1, 7))


def test_a_credit_away_from_a_picture_and_a_sentence_by_one_stay() -> None:
    html = page(
        f"{menu()}<article><h1>Headline</h1>{paragraphs('Body', 2)}"
        "<p>Image: the container image the service runs, from the registry.</p>"
        '<p><img src="/chart.png"></p><p>Prices rose by a third over the year, the chart '
        "shows.</p>"
        f"{paragraphs('More', 2)}"
        "</article>"
    )
    text = main(html).markdown
    assert "Image: the container image" in text and "Prices rose" in text


def test_an_article_of_sections_under_its_title_keeps_them_all() -> None:
    # A recipe: the preparation scores best, the ingredients beside it are lines of their
    # own; the <article> holding the title and both is the piece. Its related box stays out.
    items = "".join(
        f"<li>{i}00 g of ingredient {i} from the market on Sunday</li>" for i in range(6)
    )
    steps = "".join(f"<dt>{i}.</dt><dd>Step {i}. {PROSE}</dd>" for i in range(3))
    html = (
        "<html><head><title>Plum cake</title><meta property='og:type' content='article'>"
        f"</head><body><header>{menu()}</header><article class='recipe'><header>"
        "<h1>Plum cake</h1></header><p>A cake for the end of summer, with plums.</p>"
        f"<h2>Ingredients</h2><section class='ingredients'><ul>{items}</ul></section>"
        "<h2>Preparation</h2><div class='preparation'><div class='time'>90 minutes</div>"
        f"<dl>{steps}</dl></div><div class='related'><h2>More cakes</h2>"
        "<p>Teaser: an apple cake for the autumn, with cinnamon and cream.</p></div>"
        "</article></body></html>"
    )
    text = main(html).markdown
    assert "Step 2." in text and "300 g of ingredient 3" in text and "Ingredients" in text
    assert "Teaser" not in text


def test_an_article_split_over_the_rows_of_a_layout_table_keeps_its_first_row() -> None:
    # The body grew to its cell, alone in its row; the row before it holds the article's start
    # (text straight in a cell) and scores a fifth of the body's best block.
    start = "".join(f"<font>Start {i}. {PROSE}</font><br><br>" for i in range(2))
    html = page(
        f"<table><tr><td>{menu()}</td><td><table><tr><td>{start}</td></tr>"
        f"<tr><td><div>{paragraphs('Body', 8)}</div><div>You can download this chart as a "
        "<a href='/pdf'>PDF</a> file, with the figures for every country and every year in it."
        "</div></td></tr></table></td></tr></table>"
    )
    text = main(html).markdown
    assert text.index("Start 0.") < text.index("Body 0.") and "Body 7." in text
    assert "Section 1" not in text


def test_a_block_of_links_before_the_body_stays_out() -> None:
    html = page(
        f"<div class='page'><div class='topics'>{menu('Topic')}</div>"
        f"<div class='story'><div>{paragraphs('Body', 8)}</div><div>You can download this "
        "chart as a <a href='/pdf'>PDF</a> file, with the figures for every country and every "
        "year in it.</div></div></div>"
    )
    text = main(html).markdown
    assert "Body 7." in text and "Topic 1" not in text


def test_the_story_the_title_names_among_stories_appended_after_it() -> None:
    # An article page that appends the next stories as the reader scrolls, each in a wrapper
    # of one form under a headline of its own; a later one is longer than the page's story.
    def story(i: int, count: int) -> str:
        return (
            f"<div class='scrollblock'><article class='story'><header><h1>Story number {i} "
            f"about the harbour</h1></header><div class='text'>{paragraphs(f'Story{i}', count)}"
            "</div></article></div>"
        )

    html = (
        "<html><head><title>Story number 0 about the harbour | News</title>"
        "<meta property='og:type' content='article'></head><body>"
        f"<header>{menu()}</header><article class='post'><section class='stream'>"
        f"{story(0, 2)}{story(1, 10)}{story(2, 3)}{story(3, 2)}</section></article></body></html>"
    )
    text = main(html).markdown
    assert text.startswith("# Story number 0 about the harbour\n\nStory0 0.")
    assert "Story0 1." in text
    assert "Story1" not in text and "Story2" not in text and "Story number 3" not in text


def test_a_gallery_whose_captions_carry_its_text_keeps_them() -> None:
    # Each slide is a picture with its paragraphs in the caption: the page's text. An ad's
    # figure among them stays out, and so do the pictures.
    slides = "".join(
        f"<figure class='slide'><h2>{i}. Costume {i}</h2><img src='/{i}.jpg' alt='Photo {i}'>"
        f"<figcaption class='slide-caption'><p>Slide {i}. {PROSE}</p></figcaption></figure>"
        for i in range(4)
    )
    html = page(
        f"{menu()}<article class='post'><h1>Headline</h1><p>Costumes for a cheap party.</p>"
        f"<div class='slides'>{slides}<figure class='ad'><figcaption>Sponsored by Brand, "
        "the costume shop open every day of the week.</figcaption></figure></div></article>"
    )
    text = main(html).markdown
    assert all(f"Slide {i}." in text for i in range(4))
    assert "Photo 1" not in text and "/1.jpg" not in text and "Sponsored" not in text


@pytest.mark.parametrize(
    "boilerplate",
    [
        '<div class="rodape">{}</div>',  # Portuguese footer
        '<div id="fusszeile">{}</div>',  # German footer
        '<div class="pie-de-pagina">{}</div>',  # Spanish footer
        '<div class="pied-de-page">{}</div>',  # French footer
        '<div class="barra-lateral">{}</div>',  # Portuguese/Spanish sidebar
        '<div class="comentarios">{}</div>',  # Portuguese/Spanish comments
        '<div class="compartilhar">{}</div>',  # Portuguese share bar
        '<div class="reklama">{}</div>',  # Polish ad
        '<section class="komentarze">{}</section>',  # Polish comments
        '<div class="artykuly-powiazane">{}</div>',  # Polish related articles
        '<div class="articles-connexes">{}</div>',  # French related articles
    ],
)
def test_non_english_boilerplate_names(boilerplate: str) -> None:
    html = page(
        f'<div class="conteudo">{paragraphs("Body", 5)}'
        + boilerplate.format(f"<p>{PROSE} Boilerplate.</p>")
        + "</div>"
    )
    text = main(html).markdown
    assert "Body 4." in text
    assert "Boilerplate" not in text


@pytest.mark.parametrize(
    ("names", "boilerplate"),
    [
        ("PageBuilder-pageRow", False),  # no "pager" in it
        ("elementor-widget-container", False),  # a page builder's block, not a sidebar
        ("no-sidebar", False),
        ("comments-open", False),  # a page state on a wrapper
        ("category-social tag-newsletter", False),  # WordPress taxonomy classes
        ("headerWrapper", False),
        ("pager", True),
        ("socialShare", True),
        ("post-comments", True),
        ("related_posts", True),
        ("pie-de-pagina", True),
        ("PiedDePage", True),
        ("rodape", True),
        # Plugins and templates glue their words into one name.
        ("jp-relatedposts", True),  # Jetpack's related posts
        ("yarpp yarpp-related", True),  # Yet Another Related Posts Plugin
        ("article-mostviewed", True),
        ("wp-block-mmo-recirculation-box", True),  # newsrooms' word for "read next"
        ("authorbox", True),
        # A post's date and filing line, as blog themes name it (Kubrick, Twenty Ten, ...);
        # "meta" alone also names an event's or a product's facts.
        ("postmetadata alt", True),
        ("entry-utility", True),
        ("td-module-meta-info", True),
        ("content-meta", True),
        ("event-meta event-meta-address", False),
        # A picture's caption and credit, in German and in two words.
        ("bilduntertitel", True),
        ("head__image-source", True),
        ("img-metadata", True),
        ("artDetailAutor", True),  # the author's box, in German
        ("article--authors", True),
        ("postcomment", True),  # a comment form's glued names
        ("commentform", True),
        ("saiba-mais saiba-mais-theme3", True),  # Portuguese "learn more": related links
        ("video-playlist", True),
        ("c-marginalspalten-boxen", True),  # German for the margin column
        # Left out of a printed copy: the site's chrome, by its own word.
        ("no-print", True),
        ("noprint", True),
        ("hidden-print", True),
        ("u-hidden-print", True),
        ("d-print-none", True),
        # A licence or copyright notice under the text.
        ("license copyright", True),
        ("field-name-field-lizenz", True),
        ("article-header__copyright", True),
    ],
)
def test_class_words_match_as_whole_words(names: str, boilerplate: bool) -> None:
    assert bool(name_verdict(names, None)) is boilerplate


def test_boilerplate_vocabulary_is_words() -> None:
    # A stray note in a word list becomes words of it ("the", "one"): class names of content.
    from webtap.convert import _boilerplate

    assert all(_boilerplate._WORD.fullmatch(word) for word in _boilerplate._BOILERPLATE_WORDS)


def test_whole_word_classes_do_not_drop_content() -> None:
    html = page(
        f"{menu()}"
        '<div class="PageBuilder-pageRow"><div class="elementor-widget-container">'
        f"{paragraphs('Body', 5)}</div></div>"
        f'<div class="pagination">{menu("Page", 5)}</div>'
    )
    text = main(html).markdown
    assert "Body 4." in text
    assert "Page 3" not in text


def test_columns_named_alike_that_hold_the_prose_together_are_content() -> None:
    # A tip's steps, each in a column named for how it prints: neither holds most of the
    # page's prose alone, together they hold all but the box beside them.
    html = page(
        f"<header>{menu()}</header><div class=tip>"
        f"<div class='tip-print-step'>{paragraphs('First', 2)}</div>"
        f"<div class='tip-print-step'>{paragraphs('Second', 3)}</div></div>"
        f"<div class='box'>{paragraphs('Box', 1)}</div>"
    )
    text = main(html).markdown
    assert "First 0." in text and "Second 2." in text
    assert "Box 0." not in text


def test_boxes_named_alike_beside_the_article_stay_out() -> None:
    html = page(
        f"<header>{menu()}</header><div class=story>{paragraphs('Body', 5)}</div>"
        f"<div class='sidebar-box'>{paragraphs('Side', 1)}</div>"
        f"<div class='sidebar-box'>{paragraphs('Aside', 1)}</div>"
    )
    text = main(html).markdown
    assert "Body 4." in text
    assert "Side 0." not in text and "Aside 0." not in text


def test_never_removes_an_ancestor_of_the_content() -> None:
    # The layout wrapper's class names a sidebar; it holds the article and a real sidebar.
    html = page(
        f"<header>{menu()}</header>"
        '<div class="l-sidebar-fixed l-article-body-segment">'
        f'<div class="l-col__main">{paragraphs("Body", 6)}</div>'
        f'<div class="l-col__sidebar"><h3>Trending</h3>{menu("Trend", 8)}</div>'
        "</div>"
    )
    text = main(html).markdown
    assert "Body 5." in text
    assert "Trend 3" not in text


def test_schema_org_article_body_is_trusted() -> None:
    html = page(
        f"{menu()}<div class=news-list>{paragraphs('Teaser', 6)}</div>"
        '<div itemprop="articleBody">A short breaking story: the bridge has reopened after '
        "repairs, the city said on Wednesday, two weeks earlier than planned.</div>"
    )
    text = main(html).markdown
    assert "the bridge has reopened" in text
    assert "Teaser" not in text


def test_links_stay_and_are_absolute() -> None:
    html = page(
        f'{menu()}<div class=story><p>{PROSE} See <a href="/report">the report</a>.</p>'
        f"{paragraphs('Body', 3)}</div>"
    )
    doc = convert(html, "https://example.com/news/a", main_content=True)
    assert doc.trimmed
    assert "[the report](https://example.com/report)" in doc.markdown


@pytest.mark.parametrize(
    "html",
    [
        "",
        "<p>Hello</p>",
        page("<p>Just one short line.</p>"),
        page(menu() + menu("More")),  # nothing but links
        page("<div><p>Short.</p></div>" * 3),
        page("<table><tr><td>a</td><td>b</td></tr></table>"),
    ],
)
def test_falls_back_to_the_whole_page(html: str) -> None:
    doc = convert(html, main_content=True)
    assert doc.trimmed is False
    assert doc == convert(html)


def test_falls_back_when_the_content_is_a_sliver_of_the_page() -> None:
    # A front page of many equal stories: no block stands out enough to be "the" content.
    story = '<div class="story-{0}"><h2>Story {0}</h2><p>{1}</p></div>'
    html = page("".join(story.format(i, PROSE) for i in range(12)))
    doc = convert(html, main_content=True)
    assert "Story 0" in doc.markdown and "Story 11" in doc.markdown


def test_odd_input_never_raises(invariants) -> None:
    for html in (
        "<body><td>cell text, long enough, with commas, to be a paragraph here</td></body>",
        "<li>" * 50 + PROSE,
        f"<article><article><article>{paragraphs('Deep', 3)}</article></article></article>",
        f"<body><div class=comments>{paragraphs('Only comments', 4)}</div></body>",
    ):
        doc = convert(html, main_content=True)
        invariants(doc.markdown)


def test_old_layout_table_cell_of_text() -> None:
    # A 1990s page: the article is text and <br>s straight in a table cell beside a menu cell.
    links = " ".join(f'<a href="/l{i}">Link {i}</a>' for i in range(20))
    html = page(
        f"<table><tr><td>{links}</td><td>"
        + "<br><br>".join(f"Part {i}. {PROSE}" for i in range(5))
        + f"</td></tr><tr><td colspan=2>Footer {links}</td></tr></table>"
    )
    text = main(html).markdown
    assert "Part 0." in text and "Part 4." in text
    assert "Link 3" not in text and "Footer" not in text


def test_related_links_at_the_content_end_are_left_out() -> None:
    html = page(
        f"{menu()}<div class=story><p>Related to this, {PROSE}</p>{paragraphs('Body', 5)}"
        f"<h3>Related posts</h3>{menu('Other', 6)}</div>"
    )
    text = main(html).markdown
    assert "Related to this," in text and "Body 4." in text
    assert "Related posts" not in text and "Other 2" not in text


def test_real_pages(real_page: bytes, invariants) -> None:
    doc = convert(real_page, main_content=True)
    invariants(doc.markdown)
    whole = convert(real_page)
    assert doc.title == whole.title
    if doc.trimmed:
        assert 0 < len(doc.markdown) < len(whole.markdown)
    else:
        assert doc.markdown == whole.markdown


def test_deep_and_wide_pages_stay_linear(invariants) -> None:
    deep = "<div class=sidebar>" * 3000 + PROSE + "</div>" * 3000
    wide = "<body>" + paragraphs("Body", 2000) + menu("Link", 2000) + "</body>"
    for html in (deep, wide):
        invariants(convert(html, main_content=True).markdown)


def test_share_links_without_a_telling_class_are_left_out() -> None:
    html = page(
        f"{menu()}<div class=story>"
        '<p><a href="whatsapp://send?text=x">Share this on WhatsApp</a> '
        '<a href="https://www.facebook.com/sharer/sharer.php?u=x">Facebook</a></p>'
        f"{paragraphs('Body', 4)}</div>"
    )
    text = main(html).markdown
    assert "Body 3." in text
    assert "WhatsApp" not in text and "Facebook" not in text


def test_embedded_social_posts_are_content() -> None:
    html = page(
        f"{menu()}<div class=story>{paragraphs('Body', 4)}"
        '<div class="social-media-embed"><blockquote class="twitter-tweet"><p>Yes this is real '
        "and the state spent half a million dollars on it.</p></blockquote></div>"
        f'{paragraphs("After", 2)}<div class="social-share"><p>Share on social networks</p></div>'
        "</div>"
    )
    text = main(html).markdown
    assert "Yes this is real" in text and "After 1." in text
    assert "Share on social" not in text


def test_list_items_emptied_by_the_cut_leave_no_bare_bullets() -> None:
    # Each result's colour swatches are buttons; with them gone their items would be "-".
    results = "".join(
        f"<li><ul><li><button>red</button></li><li><button>blue</button></li></ul>"
        f"<a href='/p{i}'>Boot {i}</a><p>{PROSE}</p></li>"
        for i in range(3)
    )
    markdown = main(page(f"<main><h1>Boots</h1><ul>{results}</ul></main>")).markdown
    assert "[Boot 2](/p2)" in markdown
    assert not [line for line in markdown.splitlines() if line.strip() in ("-", "*")]
    # The whole page writes every item, as the HTML has it.
    whole = convert(page("<ul><li></li><li>x</li></ul>")).markdown
    assert whole.splitlines()[:2] == ["-", "- x"]
