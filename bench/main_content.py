"""Main-content extraction: webtap beside trafilatura, readability-lxml and resiliparse, one run.

    .venv/bin/python bench/main_content.py [--data DIR] [--repeat N] [--show-worst N]
                                           [--only NAME ...]

``DIR`` (default ``../shared/data`` from the repository) holds ``html/modern/`` (500 pages of
seven kinds), ``html/articles/`` (181 news and blog pages) and ``html/docs/`` (manuals). On
the first two, against ``ground-truth.json``'s ``articleBody``, for webtap's main content,
webtap's whole page, trafilatura (plain text and Markdown), readability-lxml and resiliparse's
``main_content``:

- precision, recall and F1 of word 4-gram shingles (per page, averaged; F1 from the two
  means), on the text with link targets and image addresses removed, so Markdown is not
  penalised for its URLs; on the modern pages per kind as well as overall, and for each half
  (even and odd ids: one half to develop rules on, the other to check they generalise);
- pages failed: recall under 0.5 (an empty output included);
- on the modern pages, the ground truth's snippets: the share of "with" sentences found in
  the output and of "without" sentences (boilerplate) found in it, words compared;
- overhead: output words over ground-truth words, all pages together (what an agent pays);
- MB/s, one thread, best of ``--repeat`` runs over every page, the extractors' runs interleaved,
  in CPU time of this process (``time.process_time``): on a shared machine the other
  processes' load would otherwise fall on whichever extractor ran during it.

Targets for webtap's main content: on the modern pages F1 >= trafilatura's + 0.05, no kind
below trafilatura's, forums >= 0.75, products >= 0.65, at most 10% of pages failed; on the
articles F1 >= 0.965 at least 4x trafilatura's MB/s. Then, on ``html/docs/``, how many of the
whole page's headings, code blocks and tables the main content keeps (targets 95%, 95%, 100%
of the tables other than PostgreSQL's Prev/Up/Next navigation bars, "no pager", which main
content rightly leaves out).
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import re
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

Extractor = Callable[[str], str]

DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
# Where each corpus comes from, said when it is missing.
_SOURCES = {
    "modern": "tiptopjaw/web-content-extraction-benchmark on GitHub (release/html/ and "
    "benchmark/ground-truth/)",
    "articles": "scrapinghub/article-extraction-benchmark on GitHub (html/, ground truth)",
    "docs": "the Python 3.11 and PostgreSQL 15 manuals' HTML as Debian ships them",
}

_IMAGE = re.compile(r"!\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_LINK = re.compile(r"\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_AUTOLINK = re.compile(r"<(?:https?|mailto):[^>\s]*>")
_TOKEN = re.compile(r"\w+")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>")
_CHARSET = re.compile(rb"<meta[^>]+charset=[\"']?([\w-]+)", re.I)
_SHINGLE = 4
_ORACLE = "best of these, per page"


def words(text: str) -> list[str]:
    """The words of a text, lower-cased, with Markdown link targets and images removed, in
    Unicode's composed form (NFC): a page's "য়" (U+09DF) and its annotation's "য" + "়" are
    the same word, whichever form an extractor keeps."""
    text = unicodedata.normalize("NFC", text)
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub("]", text)
    text = _AUTOLINK.sub(" ", text)
    return _TOKEN.findall(text.lower())


def shingles(tokens: list[str]) -> Counter[tuple[str, ...]]:
    if len(tokens) < _SHINGLE:
        return Counter([tuple(tokens)]) if tokens else Counter()
    return Counter(zip(*(tokens[i:] for i in range(_SHINGLE)), strict=False))


class Score(NamedTuple):
    precision: float
    recall: float
    f1: float
    words: int
    found: float  # share of the "with" snippets in the output (1.0 when there are none)
    leaked: float  # share of the "without" snippets in the output (0.0 when there are none)


class Page(NamedTuple):
    id: str
    html: str
    truth: str
    kind: str
    with_: list[str]
    without: list[str]


def score(output: str, page: Page) -> Score:
    """Shingle precision, recall and F1 of ``output`` against the page's ground truth."""
    out_tokens, truth_tokens = words(output), words(page.truth)
    got, want = shingles(out_tokens), shingles(truth_tokens)
    common = sum((got & want).values())
    precision = common / max(sum(got.values()), 1) if got else 0.0
    recall = common / max(sum(want.values()), 1) if want else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    text = f" {' '.join(out_tokens)} "
    found = _share(page.with_, text, 1.0)
    leaked = _share(page.without, text, 0.0)
    return Score(precision, recall, f1, len(out_tokens), found, leaked)


