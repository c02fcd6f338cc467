"""Main-content extraction: webtap beside trafilatura and readability-lxml, in one run.

    .venv/bin/python bench/main_content.py [--data DIR] [--repeat N] [--show-worst N]

On the news and blog pages of ``DIR/articles/`` (default ``/work/shared/data/html``), against
``ground-truth.json``'s ``articleBody``, for webtap's main content, webtap's whole page,
trafilatura (plain text and Markdown output) and readability-lxml:

- precision, recall and F1 of word 4-gram shingles (per page, averaged), on the text with link
  targets and image addresses removed, so Markdown is not penalised for its URLs;
- overhead: output words over ground-truth words, all pages together (what an agent pays);
- MB/s, one thread, best of ``--repeat`` runs over every page, the extractors' runs interleaved;
- pages failed: empty output, or recall under 0.5.

Targets for webtap's main content: F1 >= 0.965, overhead <= 1.2x, at least 4x trafilatura's
MB/s in the same run, at most one page failed. Then, on ``DIR/docs/`` (manuals), how many of the
whole page's headings, code blocks and tables the main content keeps (targets 95%, 95%, 90%);
"no pager" counts the tables other than PostgreSQL's Prev/Up/Next navigation bars, which main
content rightly leaves out.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from convert import DEFAULT_DATA, load

Extractor = Callable[[str], str]

_IMAGE = re.compile(r"!\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_LINK = re.compile(r"\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_AUTOLINK = re.compile(r"<(?:https?|mailto):[^>\s]*>")
_TOKEN = re.compile(r"\w+")
_SHINGLE = 4


def words(text: str) -> list[str]:
    """The words of a text, lower-cased, with Markdown link targets and images removed."""
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub("]", text)
    text = _AUTOLINK.sub(" ", text)
    return _TOKEN.findall(text.lower())


def shingles(tokens: list[str]) -> Counter[tuple[str, ...]]:
    if len(tokens) < _SHINGLE:
        return Counter([tuple(tokens)]) if tokens else Counter()
    return Counter(zip(*(tokens[i:] for i in range(_SHINGLE)), strict=False))


@dataclass
class Score:
    precision: float
    recall: float
    f1: float
    words: int


def score(output: str, truth: str) -> Score:
    """Shingle precision, recall and F1 of ``output`` against ``truth``."""
    out_tokens, truth_tokens = words(output), words(truth)
    got, want = shingles(out_tokens), shingles(truth_tokens)
    common = sum((got & want).values())
    precision = common / max(sum(got.values()), 1) if got else 0.0
    recall = common / max(sum(want.values()), 1) if want else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(precision, recall, f1, len(out_tokens))


def extractors() -> dict[str, Extractor]:
    """webtap's two modes, then every peer that is installed."""
    from webtap.convert import _extract, convert

    def webtap_main(html: str) -> str:
        # The fetch tool converts one page per process: no class names remembered from
        # the pages before.
        _extract._KINDS.clear()
        return convert(html, main_content=True).markdown

    found: dict[str, Extractor] = {
        "webtap main content": webtap_main,
        "webtap whole page": lambda html: convert(html).markdown,
    }
    try:
        import trafilatura

        found["trafilatura (text)"] = lambda html: trafilatura.extract(html) or ""
        found["trafilatura (markdown)"] = lambda html: (
            trafilatura.extract(html, output_format="markdown") or ""
        )
    except ImportError:
        print("trafilatura is not installed: pip install -e '.[bench]'")
    try:
        import lxml.html
        from readability import Document as Readability

        def readability(html: str) -> str:
            summary = Readability(html).summary(html_partial=True)
            return lxml.html.fromstring(summary).text_content() if summary.strip() else ""

        found["readability-lxml"] = readability
    except ImportError:
        print("readability-lxml is not installed: pip install -e '.[bench]'")
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
            start = time.perf_counter()
            results = [extract(page) for page in pages]
            best[label] = min(best[label], time.perf_counter() - start)
            outputs.setdefault(label, results)
    return {label: (outputs[label], best[label]) for label in found}


