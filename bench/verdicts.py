"""The fetch's verdicts on real pages: how many get one other than content, and what it costs.

    .venv/bin/python bench/verdicts.py [--data DIR] [--show]

Every page of ``DIR/html/modern/`` (500) and ``DIR/html/articles/`` (181), in the shared data
folder (``../shared/data`` beside the repository by default), goes through the real fetch flow,
``webtap.fetch.fetch(url)`` at its own URL from ``ground-truth.json`` (two pages without one
get ``https://example.com/<folder>/<id>``), on a ``webtap.net.MockTransport`` that answers the
page's bytes as ``text/html`` with status 200, and any other URL (a page's Markdown version)
with a 404: the hop loop, the conversion with the converter's ``inspect`` hook, the verdict,
the Markdown-version step. robots.txt is left out (a person's fetch) and so is the page cache.
These are real pages that a reader wants, so every verdict other than content is either a page
that really is a wall (a paywall's teaser saved as it was) or a false positive: each one is
listed with its evidence, to be checked by reading the page. ``--show`` prints the start of
each flagged page's Markdown.

The time is the classifier's own (reading the tree and deciding, on the tree the converter
parsed), per page, beside the whole fetch of the page and beside parsing it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter

import shared_data
from webtap.errors import WebtapError
from webtap.fetch import fetch
from webtap.guard import Guard
from webtap.net import Client, MockTransport, Request, Response


class Timed:
    """The fetch's verdict step with its time kept (``webtap.fetch.judge.judge``)."""

    def __init__(self) -> None:
        import webtap.verdict

        self.seconds = 0.0
        self.verdicts: list[object] = []
        original_read, original_classify = webtap.verdict.read_page, webtap.verdict.classify

        def read_page(page: object) -> object:
            start = time.perf_counter()
            try:
                return original_read(page)
            finally:
                self.seconds += time.perf_counter() - start

        def classify(*args: object, **kwargs: object) -> object:
            start = time.perf_counter()
            try:
                verdict = original_classify(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start
            self.verdicts.append(verdict)
            return verdict

        webtap.verdict.read_page = read_page  # as the fetch imports them, on each call
        webtap.verdict.classify = classify


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    shared_data.add_argument(parser)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    import lxml.html

    timed = Timed()
    counts: Counter[str] = Counter()
    flagged = []
    fetch_time = parse_time = 0.0
    for folder in ("modern", "articles"):
        pages = shared_data.need(args.data, f"html/{folder}")
        truth = json.loads((pages / "ground-truth.json").read_text())
        for path in sorted((pages / "html").glob("*.html.gz")):
            key = path.name.split(".")[0]
            body = gzip.decompress(path.read_bytes())
            url = truth[key]["url"]
            if not url.startswith(("http://", "https://")):  # two pages have none: made up
                url = f"https://example.com/{folder}/{key}"

            def answer(request: Request, url: str = url, body: bytes = body) -> Response:
                if request.url.split("#")[0] == url.split("#")[0]:
                    return Response(200, {"Content-Type": "text/html"}, body)
                return Response(404, {"Content-Type": "text/plain"}, b"not here")

            start = time.perf_counter()
            lxml.html.document_fromstring(body)
            parse_time += time.perf_counter() - start
            client = Client(transport=MockTransport(answer))
            start = time.perf_counter()
            try:
                page = fetch(url, client=client, guard=Guard(), cache=False, model_chose=False)
            except WebtapError as exc:
                kind = str(exc.details.get("verdict") or exc.code)
                markdown, evidence = "", exc.message
            else:
                kind, markdown = page.verdict, page.markdown
                evidence = f"{page.markdown_source or ''}"
            fetch_time += time.perf_counter() - start
            last = timed.verdicts[-1] if timed.verdicts else None
            if kind != "content" and last is not None:
                evidence = getattr(last, "evidence", evidence)
            counts[f"{folder}:{kind}"] += 1
            if kind != "content":
                flagged.append((folder, key, kind, evidence, url, markdown))
    pages = sum(counts.values())
    print(f"{pages} pages through webtap.fetch.fetch: " + ", ".join(
        f"{k} {v}" for k, v in sorted(counts.items())
    ))  # fmt: skip
    print(f"not content: {len(flagged)}")
    for folder, key, kind, evidence, url, markdown in flagged:
        print(f"  {folder}/{key[:12]} {kind}: {evidence} — {url}")
        if args.show:
            print("    " + markdown[:600].replace("\n", "\n    "))
    print(
        f"time per page: the verdict (read the tree, classify) "
        f"{timed.seconds / pages * 1000:.2f} ms, the whole fetch {fetch_time / pages * 1000:.1f} "
        f"ms, lxml parse alone {parse_time / pages * 1000:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
