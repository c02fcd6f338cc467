"""The quote-verification set: genuine quotes with each drift a faithful copy makes, and
fabrications of each kind, from real pages' Markdown as webtap gives it to a model.

    .venv/bin/python bench/quote_set.py [--data DIR] [--seed N] [--per-kind N] [--out FILE]

Each page of ``html/articles``, ``html/modern`` and ``html/multilingual`` is converted by
webtap (``convert(html, main_content=True)``, what ``web_fetch`` gives); passages of 8 to 30
words are sampled from its prose lines (a passage found once on its page), and each becomes, at
most ``--per-kind`` times per page and kind (default 3):

- a genuine quote with one drift: ``whitespace`` (line breaks and runs of spaces),
  ``markdown_kept`` (the Markdown as it is), ``markdown_stripped`` (links as their text, no
  emphasis, list, heading or table marks), ``typography`` (quotes, apostrophes, dashes, ``…``,
  no-break space, soft hyphen, ligature, entity swapped), ``ellipsis`` (a middle cut out and
  the pieces joined by ``…``, ``...``, ``[...]`` or ``[…]``), ``first_case`` (the first
  letter's case flipped), ``final_stop`` (a final full stop put in or taken out),
  ``mid_sentence`` (starting and ending inside sentences);
- a fabrication: ``changed_number`` (one digit changed), ``negation_added``,
  ``negation_removed``, ``swapped_word``, ``swapped_name``, ``swapped_unit``, ``reordered``
  (two words swapped), ``invented_end`` (a true start, another page's end),
  ``other_page`` (a passage of another page, checked against this one).

A fabrication is kept only when its words (lower-cased, ``\\w+``) do not stand in that order
in the page's own words: a true fabrication, not a lucky truth. Genuine quotes carry the span
of their passage (its first to last word character). The set is written as JSON lines, one per
page: ``{"page", "text", "quotes": [{"quote", "kind", "genuine", "start", "end"}, ...]}``;
the same seed gives the same set. By default it goes to ``bench/.cache/quote_set.jsonl``
(ignored by git), where ``bench/verify.py`` reads it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import shared_data
from main_content import decode

DEFAULT_OUT = Path(__file__).resolve().parent / ".cache" / "quote_set.jsonl"
CORPORA = ("articles", "modern", "multilingual")
GENUINE = (
    "whitespace",
    "markdown_kept",
    "markdown_stripped",
    "typography",
    "ellipsis",
    "first_case",
    "final_stop",
    "mid_sentence",
)
FABRICATED = (
    "changed_number",
    "negation_added",
    "negation_removed",
    "swapped_word",
    "swapped_name",
    "swapped_unit",
    "reordered",
    "invented_end",
    "other_page",
)
_WORDS = re.compile(r"\w+")
_PROSE = re.compile(r"^(?!\s*(?:\||```|~~~|!\[|<|    ))")
_AUXILIARIES = re.compile(
    r"\b(is|was|are|were|can|will|does|did|has|have|had|should|would|could|must|ist|war|sind|"
    r"wird|kann|hat|est|sont)\b(?! not| nicht| pas)"
)
_NEGATION = re.compile(
    r"\b(not|never|no|cannot|none|nothing|without|nicht|nie|kein|keine|keinen|ne|pas)\b\s*"
    r"|n['’]t\b",
    re.I,
)
_UNITS = [
    ("%", " percent"),
    ("million", "billion"),
    ("km", "miles"),
    ("kg", "pounds"),
    ("$", "€"),
    ("€", "$"),
    ("£", "$"),
    ("minutes", "hours"),
    ("hours", "minutes"),
    ("days", "weeks"),
    ("years", "months"),
    ("months", "years"),
    ("Prozent", "Promille"),
    ("Millionen", "Milliarden"),
]


_HIDDEN = re.compile(
    r"(?<=\])\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\)"  # a link's destination
    r"|</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>"  # an HTML tag
)
# Not words of the claim: a list item's number, a footnote mark.
_MARKERS = re.compile(r"(?m)^[ \t>]*\d{1,9}[.)](?=[ \t])|\[\^?\d{1,4}\](?!\()")
_LIST_MARK = re.compile(r"^\s*(?:#{1,6}|[-*+]|\d+[.)]|>)\s+")
_UNIT_CHARACTERS = "%‰°$€£¥¢"


def visible(text: str) -> str:
    """``text`` with what a reader does not see (link destinations, HTML tags) blanked out,
    every character where it was; a code span's tags stay, they are what it shows."""
    pieces = re.split(r"(`+[^`]*?`+)", text)
    pieces[::2] = [_HIDDEN.sub(lambda m: " " * len(m.group()), p) for p in pieces[::2]]
    return "".join(pieces)


