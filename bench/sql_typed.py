"""Typed answers over a table (issue 29): stps_ask_ai_json on 1,000 rows against a model that is
wrong in the ways models are, beside row-by-row calls.

    .venv/bin/python bench/sql_typed.py [--rows 1000] [--latency 0.2] [--serial-rows 40]

A fake Anthropic Messages API on 127.0.0.1 (the suite's, tests/fakes/anthropic.py, which checks
every request) answers each call after ``--latency`` seconds, and a small site on 127.0.0.1
serves each company's page. For every row the model fetches the company's page, answers in
text, then gives its value through the forced answer tool, each field with the quote it rests
on. By the row's number it is, deterministically:

- right (75 %): the page's city and year, quoted from the page;
- ill-typed (10 %): the year as a word; asked again with the error, half of them then give it
  right, half never do (those rows must be NULL, with their reason);
- unsupported (10 %): a city no page says, with a quote the page does not hold (the field must
  be marked: ``verified`` false);
- long (5 %): a page of some 820 lines whose facts sit past line 800: the model reads it in three
  chunks (offset 1, 401, 801) and quotes the last (the value must come from the whole page).

Printed: rows that fit or are NULL with a reason (goal: all), ill-typed answers caught (goal:
all), unsupported values marked (goal: ≥ 99 %), long-page values verified, and rows a second
at webtap's concurrency beside one row at a time (goal: ≥ 10×).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))  # the repository, for the suite's fakes

from tests.fakes.anthropic import API_KEY, FakeAnthropic, Reply, message, text, tool_use

SCHEMA = "STRUCT(city VARCHAR, founded INTEGER)"
CITIES = ["Lyon", "Oslo", "Porto", "Graz", "Turku", "Ghent", "Brno", "Cork"]


def kind_of(row: int) -> str:
    slot = row % 20
    if slot < 2:
        return "ill"
    if slot < 4:
        return "unsupported"
    if slot == 4:
        return "long"
    return "right"


def facts(row: int) -> tuple[str, int]:
    return CITIES[row % len(CITIES)], 1850 + row % 170


def page(row: int) -> str:
    city, year = facts(row)
    fact = f"<p>Company {row} was founded in {year} in {city}, and it makes parts.</p>"
    if kind_of(row) != "long":
        return f"<html><head><title>Company {row}</title></head><body>{fact}</body></html>"
    filler = "".join(f"<p>Line {n} of the annual report says little.</p>" for n in range(410))
    return f"<html><head><title>Company {row}</title></head><body>{filler}{fact}</body></html>"


class Site:
    """The companies' pages on 127.0.0.1 (no robots.txt: every path allowed)."""

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                name = self.path.rsplit("/", 1)[-1]
                if not self.path.startswith("/company/") or not name.isdigit():
                    self.send_error(404)
                    return
                body = page(int(name)).encode()
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


def model(site: Site) -> Any:
    """The scripted model: fetch, (for long pages, read on), answer in text, then the value."""

    def respond(body: dict[str, Any]) -> Reply:
        row = int(body["messages"][0]["content"].split("\n")[0].removeprefix("Context: c"))
        kind, (city, year) = kind_of(row), facts(row)
        url = f"{site.url}/company/{row}"
        fetches = sum(
            1
            for m in body["messages"]
            if m["role"] == "assistant"
            for b in m["content"]
            if b.get("type") == "tool_use" and b["name"] == "web_fetch"
        )
        forced = body.get("tool_choice", {}).get("type") == "tool"
        if not forced:
            if fetches == 0 or (kind == "long" and fetches < 3):
                request = (
                    {"url": url, "offset": 1 + 400 * fetches} if kind == "long" else {"url": url}
                )
                return message(tool_use("web_fetch", request), stop_reason="tool_use")
            return message(text(f"{city}, {year}."))
        retried = any(
            b.get("type") == "tool_result" and b.get("is_error")
            for b in body["messages"][-1]["content"]
            if isinstance(body["messages"][-1]["content"], list)
        )
        quote = f"founded in {year} in {city}"
        value: dict[str, Any] = {"city": city, "founded": year}
        if kind == "ill" and (not retried or row % 40 < 20):
            value["founded"] = "eighteen-something"
        if kind == "unsupported":
            value["city"], quote = "Atlantis", f"founded in {year} in Atlantis"
        value["_sources"] = {
            "city": {"url": url, "quote": quote},
            "founded": {"url": url, "quote": f"was founded in {year}"},
        }
        return message(tool_use("answer", value), stop_reason="tool_use")

    return respond


