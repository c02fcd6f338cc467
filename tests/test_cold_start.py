"""A tool call in a fresh process imports only what the request needs (issue 11).

Each call runs the real entry point in a subprocess against a real server on 127.0.0.1, then
reports which top-level packages ended up in ``sys.modules``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.fakes.brave import FakeBrave
from tests.fakes.google import FakeGoogle
from tests.fakes.searxng import FakeSearxng

# Never on the tool path: the host's, the ask loop's, SQL's and MCP's libraries, and the
# jsonschema stack (the three fixed schemas have generated validators).
FORBIDDEN = (
    "rich",
    "anthropic",
    "duckdb",
    "mcp",
    "jsonschema",
    "referencing",
    "rpds",
    "pyarrow",
    "numpy",
    "pydantic",
    "click",
    "pygments",
    # The HTTP stacks the tools do not use (issue 11): the standard library's http.client
    # does their requests; the Anthropic and MCP SDKs bring the httpx2 fork.
    "httpx",
    "httpx2",
    "httpcore",
    "h11",
    "anyio",
    "certifi",
    "logging",
    "http.cookiejar",
    "urllib.request",
    # About a millisecond of patterns: only a response that sets a cookie reads it.
    "http.cookies",
    # Importing it (and inspect with it) cost a fresh process about 10 ms.
    "dataclasses",
    # The browser path (issue 21): only a page that needs rendering may load it.
    "webtap.browser",
)

PROBE = """
import json, sys
from webtap import entry
report, entry_point = sys.argv[1:]
sys.argv[1:] = []
code = getattr(entry, entry_point)()
loaded = [name for name, module in sys.modules.items() if module is not None]
top = sorted({name.split(".")[0] for name in loaded} | {
    name for name in loaded
    if name in ("http.cookiejar", "http.cookies", "urllib.request")
    or name.startswith("webtap.browser")
})
with open(report, "w") as out:
    json.dump({"code": code, "modules": top}, out)
"""


def without_coverage() -> dict[str, str]:
    """The environment without coverage's variables: under ``pytest --cov`` a child would start
    coverage, and coverage imports what the tools must not (dataclasses, ...)."""
    return {name: value for name, value in os.environ.items() if not name.startswith("COVERAGE_")}


def loaded(entry_point: str, request: dict, tmp_path: Path, env: dict[str, str]) -> list[str]:
    report = tmp_path / f"{entry_point}.json"
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(report), entry_point],
        input=json.dumps(request).encode(),
        capture_output=True,
        env={**without_coverage(), **env},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    response = json.loads(proc.stdout)
    assert response["success"] is True, response
    return json.loads(report.read_text())["modules"]


def test_a_fetch_call_imports_nothing_it_does_not_need(httpserver, tmp_path) -> None:
    page = "<html><head><title>T</title></head><body><p>Hello</p></body></html>"
    httpserver.expect_request("/page").respond_with_data(page, content_type="text/html")
    modules = loaded(
        "fetch_main",
        {"url": httpserver.url_for("/page")},
        tmp_path,
        # Rendering as it is by default: a page that is no script shell starts no browser.
        {"WEBTAP_ALLOW_NETWORKS": "127.0.0.1/32", "WEBTAP_RENDER": "auto"},
    )
    assert [name for name in FORBIDDEN if name in modules] == []
    assert "lxml" in modules and "http" in modules  # what a fetch does need


@pytest.mark.parametrize(
    ("entry_point", "fake"),
    [("brave_main", FakeBrave), ("google_main", FakeGoogle), ("searxng_main", FakeSearxng)],
)
def test_a_search_call_imports_nothing_it_does_not_need(
    entry_point, fake, httpserver, tmp_path
) -> None:
    provider = fake(httpserver).answer()  # the provider's usual answer, recorded or shaped so
    modules = loaded(entry_point, {"query": "brave search"}, tmp_path, provider.environment())
    assert [name for name in FORBIDDEN if name in modules] == []
    assert "lxml" not in modules, "a search converts no HTML"


def test_an_invalid_request_is_answered_without_jsonschema(tmp_path) -> None:
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(report), "fetch_main"],
        input=b'{"url": 5}',
        capture_output=True,
        timeout=60,
    )
    assert json.loads(proc.stdout)["error"] == (
        "Invalid input: field 'url' must be of type string (got 5)"
    )
    assert "jsonschema" not in json.loads(report.read_text())["modules"]
