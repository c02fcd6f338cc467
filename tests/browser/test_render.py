"""Rendering small JavaScript apps with a real browser: what came back, and why the render
stopped (settled, or the deadline), never how many seconds it took."""

from __future__ import annotations

import json

import pytest
from tests.fakes.traps import WebSocketHello

from webtap.browser import RenderFailed, render
from webtap.errors import URLNotAllowed
from webtap.guard import Guard

GUARD = Guard()  # the real guard, on: no loopback, no private network, but the app's origin
JSON = {"Content-Type": "application/json"}

DELAYED = """<!doctype html><html><head><title>Shell</title></head><body>
<div id="root"></div>
<script>
setTimeout(() => {
  document.getElementById("root").innerHTML = "<h1>Release notes</h1><p>Version 2 ships.</p>";
}, 400);
</script></body></html>"""

ROUTER = """<!doctype html><html><body>
<nav><a href="/spa/docs">Docs</a></nav><main id="view"></main>
<script>
const views = {"/spa/": "<h1>Home</h1>", "/spa/docs": "<h1>Docs</h1><p>Routed on the client.</p>"};
function show() { document.getElementById("view").innerHTML = views[location.pathname] || "?"; }
window.addEventListener("popstate", show);
show();
setTimeout(() => { history.pushState({}, "", "/spa/docs"); show(); }, 200);
</script></body></html>"""

FROM_JSON = """<!doctype html><html><body><ul id="items"><li>Loading…</li></ul>
<script>
fetch("/api/items.json").then(r => r.json()).then(items => {
  document.getElementById("items").innerHTML = items.map(i => `<li>${i.name}</li>`).join("");
});
</script></body></html>"""

FOREVER_LOADING = """<!doctype html><html><body><div id="app">Loading…</div>
<script>fetch("/api/never").then(r => r.text()).then(t => { app.textContent = t; });</script>
</body></html>"""

CHURN = """<!doctype html><html><body><h1>Live prices</h1><p id="tick">0</p>
<script>let n = 0; setInterval(() => { tick.textContent = String(++n); }, 50);</script>
</body></html>"""


def test_content_inserted_after_a_delay_is_waited_for(browser, app):
    url = app.page("/", DELAYED)
    result = browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
    assert result.outcome == "settled"
    assert "<h1>Release notes</h1><p>Version 2 ships.</p>" in result.html
    assert result.html.startswith("<!DOCTYPE html>")
    assert (result.status, result.final_url, result.truncated) == (200, url, False)


def test_a_client_side_router_is_followed_to_its_view(browser, app):
    app.page("/spa/", ROUTER)
    result = browser.render(app.url("/spa/"), deadline=15, guard=GUARD, origins={app.origin})
    assert result.outcome == "settled"
    assert "<h1>Docs</h1><p>Routed on the client.</p>" in result.html
    assert result.final_url == app.url("/spa/docs")
    assert app.paths() == ["/spa/"]  # the route changed in the page, not on the server


def test_content_fetched_from_a_json_endpoint_is_waited_for(browser, app):
    url = app.page("/", FROM_JSON)
    items = [{"name": "Kettle"}, {"name": "Teapot"}]
    app.route("/api/items.json", json.dumps(items), headers=JSON, stall=0.5)
    result = browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
    assert result.outcome == "settled"
    assert '<ul id="items"><li>Kettle</li><li>Teapot</li></ul>' in result.html
    assert "Loading…" not in result.html
    assert app.paths() == ["/", "/api/items.json"]
    assert result.requests == 2 and result.refused == ()


def test_an_endless_loading_page_stops_at_the_deadline_with_what_it_shows(browser, app):
    url = app.page("/", FOREVER_LOADING)
    app.route("/api/never", "{}", headers=JSON, stall=60)
    result = browser.render(url, deadline=3, guard=GUARD, origins={app.origin})
    assert result.outcome == "deadline"
    assert '<div id="app">Loading…</div>' in result.html


