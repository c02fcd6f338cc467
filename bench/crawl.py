"""webtap crawl beside Scrapy on the same generated trap site, in the same run.

    .venv/bin/pip install scrapy        # or: pip install -e '.[bench]'
    .venv/bin/python bench/crawl.py [--docs 400] [--max-pages 600] [--stall 0.01]

The site is the test suite's (tests/fakes/crawl_site.py: duplicates through tracking and
session parameters, trailing slashes, query order, a print copy, AMP pages naming their
canonical page, two redirects to one page, a 429, a disallowed section, an endless calendar),
served on 127.0.0.1 with no Crawl-delay and each page answered after ``--stall`` seconds (a
server's think time). Both crawlers obey robots.txt, go breadth first, keep 8 requests at once
to the host, and stop after ``--max-pages`` pages:

- webtap: ``webtap crawl URL OUT.jsonl --connections 8 --threads 8`` (``WEBTAP_HOST_RATE`` high:
  no delay), Markdown of each page's main content;
- Scrapy: a ``CrawlSpider`` following every link on the host, ``ROBOTSTXT_OBEY``, ``JOBDIR``
  (resumable, as webtap is), FIFO queues and ``DEPTH_PRIORITY=1`` (breadth first),
  ``CONCURRENT_REQUESTS_PER_DOMAIN=8``, ``CLOSESPIDER_PAGECOUNT``, items to JSON lines (URL and
  title: no conversion).

Counted from the site's own log: page requests (robots.txt and sitemaps apart), the distinct
pages among them (a page's identity is its path without query, parameters, trailing slash, and
its print or AMP copy), so duplicate fetches = requests − distinct pages; pages a second =
page requests over the wall time of the whole command (start-up included).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))  # the repository, for the suite's fakes

from tests.fakes.crawl_site import TrapSite

BIN = Path(sys.executable).parent

SPIDER = """
import scrapy
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class Site(CrawlSpider):
    name = "site"
    allowed_domains = ["127.0.0.1"]
    start_urls = [START]
    rules = (Rule(LinkExtractor(), callback="parse_page", follow=True),)

    def parse_start_url(self, response):
        return self.parse_page(response)

    def parse_page(self, response):
        yield {"url": response.url, "title": response.css("title::text").get()}
"""


def identity(path: str) -> str:
    plain = re.split(r"[?;]", path, maxsplit=1)[0].rstrip("/") or "/"
    plain = plain.replace("/print/", "/")
    return re.sub(r"^/amp/post-", "/blog/post-", plain)


def measure(site: TrapSite, command: list[str], env: dict[str, str]) -> dict[str, float]:
    site.log.clear()
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{command[0]} failed:\n{done.stderr[-2000:]}")
    pages = site.pages()
    distinct = {identity(request.path) for request in pages}
    return {
        "requests": len(pages),
        "distinct": len(distinct),
        "duplicates": len(pages) - len(distinct),
        "off_host": len(site.off_host()),
        "private": sum(1 for request in pages if request.path.startswith("/private/")),
        "wall": wall,
        "pages_per_s": len(pages) / wall,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=400)
    parser.add_argument("--posts", type=int, default=100)
    parser.add_argument("--max-pages", type=int, default=600)
    parser.add_argument("--stall", type=float, default=0.01)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="webtap-crawl-bench-"))
    env = dict(
        os.environ,
        WEBTAP_ALLOW_PRIVATE_NETWORKS="1",
        WEBTAP_HOST_RATE="100000",
        WEBTAP_CACHE_DIR=str(work / "cache"),
    )
    with TrapSite.running(
        docs=args.docs, posts=args.posts, orphans=20, stall=args.stall, retry_after=0.2
    ) as site:
        start = site.url("/")
        webtap = [
            str(BIN / "webtap"), "crawl", start, str(work / "webtap.jsonl"), "--no-progress",
            "--threads", "8", "--connections", "8", "--max-pages", str(args.max_pages),
        ]  # fmt: skip
        spider = work / "spider.py"
        spider.write_text(SPIDER.replace("START", repr(start)))
        scrapy = [
            sys.executable, "-m", "scrapy", "runspider", str(spider), "-o",
            str(work / "scrapy.jsonl"), "--loglevel", "ERROR",
            "-s", "ROBOTSTXT_OBEY=True", "-s", f"JOBDIR={work / 'scrapy-job'}",
            "-s", "CONCURRENT_REQUESTS=8", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=8",
            "-s", "DOWNLOAD_DELAY=0", "-s", "DEPTH_PRIORITY=1",
            "-s", "SCHEDULER_DISK_QUEUE=scrapy.squeues.PickleFifoDiskQueue",
            "-s", "SCHEDULER_MEMORY_QUEUE=scrapy.squeues.FifoMemoryQueue",
            "-s", f"CLOSESPIDER_PAGECOUNT={args.max_pages}", "-s", "TELNETCONSOLE_ENABLED=False",
            "-s", "LOG_ENABLED=False",
        ]  # fmt: skip
        results = {"webtap crawl": measure(site, webtap, env), "Scrapy": measure(site, scrapy, env)}
    print(f"site: {args.docs} docs, {args.posts} posts, calendar; stall {args.stall} s a page; "
          f"--max-pages {args.max_pages}")  # fmt: skip
    print(f"{'':14}{'pages/s':>9}{'requests':>10}{'distinct':>10}{'duplicates':>12}"
          f"{'off host':>10}{'disallowed':>12}{'wall s':>8}")  # fmt: skip
    for name, r in results.items():
        counts = "".join(
            f"{r[key]:{width}.0f}"
            for key, width in (("requests", 10), ("distinct", 10), ("duplicates", 12),
                               ("off_host", 10), ("private", 12))
        )  # fmt: skip
        print(f"{name:14}{r['pages_per_s']:9.1f}{counts}{r['wall']:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
