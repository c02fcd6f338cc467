"""Discussion pages in main content: every post of a thread, in order, each under a line with
its author and date; comments under an article stay out. Small hand-written pages shaped like
the forum software that serves them (no text copied from a real page)."""

from __future__ import annotations

from webtap.convert import CONTENT, convert

SCHEMA = "https://schema.org/"

POSTS = [
    ("marta", "March 3, 2025, 9:12am", "Does the new release still read the old config file, "
     "or do I have to convert it by hand before upgrading the servers?"),
    ("ilya", "March 3, 2025, 9:40am", "It reads it, but it warns about the two keys that were "
     "renamed; run the check command once and it tells you which lines to change."),
    ("noor", "March 4, 2025, 2:05pm", "Same here: the warning went away after renaming the "
     "keys, and the servers picked up the new settings on the next restart."),
]  # fmt: skip


def order(markdown: str, *needles: str) -> list[int]:
    """Where each needle is in ``markdown`` (it fails if one is missing)."""
    return [markdown.index(needle) for needle in needles]


def discourse_like() -> str:
    """A script shell whose thread waits in <noscript>, marked up with schema.org microdata:
    the first post's item holds the topic, the replies are Comment items beside its body."""
    first, *replies = POSTS

    def post(author: str, date: str, text: str, attrs: str = "") -> str:
        return (
            f"<div class='topic-body crawler-post'{attrs}><div class='crawler-post-meta'>"
            f"<span class='creator' itemprop='author' itemscope itemtype='{SCHEMA}Person'>"
            f"<a itemprop='url' href='/u/{author}'><span itemprop='name'>{author}</span></a>"
            f"</span><span class='crawler-post-infos'><time class='post-time'>{date}</time>"
            f"</span></div><div class='post' itemprop='text'><p>{text}</p></div>"
            "<div class='post-likes'>3 Likes</div></div>"
        )

    thread = "".join(
        post(*reply, f" itemprop='comment' itemscope itemtype='{SCHEMA}Comment'")
        for reply in replies
    )
    return (
        "<html><head><title>Upgrading - Example Forum</title></head><body>"
        "<div id='main-outlet'></div><script src='/app.js'></script>"
        "<noscript><header><a href='/'>Example Forum</a></header>"
        "<div id='topic-title'><h1>Upgrading with an old config file</h1></div>"
        f"<div itemscope itemtype='{SCHEMA}DiscussionForumPosting'>"
        "<meta itemprop='headline' content='Upgrading with an old config file'>"
        f"{post(*first)}{thread}</div>"
        "<footer><p>Powered by a forum engine</p></footer></noscript></body></html>"
    )


def test_discourse_thread_in_noscript_comes_back_whole_with_authors_and_dates() -> None:
    doc = convert(discourse_like(), main_content=True)
    assert doc.state == CONTENT and doc.trimmed
    headers = [f"**{author}** · {date}" for author, date, _ in POSTS]
    texts = [text for _, _, text in POSTS]
    at = order(doc.markdown, headers[0], texts[0], headers[1], texts[1], headers[2], texts[2])
    assert at == sorted(at)
    assert "Powered by" not in doc.markdown and "3 Likes" not in doc.markdown


def test_discourse_thread_in_noscript_is_the_whole_page_too() -> None:
    doc = convert(discourse_like())
    assert doc.state == CONTENT
    assert all(text in doc.markdown for _, _, text in POSTS)