def test_a_page_that_never_stops_changing_stops_at_the_deadline(browser, app):
    url = app.page("/", CHURN)
    result = browser.render(url, deadline=3, guard=GUARD, origins={app.origin})
    assert result.outcome == "deadline"
    assert "<h1>Live prices</h1>" in result.html
    ticks = int(result.html.split('<p id="tick">')[1].split("<")[0])
    assert ticks > 1  # the page was running, and is read as it was then


def test_a_server_rendered_page_settles_with_its_own_html(browser, app):
    url = app.page("/", "<html><head><title>Plain</title></head><body><p>Static.</p></body></html>")
    result = browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
    assert result.outcome == "settled"
    assert "<p>Static.</p>" in result.html
    assert result.requests == 1


def test_a_navigation_by_script_waits_for_the_new_page(browser, app):
    url = app.page("/", "<body><script>setTimeout(() => { location = '/second'; }, 100)</script>")
    app.page(
        "/second",
        "<body><p id=x></p><script>setTimeout(() => { x.textContent = 'arrived' }, 300)</script>",
    )
    result = browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
    assert result.outcome == "settled"
    assert result.final_url == app.url("/second")
    assert '<p id="x">arrived</p>' in result.html


def test_dialogs_are_dismissed_rather_than_waited_on(browser, app):
    url = app.page(
        "/", "<body><script>alert('hi'); document.body.append('after the alert')</script>"
    )
    result = browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
    assert result.outcome == "settled"
    assert "after the alert" in result.html


def test_the_html_is_cut_at_the_cap_and_says_so(browser, app):
    url = app.page("/", "<body><script>document.body.append('x'.repeat(50000))</script>")
    result = browser.render(url, deadline=15, guard=GUARD, origins={app.origin}, max_html=1000)
    assert result.truncated is True
    assert len(result.html) == 1000


def test_an_error_status_is_reported(browser, app):
    app.routes.clear()
    result = browser.render(app.url("/missing"), deadline=15, guard=GUARD, origins={app.origin})
    assert result.status == 404
    assert "no such page" in result.html


def test_the_one_shot_render_starts_and_stops_its_own_browser(chromium, app):
    url = app.page("/", DELAYED)
    result = render(url, deadline=20, guard=GUARD, origins={app.origin}, executable=chromium)
    assert result.outcome == "settled"
    assert "Version 2 ships." in result.html


def test_a_page_the_guard_refuses_is_an_error_naming_the_url(browser, app):
    url = app.page("/", DELAYED)
    with pytest.raises(URLNotAllowed) as caught:
        browser.render(url, deadline=15, guard=GUARD)  # its origin not allowed
    assert str(caught.value) == (
        f"Refusing to fetch {url}: 127.0.0.1 is a loopback address "
        "(set WEBTAP_ALLOW_PRIVATE_NETWORKS=1 to allow private networks)"
    )
    assert app.paths() == []


def test_a_server_that_does_not_answer_is_a_render_failure(browser, free_port):
    with pytest.raises(RenderFailed) as caught:
        browser.render(
            f"http://127.0.0.1:{free_port}/",
            deadline=10,
            guard=GUARD,
            origins={("127.0.0.1", free_port)},
        )
    assert "connection refused" in str(caught.value)


def test_a_websocket_to_an_allowed_origin_goes_through_the_tunnel(browser, app):
    """The proxy's CONNECT tunnel (ws:// and https go through it) carries allowed traffic."""
    server = WebSocketHello("hello over the tunnel")
    try:
        url = app.page(
            "/",
            f"""<body><p id=said>waiting</p><script>
            new WebSocket("ws://127.0.0.1:{server.port}/").onmessage = (e) => {{
              said.textContent = e.data; }};
            </script></body>""",
        )
        origins = {app.origin, ("127.0.0.1", server.port)}
        result = browser.render(url, deadline=15, guard=GUARD, origins=origins)
    finally:
        server.close()
    assert '<p id="said">hello over the tunnel</p>' in result.html
    assert server.connections == 1 and result.refused == ()
