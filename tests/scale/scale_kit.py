"""What the scale tests share: pages on the suite's fake site, what a worker needs to search the
suite's fake Brave, and the count a provider's limit is about (the most requests in any one
second)."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path
from typing import Any

from tests.fakes.brave import FakeBrave
from tests.fakes.site import Site

HERE = Path(__file__).parent
REAL_PAGES = sorted((HERE.parent / "convert" / "data").glob("*.html.gz"))
BRAVE_KEY = FakeBrave.KEY
HTML = {"Content-Type": "text/html; charset=utf-8"}


def descendants(root: int) -> set[int]:
    """``root`` and every process below it, read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (a zombie has ended)."""
    running = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X"):
            running.add(pid)
    return running


# -- pages -----------------------------------------------------------------------------------


def page(n: int) -> bytes:
    """A page with structure for the converter: headings, a list, a table, code, links."""
    rows = "".join(f"<tr><td>r{n}.{i}</td><td>{i * n}</td></tr>" for i in range(n % 5 + 1))
    items = "".join(f"<li>item {i} of page {n}</li>" for i in range(n % 4 + 2))
    return (
        f"<!doctype html><html><head><title>Page {n}</title></head><body>"
        f"<nav><a href='/'>home</a></nav><main><article><h1>Page number {n}</h1>"
        f"<p>This is <b>page {n}</b>, with <a href='/p{n + 1}'>a link</a> and some text "
        f"that a reader would want to keep. {'More words. ' * (n % 7 + 3)}</p>"
        f"<h2>List</h2><ul>{items}</ul><h2>Table</h2><table><tr><th>name</th><th>value</th>"
        f"</tr>{rows}</table><pre><code>print({n})\n</code></pre></article></main>"
        f"<footer>footer {n}</footer></body></html>"
    ).encode()


class Pages:
    """``count`` pages on the suite's fake site (tests/fakes/site.py): ``/real<n>`` the real
    pages in tests/convert/data, ``/p<n>`` generated; any other path is a 404. ``hits`` counts
    the requests per path, ``arrivals`` says when each came (monotonic)."""

    def __init__(self, site: Site, count: int = 50) -> None:
        self.site = site
        real = [gzip.decompress(path.read_bytes()) for path in REAL_PAGES]
        self.bodies = {f"/real{i}": body for i, body in enumerate(real)}
        for n in range(count - len(real)):
            self.bodies[f"/p{n}"] = page(n)
        for path, body in self.bodies.items():
            site.route(path, body, headers=HTML)

    @property
    def urls(self) -> list[str]:
        return [self.url(path) for path in self.bodies]

    def url(self, path: str) -> str:
        return self.site.url(path)

    @property
    def hits(self) -> dict[str, int]:
        return dict(Counter(self.site.paths()))

    @property
    def arrivals(self) -> list[float]:
        return self.site.arrivals()


# -- a provider's limit ------------------------------------------------------------------------


def most_in_any_window(times: list[float], window: float = 1.0) -> int:
    """The most arrivals in any interval of ``window`` seconds."""
    times = sorted(times)
    best = first = 0
    for last, at in enumerate(times):
        while times[first] <= at - window:
            first += 1
        best = max(best, last - first + 1)
    return best


def brave_budget(key: str = BRAVE_KEY) -> Any:
    """The rate budget of a Brave key, as the search pipeline names it (by a hash of the key)."""
    from webtap.budget.rate import RateBudget

    return RateBudget("brave", key, what="Brave Search")


def brave_env(brave: FakeBrave, **extra: str) -> dict[str, str]:
    """What a worker needs to search the fake Brave with its key at 5 requests a second."""
    return {
        **brave.environment(),
        "WEBTAP_BRAVE_RATE": "5",
        "WEBTAP_CACHE": "off",
        "WEBTAP_SEARCH_DEADLINE": "60",
        **extra,
    }