def hacker_news_like() -> str:
    """A link aggregator's thread: the submission is a title and a link; the comments, in a
    table of rows named ``comment``, each with its user and age, are the content."""
    rows = []
    more = [
        ("sam", "", "Thanks, the check command found both keys in our files at once."),
        ("lee", "", "Does it also warn about the section that was moved last year?"),
    ]
    for depth, (user, _, text) in zip((0, 1, 0, 1, 0), POSTS + more, strict=True):
        rows.append(
            f"<tr class='athing comtr' id='c{depth}{user}'><td><table><tr>"
            f"<td class='ind' indent='{depth}'><img src='s.gif' width='{depth * 40}'></td>"
            "<td class='default'><div><span class='comhead'>"
            f"<a href='user?id={user}' class='hnuser'>{user}</a> "
            f"<span class='age' title='2025-03-03T09:12:00'><a href='item?id=1'>"
            f"{depth + 2} hours ago</a></span> <span class='navs'>| <a href='#'>next</a>"
            "</span></span></div><div class='comment'><div class='commtext c00'>"
            f"{text}</div><div class='reply'><p><a href='reply?id=1'>reply</a></p></div>"
            "</div></td></tr></table></td></tr>"
        )
    return (
        "<html><head><title>Show: a config checker | Link News</title></head><body>"
        "<center><table id='hnmain'><tr><td><table><tr><td><a href='news'>Link News</a> "
        "<a href='newest'>new</a> | <a href='ask'>ask</a> | <a href='show'>show</a></td>"
        "</tr></table></td></tr><tr><td><table class='fatitem'><tr class='athing submission'>"
        "<td class='title'><a href='https://example.com/checker'>Show: a config checker</a>"
        "</td></tr><tr><td class='subtext'>120 points by marta 5 hours ago | 3 comments"
        f"</td></tr></table><table class='comment-tree'>{''.join(rows)}</table></td></tr>"
        "<tr><td><a href='guidelines'>Guidelines</a> | <a href='faq'>FAQ</a></td></tr>"
        "</table></center></body></html>"
    )


def test_hacker_news_like_comment_tree_is_the_content() -> None:
    doc = convert(hacker_news_like(), main_content=True)
    assert doc.trimmed
    at = order(
        doc.markdown,
        "marta", "2 hours ago", POSTS[0][2], "ilya", "3 hours ago", POSTS[1][2],
        "noor", POSTS[2][2], "sam", "lee", "moved last year",
    )  # fmt: skip
    assert at == sorted(at)
    assert "Guidelines" not in doc.markdown and "[reply]" not in doc.markdown


def test_unmarked_first_post_beside_marked_replies_keeps_its_author_and_date() -> None:
    # Forum software that marks the replies as Comment items but not the opening post: the
    # opening post is the sibling of the same form, its text where the replies have theirs.
    def message(author: str, date: str, text: str, marked: bool) -> str:
        item = f" itemscope itemtype='{SCHEMA}Comment'" if marked else ""
        prop = " itemprop='author'" if marked else ""
        name = f"<span itemprop='name'>{author}</span>" if marked else author
        body_prop = " itemprop='text'" if marked else ""
        return (
            f"<article class='message message--post'{item}><div class='message-inner'>"
            f"<div class='message-cell message-cell--user'><section class='message-user'{prop}>"
            f"<a class='username' href='/members/{author}'>{name}</a><dl><dt>Messages</dt>"
            "<dd>1,204</dd></dl></section></div><div class='message-cell message-cell--main'>"
            f"<header><time datetime='2025-03-03'>{date}</time></header>"
            f"<div class='message-body'><div{body_prop}><p>{text}</p></div></div>"
            "<footer><a href='/reply'>Reply</a></footer></div></div></article>"
        )

    posts = "".join(message(*post, marked=i > 0) for i, post in enumerate(POSTS))
    html = (
        "<html><head><title>Upgrading</title></head><body><nav><a href='/'>Forums</a></nav>"
        f"<h1>Upgrading with an old config file</h1><div class='block-body'>{posts}</div>"
        "<aside class='sidebar'><h3>Members online</h3><p>marta, ilya</p></aside></body></html>"
    )
    doc = convert(html, main_content=True)
    headers = [f"**{author}** · {date}" for author, date, _ in POSTS]
    at = order(doc.markdown, headers[0], POSTS[0][2], headers[1], headers[2], POSTS[2][2])
    assert at == sorted(at)
    assert "1,204" not in doc.markdown and "Members online" not in doc.markdown