def words_of(text: str) -> str:
    """An independent reading of a text, to check fabrications: the lower-cased ``\\w+`` words
    (and units) a reader sees, without list numbers and footnote marks."""
    seen = _MARKERS.sub(" ", visible(text)).lower()
    found = re.findall(rf"\w+|[{_UNIT_CHARACTERS}]", seen)
    return " " + " ".join(found) + " "


def pages(data: Path) -> Iterator[tuple[str, str]]:
    from webtap.convert import convert

    for corpus in CORPORA:
        folder = data / "html" / corpus
        if not folder.is_dir():
            sys.exit(
                f"bench/quote_set.py: missing {folder}; give the folder that holds html/ "
                "with --data DIR"
            )
        for path in sorted((folder / "html").glob("*.html.gz")):
            html = decode(gzip.decompress(path.read_bytes()))
            try:
                markdown = convert(html, main_content=True).markdown
            except Exception:
                continue
            yield f"{corpus}/{path.name.removesuffix('.html.gz')}", markdown


def passages(text: str, rng: random.Random, count: int) -> list[tuple[int, int]]:
    """Up to ``count`` spans of 8..30 words, each within one prose line and found once."""
    lines = []
    position = 0
    for line in text.split("\n"):
        if len(line.split()) >= 12 and _PROSE.match(line):
            lines.append((position, line))
        position += len(line) + 1
    found: list[tuple[int, int]] = []
    for _ in range(count * 6):
        if not lines or len(found) >= count:
            break
        offset, line = rng.choice(lines)
        bounds = [m.span() for m in re.finditer(r"\S+", line)]
        size = rng.randint(8, min(30, len(bounds)))
        first = rng.randrange(0, len(bounds) - size + 1)
        start, end = offset + bounds[first][0], offset + bounds[first + size - 1][1]
        hidden = [m.span() for m in _HIDDEN.finditer(line)]
        if any(a < at - offset < b for a, b in hidden for at in (start, end)):
            continue  # a passage starts and ends in what a reader sees
        passage = text[start:end]
        if text.count(passage) != 1 or words_of(text).count(words_of(passage)) != 1:
            continue
        if len(words_of(passage).split()) < 6:
            continue
        found.append((start, end))
    return found


def word_span(text: str, start: int, end: int, stripped: bool = False) -> tuple[int, int]:
    """The passage from its first visible word character to its last (what a located span
    covers); ``stripped``: without the list or heading mark it starts with at a line's start."""
    seen = visible(text[start:end])
    if stripped and (start == 0 or text[start - 1] == "\n"):
        seen = _LIST_MARK.sub(lambda m: " " * len(m.group()), seen, count=1)
    found = [
        m.span() for m in re.finditer(rf"(?<![\w.,])[-−–](?=\d)|[^\W_]|[{_UNIT_CHARACTERS}]", seen)
    ]
    assert found
    last = found[-1][1]
    while last < len(seen) and unicodedata.category(seen[last]).startswith("M"):
        last += 1
    return start + found[0][0], start + last


# --- drifts of a faithful copy -------------------------------------------------------------


def strip_markdown(passage: str, line_start: bool) -> str:
    passage = re.sub(r"!?\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)", r"\1", passage)
    passage = re.sub(r"(\*\*|__|\*|~~|`)", "", passage)
    passage = re.sub(r"(?<!\w)_|_(?!\w)", "", passage)
    if line_start:
        passage = _LIST_MARK.sub("", passage, count=1)
    passage = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|>~])", r"\1", passage)
    return " ".join(passage.replace("|", " ").split())


