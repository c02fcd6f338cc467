"""The stps_* functions through a real DuckDB connection, against the fake Anthropic API."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.anthropic import API_KEY, FakeAnthropic, Reply, echo, error

from webtap.sql import DEFAULT_CONCURRENCY

# The spec's default model is one the SDK warns about (end of life 2026-11-30).
pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

DEFAULT = "claude-sonnet-5-5"


def question(context: str, prompt: str = "q") -> str:
    return f"Context: {context}\n\nQuestion: {prompt}"


def asked(fake: FakeAnthropic) -> list[str]:
    """The contexts the API was asked about, in no particular order."""
    return sorted(b["messages"][0]["content"].split("\n")[0] for b in fake.bodies)


# -- answers ---------------------------------------------------------------------------------


def test_one_answer_per_row(con: Any, anthropic_api: FakeAnthropic) -> None:
    rows = con.execute(
        "SELECT x, stps_ask_ai('item ' || x, 'Describe it') FROM range(3) t(x) ORDER BY x"
    ).fetchall()

    assert rows == [
        (x, f"[{DEFAULT}|1000] {question(f'item {x}', 'Describe it')}") for x in range(3)
    ]
    assert len(anthropic_api.requests) == 3
    assert anthropic_api.violations == []


def test_null_in_null_out(con: Any, anthropic_api: FakeAnthropic) -> None:
    row = con.execute(
        "SELECT stps_ask_ai(NULL, 'q'), stps_ask_ai('c', NULL), stps_ask_ai(NULL, NULL, 'm', 5)"
    ).fetchone()

    assert row == (None, None, None)
    assert anthropic_api.requests == []


def test_model_and_max_tokens_per_row(con: Any, anthropic_api: FakeAnthropic) -> None:
    answers = con.column(
        "SELECT stps_ask_ai(c, 'q', m, n) FROM (VALUES ('a', 'model-a', 10), ('b', 'model-b', 20),"
        " ('c', NULL, NULL), ('d', 'model-a', NULL)) t(c, m, n) ORDER BY c"
    )

    assert answers == [
        f"[model-a|10] {question('a')}",
        f"[model-b|20] {question('b')}",
        f"[{DEFAULT}|1000] {question('c')}",
        f"[model-a|1000] {question('d')}",
    ]
    assert sorted(b["model"] for b in anthropic_api.bodies) == [
        DEFAULT,
        *["model-a"] * 2,
        "model-b",
    ]


def test_three_argument_form_and_non_text_context(con: Any, anthropic_api: FakeAnthropic) -> None:
    assert con.one("SELECT stps_ask_ai(42, 'q', 'model-x')") == f"[model-x|1000] {question('42')}"


def test_the_default_model_is_settable(con: Any, anthropic_api: FakeAnthropic) -> None:
    assert con.one("SELECT stps_get_model()") == DEFAULT
    assert con.one("SELECT stps_set_model('claude-haiku-4-5')") == "Model set to claude-haiku-4-5"
    assert con.one("SELECT stps_get_model()") == "claude-haiku-4-5"
    assert con.one("SELECT stps_ask_ai('c', 'q')").startswith("[claude-haiku-4-5|1000]")
    assert con.one("SELECT stps_set_model(NULL)") == f"Model set to {DEFAULT}"


# -- errors are values -----------------------------------------------------------------------


def test_a_bad_key_is_an_error_value_not_a_failed_query(
    con: Any, anthropic_api: FakeAnthropic
) -> None:
    secret = "sk-ant-wrong-but-secret-4242"
    confirmation = con.one(f"SELECT stps_set_api_key('{secret}')")

    answers = con.column("SELECT stps_ask_ai('c' || x, 'q') FROM range(2) t(x)")

    assert confirmation == "Anthropic API key set"
    assert all(a.startswith("ERROR: The Anthropic API rejected the API key (401") for a in answers)
    assert all(secret not in a for a in answers)


def test_no_key_at_all(con: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)

    rows = con.execute("SELECT stps_ask_ai('c', 'q'), stps_ask_ai(NULL, 'q')").fetchone()

    assert rows[0].startswith("ERROR: No Anthropic API key found.")
    assert "stps_set_api_key" in rows[0]
    assert rows[1] is None


def test_a_key_set_from_sql_wins(con: Any, anthropic_api: FakeAnthropic, monkeypatch: Any) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-env-is-wrong")
    con.execute(f"SELECT stps_set_api_key('{API_KEY}')")

    assert con.one("SELECT stps_ask_ai('c', 'q')") == f"[{DEFAULT}|1000] {question('c')}"


def test_one_failing_row_does_not_fail_the_others(con: Any, anthropic_api: FakeAnthropic) -> None:
    def picky(body: dict[str, Any]) -> Reply:
        if body["model"] == "no-such-model":
            return error(404, "not_found_error", "model: no-such-model")
        return echo(body)

    anthropic_api.responder = picky

    answers = con.column(
        "SELECT stps_ask_ai('c', 'q', m) FROM (VALUES ('good'), ('no-such-model')) t(m) ORDER BY m"
    )

    assert answers[0] == f"[good|1000] {question('c')}"
    assert answers[1].startswith("ERROR: The Anthropic API does not serve the model")
    assert "'no-such-model' (404 not_found_error)" in answers[1]


def test_bad_arguments_are_error_values(con: Any, anthropic_api: FakeAnthropic) -> None:
    assert con.one("SELECT stps_ask_ai('a', 'b', 'm', 0)").startswith(
        "ERROR: max_tokens must be between 1 and 128000"
    )
    assert anthropic_api.requests == []


# -- settings functions ----------------------------------------------------------------------


def test_search_provider_settings(con: Any, anthropic_api: FakeAnthropic) -> None:
    assert con.one("SELECT stps_get_search_provider()") == "none"
    assert con.one("SELECT stps_set_brave_api_key('BSA-secret-1')") == "Brave API key set"
    assert con.one("SELECT stps_get_search_provider()") == "brave"

    con.one("SELECT stps_ask_ai('c', 'q')")
    assert [t["name"] for t in anthropic_api.bodies[-1]["tools"]] == ["web_search", "web_fetch"]

    message = con.one("SELECT stps_set_search_provider('google')")
    assert message.startswith("Search provider set to google (no keys found yet")
    assert con.one("SELECT stps_get_search_provider()") == "none"
    assert con.one("SELECT stps_set_google_api_key('AIza-secret')") == "Google API key set"
    assert con.one("SELECT stps_set_google_cse_id('cse-secret')") == "Google search engine id set"
    assert con.one("SELECT stps_get_search_provider()") == "google"

    bad = con.one("SELECT stps_set_search_provider('bing')")
    assert bad.startswith("ERROR: unknown search provider 'bing'")
    assert con.one("SELECT stps_get_search_provider()") == "google"
    assert con.one("SELECT stps_set_search_provider(NULL)").startswith(
        "Search provider set to auto"
    )
    assert con.one("SELECT stps_get_search_provider()") == "brave"


def test_set_functions_never_echo_the_key(con: Any) -> None:
    for function in ("stps_set_api_key", "stps_set_brave_api_key", "stps_set_google_api_key"):
        result = con.one(f"SELECT {function}('very-secret-value-123')")
        assert "very-secret-value-123" not in result
        assert result.endswith(" set")
    assert con.one("SELECT stps_set_brave_api_key(NULL)") == "Brave API key cleared"


def test_max_tool_calls_zero_offers_no_tools(con: Any, anthropic_api: FakeAnthropic) -> None:
    assert con.one("SELECT stps_set_max_tool_calls(0)") == "Max tool calls set to 0"
    con.one("SELECT stps_ask_ai('c', 'q')")

    assert "tools" not in anthropic_api.bodies[0]
    assert con.one("SELECT stps_set_max_tool_calls(50)").startswith("ERROR: max tool calls")


# -- fast over tables ------------------------------------------------------------------------


def test_duplicates_are_answered_once(con: Any, anthropic_api: FakeAnthropic) -> None:
    answers = con.column("SELECT stps_ask_ai('c' || (x % 10), 'q') FROM range(100) t(x)")

    assert len(anthropic_api.requests) == 10
    assert len(set(answers)) == 10
    assert asked(anthropic_api) == sorted(f"Context: c{i}" for i in range(10))


def test_duplicates_across_chunks_of_one_query_are_answered_once(
    con: Any, anthropic_api: FakeAnthropic
) -> None:
    # 5000 rows reach the function in three chunks (DuckDB's vectors hold 2048 rows).
    count = con.one("SELECT count(DISTINCT stps_ask_ai('c' || (x % 5), 'q')) FROM range(5000) t(x)")

    assert count == 5
    assert len(anthropic_api.requests) == 5


def test_a_query_run_again_pays_again_without_a_cache(
    con: Any, anthropic_api: FakeAnthropic
) -> None:
    sql = "SELECT stps_ask_ai('c' || x, 'q') FROM range(3) t(x)"
    con.execute(sql).fetchall()
    con.execute(sql).fetchall()

    assert len(anthropic_api.requests) == 6


def test_the_cache_keeps_successful_answers(
    con: Any, anthropic_api: FakeAnthropic, tmp_path: Path
) -> None:
    def picky(body: dict[str, Any]) -> Reply:
        if "Context: bad" in body["messages"][0]["content"]:
            return error(400, "invalid_request_error", "no")
        return echo(body)

    anthropic_api.responder = picky
    path = tmp_path / "answers.sqlite"
    sql = "SELECT stps_ask_ai(c, 'q') FROM (VALUES ('a'), ('b'), ('bad')) t(c) ORDER BY c"

    assert con.one(f"SELECT stps_set_cache('{path}')") == f"Cache enabled: {path} (0 answers)"
    first = con.column(sql)
    second = con.column(sql)

    assert first == second
    assert first[2].startswith("ERROR:")
    # The two answers came from the cache; only the error was asked again.
    assert asked(anthropic_api) == ["Context: a", "Context: b", "Context: bad", "Context: bad"]

    # The cache outlives the connection.
    import duckdb

    import webtap.sql

    other = duckdb.connect()
    functions = webtap.sql.register(other, progress=False, cache=path)
    try:
        again = other.execute("SELECT stps_ask_ai('a', 'q')").fetchone()[0]
    finally:
        functions.close()
        other.close()
    assert again == first[0]
    assert len(anthropic_api.requests) == 4

    # A different model is a different question.
    con.column("SELECT stps_ask_ai('a', 'q', 'other-model')")
    assert len(anthropic_api.requests) == 5

    assert con.one("SELECT stps_set_cache(NULL)") == "Cache disabled"
    con.column(sql)
    assert len(anthropic_api.requests) == 8


class Gauge:
    """A responder that records how many calls were in flight at once. Each call waits until
    ``together`` calls are in flight, so the peak is reached by construction, not by timing."""

    def __init__(self, together: int) -> None:
        self.barrier = threading.Barrier(together)
        self.current = self.peak = 0
        self.lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self.lock:
            self.current += 1
            self.peak = max(self.peak, self.current)
        with contextlib.suppress(threading.BrokenBarrierError):  # fewer came: the peak says so
            self.barrier.wait(timeout=30)
        with self.lock:
            self.current -= 1
        return echo(body)


@pytest.mark.parametrize("concurrency", [1, 3])
def test_concurrency_is_bounded(con: Any, anthropic_api: FakeAnthropic, concurrency: int) -> None:
    gauge = Gauge(concurrency)
    anthropic_api.responder = gauge

    assert con.one(f"SELECT stps_set_concurrency({concurrency})") == (
        f"Concurrency set to {concurrency}"
    )
    answers = con.column("SELECT stps_ask_ai('c' || x, 'q') FROM range(9) t(x)")

    assert len(answers) == 9 and not any(a.startswith("ERROR") for a in answers)
    assert gauge.peak == concurrency


def test_concurrency_limits(con: Any) -> None:
    assert con.one("SELECT stps_set_concurrency(0)").startswith("ERROR: concurrency must be")
    assert con.one("SELECT stps_set_concurrency(65)").startswith("ERROR: concurrency must be")


def test_cancel_stops_a_running_query(con: Any, anthropic_api: FakeAnthropic, held: Any) -> None:
    import duckdb

    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            con.execute("SELECT stps_ask_ai('c' || x, 'q') FROM range(200) t(x)").fetchall()
        except duckdb.Error as exc:
            outcome["error"] = str(exc)

    worker = threading.Thread(target=run)
    worker.start()
    assert held.arrived.wait(60), "no row reached the API"
    con.functions.cancel()
    worker.join(60)  # a guard against a hang: the calls in flight are never answered

    assert not worker.is_alive()
    assert "cancelled" in outcome["error"]
    assert len(anthropic_api.requests) <= DEFAULT_CONCURRENCY  # no row started after it
    # The connection is usable again.
    assert con.one("SELECT stps_set_concurrency(8)") == "Concurrency set to 8"


def test_a_cancel_while_rows_are_handed_out_starts_no_more_rows(monkeypatch: Any) -> None:
    """The race behind a Ctrl-C that let rows start: handing 200 rows to the pool takes a while
    (each new worker thread must start), and a cancel that lands meanwhile used to find the
    pool gone, so the rest of the rows went to a new pool and ran. Here the window is held
    open: the rows pause after the first one until the cancel has happened."""
    from webtap.sql import Interrupted, Question
    from webtap.sql.dispatch import Dispatcher
    from webtap.sql.pool import Pool

    handed_out: list[Question] = []
    submit = Pool.submit

    def recording_submit(pool: Pool, function: Any, question: Question) -> Any:
        handed_out.append(question)
        return submit(pool, function, question)

    monkeypatch.setattr(Pool, "submit", recording_submit)
    paused, resume, release = threading.Event(), threading.Event(), threading.Event()

    class Rows(list):  # a chunk's rows, handed out one by one: the window opens after the first
        def __iter__(self) -> Any:
            for n, question in enumerate(list.__iter__(self)):
                yield question
                if n == 0:
                    paused.set()
                    assert resume.wait(30)

    def rows() -> Any:
        return Rows(Question(f"c{n}", "q", DEFAULT, 100, "none", 0) for n in range(3))

    dispatcher = Dispatcher(lambda: 4)
    outcome: dict[str, Any] = {}

    def answer() -> None:
        try:
            outcome["answers"] = dispatcher.answer(rows(), 1, ask)
        except Interrupted as exc:
            outcome["interrupted"] = exc

    def ask(question: Question) -> str:
        release.wait(30)
        return question.context

    worker = threading.Thread(target=answer)
    worker.start()
    assert paused.wait(30)
    dispatcher.cancel()  # Ctrl-C, while the rows are being handed out
    resume.set()
    worker.join(30)
    release.set()

    assert not worker.is_alive()
    assert "interrupted" in outcome, outcome
    assert [question.context for question in handed_out] == ["c0"]  # none after the cancel


def test_without_pyarrow_rows_are_answered_one_by_one(
    anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    import duckdb

    import webtap.sql

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now raises ImportError
    connection = duckdb.connect()
    functions = webtap.sql.register(connection, progress=False)
    try:
        rows = connection.execute(
            "SELECT stps_ask_ai(c, 'q', 'm', 9) FROM (VALUES ('a'), (NULL)) t(c)"
        ).fetchall()
    finally:
        functions.close()
        connection.close()
    assert rows == [(f"[m|9] {question('a')}",), (None,)]


def test_a_chosen_provider_without_keys_means_no_search(
    con: Any, anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", "BSA-present")
    con.execute("SELECT stps_set_search_provider('google')")

    con.one("SELECT stps_ask_ai('c', 'q')")

    assert [t["name"] for t in anthropic_api.bodies[0]["tools"]] == ["web_fetch"]


class Reporter:
    """A ProgressReporter that records what it is told."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int] | str] = []
        self.lock = threading.Lock()

    def update(self, done: int, total: int) -> None:
        with self.lock:
            self.calls.append((done, total))

    def end(self) -> None:
        with self.lock:
            self.calls.append("end")


