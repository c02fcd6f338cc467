"""``webtap batch``: a Parquet or CSV file in, the same rows with results out; resumable, errors
as values, locally and on the Ray cluster."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import duckdb
import pyarrow as pa
import pytest
from tests.fakes.anthropic import Reply, echo
from tests.scale.scale_kit import HTML, Pages, alive, descendants, page

import webtap.scale.batch
from webtap.cli import main
from webtap.scale.batch import Job, run_batch
from webtap.scale.rows import AskRows, Stop

LOCAL = {"WEBTAP_ALLOW_PRIVATE_NETWORKS": "1", "WEBTAP_HOST_RATE": "1000", "WEBTAP_CACHE": "off"}


@pytest.fixture
def local_pages(pages: Pages, monkeypatch: pytest.MonkeyPatch) -> Pages:
    for name, value in LOCAL.items():
        monkeypatch.setenv(name, value)
    return pages


def write(path: Path, table: pa.Table) -> Path:
    con = duckdb.connect()
    con.register("t", table)
    options = "FORMAT parquet" if path.suffix == ".parquet" else "FORMAT csv, HEADER"
    con.execute(f"COPY t TO '{path}' ({options})")
    return path


def read(path: Path) -> list[dict[str, Any]]:
    reader = "read_parquet" if path.suffix == ".parquet" else "read_csv"
    relation = duckdb.connect().sql(f"SELECT * FROM {reader}('{path}') ORDER BY n")
    assert relation is not None
    return relation.to_arrow_table().to_pylist()


def urls_file(tmp_path: Path, pages: Pages, suffix: str = ".parquet") -> Path:
    urls = [*pages.urls, pages.url("/missing")]
    return write(tmp_path / f"in{suffix}", pa.table({"n": range(len(urls)), "url": urls}))


class StopAfter:
    """A progress that stops the run (as Ctrl-C would) after ``rows`` rows."""

    def __init__(self, rows: int) -> None:
        self.rows, self.seen = rows, 0

    def start(self, total: int, skipped: int) -> None:
        self.total, self.skipped = total, skipped

    def advance(self, rows: int, errors: int) -> None:
        self.seen += rows
        if self.seen >= self.rows:
            raise KeyboardInterrupt

    def end(self) -> None:
        pass


def test_a_fetch_batch_writes_every_row_with_its_page(local_pages: Pages, tmp_path: Path) -> None:
    result = run_batch(urls_file(tmp_path, local_pages), tmp_path / "out.parquet")
    assert (result.total, result.skipped, result.done, result.errors) == (51, 0, 51, 1)
    rows = read(tmp_path / "out.parquet")
    assert [row["url"] for row in rows] == [*local_pages.urls, local_pages.url("/missing")]
    assert {row["verdict"] for row in rows[:50]} == {"OK"}
    assert rows[0]["title"] and "page" in rows[10]["markdown"].lower()
    assert (rows[50]["verdict"], rows[50]["markdown"]) == ("HTTP_ERROR", None)
    assert not (tmp_path / "out.parquet.parts").exists()


def test_jsonl_in_and_out_hold_the_same_rows_and_resume(local_pages: Pages, tmp_path: Path) -> None:
    """OUT as JSON lines, IN too: one object a line, every column; a rerun skips them all."""
    import json

    table = duckdb.connect().sql(f"SELECT * FROM '{urls_file(tmp_path, local_pages)}'")
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in table.to_arrow_table().to_pylist()))
    result = run_batch(source, tmp_path / "out.jsonl")
    assert (result.done, result.errors) == (51, 1)
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert sorted(row["n"] for row in rows) == list(range(51))
    assert {row["verdict"] for row in rows if row["url"].endswith("/missing")} == {"HTTP_ERROR"}
    assert run_batch(source, tmp_path / "out.jsonl").skipped == 51


def test_a_stopped_run_resumes_without_fetching_a_row_twice(
    local_pages: Pages, tmp_path: Path
) -> None:
    source, target = urls_file(tmp_path, local_pages), tmp_path / "out.parquet"
    job = Job(threads=4)  # 8 rows a chunk
    with pytest.raises(KeyboardInterrupt):
        run_batch(source, target, job, progress=StopAfter(16))
    assert list((tmp_path / "out.parquet.parts").glob("part-*.parquet"))
    again = StopAfter(10_000)
    result = run_batch(source, target, job, progress=again)
    assert (again.total, again.skipped) == (51, 16)
    assert (result.skipped, result.done) == (16, 35)
    assert len(read(target)) == 51
    assert set(local_pages.hits.values()) == {1}  # no page fetched twice
    third = run_batch(source, target, job)
    assert (third.skipped, third.done) == (51, 0)
    assert set(local_pages.hits.values()) == {1}


def test_retry_errors_redoes_only_the_rows_that_failed(local_pages: Pages, tmp_path: Path) -> None:
    source, target = urls_file(tmp_path, local_pages, ".csv"), tmp_path / "out.csv"
    run_batch(source, target)
    result = run_batch(source, target, retry_errors=True)
    assert (result.skipped, result.done, result.errors) == (50, 1, 1)
    assert local_pages.hits["/missing"] == 2 and local_pages.hits["/p0"] == 1
    assert len(read(target)) == 51


def test_an_ask_batch_answers_each_row_and_errors_are_values(
    anthropic_api: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write(
        tmp_path / "in.csv",
        pa.table(
            {
                "n": [0, 1, 2],
                "context": ["Paris", "Rome", "Oslo"],
                "prompt": ["Which country?", None, "Which country?"],
            }
        ),
    )
    result = run_batch(source, tmp_path / "out.parquet", Job(kind="ask", threads=2))
    rows = read(tmp_path / "out.parquet")
    assert result.done == 3
    assert "Context: Paris" in rows[0]["answer"] and rows[0]["error"] is None
    assert (rows[1]["answer"], rows[1]["error"]) == (None, None)  # NULL in, NULL out
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-wrong-key-000000")
    again = run_batch(source, tmp_path / "wrong.parquet", Job(kind="ask"))
    wrong = read(tmp_path / "wrong.parquet")
    assert again.errors == 2
    assert wrong[0]["answer"] is None and wrong[0]["error"].startswith("ERROR:")
    assert "sk-ant-wrong-key" not in wrong[0]["error"]


def test_an_ask_batch_with_a_schema_writes_a_typed_column(
    anthropic_api: Any, tmp_path: Path
) -> None:
    from tests.fakes.anthropic import message, text, tool_use

    founded = {"Acme": 1921, "Globex": "soon"}  # Globex never fits

    def respond(body: dict[str, Any]) -> Reply:
        name = body["messages"][0]["content"].split("\n")[0].removeprefix("Context: ")
        if body.get("tool_choice", {}).get("type") != "tool":
            return message(text(name))
        value = {"city": "Lyon", "founded": founded[name]}
        return message(tool_use("answer", value), stop_reason="tool_use")

    anthropic_api.responder = respond
    source = write(
        tmp_path / "in.parquet",
        pa.table({"n": [0, 1], "context": ["Acme", "Globex"], "prompt": ["Facts?", "Facts?"]}),
    )
    job = Job(kind="ask", threads=2, schema="STRUCT(city VARCHAR, founded SMALLINT)")
    result = run_batch(source, tmp_path / "out.parquet", job)

    assert (result.done, result.errors) == (2, 1)
    types = duckdb.connect().sql(f"DESCRIBE SELECT * FROM '{tmp_path / 'out.parquet'}'")
    assert ("answer", "STRUCT(city VARCHAR, founded SMALLINT)") in [
        (row[0], row[1]) for row in types.fetchall()
    ]
    acme, globex = read(tmp_path / "out.parquet")
    assert acme["answer"] == {"city": "Lyon", "founded": 1921} and acme["error"] is None
    assert globex["answer"] is None and "At founded:" in globex["error"]


def test_a_batch_with_an_unreadable_schema_stops_before_any_row(
    anthropic_api: Any, tmp_path: Path
) -> None:
    from webtap.errors import InvalidInput

    source = write(tmp_path / "in.parquet", pa.table({"context": ["a"], "prompt": ["b"]}))
    with pytest.raises(InvalidInput, match="is not a DuckDB type"):
        run_batch(source, tmp_path / "out.parquet", Job(kind="ask", schema="STRUCT(x NOPE)"))
    assert anthropic_api.requests == []


def test_the_command_line_runs_a_batch_and_says_what_it_did(
    local_pages: Pages, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = urls_file(tmp_path, local_pages)
    assert main(["batch", "fetch", str(source), str(tmp_path / "o.parquet"), "--no-progress"]) == 0
    assert "51 rows: 0 already in" in capsys.readouterr().err
    assert main(["batch", "fetch", str(source), str(tmp_path / "o.parquet")]) == 0
    assert "51 rows: 51 already in" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["fetch", "{in}", "out.json"], "use a .parquet, .csv or .jsonl file"),
        (["fetch", "{in}", "out.csv", "--column", "link"], "has no column 'link'"),
        (["ask", "{in}", "out.csv"], "has no column 'context', 'prompt'"),
        (["fetch", "missing.csv", "out.csv"], "no such input file"),
        (["fetch", "{in}", "out.csv", "--address", "x:1"], "use it with --engine ray"),
    ],
)
def test_bad_arguments_are_one_clear_line(
    arguments: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "in.csv", pa.table({"url": ["http://example.com/"]}))
    filled = [a.replace("{in}", str(source)) for a in arguments]
    filled = [str(tmp_path / a) if a.startswith("out") else a for a in filled]
    assert main(["batch", *filled]) != 0
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_the_ray_engine_writes_what_the_local_engine_writes(
    ray_cluster: Any, local_pages: Pages, tmp_path: Path
) -> None:
    source = urls_file(tmp_path, local_pages)
    run_batch(source, tmp_path / "local.parquet")
    result = run_batch(source, tmp_path / "ray.parquet", Job(workers=2), engine="ray")
    assert (result.done, result.errors) == (51, 1)
    assert read(tmp_path / "ray.parquet") == read(tmp_path / "local.parquet")


def test_the_progress_shows_rows_rate_errors_and_time_left() -> None:
    import io

    from rich.console import Console

    from webtap.cli.batch import BatchProgress

    out = io.StringIO()
    progress = BatchProgress(Console(file=out, force_terminal=True, width=120))
    progress.start(total=10, skipped=4)
    progress.advance(3, 1)
    progress.advance(3, 0)
    progress._progress.refresh()
    task = progress._progress.tasks[0]
    assert (task.completed, task.total, task.fields["errors"]) == (6, 6, 1)
    assert "4 already done" in task.description
    progress.end()
    assert "1 errors" in out.getvalue()


# -- stopping: SIGTERM, SIGHUP, Ctrl-C ---------------------------------------------------------

WEBTAP = str(Path(sys.executable).parent / "webtap")
# Start a command with SIGINT at its default, then become it (same pid): a command started in
# the background by a shell without job control inherits SIGINT ignored, and keeps it so.
AS_A_TERMINAL_WOULD = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
QUICK, STALLED = 14, 2  # rows: two chunks of 8 (--threads 2); the second ends with 2 that hang


def stalling_input(pages: Pages, tmp_path: Path) -> tuple[Path, list[str]]:
    """IN: 14 pages that answer, then 2 that never do (until the site stops); the second
    chunk is 6 finished rows and 2 in flight when both stalled pages have been asked for."""
    stalled = [pages.site.route(f"/stall{n}", page(n), headers=HTML, stall=120) for n in range(2)]
    urls = [*pages.urls[:QUICK], *stalled]
    return write(tmp_path / "in.parquet", pa.table({"n": range(len(urls)), "url": urls})), stalled


def asked_for(pages: Pages, urls: list[str], guard: float = 60) -> None:
    """Wait until the site has been asked for every one of ``urls`` (a guard ends the wait)."""
    paths = {urlsplit(url).path for url in urls}
    end = time.monotonic() + guard
    while not paths <= set(pages.site.paths()):
        assert time.monotonic() < end, "the stalled pages were never asked for"
        time.sleep(0.02)


def kept_rows(target: Path) -> list[dict[str, Any]]:
    parts = target.with_name(target.name + ".parts")
    query = f"SELECT n, verdict FROM read_parquet('{parts}/part-*.parquet') ORDER BY n"
    relation = duckdb.connect().sql(query)
    assert relation is not None
    return relation.to_arrow_table().to_pylist()


def test_a_stop_keeps_the_rows_finished_midway_through_a_chunk(
    local_pages: Pages, tmp_path: Path
) -> None:
    source, stalled = stalling_input(local_pages, tmp_path)
    target, stop = tmp_path / "out.parquet", Stop()
    outcome: dict[str, Any] = {}
    job = Job(threads=2)
    run = threading.Thread(
        target=lambda: outcome.update(result=run_batch(source, target, job, stop=stop))
    )
    run.start()
    asked_for(local_pages, stalled)
    stop.set()
    run.join(timeout=60)  # a guard against a hang: the stalled rows are abandoned, not awaited
    assert not run.is_alive()
    result = outcome["result"]
    assert (result.stopped, result.done, result.errors) == (True, QUICK, 0)
    assert not target.exists()  # the rows are in OUT.parts/ until a run ends
    assert [row["n"] for row in kept_rows(target)] == list(range(QUICK))
    for url in stalled:  # the next run: those pages answer now
        local_pages.site.route(urlsplit(url).path, page(1), headers=HTML)
    again = run_batch(source, target, job)
    assert (again.skipped, again.done, again.stopped) == (QUICK, STALLED, False)
    assert [row["n"] for row in read(target)] == list(range(QUICK + STALLED))
    hits = local_pages.hits
    assert all(hits[path] == 1 for path in list(local_pages.bodies)[:QUICK])


@pytest.mark.parametrize(
    ("signum", "status", "said"),
    [
        pytest.param(signal.SIGTERM, 143, "webtap: stopped by SIGTERM\n", id="SIGTERM"),
        pytest.param(signal.SIGHUP, 129, "webtap: stopped by SIGHUP\n", id="SIGHUP"),
        pytest.param(signal.SIGINT, 130, "webtap: interrupted\n", id="SIGINT"),
    ],
)
def test_the_command_stops_on_a_signal_and_keeps_its_finished_rows(
    signum: int, status: int, said: str, local_pages: Pages, tmp_path: Path
) -> None:
    """Exits with 128 + the signal's number while two fetches hang (60 s is a guard against a
    hang, not a speed goal), the 14 rows finished kept for the next run (the suite gives the
    stopped run WEBTAP_BATCH_STOP_WAIT=30 s to write them: beside a busy process 1 s is short)."""
    source, stalled = stalling_input(local_pages, tmp_path)
    target = tmp_path / "out.parquet"
    command = [WEBTAP, "batch", "fetch", str(source), str(target), "--threads", "2"]
    process = subprocess.Popen(
        [sys.executable, "-c", AS_A_TERMINAL_WOULD, *command, "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        asked_for(local_pages, stalled)
        process.send_signal(signum)
        _, err = process.communicate(timeout=60)  # a guard against a hang
    finally:
        process.kill()
    assert process.returncode == status
    text = err.decode()
    assert text.endswith(said) and "Traceback" not in text
    assert "The rows finished so far are kept" in text
    assert [row["n"] for row in kept_rows(target)] == list(range(QUICK))
    assert not target.exists()


def test_the_ray_engine_stops_on_sigterm_and_leaves_no_ray_process_behind(
    local_pages: Pages, tmp_path: Path
) -> None:
    """``--engine ray`` from a fresh process (it starts its own cluster on 127.0.0.1): on
    SIGTERM the driver lets go of the cluster, which ends with it -- no raylet, worker or agent
    left running, and no second cluster started by a thread that still called Ray. Ray's crash
    handler does not take the SIGTERM (it would print a C stack and abort the driver, SIGABRT,
    if the wind-down took over 3 s, as it does on a busy machine). The waits are guards against
    a hang: starting Ray beside a busy process has taken over 3 minutes."""
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'webtap[ray]'")
    source, stalled = stalling_input(local_pages, tmp_path)
    target = tmp_path / "out.parquet"
    command = [WEBTAP, "batch", "fetch", str(source), str(target), "--engine", "ray"]
    process = subprocess.Popen(
        [sys.executable, "-c", AS_A_TERMINAL_WOULD, *command, "--threads", "2", "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "HOME": str(tmp_path)},  # Ray keeps its token there
    )
    try:
        asked_for(local_pages, stalled, guard=600)
        ray_processes = descendants(process.pid) - {process.pid}
        assert len(ray_processes) >= 3  # its raylet, GCS and workers at least
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    text = err.decode()
    assert "SIGTERM received" not in text  # Ray's crash handler's first line
    assert process.returncode == 143
    assert text.endswith("webtap: stopped by SIGTERM\n") and "Traceback" not in text
    end = time.monotonic() + 60
    while alive(ray_processes) and time.monotonic() < end:
        time.sleep(0.1)
    assert alive(ray_processes) == set()


def test_a_merge_cut_off_after_it_was_committed_is_completed_by_the_next_run(
    local_pages: Pages, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed between setting the parts aside and replacing OUT: the next run finishes the
    merge, and no row is lost, fetched again or written twice."""
    source, target = urls_file(tmp_path, local_pages), tmp_path / "out.parquet"
    finish = webtap.scale.batch._finish_merge

    def killed(at: Path) -> None:
        if webtap.scale.batch._merged_dir(at).exists():
            raise KeyboardInterrupt  # as if the process died here
        finish(at)

    monkeypatch.setattr(webtap.scale.batch, "_finish_merge", killed)
    with pytest.raises(KeyboardInterrupt):
        run_batch(source, target, Job(threads=4))
    assert not target.exists() and (tmp_path / ".out.parquet.tmp").exists()
    monkeypatch.setattr(webtap.scale.batch, "_finish_merge", finish)
    again = run_batch(source, target, Job(threads=4))
    assert (again.skipped, again.done) == (51, 0)
    assert [row["n"] for row in read(target)] == list(range(51))
    assert set(local_pages.hits.values()) == {1}
    assert not (tmp_path / "out.parquet.parts.merged").exists()
    assert not (tmp_path / ".out.parquet.tmp").exists()


def test_a_stop_cuts_off_an_ask_batch_s_calls(anthropic_api: Any) -> None:
    """The model holds every call; a stop ends the batch at once with no rows (the rows'
    calls are abandoned on daemon threads, as stps_ask_ai's on Ctrl-C)."""
    released = threading.Event()

    def held(body: dict[str, Any]) -> Reply:
        released.wait(60)
        return echo(body)

    anthropic_api.responder = held
    stop = Stop()
    rows = AskRows(concurrency=2, stop=stop)
    batch = pa.table({"context": ["a", "b", "c"], "prompt": ["Which?"] * 3})
    outcome: dict[str, Any] = {}
    run = threading.Thread(target=lambda: outcome.update(table=rows(batch)))
    run.start()
    try:
        end = time.monotonic() + 30
        while len(anthropic_api.requests) < 2:  # both calls in flight
            assert time.monotonic() < end, "the calls never reached the model"
            time.sleep(0.02)
        stop.set()
        run.join(timeout=60)  # a guard against a hang
        assert not run.is_alive()
    finally:
        released.set()
    assert outcome["table"].num_rows == 0
    assert outcome["table"].schema.names == ["context", "prompt", "answer", "error"]
    assert len(anthropic_api.requests) == 2  # the third row never went