def articles(data: Path) -> tuple[list[str], list[str], list[str]]:
    """The article pages (in ``load``'s order), their ids and their ground truth."""
    paths = sorted((data / "articles" / "html").glob("*.html.gz"))
    ids = [path.name.removesuffix(".html.gz") for path in paths]
    truth = json.loads((data / "articles" / "ground-truth.json").read_text("utf-8"))
    return load(data)["articles"], ids, [truth[i]["articleBody"] for i in ids]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of pages")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (best kept)")
    parser.add_argument(
        "--show-worst", type=int, default=0, help="list this many of webtap's worst pages"
    )
    args = parser.parse_args(argv)
    if not (args.data / "articles" / "ground-truth.json").is_file():
        print(f"bench/main_content.py: no articles/ground-truth.json under {args.data}. Skipped.")
        return 0
    pages, ids, truths = articles(args.data)
    megabytes = sum(len(page.encode()) for page in pages) / 1e6
    truth_words = sum(len(words(t)) for t in truths)
    print(f"articles: {len(pages)} pages, {megabytes:.1f} MB, best of {args.repeat}\n")
    header = f"{'extractor':<24} {'P':>6} {'R':>6} {'F1':>6} {'overhead':>8} {'MB/s':>6}"
    print(f"{header} {'vs trafilatura':>14} {'failed':>6}")
    rows = {}
    for label, (outputs, seconds) in run_all(extractors(), pages, args.repeat).items():
        scores = [score(out, truth) for out, truth in zip(outputs, truths, strict=True)]
        rows[label] = (scores, megabytes / seconds)
    traf_speed = rows.get("trafilatura (text)", (None, 0.0))[1]
    for label, (scores, speed) in rows.items():
        n = len(scores)
        failed = sum(1 for s in scores if s.words == 0 or s.recall < 0.5)
        ratio = f"{speed / traf_speed:.1f}x" if traf_speed else "-"
        print(
            f"{label:<24} {sum(s.precision for s in scores) / n:>6.3f} "
            f"{sum(s.recall for s in scores) / n:>6.3f} {sum(s.f1 for s in scores) / n:>6.3f} "
            f"{sum(s.words for s in scores) / truth_words:>7.2f}x {speed:>6.1f} {ratio:>14} "
            f"{failed:>6}"
        )
    if args.show_worst:
        ours = rows["webtap main content"][0]
        worst = sorted(range(len(ours)), key=lambda i: ours[i].f1)[: args.show_worst]
        print("\nwebtap's worst pages (P, R, F1, words/truth):")
        for i in worst:
            s = ours[i]
            ratio = s.words / max(len(words(truths[i])), 1)
            print(f"  {ids[i][:16]} {s.precision:.3f} {s.recall:.3f} {s.f1:.3f} {ratio:.2f}")
    docs_structure(args.data)
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


def docs_structure(data: Path) -> None:
    """What share of the whole page's headings, code blocks and tables main content keeps."""
    from webtap.convert import convert

    pages = load(data).get("docs", [])
    if not pages:
        return
    names = [path.stem for path in sorted((data / "docs").glob("*.html"))]
    print(f"\ndocs: {len(pages)} pages; main content keeps of the whole page's")
    columns = ("headings", "code", "tables", "no pager")
    print(f"{'page':<40}" + "".join(f"{c:>10}" for c in columns) + f"{'trimmed':>8}")
    totals = [[0, 0] for _ in columns]
    for name, page in zip(names, pages, strict=True):
        whole = structure(convert(page).markdown)
        doc = convert(page, main_content=True)
        main = structure(doc.markdown)
        cells = []
        for i in range(len(columns)):
            totals[i][0] += main[i]
            totals[i][1] += whole[i]
            cells.append(f"{main[i]}/{whole[i]}")
        print(f"{name:<40}" + "".join(f"{c:>10}" for c in cells) + f"{doc.trimmed!s:>8}")
    shares = [f"{kept / whole:.1%}" if whole else "-" for kept, whole in totals]
    print(f"{'all (targets 95%, 95%, 90%)':<40}" + "".join(f"{c:>10}" for c in shares))


if __name__ == "__main__":
    sys.exit(main())
