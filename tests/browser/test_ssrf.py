"""The SSRF guard inside the browser: a page on 127.0.0.1 (its own origin allowed, nothing else)
aims everything a page can aim at other loopback ports and addresses, in every spelling, and at
the cloud metadata address. Every trap counts what reaches it: 0, in every mode.

The page proves its scripts ran to the end by asking its own origin for ``/done-*`` paths
after each attack was made (the service worker installed, ICE gathering complete), so a quiet
trap means refused, not never tried.
"""

from __future__ import annotations

import socket

import pytest
from browser_apps import App, Route, Trap

from webtap.browser import render
from webtap.errors import URLNotAllowed
from webtap.guard import Guard

GUARD = Guard()

ATTACK = """<!doctype html><html><head>
<link rel="stylesheet" href="http://127.0.0.1:{T}/style.css">
<link rel="prefetch" href="http://localhost:{T}/prefetch">
<link rel="preconnect" href="http://127.0.0.2:{T2}">
<link rel="dns-prefetch" href="http://{NAME}:{T}">
<script src="http://2130706433:{T}/decimal.js"></script>
</head><body>
<img src="http://[::ffff:127.0.0.1]:{T}/mapped.png">
<img src="http://0x7f.1:{T}/hex.png">
<img src="http://169.254.169.254/latest/meta-data/">
<img src="http://[::1]:{T6}/v6.png">
<img src="http://{NAME}:{T}/name.png">
<iframe src="http://localhost:{T}/frame"></iframe>
<iframe src="/redirect-to-trap"></iframe>
<script>
const done = (what) => fetch("/done-" + what).catch(() => {{}});
Promise.allSettled([
  fetch("http://127.0.0.1:{T}/fetch"),
  fetch("/redirect-to-trap"),
  fetch("http://[::1]:{T6}/fetch", {{mode: "no-cors"}}),
  fetch("http://169.254.169.254/latest/meta-data/iam/"),
]).then(() => done("fetch"));
for (const url of ["ws://127.0.0.1:{T}/ws", "ws://localhost:{T}/ws", "wss://127.0.0.2:{T2}/ws",
                   "ws://[::ffff:7f00:1]:{T}/ws"]) {{
  try {{ new WebSocket(url).onerror = () => done("ws"); }} catch (e) {{}}
}}
try {{ new EventSource("http://127.0.0.1:{T}/events"); }} catch (e) {{}}
navigator.sendBeacon("http://127.0.0.1:{T}/beacon", "x");
navigator.serviceWorker.register("/sw.js").then(
  () => navigator.serviceWorker.ready).then(() => done("sw"), () => done("sw-failed"));
const pc = new RTCPeerConnection({{iceServers: [
  {{urls: "stun:127.0.0.1:{U}"}},
  {{urls: "turn:127.0.0.1:{U}?transport=udp", username: "u", credential: "p"}},
  {{urls: "turn:127.0.0.1:{T}?transport=tcp", username: "u", credential: "p"}}]}});
pc.onicegatheringstatechange = () => {{ if (pc.iceGatheringState === "complete") done("rtc"); }};
pc.createDataChannel("x");
pc.createOffer().then((offer) => pc.setLocalDescription(offer));
</script></body></html>"""

SERVICE_WORKER = """
self.addEventListener("install", (event) => {{
  event.waitUntil(Promise.allSettled([
    fetch("http://127.0.0.1:{T}/from-sw"), fetch("http://localhost:{T}/from-sw")]));
  self.skipWaiting();
}});
self.addEventListener("activate", (event) => event.waitUntil(clients.claim()));
"""


def loopback_name() -> str:
    """This machine's own name when it resolves to loopback only (else plain localhost): a
    name, not an address, that leads to a private place."""
    name = socket.gethostname()
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(name, 80)}
    except OSError:
        return "localhost"
    return name if addresses and all(a.startswith("127.") for a in addresses) else "localhost"


@pytest.fixture
def traps():
    made = {
        "T": Trap("127.0.0.1"),
        "T2": Trap("127.0.0.2"),
        "T6": Trap("::1"),
        "U": Trap("127.0.0.1", udp=True),
    }
    yield made
    for trap in made.values():
        trap.close()


def attack_page(app: App, traps: dict[str, Trap]) -> str:
    ports = {key: trap.port for key, trap in traps.items()}
    app.routes["/sw.js"] = Route(
        SERVICE_WORKER.format(**ports).encode(),
        headers=(("Content-Type", "application/javascript"),),
    )
    app.redirect("/redirect-to-trap", f"http://127.0.0.1:{ports['T']}/redirected")
    for what in ("fetch", "ws", "sw", "sw-failed", "rtc"):
        app.routes[f"/done-{what}"] = Route(b"ok", headers=(("Content-Type", "text/plain"),))
    return app.page("/", ATTACK.format(NAME=loopback_name(), **ports))


@pytest.fixture(params=["one-shot", "long-lived"])
def renderer(request, chromium):
    """``render(url, **kw)`` with a browser of its own per call, or through the module's
    long-lived browser (whose earlier renders must not open a way for later ones)."""
    if request.param == "one-shot":
        return lambda url, **kw: render(url, executable=chromium, **kw)
    shared = request.getfixturevalue("browser")
    return shared.render


def test_nothing_a_page_aims_at_private_places_arrives(renderer, app, traps):
    url = attack_page(app, traps)
    result = renderer(url, deadline=20, guard=GUARD, origins={app.origin})
    assert {name: trap.arrivals for name, trap in traps.items()} == dict.fromkeys(traps, 0)
    # The attacks were made (each /done-* comes after its attack), and the guard refused them.
    asked = set(app.paths)
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
    app.routes["/done"] = Route(b"ok")
    result = renderer(url, deadline=20, guard=GUARD, origins={app.origin})
    assert trap.arrivals == 0
    assert app.paths == ["/", "/done"]  # not the localhost:{app.port} fetch
    refused = {(r.host, r.port) for r in result.refused}
    assert {("127.0.0.1", trap.port), ("localhost", app.port)} <= refused
