"""Domain filters and international domain names, through web-search-brave-tool.

``bücher.de`` and ``xn--bcher-kva.de`` are one domain (decision: Domain filters): a filter written
either way applies to result URLs written either way, and a URL whose host cannot be read is no
match.
"""

from __future__ import annotations

from typing import Any

EXE = "web-search-brave-tool"

RESULTS = [
    "https://www.bücher.de/neu",
    "https://xn--bcher-kva.de/alt",
    "https://BÜCHER.de./gross",
    "https://bucher.de/ohne-umlaut",
    "http://[::1/broken-host",
    "https://münchen.example/stadt",
]


def brave_answer(urls: list[str]) -> dict[str, Any]:
    results = [{"title": f"r{i}", "url": url} for i, url in enumerate(urls)]
    return {"type": "search", "web": {"results": results}}


def urls_kept(brave: Any, kit: Any, run_exe: Any, **request: Any) -> list[str]:
    brave.expect_request(kit.BRAVE_PATH).respond_with_json(brave_answer(RESULTS))
    run = run_exe(EXE, stdin={"query": "bücher", "count": 20, **request})
    assert run.json["success"] is True, run.json
    return [result["url"] for result in run.json["results"]]


def test_a_unicode_allowed_domain_keeps_its_punycode_urls(brave, kit, run_exe) -> None:
    assert urls_kept(brave, kit, run_exe, allowed_domains=["Bücher.DE"]) == RESULTS[:3]


def test_a_punycode_allowed_domain_keeps_its_unicode_urls(brave, kit, run_exe) -> None:
    assert urls_kept(brave, kit, run_exe, allowed_domains=["xn--bcher-kva.de"]) == RESULTS[:3]


def test_a_unicode_blocked_domain_drops_both_spellings(brave, kit, run_exe) -> None:
    kept = urls_kept(brave, kit, run_exe, blocked_domains=["*.bücher.de", "xn--mnchen-3ya.example"])
    # The unreadable host matches no blocked domain, so it stays: blocking removes only matches.
    assert kept == ["https://bucher.de/ohne-umlaut", "http://[::1/broken-host"]