def test_question_and_answers_without_the_comments_under_them() -> None:
    def person(name: str) -> str:
        return (
            f"<div itemprop='author' itemscope itemtype='{SCHEMA}Person'>"
            f"<a href='/users/{name}' itemprop='name'>{name}</a></div>"
        )

    comment = (
        f"<li class='comment' itemscope itemtype='{SCHEMA}Comment'>"
        "<span itemprop='text'>Which version are you on, exactly?</span> – "
        f"{person('kofi')}<time itemprop='dateCreated'>Mar 3 at 10:00</time></li>"
    )
    answers = "".join(
        f"<div class='answer' itemprop='suggestedAnswer' itemscope itemtype='{SCHEMA}Answer'>"
        f"<div class='s-prose' itemprop='text'><p>{text}</p></div>{person(author)}"
        f"<time itemprop='dateCreated' datetime='2025-03-03'>{date}</time>"
        f"<ul class='comments'>{comment}</ul></div>"
        for author, date, text in POSTS[1:]
    )
    author, date, text = POSTS[0]
    html = (
        "<html><head><title>Old config</title></head><body>"
        f"<div itemscope itemtype='{SCHEMA}QAPage'><div itemprop='mainEntity' itemscope "
        f"itemtype='{SCHEMA}Question'><h1 itemprop='name'>Old config after upgrading?</h1>"
        f"<div class='s-prose' itemprop='text'><p>{text}</p></div>{person(author)}"
        f"<time itemprop='dateCreated'>{date}</time>"
        f"<div id='answers'>{answers}</div></div></div></body></html>"
    )
    doc = convert(html, main_content=True)
    at = order(doc.markdown, f"**{author}** · {date}", text, "**ilya**", POSTS[1][2], "**noor**")
    assert at == sorted(at)
    assert "Which version are you on" not in doc.markdown


def test_faq_marked_as_questions_and_answers_is_not_a_thread() -> None:
    # Questions and answers without authors or dates: a service page's FAQ, not a discussion.
    intro = "".join(
        f"<p>Our movers pack, load and carry everything for you, {word}, and we insure every "
        "box we lift from the first floor to the last.</p>"
        for word in ("in town", "across the state", "on weekends", "at night")
    )
    faq = "".join(
        f"<div itemscope itemtype='{SCHEMA}Question'><h3 itemprop='name'>Question {n}?</h3>"
        f"<div itemscope itemtype='{SCHEMA}Answer' itemprop='acceptedAnswer'>"
        f"<p itemprop='text'>Answer {n}: yes, and it costs nothing extra to ask us for it.</p>"
        "</div></div>"
        for n in range(3)
    )
    html = f"<html><body><main><h1>Moving</h1>{intro}<section>{faq}</section></main></body></html>"
    doc = convert(html, main_content=True)
    assert "across the state" in doc.markdown
    assert "**" not in doc.markdown.split("Question 0")[0]  # no post header made up


def test_comments_under_an_article_stay_out() -> None:
    # The page says it is an article: its comment section is not its content, however long.
    story = "".join(
        f"<p>Paragraph {n}: the river rose overnight and the council opened the old flood "
        "gates for the first time in twenty years, to the relief of the farmers below.</p>"
        for n in range(4)
    )
    comments = "".join(
        f"<li class='comment'><div class='comment-author'>reader{n}</div>"
        f"<div class='comment-meta'>March {n + 1}, 2025 at 10:1{n} am</div>"
        f"<div class='comment-content'><p>Comment {n}: "
        + "I remember the last time they opened them, the whole valley came to watch. " * 3
        + "</p></div></li>"
        for n in range(8)
    )
    html = (
        "<html><head><title>Flood gates opened</title>"
        "<meta property='og:type' content='article'></head><body>"
        f"<article><h1>Flood gates opened</h1>{story}</article>"
        f"<section id='comments'><ol class='comment-list'>{comments}</ol></section>"
        "</body></html>"
    )
    doc = convert(html, main_content=True)
    assert "Paragraph 3" in doc.markdown
    assert "Comment 0" not in doc.markdown