def _share(snippets: list[str], text: str, default: float) -> float:
    wanted = [" ".join(words(s)) for s in snippets]
    wanted = [w for w in wanted if w]
    if not wanted:
        return default
    return sum(f" {w} " in text for w in wanted) / len(wanted)


def extractors() -> dict[str, Extractor]:
    """webtap's two modes, then every peer that is installed."""
    from webtap.convert import _prose, convert

    def webtap_main(html: str) -> str:
        # The fetch tool converts one page per process: no class names remembered from
        # the pages before.
        _prose.forget()
        return convert(html, main_content=True).markdown

    found: dict[str, Extractor] = {
        "webtap main content": webtap_main,
        "webtap whole page": lambda html: convert(html).markdown,
    }
    missing = "is not installed: pip install -e '.[bench]'"
    try:
        import trafilatura

        found["trafilatura (text)"] = lambda html: trafilatura.extract(html) or ""
        found["trafilatura (markdown)"] = lambda html: (
            trafilatura.extract(html, output_format="markdown") or ""
        )
    except ImportError:
        print(f"trafilatura {missing}")
    try:
        import lxml.html
        from readability import Document as Readability

        def readability(html: str) -> str:
            summary = Readability(html).summary(html_partial=True)
            return lxml.html.fromstring(summary).text_content() if summary.strip() else ""

        found["readability-lxml"] = readability
    except ImportError:
        print(f"readability-lxml {missing}")
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLTree

        found["resiliparse (main)"] = lambda html: extract_plain_text(
            HTMLTree.parse(html), main_content=True
        )
    except ImportError:
        print(f"resiliparse {missing}")
    return found


def run_all(
    found: dict[str, Extractor], pages: list[str], repeat: int
) -> dict[str, tuple[list[str], float]]:
    """Each extractor's outputs and best time. The runs are interleaved (every extractor once,
    then again), so that a busy spell on a shared machine does not fall on one of them."""
    best = dict.fromkeys(found, float("inf"))
    outputs: dict[str, list[str]] = {}
    for _ in range(repeat):
        for label, extract in found.items():
            gc.collect()
            start = time.process_time()
            results = [extract(page) for page in pages]
            best[label] = min(best[label], time.process_time() - start)
            outputs.setdefault(label, results)
    return {label: (outputs[label], best[label]) for label in found}


