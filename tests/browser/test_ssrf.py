"""The SSRF guard inside the browser: a page on 127.0.0.1 (its own origin allowed, nothing else)
aims everything a page can aim at other loopback ports and addresses, in every spelling, and at
the cloud metadata address (``tests/fakes/attack.py``). Every trap counts what reaches it: 0, in
every mode. (Through the executable and ``webtap mcp``: tests/browser/test_fetch_ssrf.py.)
"""

from __future__ import annotations

import pytest
from tests.fakes import attack

from webtap.browser import render
from webtap.errors import URLNotAllowed
from webtap.guard import Guard

GUARD = Guard()


@pytest.fixture
def traps():
    with attack.traps() as made:
        yield made


@pytest.fixture(params=["one-shot", "long-lived"])
def renderer(request, chromium):
    """``render(url, **kw)`` with a browser of its own per call, or through the module's
    long-lived browser (whose earlier renders must not open a way for later ones)."""
    if request.param == "one-shot":
        return lambda url, **kw: render(url, executable=chromium, **kw)
    shared = request.getfixturevalue("browser")
    return shared.render


def test_nothing_a_page_aims_at_private_places_arrives(renderer, app, traps):
    url = attack.attack_page(app, traps)
    result = renderer(url, deadline=20, guard=GUARD, origins={app.origin})
    assert {name: trap.arrivals for name, trap in traps.items()} == dict.fromkeys(traps, 0)
    # The attacks were made (each /done-* comes after its attack), and the guard refused them.
    asked = set(app.paths())
    assert {"/", "/redirect-to-trap", "/sw.js", "/done-fetch", "/done-sw", "/done-rtc"} <= asked
    assert "/done-ws" in asked
    refused = {(r.host, r.port) for r in result.refused if r.guarded}
    t, t2, t6 = traps["T"].port, traps["T2"].port, traps["T6"].port
    assert {
        ("127.0.0.1", t),
        ("localhost", t),
        ("127.0.0.2", t2),
        ("::1", t6),
        ("::ffff:7f00:1", t),
        ("169.254.169.254", 80),
    } <= refused
    reasons = {r.reason for r in result.refused}
    assert "127.0.0.1 is a loopback address" in reasons
    assert any("169.254.169.254 is the cloud metadata service" in r for r in reasons)


def test_a_redirect_of_the_page_itself_to_a_trap_is_refused(renderer, app, traps):
    trap = traps["T"]
    url = app.redirect("/go", f"http://localhost:{trap.port}/admin")
    with pytest.raises(URLNotAllowed) as caught:
        renderer(url, deadline=20, guard=GUARD, origins={app.origin})
    assert str(caught.value).startswith(
        f"Refusing to fetch http://localhost:{trap.port}/admin: localhost resolves to 127.0.0.1"
    )
    assert trap.arrivals == 0


def test_a_page_that_sends_itself_to_a_trap_is_refused(renderer, app, traps):
    trap = traps["T2"]
    target = f"http://127.0.0.2:{trap.port}/"
    url = app.page("/", f"<body><script>location = {target!r}</script>")
    with pytest.raises(URLNotAllowed) as caught:
        renderer(url, deadline=20, guard=GUARD, origins={app.origin})
    assert str(caught.value).startswith(
        f"Refusing to fetch {target}: 127.0.0.2 is a loopback address"
    )
    assert trap.arrivals == 0


def test_the_origin_allowed_is_exactly_one_host_and_port(renderer, app, traps):
    """Another port on the same address, and the same port under another name, stay refused."""
    trap = traps["T"]
    url = app.page(
        "/",
        f"""<body><script>
        Promise.allSettled([fetch("http://127.0.0.1:{trap.port}/"),
                            fetch("http://localhost:{app.port}/")]).then(() => fetch("/done"));
        </script>""",
    )
    app.route("/done", "ok")
    result = renderer(url, deadline=20, guard=GUARD, origins={app.origin})
    assert trap.arrivals == 0
    assert app.paths() == ["/", "/done"]  # not the localhost:{app.port} fetch
    refused = {(r.host, r.port) for r in result.refused}
    assert {("127.0.0.1", trap.port), ("localhost", app.port)} <= refused
