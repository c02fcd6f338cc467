"""Google until it closes: quotaExceeded is the daily quota, fan-out spends no call for
nothing and is capped, and a closed API names the alternatives."""

from __future__ import annotations

import pytest
from werkzeug import Request, Response

EXE = "web-search-google-tool"
QUOTA_MESSAGE = "Rate limit exceeded. You've used your free search quota (100/day)."

# Google's quotaExceeded answers, shaped as the recorded bodies in tests/fixtures/providers/google
# (project number a placeholder).
QUOTA_403 = {
    "error": {
        "code": 403,
        "message": "Quota exceeded for quota metric 'Queries' and limit 'Queries per day' of "
        "service 'customsearch.googleapis.com' for consumer 'project_number:123456789012'.",
        "errors": [
            {
                "message": "Quota exceeded for quota metric 'Queries' and limit 'Queries per "
                "day' of service 'customsearch.googleapis.com' for consumer "
                "'project_number:123456789012'.",
                "domain": "usageLimits",
                "reason": "quotaExceeded",
            }
        ],
        "status": "PERMISSION_DENIED",
    }
}
QUOTA_429 = {
    "error": {
        "code": 429,
        "message": "Quota exceeded.",
        "errors": [{"message": "Quota exceeded.", "domain": "global", "reason": "quotaExceeded"}],
        "status": "RESOURCE_EXHAUSTED",
    }
}
CLOSED_403 = {
    "error": {
        "code": 403,
        "message": "Custom Search JSON API is no longer available. The API was shut down on "
        "January 1, 2027.",
        "errors": [{"message": "no longer available", "domain": "global", "reason": "forbidden"}],
        "status": "PERMISSION_DENIED",
    }
}


def items(*urls: str) -> dict:
    return {
        "kind": "customsearch#search",
        "items": [{"title": f"T {u}", "link": u, "snippet": f"S {u}"} for u in urls],
    }


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (QUOTA_403, 403),
        ({"error": {**QUOTA_429["error"], "code": 403, "status": "PERMISSION_DENIED"}}, 403),
        (QUOTA_429, 429),
        ("google/error_403_daily_limit", None),
        ("google/error_429_quota", None),
    ],
)
def test_quota_exceeded_is_rate_limit_with_the_spec_text(google, kit, run_exe, body, status):
    response = kit.json_response(body, status=status) if status else kit.recorded(body)
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(response)
    out = run_exe(EXE, stdin={"query": "test"}).json
    assert (out["success"], out["error"], out["error_code"]) == (False, QUOTA_MESSAGE, "RATE_LIMIT")
    assert out["_event"]["kind"] == "rate_limited"


def test_the_quota_event_points_at_a_configured_alternative(
    google, kit, run_exe, monkeypatch
) -> None:
    monkeypatch.setenv("SEARXNG_URL", "http://127.0.0.1:8080")
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.json_response(QUOTA_403, status=403)
    )
    data = run_exe(EXE, stdin={"query": "test"}).json["_event"]["data"]
    assert (data["alternative_tool"], data["alternative_configured"]) == (
        "web_search_searxng",
        True,
    )


def test_after_the_daily_quota_the_next_search_makes_no_call(google, kit, run_exe) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.json_response(QUOTA_429, status=429)
    )
    run_exe(EXE, stdin={"query": "one"})
    out = run_exe(EXE, stdin={"query": "two"}).json
    assert (out["error"], out["error_code"]) == (QUOTA_MESSAGE, "RATE_LIMIT")
    assert len(google.log) == 1


def fan_out_server(google, kit):
    def handler(request: Request) -> Response:
        site = request.args["siteSearch"]
        return kit.json_response(items(f"https://{site}/1", f"https://{site}/2"))

    google.expect_request(kit.GOOGLE_PATH).respond_with_handler(handler)


def test_num_1_over_three_domains_is_one_call(google, kit, run_exe) -> None:
    fan_out_server(google, kit)
    out = run_exe(
        EXE, stdin={"query": "q q", "num": 1, "allowed_domains": ["a.com", "b.com", "c.com"]}
    ).json
    assert len(google.log) == 1
    assert google.log[0][0].args["siteSearch"] == "a.com"
    assert [r["url"] for r in out["results"]] == ["https://a.com/1"]
    assert "Left out: b.com, c.com" in out["notice"]


def test_num_2_over_three_domains_is_two_calls(google, kit, run_exe) -> None:
    fan_out_server(google, kit)
    out = run_exe(
        EXE, stdin={"query": "q q", "num": 2, "allowed_domains": ["a.com", "b.com", "c.com"]}
    ).json
    assert sorted(r[0].args["siteSearch"] for r in google.log) == ["a.com", "b.com"]
    assert all(r[0].args["num"] == "1" for r in google.log)
    assert out["count"] == 2


def test_five_hundred_domains_are_capped_and_the_rest_named(google, kit, run_exe) -> None:
    fan_out_server(google, kit)
    domains = [f"d{n}.com" for n in range(500)]
    out = run_exe(EXE, stdin={"query": "q q", "allowed_domains": domains}).json
    assert len(google.log) == 5  # the documented default cap
    assert out["success"] is True
    assert "Searched 5 of 500 allowed_domains" in out["notice"]
    assert "WEBTAP_GOOGLE_MAX_CALLS" in out["notice"] and "and 475 more" in out["notice"]


def test_the_cap_is_a_setting(google, kit, run_exe) -> None:
    fan_out_server(google, kit)
    domains = [f"d{n}.com" for n in range(50)]
    run_exe(
        EXE,
        stdin={"query": "q q", "allowed_domains": domains},
        env={"WEBTAP_GOOGLE_MAX_CALLS": "2"},
    )
    assert len(google.log) == 2


def test_no_notice_when_every_domain_is_searched(google, kit, run_exe) -> None:
    fan_out_server(google, kit)
    out = run_exe(EXE, stdin={"query": "q q", "allowed_domains": ["a.com", "b.com"]}).json
    assert "notice" not in out and len(google.log) == 2


@pytest.mark.parametrize(
    ("body", "status"), [(CLOSED_403, 403), ({"error": {"code": 410, "message": "Gone"}}, 410)]
)
def test_a_closed_api_names_the_alternatives(google, kit, run_exe, body, status) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.json_response(body, status=status)
    )
    out = run_exe(EXE, stdin={"query": "test"}).json
    assert (out["success"], out["error_code"]) == (False, "API_ERROR")
    assert "2027-01-01" in out["error"]
    assert "web_search_brave" in out["error"] and "web_search_searxng" in out["error"]
    assert "Configured here" not in out["error"]


def test_a_closed_api_says_which_alternative_is_configured(
    google, kit, run_exe, monkeypatch
) -> None:
    monkeypatch.setenv("SEARXNG_URL", "http://127.0.0.1:8080")
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.json_response(CLOSED_403, status=403)
    )
    out = run_exe(EXE, stdin={"query": "test"}).json
    assert out["error"].endswith("Configured here: web_search_searxng.")


def test_webtap_search_prints_the_notice(google, kit, run_exe) -> None:
    fan_out_server(google, kit)
    args = ["--provider", "google", "--count", "1", "--allow", "a.com", "--allow", "b.com"]
    run = run_exe("webtap", "search", "q q", *args)
    assert run.returncode == 0, run.stderr
    assert "https://a.com/1" in run.stdout
    assert "Left out: b.com" in " ".join(run.stderr.split())