def decode(raw: bytes) -> str:
    """A page's bytes as text, as a browser would read them (UTF-8, else its ``<meta
    charset>``, else Windows-1252), without an XML declaration (lxml refuses one in a str)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        match = _CHARSET.search(raw[:4096])
        try:
            text = raw.decode(match.group(1).decode() if match else "cp1252", "replace")
        except LookupError:
            text = raw.decode("cp1252", "replace")
    return _XML_DECLARATION.sub("", text, count=1)


def load_corpus(folder: Path) -> list[Page]:
    """The pages of ``html/modern`` or ``html/articles`` with their ground truth, by id."""
    truth = json.loads((folder / "ground-truth.json").read_text("utf-8"))
    pages = []
    for path in sorted((folder / "html").glob("*.html.gz")):
        key = path.name.removesuffix(".html.gz")
        entry = truth[key]
        pages.append(
            Page(
                key,
                decode(gzip.decompress(path.read_bytes())),
                entry["articleBody"],
                entry.get("type", "article"),
                entry.get("with") or [],
                entry.get("without") or [],
            )
        )
    return pages


def summary(scores: list[Score]) -> tuple[float, float, float, float]:
    """Mean precision, mean recall, F1 of the two means, share of pages failed."""
    n = max(len(scores), 1)
    precision = sum(s.precision for s in scores) / n
    recall = sum(s.recall for s in scores) / n
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1, sum(1 for s in scores if s.recall < 0.5) / n


def report(
    name: str,
    pages: list[Page],
    found: dict[str, Extractor],
    repeat: int,
    show_worst: int,
) -> dict[str, float]:
    """Score every extractor on ``pages``, print the tables; each one's MB/s."""
    megabytes = sum(len(p.html.encode()) for p in pages) / 1e6
    truth_words = sum(len(words(p.truth)) for p in pages)
    print(f"\n{name}: {len(pages)} pages, {megabytes:.1f} MB, best of {repeat}\n")
    results = run_all(found, [p.html for p in pages], repeat)
    scores = {
        label: [score(out, page) for out, page in zip(outputs, pages, strict=True)]
        for label, (outputs, _) in results.items()
    }
    speeds = {label: megabytes / seconds for label, (_, seconds) in results.items()}
    traf = speeds.get("trafilatura (text)", 0.0)
    print(
        f"{'extractor':<24} {'P':>6} {'R':>6} {'F1':>6} {'failed':>7} {'with':>6} "
        f"{'without':>7} {'overhead':>8} {'MB/s':>6} {'vs trafilatura':>14}"
    )
    for label, marks in scores.items():
        precision, recall, f1, failed = summary(marks)
        n = len(marks)
        ratio = f"{speeds[label] / traf:.1f}x" if traf else "-"
        print(
            f"{label:<24} {precision:>6.3f} {recall:>6.3f} {f1:>6.3f} {failed:>7.1%} "
            f"{sum(s.found for s in marks) / n:>6.1%} {sum(s.leaked for s in marks) / n:>7.1%} "
            f"{sum(s.words for s in marks) / truth_words:>7.2f}x {speeds[label]:>6.1f} "
            f"{ratio:>14}"
        )
    kinds = Counter(p.kind for p in pages)
    if len(kinds) > 1:
        # What a reader who knew the answer would get by taking, page by page, the best of the
        # outputs above: how far any of them could go on this corpus's references.
        scores[_ORACLE] = [
            max(marks, key=lambda s: s.f1) for marks in zip(*scores.values(), strict=True)
        ]
        halves = {
            "all": range(len(pages)),
            "even ids": [i for i, p in enumerate(pages) if int(p.id) % 2 == 0],
            "odd ids": [i for i, p in enumerate(pages) if int(p.id) % 2 == 1],
        }
        for half, indices in halves.items():
            _kind_table(half, [pages[i] for i in indices], scores, list(indices))
    if show_worst:
        _worst(pages, scores, show_worst)
    return speeds


def _kind_table(
    half: str, pages: list[Page], scores: dict[str, list[Score]], indices: list[int]
) -> None:
    """F1 per kind (pages failed overall) for one half of the corpus."""
    by_kind: dict[str, list[int]] = defaultdict(list)
    for i, page in zip(indices, pages, strict=True):
        by_kind[page.kind].append(i)
    kinds = sorted(by_kind, key=lambda k: -len(by_kind[k]))
    print(f"\nF1 per kind, {half} ({len(pages)} pages)")
    columns = [f"all {len(pages)}", *(f"{k[:8]} {len(by_kind[k])}" for k in kinds), "failed"]
    print(f"{'extractor':<24}" + "".join(f"{c:>13}" for c in columns))
    for label, marks in scores.items():
        cells = [summary([marks[i] for i in indices])[2]]
        cells += [summary([marks[i] for i in by_kind[k]])[2] for k in kinds]
        failed = summary([marks[i] for i in indices])[3]
        print(f"{label:<24}" + "".join(f"{c:>13.3f}" for c in cells) + f"{failed:>13.1%}")