def run(rows: range, concurrency: int) -> tuple[float, list[tuple[Any, ...]]]:
    import duckdb

    import webtap.sql

    connection = duckdb.connect()
    functions = webtap.sql.register(connection, concurrency=concurrency, progress=False)
    functions.set_max_tool_calls(3)
    try:
        started = time.perf_counter()
        found = connection.execute(
            "SELECT x, stps_ask_ai_json('c' || x, 'Where and when was it founded?', ?) AS v,"
            " stps_ask_ai_json_error('c' || x, 'Where and when was it founded?', ?) AS why,"
            " stps_ask_ai_json_sources('c' || x, 'Where and when was it founded?', ?) AS s"
            f" FROM range({rows.start}, {rows.stop}) t(x) ORDER BY x",
            [SCHEMA, SCHEMA, SCHEMA],
        ).fetchall()
        elapsed = time.perf_counter() - started
    finally:
        functions.close()
        connection.close()
    return elapsed, found


def judge(found: list[tuple[Any, ...]]) -> dict[str, Any]:
    tally: dict[str, Any] = {"rows": len(found), "fit": 0, "null_with_reason": 0, "broken": 0}
    ill = ill_caught = unsupported = marked = long_rows = long_verified = 0
    for row, value, why, sources in found:
        kind = kind_of(row)
        parsed = json.loads(value) if value is not None else None
        fits = (
            isinstance(parsed, dict)
            and isinstance(parsed.get("founded"), int)
            and isinstance(parsed.get("city"), str)
        )
        if fits and why is None:
            tally["fit"] += 1
        elif value is None and isinstance(why, str) and why.startswith("ERROR: "):
            tally["null_with_reason"] += 1
        else:
            tally["broken"] += 1
        checked = json.loads(sources) if sources else {}
        if kind == "ill":
            ill += 1
            ill_caught += parsed is None or parsed.get("founded") != "eighteen-something"
        if kind == "unsupported":
            unsupported += 1
            marked += checked.get("city", {}).get("verified") is False
        if kind == "long":
            long_rows += 1
            long_verified += bool(fits and checked.get("founded", {}).get("verified"))
    tally["ill-typed caught"] = f"{ill_caught}/{ill}"
    tally["unsupported marked"] = (
        f"{marked}/{unsupported} ({100 * marked / max(unsupported, 1):.1f} %)"
    )
    tally["long-page values verified"] = f"{long_verified}/{long_rows}"
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--serial-rows", type=int, default=40)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()

    home = tempfile.mkdtemp(prefix="webtap-bench-")
    os.environ.update(
        {
            "HOME": home,
            "XDG_CACHE_HOME": f"{home}/cache",
            "XDG_DATA_HOME": f"{home}/data",
            "WEBTAP_ALLOW_PRIVATE_NETWORKS": "1",
            "WEBTAP_RENDER": "off",
            "ANTHROPIC_API_KEY": API_KEY,
        }
    )
    site = Site()
    fake = FakeAnthropic(responder=model(site), delay=args.latency).start()
    os.environ["ANTHROPIC_BASE_URL"] = fake.url
    try:
        from webtap.sql import DEFAULT_CONCURRENCY

        batched, found = run(range(args.rows), DEFAULT_CONCURRENCY)
        calls = len(fake.requests)
        serial, _ = run(range(args.rows, args.rows + args.serial_rows), 1)
    finally:
        fake.stop()
    print(f"stps_ask_ai_json over {args.rows} rows, {args.latency * 1000:.0f} ms a model call")
    for name, value in judge(found).items():
        print(f"  {name:28} {value}")
    print(f"  {'violations of the API':28} {len(fake.violations)}")
    fast, slow = args.rows / batched, args.serial_rows / serial
    shown = f"concurrency {DEFAULT_CONCURRENCY}"
    print(f"  {shown:15} {batched:7.1f} s  {fast:7.1f} rows/s  {calls} calls")
    print(f"  row by row      {serial:7.1f} s  {slow:7.1f} rows/s  ({args.serial_rows} rows)")
    print(f"  speed-up        {fast / slow:7.1f}x")


if __name__ == "__main__":
    main()
