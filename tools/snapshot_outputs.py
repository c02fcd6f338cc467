"""A digest of what webtap makes of every real page: to show that a change changed nothing.

    .venv/bin/python tools/snapshot_outputs.py [--data DIR] [--out FILE] [--markdown DIR]
    .venv/bin/python tools/snapshot_outputs.py --compare BEFORE AFTER

Every page under ``DIR`` (default ``../shared/data/html`` beside the repository; every
``*.html`` and ``*.html.gz`` in every folder, at any depth) is read three ways, and one JSON
line per page goes to ``FILE`` (default ``snapshot.jsonl``):

- converted with :func:`webtap.convert.convert`, its whole page and its main content (the
  bytes as they are, libxml2 sniffing the charset): a SHA-256 of each Markdown, the converter's
  ``state``, and the verdict :func:`webtap.verdict.classify` gives each document with the
  page's signals read in the converter's ``inspect`` hook (status 200, ``text/html``);
- a digest of each document's metadata (published, author, ...);
- whether each document is thin enough to try a page's Markdown version
  (:func:`webtap.fetch.negotiation.thin_content`);
- through the real fetch flow, as ``bench/verdicts.py`` does: :func:`webtap.fetch.fetch` at the
  page's own URL (from the folder's ``ground-truth.json`` or ``expectations.json``, else a
  made-up ``https://example.com/<path>``) on a :class:`webtap.net.MockTransport` answering the
  page with status 200 and anything else with 404; no cache, no robots.txt, no rendering: the
  verdict it ends with, and a SHA-256 of its Markdown.

Run it before a change and after, then ``--compare`` the two files: it prints every page whose
line differs, field by field, and exits 1 when any does. ``--markdown DIR`` also writes each
page's two Markdown outputs there, to read a difference.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from webtap.convert import convert
from webtap.errors import WebtapError
from webtap.fetch import fetch
from webtap.fetch.negotiation import thin_content
from webtap.guard import Guard
from webtap.net import Client, MockTransport, Request, Response
from webtap.verdict import classify, read_page

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "html"
_TRUTH = ("ground-truth.json", "expectations.json")


def pages(data: Path) -> list[tuple[str, bytes, str]]:
    """(path under ``data``, the page's bytes, its URL) of every page, sorted by path."""
    urls: dict[Path, dict[str, Any]] = {}
    for name in _TRUTH:
        for truth in data.rglob(name):
            urls[truth.parent] = json.loads(truth.read_text("utf-8"))
    found = []
    for path in sorted(p for p in data.rglob("*") if p.name.endswith((".html", ".html.gz"))):
        relative = path.relative_to(data).as_posix()
        body = path.read_bytes()
        if path.name.endswith(".gz"):
            body = gzip.decompress(body)
        key = path.name.removesuffix(".gz").removesuffix(".html")
        entry = next((t[key] for folder, t in urls.items() if folder in path.parents and key in t),
                     {})  # fmt: skip
        url = str(entry.get("url") or "")
        if not url.startswith(("http://", "https://")):
            url = f"https://example.com/{relative}"
        found.append((relative, body, url))
    return found


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def converted(body: bytes, url: str, main_content: bool) -> tuple[Any, str]:
    """The document in one mode and the verdict on it."""
    seen: list[Any] = []
    document = convert(body, url, main_content=main_content, inspect=lambda root: seen.append(
        read_page(root)))  # fmt: skip
    verdict = classify(200, {"Content-Type": "text/html"}, seen[0] if seen else None, document,
                       url=url)  # fmt: skip
    return document, verdict.kind


def fetched(body: bytes, url: str) -> tuple[str, str]:
    """The verdict and the Markdown's digest of the fetch flow on the page."""

    def answer(request: Request) -> Response:
        if request.url.split("#")[0] == url.split("#")[0]:
            return Response(200, {"Content-Type": "text/html"}, body)
        return Response(404, {"Content-Type": "text/plain"}, b"not here")

    client = Client(transport=MockTransport(answer))
    try:
        page = fetch(url, client=client, guard=Guard(), cache=False, render=False)
    except WebtapError as exc:
        return str(exc.details.get("verdict") or exc.code), ""
    return page.verdict, digest(page.markdown)


def snapshot(data: Path, out: Path, markdown: Path | None) -> int:
    start = time.perf_counter()
    kinds: Counter[str] = Counter()
    with out.open("w", encoding="utf-8") as sink:
        for relative, body, url in pages(data):
            line: dict[str, Any] = {"page": relative}
            for mode, main in (("whole", False), ("main", True)):
                document, kind = converted(body, url, main)
                line[mode] = digest(document.markdown)
                line[f"{mode}_state"] = document.state
                line[f"{mode}_verdict"] = kind
                line[f"{mode}_thin"] = thin_content(document)
                line[f"{mode}_metadata"] = digest(json.dumps(document.metadata.fields()))
                if markdown is not None:
                    target = markdown / f"{relative}.{mode}.md"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(document.markdown, "utf-8")
            line["fetch_verdict"], line["fetch"] = fetched(body, url)
            kinds[line["fetch_verdict"]] += 1
            sink.write(json.dumps(line, sort_keys=True) + "\n")
    total = sum(kinds.values())
    print(f"{total} pages in {time.perf_counter() - start:.0f} s -> {out}; fetch verdicts: "
          + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))  # fmt: skip
    return 0


def compare(before: Path, after: Path) -> int:
    """Print every page whose line differs between two snapshots; 1 when any does."""
    old = {json.loads(x)["page"]: json.loads(x) for x in before.read_text("utf-8").splitlines()}
    new = {json.loads(x)["page"]: json.loads(x) for x in after.read_text("utf-8").splitlines()}
    differing = 0
    for page in sorted(old.keys() | new.keys()):
        a, b = old.get(page), new.get(page)
        if a == b:
            continue
        differing += 1
        if a is None or b is None:
            print(f"{page}: only in {'after' if a is None else 'before'}")
            continue
        changes = ", ".join(f"{k} {a.get(k)!r} -> {b.get(k)!r}" for k in sorted(a.keys() | b.keys())
                            if a.get(k) != b.get(k))  # fmt: skip
        print(f"{page}: {changes}")
    fields = Counter(k for line in new.values() for k in line if k.endswith("verdict"))
    print(f"{len(new)} pages, {differing} differ ({len(fields)} verdicts and 2 Markdown outputs "
          "compared per page)")  # fmt: skip
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=Path("snapshot.jsonl"))
    parser.add_argument("--markdown", type=Path, help="write each page's Markdown here too")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if not args.data.is_dir():
        print(f"{args.data} is not a folder of pages: pass --data DIR", file=sys.stderr)
        return 2
    return snapshot(args.data, args.out, args.markdown)


if __name__ == "__main__":
    sys.exit(main())
