"""``webtap batch``: a Parquet or CSV file in, the same rows with results out; resumable, errors
as values, locally and on the Ray cluster."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from tests.scale.scale_kit import Pages

from webtap.batch import Job, run_batch
from webtap.cli import main

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
        (["fetch", "{in}", "out.json"], "use a .parquet or .csv file"),
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


@pytest.mark.xdist_group("ray")
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
