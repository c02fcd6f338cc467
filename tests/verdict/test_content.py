"""The one judge of whether a page holds content (issue 27): one word counter for every script,
each limit declared once in `webtap.verdict`, the converter reporting facts and the verdict
deciding from them, the Markdown-version step asking the same judge."""

from __future__ import annotations

import pytest

from webtap.convert import CONTENT, EMPTY, SCRIPT_SHELL, Facts, convert
from webtap.fetch.negotiation import thin_content
from webtap.verdict import (
    FEW_WORDS,
    MOUNT_IDS,
    THIN_WORDS,
    classify,
    content_state,
    count_words,
    markdown_words,
    read_page,
    thin,
)

# -- one word counter ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("The ferry runs twice a day.", 6),
        ("don't e-mail 3.5", 6),  # runs of letters and digits: punctuation splits them
        ("- * | # — …", 0),  # Markdown's marks and punctuation are no words
        ("Straße über Café", 3),
        ("Паром ходит дважды", 3),
        ("", 0),
    ],
)
def test_latin_and_other_spaced_scripts_count_runs_of_letters(text: str, words: int) -> None:
    assert count_words(text) == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("中文", 1),  # two Han characters make a word
        ("中文字", 2),  # ... and a last odd one another
        ("日本語のテキスト", 4),  # kana count as Han does
        ("日々", 1),  # an iteration mark belongs to its word
        ("한국어 문장입니다", 2),  # Hangul is written with spaces: its runs count
        ("ニュース・記事", 3),  # a middle dot is punctuation, no word
    ],
)
def test_scripts_without_spaces_count_two_characters_a_word(text: str, words: int) -> None:
    assert count_words(text) == words


def test_mixed_scripts_count_each_by_its_rule() -> None:
    assert count_words("Python 中文文档 3.12") == 1 + 2 + 2
    assert count_words("東京Tokyo大阪") == 1 + 1 + 1  # a script change ends a word


def test_count_stops_at_its_cap() -> None:
    assert count_words("word " * 1000, 10) == 10
    assert count_words("字" * 1000, 10) == 10


def test_markdown_words_leave_out_link_and_image_targets() -> None:
    markdown = "[Ferry times](https://example.com/a/very/long/path) ![map](https://x.test/m.png)"
    assert markdown_words(markdown) == 3


def test_the_classifier_counts_a_page_as_the_converter_counts_its_markdown() -> None:
    for text in (
        "The ferry runs twice a day.",
        "渡轮每天两班，早上八点和下午四点。",
        "Fähre 渡轮 ferry",
    ):
        page = f"<html><body><p>{text}</p></body></html>"
        doc = convert(page)
        assert read_page(page).words == doc.facts.words == count_words(text)


# -- the converter's facts, the verdict's decision ------------------------------------------


def _shell_page(words: str, mount: str = "<div id='root'></div>") -> str:
    return f"<html><body>{mount}<p>{words}</p><script src='/app.js'></script></body></html>"


@pytest.mark.parametrize("main_content", [False, True])
def test_the_state_is_the_verdicts_judgement_of_the_facts(main_content: bool) -> None:
    pages = [
        _shell_page("Example App"),
        _shell_page("word " * 200),
        "<html><body><noscript>Please enable JavaScript.</noscript><p>Shop</p></body></html>",
        "<html><body></body></html>",
        "<html><body><p>Loading…</p><script>start()</script></body></html>",
        "<html><body><p>Gone fishing, back on Monday.</p></body></html>",
    ]
    states = []
    for page in pages:
        doc = convert(page, main_content=main_content)
        assert doc.facts.words == markdown_words(doc.markdown)
        assert doc.state == content_state(doc.markdown, doc.facts)
        states.append(doc.state)
    assert states == [SCRIPT_SHELL, CONTENT, SCRIPT_SHELL, EMPTY, SCRIPT_SHELL, CONTENT]