def board_in_a_page_wrapper() -> str:
    """A board whose posts sit in a feed named for comments, inside the app's one wrapper, each
    post's author card and date after a template's deep indentation; a notification prompt
    and a search panel wait as popovers."""
    indent = "\n" + "\t" * 12
    posts = "".join(
        f"<article class='{indent}entry js-entry entry--post{indent}'>"
        f"<aside class='entry__author'>{indent * 8}<a href='/u/{author}'>{author}</a>"
        f"{indent * 8}<span>Members</span>{indent * 8}<span>563 posts</span></aside>"
        f"<div class='entry__content'>{indent * 4}<time>{date}</time>"
        f"<div class='entry__post'><p>{text}</p></div></div></article>"
        for author, date, text in POSTS
    )
    return (
        "<html><head><title>Upgrading - Example Board</title></head><body>"
        "<div class='layout__app'><header><a href='/'>Example Board</a></header>"
        "<h1>Upgrading with an old config file</h1><ul class='notices'>"
        + "".join(
            f"<li><a href='/notice/{n}'>Notice {n}: the board is read-only while it moves to "
            f"new servers; old threads stay where they are</a></li>"
            for n in range(4)
        )
        + "</ul><div class='topic comments'>"
        f"<form><div class='entries'>{posts}</div></form></div></div>"
        "<div popover id='search'><p>Search the board: type a few words, choose where to "
        "look, and press the button to see what members have written about them.</p></div>"
        "<div popover id='push'><h3>Configure browser push notifications</h3><ol><li>Tap "
        "the lock icon next to the address bar.</li><li>Find Notifications and adjust your "
        "preference for this site.</li></ol></div></body></html>"
    )


def test_posts_named_as_comments_in_the_pages_one_wrapper_are_the_content() -> None:
    markdown = convert(board_in_a_page_wrapper(), main_content=True).markdown
    order(markdown, *(text for _, _, text in POSTS))


def test_popovers_wait_unseen_until_opened() -> None:
    for main_content in (False, True):
        markdown = convert(board_in_a_page_wrapper(), main_content=main_content).markdown
        assert "Configure browser push notifications" not in markdown
        assert "Search the board" not in markdown


def test_a_page_builders_rows_holding_an_articles_comments_are_no_thread() -> None:
    # The title's row, the article's row and a row holding the comment section: rows of one
    # form, dated, but the comments' prose is the comment section's, not a row's own.
    story = "".join(
        f"<p>Paragraph {n}: the river rose overnight and the council opened the old flood "
        "gates for the first time in twenty years, to the relief of the farmers below.</p>"
        for n in range(4)
    )
    comments = "".join(
        f"<li><div class='comment-meta'>March {n + 1}, 2025 at 10:1{n} am</div><p>Comment "
        f"{n}: "
        + "I remember the last time they opened them, the whole valley came. " * 3
        + "</p></li>"
        for n in range(4)
    )
    html = (
        "<html><head><title>Flood gates opened</title></head><body><section class='rows'>"
        "<div class='row'><h1>Flood gates opened</h1><p>March 3, 2025: the council acted "
        "at dawn, an hour before the water reached the lower fields.</p></div>"
        f"<div class='row'><div class='byline'>March 3, 2025</div>{story}</div>"
        "<div class='row'><p>Posted March 3, 2025 in News; share it with your neighbours.</p>"
        f"<div id='comments'><ol>{comments}</ol></div></div></section></body></html>"
    )
    markdown = convert(html, main_content=True).markdown
    assert "Paragraph 3" in markdown
    assert "Comment 0" not in markdown


def test_posts_whose_date_follows_the_authors_name_without_a_space_are_a_thread() -> None:
    # Each post's name and date are <span>s side by side ("marta28.09.19"): still a date. A
    # column of news teasers beside the thread scores best on its own.
    posts = "".join(
        f"<div class='MsgComment'><div class='MsgInfo'><span class='name'>{author}</span>"
        f"<span class='time'><span>{28 + n}.09.19</span><span>1{n}:44</span></span></div>"
        f"<div class='MsgText'>{text} {text}</div></div>"
        for n, (author, _, text) in enumerate(POSTS * 3)
    )
    news = "".join(
        f"<li>News {n}: the council met on Tuesday, agreed the budget, cut the roads, parks "
        "and libraries, and promised, again, to review it in the spring.</li>"
        for n in range(6)
    )
    html = (
        "<html><head><title>Old config file - Board</title></head><body>"
        "<main><h2>Old config file</h2>"
        f"{posts}</main><aside><h3>Top news</h3><ul>{news}</ul></aside></body></html>"
    )
    markdown = convert(html, main_content=True).markdown
    order(markdown, *(text for _, _, text in POSTS))
    assert "News 0" not in markdown
