"""``webtap.quotes``: what a faithful copy changes is forgiven, what a false one changes is not.

Each test is one quote against a small text; ``verified(quote, text)`` is the span's exact text
when the quote is verified, else None.
"""

from __future__ import annotations

import pytest

from webtap.errors import InvalidInput
from webtap.quotes import MAX_GAP, Checker, QuoteIndex, locate

TEXT = (
    "# The harbour\n\n"
    'The tide came in **slowly**, and the [harbour](https://example.com/h "H"), quiet all\n'
    "morning, filled with boats. It didn’t freeze in 1963; the water fell to −5 °C.\n\n"
    "- Gulls cried over the *fish market*.\n"
    "1. First the nets were mended\n"
    "2. Then the boats went out at 10:30\n\n"
    "| Boat | Catch |\n|---|---|\n| Mary Rose | 3.5 tonnes |\n\n"
    "The café paid $120 for ﬁsh. AT&amp;T called it “a good day” — twice.\n"
)


def verified(quote: str, text: str = TEXT) -> str | None:
    match = locate(quote, text)
    if match.verified:
        assert match.start is not None and match.end is not None
        assert text[match.start : match.end] == match.exact
        return match.exact
    assert (match.start, match.end, match.exact) == (None, None, None)
    return None


# --- forgiven --------------------------------------------------------------------------------


def test_the_quote_as_it_stands() -> None:
    assert verified("filled with boats") == "filled with boats"


def test_line_breaks_and_runs_of_spaces() -> None:
    assert verified("quiet   all morning,\n\n filled") == "quiet all\nmorning, filled"


def test_markdown_absent() -> None:
    assert verified("The tide came in slowly, and the harbour, quiet all morning") == (
        'The tide came in **slowly**, and the [harbour](https://example.com/h "H"), quiet all\n'
        "morning"
    )


def test_markdown_present() -> None:
    assert verified("in **slowly**, and the [harbour](https://other.example/)") == (
        "in **slowly**, and the [harbour"
    )


def test_list_heading_and_table_marks() -> None:
    assert verified("The harbour The tide came in") == "The harbour\n\nThe tide came in"
    assert verified("Gulls cried over the fish market. First the nets were mended") == (
        "Gulls cried over the *fish market*.\n1. First the nets were mended"
    )
    assert verified("2. Then the boats went out") == "2. Then the boats went out"
    assert verified("Mary Rose 3.5 tonnes") == "Mary Rose | 3.5 tonnes"


def test_typography() -> None:
    assert verified("It didn't freeze in 1963") == "It didn’t freeze in 1963"
    assert verified('called it "a good day" -- twice') == "called it “a good day” — twice"
    assert verified("the water fell to -5 °C") == "the water fell to −5 °C"
    assert verified("The café paid $120 for fish.") == "The café paid $120 for ﬁsh"
    assert verified("AT&T called it") == "AT&amp;T called it"
    assert verified("AT&amp;T called\u00a0it") == "AT&amp;T called it"
    assert verified("filled with bo\u00adats") == "filled with boats"
    assert verified("caf&eacute; paid") == "café paid"


def test_ellipsis_joining_pieces_of_one_passage() -> None:
    expected = "The tide came in **slowly**, and the [harbour"
    assert verified("The tide came in … the harbour").startswith("The tide came in")
    for joint in ("…", "...", "[...]", "[…]", ". . ."):
        assert verified(f"The tide came in {joint} the harbour") == expected


def test_the_first_letter_s_case_and_a_final_stop() -> None:
    assert verified("the tide came in slowly.") == "The tide came in **slowly"
    assert verified("Filled with boats.") == "filled with boats"


def test_starting_and_ending_inside_a_sentence() -> None:
    assert verified("came in slowly, and") == "came in **slowly**, and"


def test_text_without_spaces_between_words() -> None:
    text = "東京都は日本の首都です。人口は約1400万人です。"
    assert verified("日本の首都", text) == "日本の首都"
    assert verified("人口は約1400万人", text) == "人口は約1400万人"
    assert verified("人口は約1500万人", text) is None
    assert verified("日本の首相", text) is None


def test_accents_as_composed_or_combining_characters() -> None:
    assert verified("Cafe\u0301 paid", "The Café paid.") == "Café paid"
    assert verified("Café paid", "The Cafe\u0301 paid.") == "Cafe\u0301 paid"


# --- refused ---------------------------------------------------------------------------------


def test_a_changed_digit_or_number() -> None:
    assert verified("It didn't freeze in 1964") is None
    assert verified("Mary Rose 35 tonnes") is None
    assert verified("the water fell to 5 °C") is None
    assert verified("went out at 10:31") is None