def typography(passage: str, rng: random.Random) -> str:
    swaps = [
        ("'", "’"),
        ("’", "'"),
        ('"', "“"),
        ("“", '"'),
        ("”", '"'),
        (" - ", " – "),
        (" – ", " -- "),
        ("—", " - "),
        ("...", "…"),
        ("…", "..."),
        ("fi", "ﬁ"),
        ("fl", "ﬂ"),
        (" ", "\u00a0"),
        ("&", "&amp;"),
    ]
    rng.shuffle(swaps)
    done = 0
    for old, new in swaps:
        if old in passage and done < 3:
            passage = passage.replace(old, new, 1 if old == " " else -1)
            done += 1
    long_words = [m for m in re.finditer(r"[^\W\d_]{8,}", passage)]
    if long_words:  # a soft hyphen inside a long word, as a justified page may carry
        word = rng.choice(long_words)
        cut = word.start() + 4
        passage = passage[:cut] + "\u00ad" + passage[cut:]
    return passage


def genuine(kind: str, text: str, start: int, end: int, rng: random.Random) -> str | None:
    passage = text[start:end]
    words = passage.split()
    if kind == "whitespace":
        gaps = [rng.choice(["\n", "  ", " \n ", "\t", " "]) for _ in words[1:]]
        return words[0] + "".join(g + w for g, w in zip(gaps, words[1:], strict=True))
    if kind == "markdown_kept":
        return passage
    if kind == "markdown_stripped":
        if "`" in passage and "<" in passage:
            return None  # a code span's tag stays what it says; stripped, it would be a tag
        stripped = strip_markdown(passage, start == 0 or text[start - 1] == "\n")
        return stripped if stripped != passage else None
    if kind == "typography":
        return typography(passage, rng)
    if kind == "ellipsis":
        if len(words) < 14:
            return None
        cut = rng.randint(3, min(10, len(words) - 10))
        at = rng.randint(4, len(words) - cut - 4)
        if _NEGATION.search(" ".join(words[at : at + cut]) + " "):
            return None  # leaving out a negation is no faithful elision
        joint = rng.choice([" … ", "… ", " ... ", " [...] ", " […] "])
        return " ".join(words[:at]) + joint + " ".join(words[at + cut :])
    if kind == "first_case":
        first = re.search(rf"[^\W_]|[{_UNIT_CHARACTERS}]", visible(passage))
        if first is None or not first.group().isalpha():
            return None
        letter = passage[first.start()]
        flipped = letter.lower() if letter.isupper() else letter.upper()
        if flipped == letter:
            return None
        return passage[: first.start()] + flipped + passage[first.end() :]
    if kind == "final_stop":
        return passage[:-1] if passage.endswith(".") else passage + "."
    if kind == "mid_sentence":
        inner = " ".join(words[1:-1]) if len(words) > 9 else ""
        if not inner or words_of(text).count(words_of(inner)) != 1:
            return None
        return inner
    raise ValueError(kind)


# --- fabrications --------------------------------------------------------------------------


