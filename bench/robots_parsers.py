"""Protego against the standard library's urllib.robotparser: what each decides, and what each
costs to import on the fetch path.

    .venv/bin/python bench/robots_parsers.py [--runs 15]

1. A table of robots.txt files and URLs with the answer RFC 9309 gives (wildcards ``*`` and
   ``$``, the longest match, ``Allow`` winning a tie, user-agent groups, percent-encoding),
   and what Protego and ``urllib.robotparser`` answer for the token ``webtap``.
2. The import time of each in a fresh process that has already imported what a fetch imports
   (``webtap.fetch``, the converter, ``http.client``, ``lxml.html``): the cost a fetch that
   obeys robots.txt adds, median and best of ``--runs`` processes.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import urllib.robotparser

from protego import Protego

TOKEN = "webtap"
AGENT = "webtap/0.1.0 (+https://pypi.org/project/webtap/)"

# (what is tested, robots.txt, path, allowed by RFC 9309)
CASES: list[tuple[str, str, str, bool]] = [
    ("wildcard *", "User-agent: *\nDisallow: /*.pdf", "/docs/a.pdf", False),
    ("wildcard * in the middle", "User-agent: *\nDisallow: /*/private/", "/a/private/x", False),
    ("$ anchors the end", "User-agent: *\nDisallow: /*.php$", "/index.php", False),
    ("$: a longer path passes", "User-agent: *\nDisallow: /*.php$", "/index.php?x=1", True),
    ("query wildcard /*?", "User-agent: *\nDisallow: /*?", "/search?q=1", False),
    ("query wildcard, no query", "User-agent: *\nDisallow: /*?", "/search", True),
    (
        "longest match: Allow after Disallow",
        "User-agent: *\nDisallow: /shop\nAllow: /shop/public",
        "/shop/public/x",
        True,
    ),
    (
        "longest match: Disallow after Allow",
        "User-agent: *\nAllow: /a\nDisallow: /a/b",
        "/a/b/c",
        False,
    ),
    ("Allow wins a tie", "User-agent: *\nDisallow: /page\nAllow: /page", "/page", True),
    (
        "own group, not *",
        "User-agent: webtap\nDisallow: /private\n\nUser-agent: *\nDisallow: /",
        "/public",
        True,
    ),
    (
        "own group disallows",
        "User-agent: webtap\nDisallow: /private\n\nUser-agent: *\nDisallow: /",
        "/private/x",
        False,
    ),
    ("group name case-insensitive", "User-agent: WebTap\nDisallow: /", "/x", False),
    (
        "groups of one agent merged",
        "User-agent: webtap\nDisallow: /a\n\nUser-agent: other\nDisallow: /\n\n"
        "User-agent: webtap\nDisallow: /b",
        "/b/x",
        False,
    ),
    (
        "several agents, one group",
        "User-agent: other\nUser-agent: webtap\nDisallow: /x",
        "/x/1",
        False,
    ),
    ("another bot's group only", "User-agent: otherbot\nDisallow: /", "/x", True),
    (
        "* group for everyone else",
        "User-agent: otherbot\nAllow: /\n\nUser-agent: *\nDisallow: /",
        "/x",
        False,
    ),
    ("empty Disallow allows", "User-agent: *\nDisallow:", "/x", True),
    ("percent-encoded rule", "User-agent: *\nDisallow: /%7Ejoe/", "/~joe/index.html", False),
    ("rule before any group ignored", "Disallow: /\nUser-agent: *\nAllow: /", "/x", True),
    ("robots.txt itself", "User-agent: *\nDisallow: /", "/robots.txt", True),
]


def stdlib_allows(robots: str, path: str) -> bool:
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(robots.splitlines())
    return parser.can_fetch(AGENT, "https://example.org" + path)


def protego_allows(robots: str, path: str) -> bool:
    return Protego.parse(robots).can_fetch("https://example.org" + path, TOKEN)


PRE = "import webtap.fetch, webtap.convert._markdown, http.client, lxml.html"


def import_ms(module: str, runs: int) -> tuple[float, float]:
    code = f"{PRE}\nimport time\ns = time.perf_counter()\nimport {module}\n"
    code += "print(time.perf_counter() - s)"
    samples = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
        for _ in range(runs)
    ]
    return statistics.median(samples) * 1000, min(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(f"{'case':38} {'path':18} {'RFC':6} {'Protego':8} {'stdlib':6}")
    wrong = {"Protego": 0, "stdlib": 0}
    for what, robots, path, expected in CASES:
        answers = {"Protego": protego_allows(robots, path), "stdlib": stdlib_allows(robots, path)}
        marks = {}
        for name, answer in answers.items():
            ok = answer == expected
            wrong[name] += not ok
            marks[name] = ("allow" if answer else "deny") + ("" if ok else " ✗")
        print(
            f"{what:38} {path:18} {'allow' if expected else 'deny':6} "
            f"{marks['Protego']:8} {marks['stdlib']:6}"
        )
    print(f"\nwrong answers: Protego {wrong['Protego']}, stdlib {wrong['stdlib']} of {len(CASES)}")
    print("\nimport time after the fetch path's own imports (median, best):")
    for module in ("protego", "urllib.robotparser", "logging"):
        median, best = import_ms(module, args.runs)
        print(f"  {module:20} {median:5.2f} ms  {best:5.2f} ms")


if __name__ == "__main__":
    main()