def test_progress_counts_rows_of_a_query(anthropic_api: FakeAnthropic) -> None:
    import duckdb

    import webtap.sql

    reporter = Reporter()
    connection = duckdb.connect()
    functions = webtap.sql.register(connection, progress=reporter)
    try:
        # 3000 rows in two chunks, 4 distinct questions, 10 NULL rows that need no answer.
        connection.execute(
            "SELECT stps_ask_ai(CASE WHEN x < 10 THEN NULL ELSE 'c' || (x % 4) END, 'q') "
            "FROM range(3000) t(x)"
        ).fetchall()
        connection.execute("SELECT stps_ask_ai('c' || x, 'q') FROM range(2) t(x)").fetchall()
    finally:
        functions.close()
        connection.close()
    first = reporter.calls[: reporter.calls.index((0, 2))]
    counts = [call for call in first if call != "end"]
    assert counts[0] == (0, 2038)  # the first chunk's rows, NULL rows left out
    assert (0, 2038) not in counts[1:] and (2038, 2990) in counts  # one query, two chunks
    assert [done for done, _ in counts] == sorted(done for done, _ in counts)
    assert first[-2:] == [(2990, 2990), "end"]  # every row counted, then the display ends
    second = reporter.calls[len(first) :]
    assert second[0] == (0, 2) and second[-2:] == [(2, 2), "end"]  # the next query starts anew
    assert len(anthropic_api.requests) == 6


