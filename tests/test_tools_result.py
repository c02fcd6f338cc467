"""One error tree and one tool result: every protocol code is a class of webtap.errors, and a
tool's run is one typed value that the edges alone turn into a response."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webtap import errors
from webtap.errors import InternalError, InvalidInput, InvalidURL, RateLimit, WebtapError
from webtap.tools import TOOLS, ToolResult, attempt, call

SRC = Path(errors.__file__).parent

# The contract's strings (spec 000/001/003 and the host's envelope), each a class of the tree.
CODES = {
    "InvalidInput": "INVALID_INPUT",
    "InvalidURL": "INVALID_URL",
    "URLNotAllowed": "URL_NOT_ALLOWED",
    "NetworkError": "NETWORK_ERROR",
    "HTTPError": "HTTP_ERROR",
    "ParseError": "PARSE_ERROR",
    "AuthMissing": "AUTH_MISSING",
    "AuthInvalid": "AUTH_INVALID",
    "RateLimit": "RATE_LIMIT",
    "APIError": "API_ERROR",
    "ConfigError": "CONFIG_ERROR",
    "InternalError": "INTERNAL_ERROR",
    "ToolFailed": "TOOL_FAILED",
    "ToolTimeout": "TIMEOUT",
    "OutputTooLarge": "OUTPUT_TOO_LARGE",
    "InvalidOutput": "INVALID_OUTPUT",
}


def test_every_code_is_a_class_of_the_tree() -> None:
    for name, code in CODES.items():
        cls = getattr(errors, name)
        assert issubclass(cls, WebtapError) and cls.code == code, name
        assert name in errors.__all__


def test_no_module_spells_a_code_of_its_own() -> None:
    """A response's code comes from a class: no ``"error_code": "SOME_CODE"`` anywhere else."""
    literal = re.compile(r"""["']error_code["']\s*:\s*["'][A-Z_]+["']|error_code\s*=\s*["'][A-Z]""")
    spelled = [
        f"{path.relative_to(SRC)}:{number}"
        for path in SRC.rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.search(line)
    ]
    assert spelled == []


def test_call_gives_the_failure_as_its_class_and_the_executable_prints_its_response() -> None:
    request = {"url": "ftp://example.com/file"}
    result = call("web_fetch", request)
    assert isinstance(result, ToolResult) and not result.success
    assert isinstance(result.failure, InvalidURL)
    assert (result.error_code, result.result) == ("INVALID_URL", {})
    exe = Path(sys.executable).parent / TOOLS["web_fetch"].executable
    run = subprocess.run(
        [str(exe)], input=json.dumps(request).encode(), capture_output=True, timeout=60
    )
    assert run.returncode == 0
    assert json.loads(run.stdout) == result.response()


def test_a_bad_request_is_the_trees_invalid_input() -> None:
    result = call("web_search_brave", {"query": "x", "count": 99})
    assert isinstance(result.failure, InvalidInput)
    assert result.response() == {
        "success": False,
        "error": result.failure.message,
        "error_code": "INVALID_INPUT",
    }


def test_the_event_is_apart_from_the_answer_and_never_for_a_model() -> None:
    event = {"kind": "rate_limited", "content": "wait", "data": {}}
    failed = attempt("web_search_brave", _raises(RateLimit("Slow down.", event=event)))
    assert failed.event == event and isinstance(failed.failure, RateLimit)
    assert failed.response()["_event"] == event
    assert "_event" not in failed.response(event=False)
    assert failed.for_model() == {
        "tool_success": False,
        "error": "Slow down.",
        "error_code": "RATE_LIMIT",
    }
    answered = attempt("x", lambda: {"success": True, "n": 1, "_event": event})
    assert (answered.result, answered.event) == ({"success": True, "n": 1}, event)
    assert answered.response() == {"success": True, "n": 1, "_event": event}
    assert answered.for_model() == {"tool_success": True, "result": {"success": True, "n": 1}}


def test_a_bug_is_an_internal_error_naming_where() -> None:
    result = attempt("web_fetch", _raises(KeyError("url")), "web-fetch-tool")
    assert isinstance(result.failure, InternalError)
    assert result.error == "Internal error in web-fetch-tool: KeyError: 'url'"


def _raises(exc: Exception) -> Callable[[], dict[str, Any]]:
    def work() -> dict[str, Any]:
        raise exc

    return work
