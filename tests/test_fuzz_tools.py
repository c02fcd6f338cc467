"""Standing fuzz of every tool's stdin (issue 14): the generator that found huge integers and
whole-number floats, kept. Seeded, so a failure names a case that can be replayed.

Each tool gets mutated requests -- wrong types, huge and whole-number numbers, NaN, deep
nesting, control characters, lone surrogates, unknown fields, and byte-level damage to the JSON
text. Most run in process (parse_request, then tools.call, as the executable does); some run
through the real executables. A local server answers as the web site and as both providers.

The invariants: stdin that is not a request is one line on stderr and exit 1; everything else
is one JSON object with a boolean ``success``, an ``error_code`` webtap defines, never
``INTERNAL_ERROR``, never a key. More cases: ``WEBTAP_FUZZ=10 pytest tests/test_fuzz_tools.py``
multiplies the counts by 10; ``WEBTAP_FUZZ_SEED`` picks another seed.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from tests.fakes.brave import FakeBrave
from tests.fakes.google import FakeGoogle
from tests.fakes.searxng import FakeSearxng

from webtap.errors import WebtapError
from webtap.protocol import RequestError, parse_request
from webtap.tools import TOOLS, call

SCALE = float(os.environ.get("WEBTAP_FUZZ", "1") or 1)
SEED = int(os.environ.get("WEBTAP_FUZZ_SEED", "14") or 14)
IN_PROCESS = int(700 * SCALE)  # per tool
THROUGH_EXECUTABLES = int(15 * SCALE)  # per tool: each is a process start
BRAVE_KEY = "BSA-fuzz-secret-key-5f1c9e0a"
GOOGLE_KEY = "AIza-fuzz+secret/key=0a"
ENGINE_ID = "cx-fuzz-engine-91e3"


def _codes(kind: type) -> set[str]:
    found = {kind.code} if kind is not WebtapError else set()
    for sub in kind.__subclasses__():
        found |= _codes(sub)
    return found


CODES = _codes(WebtapError) | {"QUOTA_EXCEEDED"}  # every code webtap defines; never INTERNAL

NASTY_NUMBERS = [
    "0",
    "-1",
    "1",
    "2.0",
    "3.0",
    "1e2",
    "1E+2",
    "-0.0",
    "0.5",
    "1e308",
    "1e999",
    "-1e999",
    "NaN",
    "Infinity",
    "-Infinity",
    "9" * 30,
    "1" * 5000,
    "-" + "1" * 4400,
    "1." + "0" * 5000,
    "20",
    "21",
    "100",
    "2147483648",
    "1e-400",
]
NASTY_STRINGS = [
    "",
    " ",
    "a",
    "physics",
    "\u0000",
    "\x1b]52;c;cHduZWQ=\x07",
    "\ud800",
    "\udfff\ud800",
    "é" * 50,
    "a" * 5000,
    "http://",
    "https://exam ple.localhost/",
    "javascript:alert(1)",
    "file:///etc/passwd",
    # Hosts that need no DNS server: no test reaches the network.
    "http://[::1]:1/",
    "http://0x7f000001:1/",
    "http://xn--/",
    "http://a" + ".b" * 200 + ".localhost:1/",
    "http://localhost:1/",
    "\n\r\t",
    "\u202e\u2066",
    "%00",
    "{{",
    "'\"`",
]


class Server:
    """One local server: the web site (any other path) and the three providers (the suite's
    fakes, each on its own path)."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        FakeBrave(server).answer("web_search_physics")
        FakeGoogle(server).answer("customsearch_test")
        self.searxng = FakeSearxng(server, base="/searxng").answer(
            {
                "query": "q",
                "results": [
                    {"title": f"Result {n}", "url": f"https://example.com/{n}", "content": "c"}
                    for n in range(20)
                ],
                "unresponsive_engines": [],
            }
        )
        page = b"<html><head><title>t</title></head><body>" + b"<p>line</p>" * 50 + b"</body>"
        server.expect_request("").respond_with_data(page, content_type="text/html; charset=utf-8")

    def url(self, path: str) -> str:
        return self.server.url_for(path)