def fabricate(kind: str, text: str, passage: str, rng: random.Random, other: str) -> str | None:
    words = passage.split()
    if kind == "changed_number":
        digits = [m.start() for m in re.finditer(r"\d", passage)]
        if not digits:
            return None
        at = rng.choice(digits)
        new = str((int(passage[at]) + rng.randint(1, 9)) % 10)
        return passage[:at] + new + passage[at + 1 :]
    if kind == "negation_added":
        found = list(_AUXILIARIES.finditer(passage))
        if not found:
            return None
        match = rng.choice(found)
        negation = {"ist": "nicht", "war": "nicht", "sind": "nicht", "wird": "nicht"}.get(
            match.group(1), "not"
        )
        return passage[: match.end()] + f" {negation}" + passage[match.end() :]
    if kind == "negation_removed":
        found = list(_NEGATION.finditer(passage))
        if not found:
            return None
        match = rng.choice(found)
        return passage[: match.start()] + passage[match.end() :]
    if kind == "swapped_word":
        pool = sorted({w for w in _WORDS.findall(visible(text)) if w.islower() and len(w) >= 4})
        spots = [i for i, w in enumerate(words) if i > 0 and w.islower() and len(w) >= 4]
        if not spots or len(pool) < 2:
            return None
        i = rng.choice(spots)
        replacement = rng.choice(pool)
        core = re.match(r"\w+", words[i])
        if core is None or replacement == core.group():
            return None
        words[i] = replacement + words[i][core.end() :]
        return " ".join(words)
    if kind == "swapped_name":
        pool = sorted({w for w in _WORDS.findall(visible(text)) if w[:1].isupper() and len(w) >= 3})
        spots = [i for i, w in enumerate(words) if i > 0 and re.match(r"[A-Z][a-z]{2,}", w)]
        if not spots or len(pool) < 2:
            return None
        i = rng.choice(spots)
        core = re.match(r"\w+", words[i])
        replacement = rng.choice(pool)
        if core is None or replacement == core.group():
            return None
        words[i] = replacement + words[i][core.end() :]
        return " ".join(words)
    if kind == "swapped_unit":
        present = [(old, new) for old, new in _UNITS if old in passage]
        if not present:
            return None
        old, new = rng.choice(present)
        return passage.replace(old, new, 1)
    if kind == "reordered":
        spots = [i for i in range(len(words) - 1) if words[i].lower() != words[i + 1].lower()]
        if not spots:
            return None
        i = rng.choice(spots)
        words[i], words[i + 1] = words[i + 1], words[i]
        return " ".join(words)
    if kind == "invented_end":
        theirs = other.split()
        keep = max(4, len(words) * 3 // 5)
        return " ".join(words[:keep] + theirs[len(theirs) // 2 :])
    if kind == "other_page":
        return other
    raise ValueError(kind)


def build(data: Path, seed: int, per_kind: int) -> Iterator[dict[str, object]]:
    rng = random.Random(seed)
    all_pages = list(pages(data))
    sampled = {
        name: passages(text, random.Random(f"{seed}:{name}"), per_kind * 4)
        for name, text in all_pages
    }
    pool = [text[start:end] for name, text in all_pages for start, end in sampled[name][:2]]
    for name, text in all_pages:
        spans = sampled[name]
        if not spans:
            continue
        page_words = words_of(text)
        quotes: list[dict[str, object]] = []
        for kind in GENUINE:
            made = 0
            for start, end in rng.sample(spans, len(spans)):
                quote = genuine(kind, text, start, end, rng)
                if quote is None:
                    continue
                first, last = word_span(text, start, end, kind == "markdown_stripped")
                if kind == "mid_sentence":
                    bounds = [m.span() for m in re.finditer(r"\S+", text[start:end])]
                    first, last = word_span(text, start + bounds[1][0], start + bounds[-2][1])
                quotes.append(
                    {"quote": quote, "kind": kind, "genuine": True, "start": first, "end": last}
                )
                made += 1
                if made == per_kind:
                    break
        for kind in FABRICATED:
            made = 0
            for start, end in rng.sample(spans, len(spans)):
                other = rng.choice(pool)
                quote = fabricate(kind, text, text[start:end], rng, other)
                if quote is None or words_of(quote).strip() == "":
                    continue
                if words_of(quote) in page_words:
                    continue  # it is true after all: no fabrication
                quotes.append({"quote": quote, "kind": kind, "genuine": False})
                made += 1
                if made == per_kind:
                    break
        yield {"page": name, "text": text, "quotes": quotes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    shared_data.add_argument(parser)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--per-kind", type=int, default=3, metavar="N")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, metavar="FILE")
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    with args.out.open("w", encoding="utf-8") as out:
        for page in build(args.data, args.seed, args.per_kind):
            out.write(json.dumps(page, ensure_ascii=False) + "\n")
            for quote in page["quotes"]:  # type: ignore[attr-defined]
                counts[quote["kind"]] = counts.get(quote["kind"], 0) + 1
    print(f"wrote {args.out}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
