"""The SSRF guard holds when web_fetch renders, through the executable and ``webtap mcp``, with
the guard as production has it (``Guard.from_env``): 0 requests arrive at the traps.

How the test page alone is allowed: it lives on 127.0.0.2, and ``WEBTAP_ALLOW_NETWORKS`` lets
exactly ``127.0.0.2/32`` past the guard (a setting people use, not one made for tests). Every
trap is elsewhere: other ports of 127.0.0.1 in every spelling (``localhost``, decimal, hex,
IPv4-mapped, this machine's name), 127.0.0.3, ::1 and the cloud metadata address
(``tests/fakes/attack.py``). The page asks its own origin for ``/done-*`` after each attack,
so quiet traps mean refused, not never tried.
"""

from __future__ import annotations

import pytest
from tests.browser.processes import Mcp
from tests.fakes import attack
from tests.fakes.site import Site

DONE = {"/done-fetch", "/done-ws", "/done-sw", "/done-rtc"}


@pytest.fixture
def page_site():
    with Site.running(host="127.0.0.2") as site:
        yield site


@pytest.fixture
def traps():
    with attack.traps(second="127.0.0.3") as made:
        yield made


@pytest.fixture
def guarded(launches) -> dict[str, str]:
    return {"WEBTAP_ALLOW_NETWORKS": "127.0.0.2/32", "WEBTAP_CACHE": "off", **launches.env}


def arrivals(traps) -> dict[str, int]:
    return {name: trap.arrivals for name, trap in traps.items()}


def fetch_exe(run_exe, url: str, env: dict[str, str]) -> dict:
    result = run_exe("web-fetch-tool", stdin={"url": url}, env=env, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result.json


def test_nothing_a_rendered_page_aims_at_private_places_arrives_through_the_executable(
    page_site, traps, guarded, launches, run_exe
):
    url = attack.attack_page(page_site, traps)
    response = fetch_exe(run_exe, url, {**guarded, "WEBTAP_RENDER": "always"})
    assert response["success"] is True and response["rendered"] is True
    assert arrivals(traps) == dict.fromkeys(traps, 0)
    assert set(page_site.paths()) >= DONE
    assert launches.count() == 1


def test_nothing_a_rendered_page_aims_at_private_places_arrives_through_webtap_mcp(
    page_site, traps, guarded, launches
):
    url = attack.attack_page(page_site, traps)
    server = Mcp({**guarded, "WEBTAP_RENDER": ""})
    try:
        response = server.fetch(url=url, render=True)
        assert response["rendered"] is True
        assert arrivals(traps) == dict.fromkeys(traps, 0)
        assert set(page_site.paths()) >= DONE
        again = server.fetch(url=url, render=True)  # the long-lived browser, a second time
        assert again["rendered"] is True
        assert arrivals(traps) == dict.fromkeys(traps, 0)
        assert launches.count() == 1
    finally:
        server.close()


def test_a_shell_that_sends_itself_to_a_trap_is_refused(page_site, traps, guarded, run_exe):
    trap = traps["T"]
    target = f"http://localhost:{trap.port}/admin"
    url = page_site.page("/", f'<div id="root"></div><script>location = {target!r};</script>')
    response = fetch_exe(run_exe, url, {**guarded, "WEBTAP_RENDER": "auto"})
    assert response["error_code"] == "URL_NOT_ALLOWED"
    assert response["error"].startswith(
        f"Refusing to fetch {target}: localhost resolves to 127.0.0.1"
    )
    assert trap.arrivals == 0


def test_a_redirect_to_a_trap_is_refused_before_any_browser_starts(
    page_site, traps, guarded, launches, run_exe
):
    trap = traps["T2"]
    url = page_site.redirect("/go", f"http://127.0.0.3:{trap.port}/")
    response = fetch_exe(run_exe, url, {**guarded, "WEBTAP_RENDER": "always"})
    assert response["error_code"] == "URL_NOT_ALLOWED"
    assert "127.0.0.3 is a loopback address" in response["error"]
    assert trap.arrivals == 0
    assert launches.count() == 0