@pytest.fixture
def site(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> Server:
    served = Server(httpserver)
    monkeypatch.setenv("WEBTAP_ALLOW_PRIVATE_NETWORKS", "1")
    monkeypatch.setenv("WEBTAP_FETCH_TIMEOUT", "5")
    monkeypatch.setenv("WEBTAP_SEARCH_DEADLINE", "5")
    monkeypatch.setenv("WEBTAP_CACHE", "off")
    monkeypatch.setenv("BRAVE_SEARCH_URL", served.url(FakeBrave.path))
    monkeypatch.setenv("GOOGLE_SEARCH_URL", served.url(FakeGoogle.path))
    monkeypatch.setenv("SEARXNG_URL", served.searxng.address())
    monkeypatch.setenv("BRAVE_API_KEY", BRAVE_KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", GOOGLE_KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", ENGINE_ID)
    return served


def _json_value(rng: random.Random, depth: int = 0) -> str:
    """A JSON value as text (so that NaN, huge numbers and surrogate escapes can be written)."""
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rng.choice(NASTY_NUMBERS)
    if kind == 1:
        return _string(rng, rng.choice(NASTY_STRINGS))
    if kind == 2:
        return rng.choice(["true", "false", "null"])
    if kind == 3:
        return str(rng.randint(-5, 40))
    if kind == 4:
        return rng.choice(["[" * 70 + "]" * 70, "[" * 64 + "]" * 64, '"\\ud800"', '"\\u0000"'])
    if kind == 5:
        items = ", ".join(_json_value(rng, depth + 1) for _ in range(rng.randrange(4)))
        return f"[{items}]"
    members = ", ".join(
        f"{_string(rng, rng.choice(NASTY_STRINGS))}: {_json_value(rng, depth + 1)}"
        for _ in range(rng.randrange(3))
    )
    return "{" + members + "}"


def _string(rng: random.Random, text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=rng.random() < 0.5)
    return quoted


def _request(rng: random.Random, name: str, site: Server) -> bytes:
    """A request for tool ``name``: a good one with some fields replaced, added or removed,
    sometimes damaged at the byte level."""
    properties = TOOLS[name].schema["parameters"]["properties"]
    good = {
        "url": json.dumps(site.url(f"/page{rng.randrange(10)}")),
        "query": json.dumps(rng.choice(["physics", "duckdb", "a b", "é"])),
        "offset": str(rng.randint(1, 60)),
        "limit": str(rng.randint(1, 60)),
        "count": str(rng.randint(1, 20)),
        "num": str(rng.randint(1, 10)),
        "start": str(rng.randint(1, 90)),
        "allowed_domains": '["example.com"]',
        "blocked_domains": '["example.org"]',
    }
    fields = {key: good.get(key, "1") for key in properties if rng.random() < 0.7}
    fields.setdefault(
        "url" if "url" in properties else "query", good["url" if "url" in properties else "query"]
    )
    for _ in range(rng.randrange(3)):
        key = rng.choice([*properties, "bogus", "Url", ""])
        if rng.random() < 0.2:
            fields.pop(key, None)
        else:
            fields[key] = _json_value(rng)
    if rng.random() < 0.2:  # whole-number floats where integers go
        for key in ("offset", "limit", "count", "num", "start"):
            if key in fields and fields[key].lstrip("-").isdigit():
                fields[key] += ".0"
    text = "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in fields.items()) + "}"
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.15:
        data = _damage(rng, data)
    return data


def _damage(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        where = rng.randrange(len(data) + 1)
        choice = rng.randrange(4)
        if choice == 0 and data:
            data[min(where, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif choice == 1:
            data[where:where] = rng.choice([b"\xff", b"\x00", b"{", b"]", b'"', b"\xef\xbb\xbf"])
        elif choice == 2:
            del data[where:]
        else:
            data[where:where] = b"9" * rng.choice([10, 4400])
    return bytes(data)


def cases(name: str, count: int, site: Server, salt: int) -> Iterator[tuple[int, bytes]]:
    rng = random.Random(f"{SEED}-{name}-{salt}")
    for number in range(count):
        yield number, _request(rng, name, site)


def check(name: str, number: int, response: Any) -> str:
    where = f"{name} case {number} (seed {SEED})"
    assert isinstance(response, dict), where
    assert isinstance(response.get("success"), bool), (where, response)
    text = json.dumps(response, allow_nan=False)  # plain JSON, whatever came in
    for secret in (BRAVE_KEY, GOOGLE_KEY, ENGINE_ID, "fuzz+secret", "fuzz%2Bsecret"):
        assert secret not in text, (where, response)
    if response["success"]:
        return "answered"
    assert response.get("error_code") in CODES, (where, response)
    return response["error_code"]


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_fuzzed_requests_in_process(site: Server, name: str) -> None:
    counts: Counter[str] = Counter()
    for number, data in cases(name, IN_PROCESS, site, salt=0):
        try:
            request = parse_request(data)
        except RequestError as exc:
            assert "\n" not in str(exc), (name, number)
            counts["refused on stdin"] += 1
            continue
        response = call(name, request).response()
        response.pop("_event", None)
        counts[check(name, number, response)] += 1
    print(f"\nfuzz {name} in process: {IN_PROCESS} cases, {dict(sorted(counts.items()))}")
    assert sum(counts.values()) == IN_PROCESS
    assert counts["answered"] > 0 and counts["refused on stdin"] > 0


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_fuzzed_requests_through_the_executable(site: Server, name: str) -> None:
    executable = str(Path(sys.executable).parent / TOOLS[name].executable)
    counts: Counter[str] = Counter()
    for number, data in cases(name, THROUGH_EXECUTABLES, site, salt=1):
        run = subprocess.run([executable], input=data, capture_output=True, timeout=60)
        stderr = run.stderr.decode("utf-8", "replace")
        assert "Traceback" not in stderr, (name, number, stderr)
        if run.returncode == 1:
            assert run.stdout == b"" and stderr.count("\n") == 1, (name, number, stderr)
            counts["refused on stdin"] += 1
            continue
        assert run.returncode == 0, (name, number, run.returncode, stderr)
        response = json.loads(run.stdout)
        response.pop("_event", None)
        counts[check(name, number, response)] += 1
    print(f"\nfuzz {name} executable: {THROUGH_EXECUTABLES} cases, {dict(sorted(counts.items()))}")
    assert sum(counts.values()) == THROUGH_EXECUTABLES