def test_a_negation_put_in_or_taken_out() -> None:
    assert verified("It did freeze in 1963") is None
    assert verified("It did not freeze in 1963") is None
    assert verified("The tide never came in slowly") is None


def test_a_word_name_or_unit_swapped() -> None:
    assert verified("The tide came in quickly") is None
    assert verified("Gulls cried over the meat market") is None
    assert verified("The café paid €120 for fish") is None
    assert verified("Mary Jane 3.5 tonnes") is None


def test_words_reordered() -> None:
    assert verified("The tide in came slowly") is None
    assert verified("filled with boats. The tide came in") is None


def test_a_true_start_with_an_invented_end() -> None:
    assert verified("The tide came in slowly, and the harbour was empty") is None


def test_a_passage_from_another_page() -> None:
    assert verified("Shares of the company rose sharply on Tuesday") is None


def test_an_ellipsis_over_a_negation_or_too_far() -> None:
    assert verified("It … freeze in 1963") is None
    far = "Alpha beta gamma. " + "filler " * (MAX_GAP + 5) + "Delta epsilon."
    assert verified("Alpha beta … Delta epsilon", far) is None
    assert verified("Alpha beta … filler filler", far) == "Alpha beta gamma. filler filler"


def test_case_past_the_first_letter() -> None:
    assert verified("THE TIDE came in") is None
    assert verified("The Tide came in") is None


def test_a_word_cut_in_half() -> None:
    assert verified("ide came in") is None
    assert verified("in 196") is None


# --- what a refusal says -----------------------------------------------------------------------


def test_a_refusal_names_the_nearest_passage_and_what_differs() -> None:
    match = locate("It didn't freeze in 1964", TEXT)
    assert (match.verified, match.nearest) == (False, "It didn’t freeze in 1963")
    assert match.differences == ("“1964” where the text has “1963” (a number)",)
    assert 0.5 < match.score < 1.0
    dropped = locate("It did freeze in 1963", TEXT)
    assert dropped.differences == ("“did” where the text has “didn't” (a negation)",)
    assert locate("The tide came in quickly", TEXT).differences == (
        "“quickly” where the text has “slowly”",
    )


def test_a_quote_sharing_no_word() -> None:
    match = locate("zebra xylophone", TEXT)
    assert (match.verified, match.score, match.nearest) == (False, 0.0, None)
    assert match.differences == ("no word of the quote is in the text",)


def test_a_verified_match_and_its_result() -> None:
    match = locate("filled with boats", TEXT)
    assert match.score == 1.0 and match.differences == () and match.nearest is None
    start = TEXT.index("filled with boats")
    assert match.result() == {
        "verified": True,
        "start": start,
        "end": start + len("filled with boats"),
        "exact": "filled with boats",
        "score": 1.0,
    }


def test_the_first_place_a_quote_stands() -> None:
    text = "one two three. one two three."
    assert locate("one two three", text)[:3] == (True, 0, 13)


# --- errors and the index ----------------------------------------------------------------------


@pytest.mark.parametrize("quote", ["", "   ", "…", "— -- !"])
def test_an_empty_quote_is_an_error(quote: str) -> None:
    with pytest.raises(InvalidInput, match="quote"):
        locate(quote, TEXT)


@pytest.mark.parametrize("text", ["", " \n\t"])
def test_an_empty_text_is_an_error(text: str) -> None:
    with pytest.raises(InvalidInput, match="text to look in is empty"):
        QuoteIndex(text)


def test_one_index_many_quotes() -> None:
    index = QuoteIndex(TEXT)
    assert [index.locate(q).verified for q in ("filled with boats", "filled with cars")] == [
        True,
        False,
    ]
    assert index.locate("It didn't freeze").verified  # after a refusal, as before


def test_the_checker_answers_requests_in_order() -> None:
    checker = Checker()
    answer = checker.answer({"text": TEXT, "quotes": ["filled with boats", "no such", 3, ""]})
    verdicts = [(r["verified"], "error" in r) for r in answer["results"]]
    assert verdicts == [(True, False), (False, False), (False, True), (False, True)]
    assert checker.index(TEXT) is checker.index(TEXT)
    assert '"error"' in checker.answer_line('{"url": "https://example.com/", "quotes": []}')
    assert checker.answer_line("[1").startswith('{"error": "not JSON')
    assert checker.answer_line('{"text": "a", "url": "b", "quotes": []}') == (
        '{"error": "give either \\"text\\" or \\"url\\", not both and not neither"}'
    )
