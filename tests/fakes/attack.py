"""An attacker's page: one that aims everything a page can aim -- scripts, styles, images,
iframes, prefetches, redirects, ``fetch()``, WebSockets, EventSource, beacons, a service worker,
WebRTC -- at private places in every spelling (other loopback ports and addresses, ``localhost``,
decimal, hex and IPv4-mapped spellings, IPv6 loopback, this machine's name, the cloud metadata
address), and the :class:`~tests.fakes.traps.Trap` listeners there that count what arrives.

The page proves its scripts ran to the end by asking its own origin for ``/done-*`` paths after
each attack was made (:data:`DONE`: the fetches settled, the service worker installed, ICE
gathering complete), so a quiet trap means refused, not never tried.

The traps sit on 127.0.0.1 (``T``; ``U`` for UDP), ``H2`` (``T2``: another loopback address,
127.0.0.2 unless the page itself lives there) and ::1 (``T6``).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

from tests.fakes.site import Site
from tests.fakes.traps import Trap

__all__ = ["ATTACK", "DONE", "attack_page", "loopback_name", "traps"]

DONE = ("fetch", "ws", "sw", "sw-failed", "rtc")

ATTACK = """<!doctype html><html><head>
<link rel="stylesheet" href="http://127.0.0.1:{T}/style.css">
<link rel="prefetch" href="http://localhost:{T}/prefetch">
<link rel="preconnect" href="http://{H2}:{T2}">
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
for (const url of ["ws://127.0.0.1:{T}/ws", "ws://localhost:{T}/ws", "wss://{H2}:{T2}/ws",
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
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(name, 80)}
    except OSError:
        return "localhost"
    return name if addresses and all(a.startswith("127.") for a in addresses) else "localhost"


@contextmanager
def traps(second: str = "127.0.0.2") -> Iterator[dict[str, Trap]]:
    """The traps, by the page's names for them; ``second``: the other loopback address."""
    made = {
        "T": Trap("127.0.0.1"),
        "T2": Trap(second),
        "T6": Trap("::1"),
        "U": Trap("127.0.0.1", udp=True),
    }
    try:
        yield made
    finally:
        for trap in made.values():
            trap.close()


def attack_page(site: Site, made: dict[str, Trap]) -> str:
    """Serve the attack on ``site`` (with its service worker, its redirect to a trap and the
    ``/done-*`` answers) aimed at the traps ``made``; returns the page's URL."""
    ports = {key: trap.port for key, trap in made.items()}
    second = made["T2"].sock.getsockname()[0]
    site.route(
        "/sw.js",
        SERVICE_WORKER.format(**ports),
        headers={"Content-Type": "application/javascript"},
    )
    site.redirect("/redirect-to-trap", f"http://127.0.0.1:{ports['T']}/redirected")
    for what in DONE:
        site.route(f"/done-{what}", "ok", headers={"Content-Type": "text/plain"})
    return site.page("/", ATTACK.format(NAME=loopback_name(), H2=second, **ports))
