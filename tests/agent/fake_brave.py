"""A fake Brave Search for the ask loop: pytest-httpserver serving the recorded responses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parents[1] / "fixtures" / "providers"
BRAVE_KEY = "BSA-test-brave-key-0123456789"
PATH = "/res/v1/web/search"


def serve(httpserver: Any, name: str = "web_search_brave_search", status: int = 200) -> str:
    """Answer Brave's endpoint with a recorded body (and its headers); returns the URL."""
    body = (FIXTURES / "brave" / f"{name}.json").read_text(encoding="utf-8")
    meta = FIXTURES / "brave" / f"{name}.meta.json"
    headers = json.loads(meta.read_text())["headers"] if meta.exists() else {}
    headers.setdefault("Content-Type", "application/json")
    httpserver.clear()
    httpserver.expect_request(PATH).respond_with_data(body, status=status, headers=headers)
    return str(httpserver.url_for(PATH))


def top_results(count: int = 5) -> list[dict[str, Any]]:
    body = json.loads((FIXTURES / "brave" / "web_search_brave_search.json").read_text())
    return body["web"]["results"][:count]