def test_the_facts_name_what_was_seen() -> None:
    doc = convert(_shell_page("Example App"))
    assert doc.facts == Facts(2, ("#root",), "", True, False)
    noscript = "<html><body><noscript>You need JS.</noscript><app-root></app-root></body></html>"
    assert convert(noscript).facts == Facts(0, ("app-root",), "You need JS.", False, False)


def test_few_words_is_one_limit_for_the_converter_and_the_verdict() -> None:
    below = " ".join(f"w{i}" for i in range(FEW_WORDS - 1))
    at = " ".join(f"w{i}" for i in range(FEW_WORDS))
    assert convert(_shell_page(below)).state == SCRIPT_SHELL
    assert convert(_shell_page(at)).state == CONTENT
    assert content_state(below, Facts(FEW_WORDS - 1, ("#root",))) == SCRIPT_SHELL
    assert content_state(at, Facts(FEW_WORDS, ("#root",))) == CONTENT


def test_few_words_counts_chinese_as_the_counter_does() -> None:
    # Under FEW_WORDS words a page with an empty mount point is a shell; in Chinese as in
    # English, two characters a word.
    assert convert(_shell_page("字" * (2 * FEW_WORDS - 2))).state == SCRIPT_SHELL
    assert convert(_shell_page("字" * (2 * FEW_WORDS))).state == CONTENT


def test_recovered_text_is_content_whatever_the_signs() -> None:
    facts = Facts(3, ("#root",), "enable JavaScript", True, recovered=True)
    assert content_state("Three words here", facts) == CONTENT


def test_nothing_to_say_is_empty_unless_scripts_would_say_it() -> None:
    assert content_state("", Facts()) == EMPTY
    assert content_state("\u2014 \u2026\n", Facts()) == EMPTY  # punctuation alone
    assert content_state("", Facts(scripts=True)) == SCRIPT_SHELL
    assert content_state("\U0001f44d\n", Facts()) == CONTENT  # an emoji says something


# -- mount points -------------------------------------------------------------------------


@pytest.mark.parametrize("mount", ["q-app", "application", "root", "__next", "main-app"])
def test_every_mount_id_is_one_for_the_converter_and_the_classifier(mount: str) -> None:
    assert mount in MOUNT_IDS
    page = _shell_page("", f"<div id='{mount}'></div>")
    doc = convert(page)
    assert (doc.state, doc.facts.mounts) == (SCRIPT_SHELL, (f"#{mount}",))
    # The classifier's own reading, for a page no converter judged.
    assert classify(200, {}, page, None).kind == "script_shell"


def test_a_filled_mount_point_is_no_sign() -> None:
    doc = convert(_shell_page("", "<div id='q-app'><p>Timetable</p></div>"))
    assert (doc.state, doc.facts.mounts) == (CONTENT, ())


# -- thin content: negotiation asks the verdict ----------------------------------------------


class Doc:
    def __init__(self, markdown: str, state: str = CONTENT) -> None:
        self.markdown, self.state = markdown, state


def test_thin_is_one_decision_for_negotiation_and_the_verdict() -> None:
    docs = [
        Doc("word " * (THIN_WORDS - 1)),
        Doc("word " * THIN_WORDS),
        Doc("[a link](https://example.com/" + "x/" * 400 + ")"),
        Doc("字" * (2 * THIN_WORDS)),
        Doc("word " * 500, state=SCRIPT_SHELL),
        Doc(""),
    ]
    assert [thin(d) for d in docs] == [True, False, True, False, True, True]
    assert [thin_content(d) for d in docs] == [thin(d) for d in docs]


def test_a_converted_pages_thinness_counts_its_words_as_its_facts_do() -> None:
    page = "<html><body><article>" + "<p>The ferry runs twice a day.</p>" * 30 + "</article>"
    doc = convert(page + "</body></html>", main_content=True)
    assert doc.facts.words == 180 >= THIN_WORDS
    assert not thin(doc) and not thin_content(doc)
