"""``webtap verify URL "QUOTE"``: whether a quote stands on a page, for a person and for
programs (``--jsonl``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webtap.quotes import Match

__all__ = ["add_parser", "run"]

DESCRIPTION = """\
Check that QUOTE stands on the page at URL: the page is read as web_fetch gives it to a model
(its Markdown, main content), and the quote is verified only when every one of its words is
there, in order. Forgiven: line breaks and spaces, Markdown syntax present or absent, curly or
straight quotes, dash forms, ... for …, ligatures, entities, the first letter's case, a final
full stop, and an ellipsis (…, ..., [...]) joining pieces of one passage. Refused: any other
word changed, put in or left out (a number, a negation, a name), words in another order.

Verified: ✓ and the passage where it stands, exit status 0. Not verified: ✗, the nearest
passage and what differs, exit status 1. The page or the quote could not be read: one line on
stderr, exit status 2.

--text FILE checks the quote against a file's text instead (- for stdin). --jsonl reads
requests from stdin, one JSON object a line, {"text": "...", "quotes": ["...", ...]} or
{"url": "...", "quotes": [...]}, and answers each with one line, {"results": [{"verified",
"start", "end", "exact", "score"}, ...]} in the quotes' order (start and end: code-point
offsets into the text, text[start:end] == exact), or {"error": "..."} for a line it cannot
answer; exit status 0.

Private, loopback and link-local addresses are refused unless WEBTAP_ALLOW_PRIVATE_NETWORKS=1.
"""
CONTEXT = 80  # characters shown either side of a verified passage
UNREADABLE = 2


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check that a quote stands on a page",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "words", nargs="*", metavar="URL QUOTE", help="the page's URL and the quote"
    )
    parser.add_argument(
        "--text", metavar="FILE", help="check the quote against this file's text (- for stdin)"
    )
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="answer JSON requests from stdin, one a line (see above)",
    )
    parser.set_defaults(run=run, _verify_parser=parser)


def run(args: argparse.Namespace) -> int:
    parser = args._verify_parser
    if args.jsonl:
        if args.words or args.text:
            parser.error("--jsonl reads everything from stdin: give no URL, QUOTE or --text")
        return _jsonl()
    expected = 1 if args.text else 2
    if len(args.words) != expected:
        parser.error("give QUOTE with --text FILE" if args.text else "give URL and QUOTE")
    from webtap.cli._output import fail, read_text
    from webtap.errors import WebtapError
    from webtap.quotes import QuoteIndex

    try:
        if args.text:
            text = read_text(args.text)
        else:
            from webtap.fetch import text_of

            # A person chose this URL: robots.txt is for the URLs a model chooses (DESIGN 14).
            text = text_of(args.words[0], model_chose=False)
        match = QuoteIndex(text).locate(args.words[-1])
    except ValueError as exc:
        return fail(str(exc), UNREADABLE)
    except WebtapError as exc:
        return fail(f"{exc.message} [{exc.code}]", UNREADABLE)
    _show(match, text)
    return 0 if match.verified else 1


def _show(match: Match, text: str) -> None:
    from webtap.text import strip_controls

    def shown(passage: str) -> str:
        return strip_controls(" ".join(passage.split()))

    if match.verified:
        assert match.start is not None and match.end is not None
        before = ("…" if match.start > CONTEXT else "") + shown(
            text[max(0, match.start - CONTEXT) : match.start]
        )
        after = shown(text[match.end : match.end + CONTEXT]) + (
            "…" if match.end + CONTEXT < len(text) else ""
        )
        print(f"✓ verified: characters {match.start}–{match.end} of the text")
        print(f"  {before} »{shown(text[match.start : match.end])}« {after}".rstrip())
        return
    print(f"✗ not verified (score {match.score:.2f})")
    if match.nearest is not None:
        print(f"  nearest passage: {shown(match.nearest)}")
    print("  what differs:")
    for difference in match.differences:
        print(f"  - {shown(difference)}")


def _jsonl() -> int:
    from functools import partial

    from webtap.fetch import text_of
    from webtap.quotes import Checker
    from webtap.text import escape_c1

    # The URLs come from a program's input, as a model's would: robots.txt is obeyed.
    checker = Checker(partial(text_of, model_chose=True))
    write, flush = sys.stdout.write, sys.stdout.flush
    for raw in sys.stdin.buffer:
        try:
            answer = checker.answer_line(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            answer = f'{{"error": "not UTF-8 (byte {exc.start})"}}'
        write(escape_c1(answer) + "\n")
        flush()
    return 0
