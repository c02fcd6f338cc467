"""Every credential webtap knows is a secret in every form it travels in (issue 18, item 3).

A SearXNG address with a user and password (``http://alice:S3cretPassw0rd99@host``) sends them
as ``Authorization: Basic <base64 of user:password>``; an instance, or a proxy in front of it,
that echoes the request's headers in an error page must not put the password, in any encoding,
into what the model or the person sees. The secrets come from the key table, and one minimum
length says what a key is, for SQL and the rest alike.
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import quote

import pytest
from tests.fakes.anthropic import FakeAnthropic, message, text, tool_use
from tests.fakes.searxng import FakeSearxng

from webtap.credentials import KEY_SOURCES, Keys
from webtap.redact import redact
from webtap.sql import redact_keys

# (user, password as the URL holds it, password decoded): the issue's, one that a URL must
# percent-encode, and one shorter than the eight characters from which keys used to be hidden.
USERINFO = [
    ("alice", "S3cretPassw0rd99", "S3cretPassw0rd99"),
    ("bob", "p%40ss%2Fw0rd%2B99%21", "p@ss/w0rd+99!"),
    ("carol", "hunt3r7", "hunt3r7"),
]


def forms(user: str, written: str, password: str) -> list[str]:
    """Every form in which the password may show: as written in the URL, decoded,
    URL-encoded, and inside the Basic credentials (with and without base64's padding)."""
    basic = base64.b64encode(f"{user}:{password}".encode()).decode()
    return [written, password, quote(password, safe=""), basic, basic.rstrip("=")]


def assert_nowhere(shown: str, user: str, written: str, password: str) -> None:
    for form in forms(user, written, password):
        assert form not in shown, (form, shown)


@pytest.fixture(params=USERINFO, ids=["issue", "encoded", "short"])
def echoing(request: Any, searxng: FakeSearxng, monkeypatch: pytest.MonkeyPatch) -> Any:
    """SearXNG behind a proxy that answers 401 with the request's headers (and the
    credentials in them, decoded and URL-encoded) in an HTML page; the address with the
    user and password in SEARXNG_URL."""
    user, written, password = request.param
    monkeypatch.setenv("SEARXNG_URL", searxng.address(f"{user}:{written}"))
    searxng.echo_headers()
    return user, written, password


def the_echo_was_sent(searxng: FakeSearxng, user: str, password: str) -> None:
    """The proxy did get the credentials, so its page held them: what is checked could leak."""
    (request, response) = searxng.log[-1]
    basic = base64.b64encode(f"{user}:{password}".encode()).decode()
    assert request.headers["Authorization"] == f"Basic {basic}"
    assert basic in response.get_data(as_text=True)


def test_the_executable_shows_no_form_of_the_password(
    echoing: Any, searxng: FakeSearxng, run_exe: Any
) -> None:
    user, written, password = echoing
    run = run_exe("web-search-searxng-tool", stdin={"query": "duckdb"})
    assert run.returncode == 0, run.stderr
    out = run.json
    assert out["success"] is False and out["error_code"] == "API_ERROR"
    assert "HTTP 401" in out["error"] and "***" in out["error"]  # the page was quoted, masked
    the_echo_was_sent(searxng, user, password)
    assert_nowhere(run.stdout + run.stderr, user, written, password)


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_webtap_search_shows_no_form_of_the_password(
    echoing: Any, searxng: FakeSearxng, run_exe: Any, as_json: bool
) -> None:
    user, written, password = echoing
    args = ["search", "--provider", "searxng", *(["--json"] if as_json else []), "duckdb"]
    run = run_exe("webtap", *args)
    assert run.returncode == 1
    assert "HTTP 401" in run.stdout + run.stderr
    the_echo_was_sent(searxng, user, password)
    assert_nowhere(run.stdout + run.stderr, user, written, password)


def test_the_ask_loop_shows_no_form_of_the_password(
    echoing: Any, searxng: FakeSearxng, anthropic_api: FakeAnthropic, run_exe: Any, isolated_env
) -> None:
    user, written, password = echoing
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "duckdb"}), stop_reason="tool_use"),
        message(text("I could not search.")),
    )
    run = run_exe("webtap", "ask", "What is DuckDB?")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "I could not search.\n"
    assert "✗ web_search" in run.stderr and "HTTP 401" in run.stderr  # the person sees why
    the_echo_was_sent(searxng, user, password)
    assert_nowhere(run.stdout + run.stderr, user, written, password)
    assert_nowhere(json.dumps(anthropic_api.bodies), user, written, password)  # the model's
    stored = [path.read_bytes().decode("utf-8", "replace") for path in isolated_env.rglob("*.db")]
    assert_nowhere("".join(stored), user, written, password)  # the events kept


def test_the_secrets_in_effect_come_from_the_key_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each entry of the table, set, is a secret (an address by its password, in every form);
    an address without credentials hides nothing."""
    for name, source in KEY_SOURCES.items():
        value = "http://alice:S3cretPassw0rd99@127.0.0.1:8080" if source.url else f"k-{name}-01"
        monkeypatch.setenv(source.env, value)
    secrets = Keys().resolve().secrets()
    for name, source in KEY_SOURCES.items():
        if source.url:
            assert {"S3cretPassw0rd99", "alice:S3cretPassw0rd99"} <= set(secrets)
            assert base64.b64encode(b"alice:S3cretPassw0rd99").decode() in secrets
            assert not any("127.0.0.1" in secret for secret in secrets)
        else:
            assert f"k-{name}-01" in secrets
    monkeypatch.setenv("SEARXNG_URL", "http://127.0.0.1:8080")
    assert not any("127.0.0.1" in secret for secret in Keys().resolve().secrets())


@pytest.mark.parametrize("length", range(1, 10))
def test_one_minimum_length_says_what_a_key_is(length: int) -> None:
    """A key is hidden from the same length on, in SQL's echoes and everywhere else."""
    key = "Qz7wXk2Lp"[:length]
    text = f"the key is {key}."
    hidden_by_sql = key not in redact_keys(text, [key])
    hidden_elsewhere = key not in redact(text, [key])
    assert hidden_by_sql == hidden_elsewhere
    assert hidden_elsewhere is (length >= 4)
