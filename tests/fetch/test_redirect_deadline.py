"""The overall fetch deadline holds across redirect hops: each hop starts with what the
earlier ones left, not with a fresh allowance (issue 12, item 5)."""

from __future__ import annotations

import ipaddress

import pytest

from webtap.errors import NetworkError
from webtap.fetch import fetch
from webtap.guard import Guard
from webtap.net import Timeouts

LOCAL_ONLY = Guard(allowed_networks=(ipaddress.ip_network("127.0.0.1/32"),))
HOPS = 6
STALL = 0.4  # each hop's wait: well inside the per-read timeout, together past the deadline


def slow_chain(site) -> str:
    """``/hop0`` → ``/hop1`` → … → ``/final``, each redirect answered after ``STALL``."""
    for hop in range(HOPS):
        target = f"/hop{hop + 1}" if hop + 1 < HOPS else "/final"
        site.route(f"/hop{hop}", status=302, headers={"Location": target}, stall=STALL)
    site.route("/final", "arrived", headers={"Content-Type": "text/plain"})
    return site.url("/hop0")


def test_the_slow_hops_are_within_the_per_read_timeout(site) -> None:
    """With time enough over all, the whole chain is followed: so what stops it below is the
    deadline over all of it, not a hop's wait."""
    url = slow_chain(site)
    timeouts = Timeouts(connect=5, read=5, total=60)
    page = fetch(url, guard=LOCAL_ONLY, timeouts=timeouts, cache=False)
    assert page.markdown == "arrived"
    assert site.paths() == [*(f"/hop{n}" for n in range(HOPS)), "/final"]


def test_a_chain_of_slow_redirects_ends_at_the_overall_deadline(site) -> None:
    url = slow_chain(site)
    timeouts = Timeouts(connect=5, read=5, total=1.0)  # HOPS * STALL is 2.4 s
    with pytest.raises(NetworkError) as caught:
        fetch(url, guard=LOCAL_ONLY, timeouts=timeouts, cache=False)
    assert "no complete response within 1 s (the overall deadline" in caught.value.message
    assert "WEBTAP_FETCH_TIMEOUT" in caught.value.message
    paths = site.paths()
    # Followed in order until stopped (how far is the machine's speed, not a decision).
    assert "/final" not in paths
    assert paths == [f"/hop{n}" for n in range(len(paths))] and len(paths) < HOPS


def test_headers_dripped_a_byte_at_a_time_end_at_the_deadline(site) -> None:
    """Each byte comes well within the read timeout; together they would take 4 s."""
    url = site.raw("/drip", b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 40, drip=0.1)
    with pytest.raises(NetworkError, match=r"no complete response within 1 s"):
        fetch(url, guard=LOCAL_ONLY, timeouts=Timeouts(connect=5, read=5, total=1.0), cache=False)