def test_progress_ends_once_every_chunk_is_through_and_every_row_counted() -> None:
    from webtap.sql.progress import QueryProgress

    # A future wakes the chunk waiting on it before it runs the callback that counts its
    # row: the chunk can be through before its last row is counted.
    reporter = Reporter()
    progress = QueryProgress(reporter)
    query = progress.add("q1", 2)
    progress.advance(query)
    progress.check(query)
    assert "end" not in reporter.calls
    progress.advance(query)
    assert reporter.calls[-2:] == [(2, 2), "end"]
    # Two chunks of one query: every row counted ends nothing while a chunk is still open.
    reporter = Reporter()
    progress = QueryProgress(reporter)
    first, second = progress.add("q2", 1), progress.add("q2", 1)
    assert first is second
    progress.advance(first)
    progress.check(first)
    progress.advance(second)
    assert "end" not in reporter.calls
    progress.check(second)
    assert reporter.calls == [(0, 1), (0, 2), (1, 2), (2, 2), "end"]


def test_progress_ends_when_the_query_is_cancelled(anthropic_api: FakeAnthropic, held: Any) -> None:
    import duckdb

    import webtap.sql

    reporter = Reporter()
    connection = duckdb.connect()
    functions = webtap.sql.register(connection, progress=reporter)

    def run() -> None:
        with contextlib.suppress(duckdb.Error):  # cancelled
            connection.execute("SELECT stps_ask_ai('c' || x, 'q') FROM range(5) t(x)")

    worker = threading.Thread(target=run)
    try:
        worker.start()
        assert held.arrived.wait(60)
        # The first call can reach the model before every row is handed out and counted; a
        # cancel then stops the hand-out before any progress shows. Cancel once it shows.
        end = time.monotonic() + 60
        while not reporter.calls:
            assert time.monotonic() < end, "the query's rows were never counted"
            time.sleep(0.01)
        functions.cancel()
        worker.join(60)  # a guard against a hang: the calls in flight are never answered
    finally:
        functions.close()
        connection.close()
    assert reporter.calls == [(0, 5), "end"]  # nothing answered, the display cleared


