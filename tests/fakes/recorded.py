"""Recorded provider answers (tests/fixtures/providers, a copy of the shared data's
``providers`` folder: see its README) as werkzeug responses, and small response helpers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from werkzeug import Request, Response

PROVIDERS = Path(__file__).parents[1] / "fixtures" / "providers"


def body_of(name: str) -> bytes:
    """The recorded body ``name`` ("brave/web_search_physics")."""
    return (PROVIDERS / f"{name}.json").read_bytes()


def json_of(name: str) -> Any:
    return json.loads(body_of(name))


def recorded(name: str) -> Response:
    """The recorded body with its recorded status and headers (200 JSON without a meta file)."""
    meta_file = PROVIDERS / f"{name}.meta.json"
    meta = json.loads(meta_file.read_text()) if meta_file.exists() else {"status": 200}
    headers = meta.get("headers") or {"Content-Type": "application/json"}
    return Response(body_of(name), status=meta["status"], headers=headers)


def json_response(value: Any, status: int = 200, **headers: str) -> Response:
    return Response(
        json.dumps(value), status=status, headers={"Content-Type": "application/json", **headers}
    )


def sequence(*responses: Response | Callable[[Request], Response]) -> Callable:
    """A handler answering with each response in turn, then repeating the last one."""
    remaining = list(responses)

    def handler(request: Request) -> Response:
        answer = remaining.pop(0) if len(remaining) > 1 else remaining[0]
        return answer(request) if callable(answer) and not isinstance(answer, Response) else answer

    return handler
