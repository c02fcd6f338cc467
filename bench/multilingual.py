"""Snippet F1 on the older, multilingual web: webtap's main content beside trafilatura, one run.

    .venv/bin/python bench/multilingual.py [--data DIR] [--show-worst N] [--only NAME ...]
                                           [--page NAME]

``DIR`` (default ``../shared/data`` from the repository) holds ``html/multilingual/``: 495
news and blog pages, more than half German-language, many older and template-heavy, from
trafilatura's own evaluation set, with ``expectations.json`` naming for each page sentences
that belong to its main content (``with``) and sentences that do not (``without``).

Scored as trafilatura scores it: a ``with`` snippet found in the output is a true positive,
missing a false negative; a ``without`` snippet found is a false positive, absent a true
negative; precision, recall and F1 over all snippets of all pages. "Found" compares words
(lower-cased, Markdown's link targets and images removed, ``bench/main_content.py``'s
``words``), so that Markdown's marks and a snippet's stray spacing count for no extractor.
Each extractor with its default settings: webtap's main content, trafilatura (text),
readability-lxml and resiliparse when installed (``pip install -e '.[bench]'``). Then the
same per language group (German-language sites by their domain, the rest), and with
``--show-worst N`` the pages where webtap errs most (snippets missed and leaked), beside
trafilatura's errors on them; ``--page NAME`` prints one page's missed and leaked snippets.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from main_content import DEFAULT_DATA, Extractor, decode, extractors, words

_GERMAN = (".de", ".at", ".ch")


class Page(NamedTuple):
    name: str
    url: str
    html: str
    with_: list[str]
    without: list[str]


class Counts(NamedTuple):
    tp: int
    fn: int
    fp: int
    tn: int

    def __add__(self, other: object) -> Counts:
        assert isinstance(other, Counts)
        return Counts(*(a + b for a, b in zip(self, other, strict=True)))

    def f1(self) -> tuple[float, float, float]:
        precision = self.tp / max(self.tp + self.fp, 1)
        recall = self.tp / max(self.tp + self.fn, 1)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return precision, recall, f1


def load(folder: Path) -> list[Page]:
    expectations = json.loads((folder / "expectations.json").read_text("utf-8"))
    pages = []
    for name, entry in sorted(expectations.items()):
        path = folder / "html" / f"{name}.html.gz"
        if not path.is_file():
            continue
        html = decode(gzip.decompress(path.read_bytes()))
        pages.append(Page(name, entry["url"], html, entry["with"], entry["without"]))
    return pages


def _found(snippets: list[str], text: str) -> list[bool]:
    wanted = [" ".join(words(s)) for s in snippets]
    return [f" {w} " in text for w in wanted if w]


def count(output: str, page: Page) -> Counts:
    text = f" {' '.join(words(output))} "
    found = _found(page.with_, text)
    leaked = _found(page.without, text)
    return Counts(sum(found), len(found) - sum(found), sum(leaked), len(leaked) - sum(leaked))


def german(page: Page) -> bool:
    return (urlsplit(page.url).hostname or "").endswith(_GERMAN)


def _safe(extract: Extractor, html: str) -> str:
    try:
        return extract(html)
    except Exception as exc:  # a peer's crash is its miss, not the bench's end
        print(f"  ({type(exc).__name__}: {exc})", file=sys.stderr)
        return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--show-worst", type=int, default=0, help="webtap's worst pages")
    parser.add_argument("--only", nargs="*", default=None, help="peers named with one of these")
    parser.add_argument("--page", default=None, help="one page's missed and leaked snippets")
    args = parser.parse_args(argv)
    folder = args.data / "html" / "multilingual"
    if not (folder / "expectations.json").is_file():
        print(f"bench/multilingual.py: no {folder}/expectations.json. Skipped.")
        return 0
    pages = load(folder)
    if args.page:
        pages = [p for p in pages if p.name.startswith(args.page)]
    found = {
        label: fn
        for label, fn in extractors().items()
        if label != "webtap whole page" and "markdown" not in label
    }
    if args.only is not None:
        found = {
            k: v
            for k, v in found.items()
            if k.startswith("webtap") or any(o in k for o in args.only)
        }
    outputs = {label: [_safe(fn, p.html) for p in pages] for label, fn in found.items()}
    counts = {
        label: [count(out, p) for out, p in zip(outs, pages, strict=True)]
        for label, outs in outputs.items()
    }
    groups = {
        "all": list(range(len(pages))),
        "German-language sites": [i for i, p in enumerate(pages) if german(p)],
        "other sites": [i for i, p in enumerate(pages) if not german(p)],
    }
    for group, indices in groups.items():
        print(f"\nmultilingual, {group}: {len(indices)} pages, snippet F1")
        print(f"{'extractor':<24} {'P':>6} {'R':>6} {'F1':>6} {'missed':>7} {'leaked':>7}")
        for label, marks in counts.items():
            total = sum((marks[i] for i in indices), Counts(0, 0, 0, 0))
            precision, recall, f1 = total.f1()
            print(
                f"{label:<24} {precision:>6.3f} {recall:>6.3f} {f1:>6.3f} "
                f"{total.fn:>7} {total.fp:>7}"
            )
    ours = counts["webtap main content"]
    theirs = counts.get("trafilatura (text)")
    if args.show_worst:
        print("\nwebtap's worst pages (missed, leaked; trafilatura's missed, leaked), URL:")
        worst = sorted(range(len(pages)), key=lambda i: -(ours[i].fn + ours[i].fp))
        for i in worst[: args.show_worst]:
            other = f"{theirs[i].fn}, {theirs[i].fp}" if theirs else "-"
            print(f"  {pages[i].name[:12]} {ours[i].fn}, {ours[i].fp} ({other}) {pages[i].url}")
    if args.page:
        for page, out in zip(pages, outputs["webtap main content"], strict=True):
            text = f" {' '.join(words(out))} "
            print(f"\n{page.name} {page.url}")
            for s in page.with_:
                if f" {' '.join(words(s))} " not in text:
                    print(f"  missed: {s}")
            for s in page.without:
                if f" {' '.join(words(s))} " in text:
                    print(f"  leaked: {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
