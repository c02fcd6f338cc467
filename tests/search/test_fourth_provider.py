"""A fourth search provider is its own module and one registry record: nothing else changes.

In a fresh process, a provider webtap has never heard of registers itself the way the three do
(:func:`webtap.providers.register`, before anything reads the registry) and brings its engine
(request, field names, answer shape); everything else — the key table and both resolution
orders, the setup texts, the provider choice, secrets, the search pipeline with its domain
filter, redaction and rate budget, the tools registry, the SQL key setter, the CLI's and the
ask loop's choices and the MCP instructions — picks it up from the registry. Its tool's schema
is a contract file the provider ships; the process is given a copy of the schema folder with it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from werkzeug import Request, Response

SCHEMAS = Path(__file__).parents[2] / "src" / "webtap" / "schemas"
TOKEN = "fourth-secret-token-8c1f"

RECORD = """
from typing import ClassVar

from webtap.providers import Found, KeySource, Provider, register


class FourthCredentials(Found):
    __slots__ = ("token",)
    keys: ClassVar[dict[str, KeySource]] = {
        "token": KeySource(
            "fourth_token",
            "FOURTH_TOKEN",
            "fourth_token",
            ("web_search", "fourth", "token"),
            "Fourth Search token",
            "stps_set_fourth_token(token)",
            "the Fourth Search token",
        )
    }
    given = "the given token"

    def __init__(self, token: str, source: str) -> None:
        self.token = token
        self.source = source


FOURTH = register(
    Provider(
        name="fourth",
        title="Fourth Search",
        credentials=FourthCredentials,
        engine_path="fourth_engine:Fourth",
        tool_title="Search the web (Fourth)",
        auth_missing="Fourth Search needs a token: set FOURTH_TOKEN.",
        config_required="Configuration Required: FOURTH_TOKEN",
        event_data={"tool": "web_search_fourth", "credential": "token"},
        endpoint_env="FOURTH_SEARCH_URL",
        endpoint_default="https://fourth.example/api/search",
        rate=5.0,
        rate_env="WEBTAP_FOURTH_RATE",
    )
)
"""

ENGINE = """
from webtap.search.pipeline import Engine, Request


class Fourth(Engine):
    title_field = "name"
    url_field = "link"
    snippet_fields = ("summary",)

    def request(self, search, extra):
        params = {"query": search.query, "n": search.count, "page": search.start, **extra}
        return Request(params, {"Authorization": f"Token {search.credentials.token}"})

    def items(self, body, where):
        return body["hits"]
"""

PROBE = """
import json, os, sys

import fourth_record  # what the registry's new record would do: register first

import webtap.protocol
webtap.protocol.SCHEMA_DIR = os.environ["PROBE_SCHEMAS"]  # the shipped schema, beside the others

from webtap.cli import build_parser
from webtap.credentials import KEY_SOURCES, Keys, configured_providers, require
from webtap.errors import AuthMissing, WebtapError
from webtap.mcp.server import _instructions
from webtap.search import search
from webtap.budget.rate import RateBudget
from webtap.sql import SqlFunctions
from webtap.sql.statement import KEY_SETTERS
from webtap.tools import TOOLS

report = {}
fourth = fourth_record.FOURTH
try:
    require(fourth)
except AuthMissing as exc:
    report["missing"] = [exc.message, exc.event["data"]]
os.environ["FOURTH_TOKEN"] = os.environ["PROBE_TOKEN"]
report["env"] = KEY_SOURCES["fourth_token"].env
report["configured"] = configured_providers()
report["offered"] = Keys().resolve().search_provider()
report["typed"] = type(Keys().resolve().for_provider("fourth")).__name__
report["secrets"] = os.environ["PROBE_TOKEN"] in Keys().resolve().secrets()
results = search("duckdb", "fourth", count=2, allowed_domains=["example.org"])
report["results"] = [list(result) for result in results]
try:
    search("fail", "fourth")
