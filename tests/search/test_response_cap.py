"""A provider's answer is read to at most MAX_BODY decoded bytes: a huge body is a clear error,
however it is sent (declared, streamed without a length, or compressed), never read whole."""

from __future__ import annotations

import gzip
import json

import pytest
from werkzeug import Response

from webtap.search.request import MAX_BODY
from webtap.tools import call

TOOLS = ["web_search_brave", "web_search_google"]


def padded_answer(size: int) -> bytes:
    """A valid answer of either provider (no results), padded with JSON whitespace to ``size``:
    read whole, it would parse, so only the cap stops it."""
    answer = json.dumps({"type": "search", "web": {"results": []}, "items": []}).encode()
    return answer[:-1] + b" " * (size - len(answer)) + b"}"


def answer_with(brave, google, kit, response: Response) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(response)
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(response)


def assert_refused_as_too_large(out: dict) -> None:
    assert out["success"] is False
    assert out["error_code"] == "API_ERROR"
    assert f"sent more than {MAX_BODY // (1024 * 1024)} MB" in out["error"]
    assert "not a search response" in out["error"]


@pytest.mark.parametrize("tool", TOOLS)
def test_a_small_padded_answer_is_fine(brave, google, kit, tool: str) -> None:
    """The padding alone is no error: what the tests below get is the cap's doing."""
    answer_with(brave, google, kit, Response(padded_answer(64 * 1024), mimetype="application/json"))
    out = call(tool, {"query": "huge"}).response()
    assert out["success"] is True, out
    assert out["results"] == []


@pytest.mark.parametrize("tool", TOOLS)
def test_a_body_declared_larger_than_the_cap_is_refused(brave, google, kit, tool: str) -> None:
    body = padded_answer(MAX_BODY + 1024)
    answer_with(brave, google, kit, Response(body, mimetype="application/json"))
    assert_refused_as_too_large(call(tool, {"query": "huge"}).response())


@pytest.mark.parametrize("tool", TOOLS)
def test_a_streamed_body_without_a_length_is_cut_at_the_cap(brave, google, kit, tool: str) -> None:
    sent = []

    def pieces():
        for piece in range(MAX_BODY // 65536 * 4):  # four times the cap, if it were all read
            sent.append(piece)
            yield b" " * 65536

    answer_with(brave, google, kit, Response(pieces(), mimetype="application/json"))
    assert_refused_as_too_large(call(tool, {"query": "huge"}).response())
    assert len(sent) < MAX_BODY // 65536 * 4, "the reader stopped before the end"


@pytest.mark.parametrize("tool", TOOLS)
def test_a_compressed_body_that_expands_past_the_cap_is_refused(
    brave, google, kit, tool: str
) -> None:
    bomb = gzip.compress(padded_answer(8 * MAX_BODY), compresslevel=9)
    assert len(bomb) < MAX_BODY // 100  # small on the wire: only the decoded size is too large
    response = Response(
        bomb, headers={"Content-Type": "application/json", "Content-Encoding": "gzip"}
    )
    answer_with(brave, google, kit, response)
    assert_refused_as_too_large(call(tool, {"query": "huge"}).response())