def test_the_rich_bar_starts_for_two_rows_and_clears_at_the_end() -> None:
    import io

    from rich.console import Console

    from webtap.cli.sql import RowProgress

    screen = io.StringIO()
    bar = RowProgress(Console(file=screen, force_terminal=True, width=100))
    bar.update(0, 1)
    assert screen.getvalue() == ""  # one row: nothing to show
    bar.end()
    bar.update(0, 3)  # the next query
    bar.update(2, 3)
    shown = screen.getvalue()
    bar.end()

    assert "stps_ask_ai" in shown and "0/3" in shown
    (task,) = bar._progress.tasks  # the one-row query's task was replaced
    assert (task.completed, task.total) == (2, 3)
    assert not bar._progress.live.is_started


def test_progress_true_is_refused_with_what_to_pass() -> None:
    import webtap.sql

    with pytest.raises(TypeError, match="ProgressReporter"):
        webtap.sql.SqlFunctions(progress=True)


def test_a_cache_file_that_is_not_sqlite_is_an_error_value(con: Any, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 300)
    assert con.one(f"SELECT stps_set_cache('{notes}')") == (
        f"ERROR: Cannot use {notes} as the answer cache: it exists and is not a SQLite "
        "database. Give --cache or stps_set_cache() the path of a file webtap may create and "
        "write."
    )
    assert con.functions.cache is None
