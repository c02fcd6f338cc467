"""``webtap verify URL "QUOTE"``: whether a quote stands on a page, for a person and for
programs (``--jsonl``)."""

from __future__ import annotations

import argparse
import sys
from functools import partial

from webtap.cli._output import fail, read_text
from webtap.errors import WebtapError
from webtap.fetch.given import text_of
from webtap.quotes import Checker, Match, QuoteIndex
from webtap.text import escape_c1, strip_controls

__all__ = ["run"]

CONTEXT = 80  # characters shown either side of a verified passage
UNREADABLE = 2


def run(args: argparse.Namespace) -> int:
    parser = args._parser
    if args.jsonl:
        if args.words or args.text:
            parser.error("--jsonl reads everything from stdin: give no URL, QUOTE or --text")
        return _jsonl()
    expected = 1 if args.text else 2
    if len(args.words) != expected:
        parser.error("give QUOTE with --text FILE" if args.text else "give URL and QUOTE")
    try:
        # A URL here is a person's choice: robots.txt is for the URLs a model chooses
        # (decision: What a fetch got).
        text = read_text(args.text) if args.text else text_of(args.words[0], model_chose=False)
        match = QuoteIndex(text).locate(args.words[-1])
    except ValueError as exc:
        return fail(str(exc), UNREADABLE)
    except WebtapError as exc:
        return fail(f"{exc.message} [{exc.code}]", UNREADABLE)
    _show(match, text)
    return 0 if match.verified else 1


def _show(match: Match, text: str) -> None:
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
