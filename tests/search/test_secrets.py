"""No key in any output of any error path: stdout, stderr, events, exception messages."""

from __future__ import annotations

import http.client
import json

import pytest
from werkzeug import Request, Response

from webtap.errors import WebtapError
from webtap.search import brave_search, google_search
from webtap.tools import call


def echo_url(request: Request) -> Response:
    """A provider error that quotes the whole request URL, as proxies and gateways do."""
    message = f"cannot serve {request.url} for {dict(request.headers)}"
    body = {"type": "ErrorResponse", "error": {"code": "X", "detail": message, "message": message}}
    return Response(json.dumps(body), status=400, content_type="application/json")


def timeout(request: Request) -> Response:
    import time

    time.sleep(0.6)
    return Response("{}")


# Every way a call can fail, as (name, handler or recorded fixture).
ERROR_PATHS = [
    ("echo", echo_url),
    ("html-502", lambda r: Response(f"<h1>bad {r.url}</h1>", status=502, content_type="text/html")),
    ("truncated", lambda r: Response('{"web": {"results": [', content_type="application/json")),
    ("wrong-shape", lambda r: Response('{"web": 5, "items": 5}', content_type="application/json")),
    ("401", lambda r: Response(r.url, status=401)),
    ("timeout", timeout),
    ("brave-token", "brave/error_422_token_invalid"),
    ("brave-validation", "brave/error_422_validation"),
    ("brave-rate", "brave/error_429_rate_limited"),
    ("brave-quota", "brave/error_429_quota_limited"),
    ("google-key", "google/error_400_api_key_invalid"),
    ("google-access", "google/error_403_access_not_configured"),
    ("google-daily", "google/error_403_daily_limit"),
    ("google-429", "google/error_429_quota"),
]


SECRETS_FROM = ("BRAVE_KEY", "GOOGLE_KEY", "ENGINE_ID")
TOOLS = {"web-search-brave-tool": "web_search_brave", "web-search-google-tool": "web_search_google"}


def serve(kit, server, answer) -> None:
    handler = answer if callable(answer) else (lambda r, n=answer: kit.recorded(n))
    server.expect_request(kit.BRAVE_PATH).respond_with_handler(handler)
    server.expect_request(kit.GOOGLE_PATH).respond_with_handler(handler)


def short_calls_for(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The timeout path: a call deadline (0.3 s) under the provider's delay (0.6 s). Only there:
    on a busy machine another path's answer may take longer than 0.3 s, and time out too."""
    if name == "timeout":
        monkeypatch.setenv("WEBTAP_SEARCH_TIMEOUT", "0.3")


def request_for(exe: str) -> dict:
    stdin = {"query": "secret test", "allowed_domains": ["a.com", "b.com"]}
    if exe == "web-search-brave-tool":
        stdin["offset"] = 12
    return stdin


@pytest.mark.parametrize(("name", "answer"), ERROR_PATHS, ids=[n for n, _ in ERROR_PATHS])
@pytest.mark.parametrize("exe", list(TOOLS))
def test_no_error_path_leaks_a_key(brave, google, kit, monkeypatch, exe, name, answer) -> None:
    """Every error path, through the tool's in-process call (what the executable prints)."""
    # ``brave`` and ``google`` are the same server, so both keys are set whichever tool runs.
    short_calls_for(name, monkeypatch)
    serve(kit, brave, answer)
    response = call(TOOLS[exe], request_for(exe)).response()
    assert response["success"] is False, response
    shown = json.dumps(response, ensure_ascii=False)
    for secret in SECRETS_FROM:
        assert getattr(kit, secret) not in shown
    if name == "echo":  # the provider did quote the key: it was redacted, not lost
        assert "***" in response["error"]


@pytest.mark.parametrize("name", ["echo", "timeout", "brave-quota"])
@pytest.mark.parametrize("exe", list(TOOLS))
def test_the_executables_print_no_key(brave, google, kit, run_exe, monkeypatch, exe, name):
    short_calls_for(name, monkeypatch)
    serve(kit, brave, dict(ERROR_PATHS)[name])
    run = run_exe(exe, stdin=request_for(exe))
    assert run.returncode == 0 and run.json["success"] is False
    for secret in SECRETS_FROM:
        assert getattr(kit, secret) not in run.stdout + run.stderr


def test_no_output_of_the_cli_prints_a_key(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_handler(echo_url)
    for args in (("search", "x y"), ("search", "--json", "x y")):
        run = run_exe("webtap", *args)
        assert kit.BRAVE_KEY not in run.stdout + run.stderr
        assert "***" in run.stdout + run.stderr


# What the wire can raise once a request is on its way; the first three quote their text.
QUOTED = (OSError, http.client.BadStatusLine, KeyError)
WIRE_ERRORS = (*QUOTED, ConnectionResetError, http.client.RemoteDisconnected, TimeoutError)


@pytest.mark.parametrize("exc_type", WIRE_ERRORS)
def test_library_exceptions_never_carry_a_key(kit, exc_type, monkeypatch) -> None:
    """An error that quotes the request line and headers (Google's ``key=``, Brave's token
    header), as a library or a proxy may: none of it leaks."""
    from webtap.net import Client, client

    def failing(self, method: str, line: str, headers: dict) -> None:
        raise exc_type(f"failed talking to {line} with {headers}")

    monkeypatch.setattr(client._Connection, "connect", lambda self: None)
    monkeypatch.setattr(client._Connection, "request", failing)
    for search in (
        lambda c: google_search("q q", api_key=kit.GOOGLE_KEY, engine_id=kit.ENGINE_ID, client=c),
        lambda c: brave_search("q q", api_key=kit.BRAVE_KEY, client=c),
    ):
        with Client() as http_client, pytest.raises(WebtapError) as error:
            search(http_client)
        shown = f"{error.value} {error.value!r} {error.value.to_response()}"
        for secret in (kit.BRAVE_KEY, kit.GOOGLE_KEY, kit.ENGINE_ID):
            assert secret not in shown
        if exc_type in QUOTED:
            assert "***" in shown


def test_a_key_with_a_line_break_is_refused_without_quoting_it(brave, kit) -> None:
    from webtap.search import brave_search

    secret = "abcd\nefgh-not-shown"
    with pytest.raises(WebtapError) as error:
        brave_search("q q", api_key=secret)
    shown = f"{error.value} {error.value!r} {error.value.to_response()}"
    assert "X-Subscription-Token header's value contains a line break" in shown
    assert "abcd" not in shown and "efgh" not in shown
    assert brave.log == []  # nothing was sent