def _worst(pages: list[Page], scores: dict[str, list[Score]], count: int) -> None:
    ours = scores["webtap main content"]
    traf = scores.get("trafilatura (text)")
    worst = sorted(range(len(ours)), key=lambda i: ours[i].f1)[:count]
    print("\nwebtap's worst pages (id, kind, P, R, F1, words/truth, trafilatura's F1):")
    for i in worst:
        s = ours[i]
        ratio = s.words / max(len(words(pages[i].truth)), 1)
        other = f"{traf[i].f1:.3f}" if traf else "-"
        print(
            f"  {pages[i].id[:16]:<16} {pages[i].kind:<14} {s.precision:.3f} {s.recall:.3f} "
            f"{s.f1:.3f} {ratio:>5.2f} {other}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (best kept)")
    parser.add_argument(
        "--show-worst", type=int, default=0, help="list this many of webtap's worst pages"
    )
    parser.add_argument(
        "--only", nargs="*", default=None, help="peers whose name contains one of these"
    )
    args = parser.parse_args(argv)
    found = extractors()
    if args.only is not None:
        found = {
            label: fn
            for label, fn in found.items()
            if label.startswith("webtap") or any(o in label for o in args.only)
        }
    ran = False
    for name in ("modern", "articles"):
        folder = args.data / "html" / name
        if not (folder / "ground-truth.json").is_file():
            print(f"bench/main_content.py: no {folder}/ground-truth.json; from {_SOURCES[name]}.")
            continue
        ran = True
        report(name, load_corpus(folder), found, args.repeat, args.show_worst)
    if (args.data / "html" / "docs").is_dir():
        docs_structure(args.data / "html" / "docs")
    else:
        print(f"bench/main_content.py: no {args.data}/html/docs; from {_SOURCES['docs']}.")
    if not ran:
        print("bench/main_content.py: nothing to measure; pass --data DIR. Skipped.")
    return 0


_HEADING = re.compile(r"^ *#{1,6} ", re.M)
_FENCE = re.compile(r"^ *(```|~~~)", re.M)
_TABLE = re.compile(r"^ *\|(?: *:?-+:? *\|)+ *$", re.M)
_PAGER = re.compile(r"^\|.*\[(?:Prev|Next)\]\(", re.M)


def structure(markdown: str) -> tuple[int, int, int, int]:
    """Headings, code blocks (fence pairs), tables, and tables that are not a manual's
    Prev/Up/Next navigation bar (PostgreSQL's header and footer tables)."""
    tables = 0
    for block in re.split(r"\n\s*\n", markdown):
        if _TABLE.search(block) and not _PAGER.search(block):
            tables += 1
    return (
        len(_HEADING.findall(markdown)),
        len(_FENCE.findall(markdown)) // 2,
        len(_TABLE.findall(markdown)),
        tables,
    )


def docs_structure(folder: Path) -> None:
    """What share of the whole page's headings, code blocks and tables main content keeps."""
    from webtap.convert import convert

    paths = sorted(folder.glob("*.html"))
    if not paths:
        return
    print(f"\ndocs: {len(paths)} pages; main content keeps of the whole page's")
    columns = ("headings", "code", "tables", "no pager")
    print(f"{'page':<40}" + "".join(f"{c:>10}" for c in columns) + f"{'trimmed':>8}")
    totals = [[0, 0] for _ in columns]
    for path in paths:
        page = decode(path.read_bytes())
        whole = structure(convert(page).markdown)
        doc = convert(page, main_content=True)
        main = structure(doc.markdown)
        cells = []
        for i in range(len(columns)):
            totals[i][0] += main[i]
            totals[i][1] += whole[i]
            cells.append(f"{main[i]}/{whole[i]}")
        print(f"{path.stem:<40}" + "".join(f"{c:>10}" for c in cells) + f"{doc.trimmed!s:>8}")
    shares = [f"{kept / whole:.1%}" if whole else "-" for kept, whole in totals]
    print(f"{'all (targets 95%, 95%, -, 100%)':<40}" + "".join(f"{c:>10}" for c in shares))


if __name__ == "__main__":
    sys.exit(main())