except WebtapError as exc:
    report["error"] = exc.message
report["tool"] = list(TOOLS["web_search_fourth"][:2])
report["setter"] = KEY_SETTERS.get("stps_set_fourth_token")
report["sql"] = SqlFunctions().set_search_provider("fourth")
report["rate"] = RateBudget("fourth", "k", what="Fourth Search").default_rate()
args = build_parser().parse_args(["search", "--provider", "fourth", "q"])
report["cli"] = args.provider
args = build_parser().parse_args(["ask", "--provider", "fourth", "q"])
report["ask"] = args.search_provider
report["mcp"] = "web_search_* tools" in _instructions(["web_search_fourth"])
os.environ["BRAVE_API_KEY"] = "brave-key-0123"
report["order"] = Keys().resolve().search_provider()
print(json.dumps(report))
"""


def fourth_api(request: Request) -> Response:
    """The fourth provider's API: its own answer shape; an error page that echoes the token."""
    if request.args["query"] == "fail":
        return Response(f"bad token {request.headers['Authorization']}", status=500)
    hits = [
        {"name": "<b>DuckDB</b>", "link": "https://duckdb.example.org/", "summary": "A database"},
        {"name": "Elsewhere", "link": "https://other.example/", "summary": "filtered out"},
        {"name": "No link", "summary": "skipped"},
    ]
    return Response(json.dumps({"hits": hits}), content_type="application/json")


def test_a_fourth_provider_needs_only_its_module_and_its_record(
    tmp_path: Path, provider_server: Any
) -> None:
    (tmp_path / "fourth_record.py").write_text(RECORD)
    (tmp_path / "fourth_engine.py").write_text(ENGINE)
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, schemas)
    schema = json.loads((SCHEMAS / "web_search_searxng.json").read_text())
    (schemas / "web_search_fourth.json").write_text(
        json.dumps({**schema, "name": "web_search_fourth"})
    )
    provider_server.expect_request("/api/search").respond_with_handler(fourth_api)
    env = {
        **os.environ,
        "PYTHONPATH": str(tmp_path),
        "PROBE_SCHEMAS": str(schemas),
        "PROBE_TOKEN": TOKEN,
        "FOURTH_SEARCH_URL": provider_server.url_for("/api/search"),
        "WEBTAP_SEARCH_DEADLINE": "5",
    }
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, env=env, timeout=120, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr.decode()
    report = json.loads(proc.stdout)

    assert report["missing"] == [
        "Fourth Search needs a token: set FOURTH_TOKEN.",
        {"tool": "web_search_fourth", "credential": "token"},
    ]
    assert report["env"] == "FOURTH_TOKEN"
    assert report["configured"] == {
        "brave": False,
        "searxng": False,
        "google": False,
        "fourth": True,
    }
    assert report["offered"] == "fourth" and report["typed"] == "FourthCredentials"
    assert report["secrets"] is True
    # One parse loop with its field names, the domain filter, an item without a link skipped.
    assert report["results"] == [["DuckDB", "https://duckdb.example.org/", "A database"]]
    (first, _), *_ = provider_server.log
    assert first.args.to_dict() == {"query": "duckdb", "n": "2", "page": "0"}
    assert first.headers["Authorization"] == f"Token {TOKEN}"
    # Its error page echoed the token: the pipeline redacted it.
    assert "Fourth Search API error (HTTP 500)" in report["error"]
    assert TOKEN not in report["error"] and "***" in report["error"]
    assert report["tool"] == ["web_search_fourth", "web-search-fourth-tool"]
    assert report["setter"] == "fourth_token"
    assert report["sql"] == "Search provider set to fourth"
    assert report["rate"] == 5.0
    assert report["cli"] == "fourth" and report["ask"] == "fourth" and report["mcp"] is True
    # Registered last: after the three in the order "Which search" decides.
    assert report["order"] == "brave"
