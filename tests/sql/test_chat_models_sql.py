"""stps_ask_ai on models beyond one vendor (issue 30): the model argument and stps_set_model take
``provider:model`` names, a query may mix providers, each failure is a value, answers are cached
under the full name, keys are in no value and no cache file; the same through ``webtap sql`` and
``webtap batch ask``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.openai import API_KEY, FakeOpenAI, completion, tool_call

from webtap.cli import main
from webtap.scale.batch import Job, run_batch

ROWS = "FROM (VALUES ('a'), ('b'), ('c')) t(c) ORDER BY c"


def test_the_model_argument_names_an_openai_compatible_model(
    con: Any, openai_api: FakeOpenAI
) -> None:
    answers = con.column(f"SELECT stps_ask_ai(c, 'q', 'openai:gpt-test') {ROWS}")

    assert answers == [f"[gpt-test|1000] Context: {c}\n\nQuestion: q" for c in "abc"]
    assert len(openai_api.requests) == 3 and openai_api.violations == []


def test_stps_set_model_takes_an_ollama_name(con: Any, ollama: FakeOpenAI) -> None:
    assert con.one("SELECT stps_set_model('ollama:qwen2.5')") == "Model set to ollama:qwen2.5"
    assert con.one("SELECT stps_get_model()") == "ollama:qwen2.5"

    assert con.one("SELECT stps_ask_ai('c', 'q')").startswith("[qwen2.5|1000]")


def test_one_query_may_ask_several_providers(
    con: Any, openai_api: FakeOpenAI, anthropic_api: FakeAnthropic
) -> None:
    rows = con.execute(
        "SELECT m, stps_ask_ai('c', 'q', m) FROM (VALUES ('openai:gpt-test'), ('claude-x'), "
        "('anthropic:claude-y')) t(m) ORDER BY m"
    ).fetchall()

    assert [answer.split("]")[0] for _, answer in rows] == [
        "[claude-y|1000",
        "[claude-x|1000",
        "[gpt-test|1000",
    ]
    assert len(openai_api.requests) == 1 and len(anthropic_api.requests) == 2


def test_a_row_whose_model_has_no_key_or_provider_is_an_error_value(
    con: Any, anthropic_api: FakeAnthropic
) -> None:
    rows = con.column(
        "SELECT stps_ask_ai('c', 'q', m) FROM (VALUES ('claude-x'), ('openai:gpt-test'), "
        "('acme:m1')) t(m) ORDER BY m"
    )

    assert rows[1].startswith("[claude-x|1000]")  # the other rows still answered
    assert rows[0].startswith("ERROR: Unknown model provider 'acme'")
    assert rows[2].startswith("ERROR: No OpenAI API key found for openai: models.")


def test_a_key_set_from_sql_is_used_and_hidden(
    con: Any, openai_api: FakeOpenAI, monkeypatch: Any
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    assert con.one(f"SELECT stps_set_openai_api_key('{API_KEY}')") == "OpenAI API key set"
    openai_api.queue(completion(f"the key is {API_KEY}"))

    answer = con.one("SELECT stps_ask_ai('c', 'q', 'openai:gpt-test')")

    assert answer == "the key is ***"


def test_answers_are_cached_under_the_full_name(
    con: Any, openai_api: FakeOpenAI, ollama: FakeOpenAI, tmp_path: Path
) -> None:
    con.execute(f"SELECT stps_set_cache('{tmp_path / 'answers.sqlite'}')")
    ask = "SELECT stps_ask_ai('c', 'q', '{}')"

    first = con.one(ask.format("openai:qwen2.5"))
    again = con.one(ask.format("openai:qwen2.5"))
    other = con.one(ask.format("ollama:qwen2.5"))

    assert first == again and len(openai_api.requests) == 1  # the second from the cache
    assert other == first and len(ollama.requests) == 1  # same text, another model: asked
    con.execute("SELECT stps_set_cache(NULL)")
    with sqlite3.connect(tmp_path / "answers.sqlite") as db:
        stored = db.execute("SELECT model FROM answers ORDER BY 1").fetchall()
    assert stored == [("ollama:qwen2.5",), ("openai:qwen2.5",)]
    assert API_KEY.encode() not in (tmp_path / "answers.sqlite").read_bytes()


def test_cited_answers_from_quotes(
    con: Any, ollama: FakeOpenAI, httpserver: Any, allow_private: None
) -> None:
    httpserver.expect_request("/t").respond_with_data(
        "<html><head><title>Town</title></head><body><p>Alpha has 5,120 residents.</p></body>"
        "</html>",
        content_type="text/html",
    )
    url = httpserver.url_for("/t")
    ollama.queue(
        completion(None, tool_call("web_fetch", {"url": url})),
        completion('Alpha is small [1: "Alpha has 5,120 residents."].'),
    )

    answer, citations = con.execute(
        "SELECT r.answer, r.citations FROM (SELECT stps_ask_ai_cited('alpha', 'How big?', "
        "'ollama:qwen2.5') AS r)"
    ).fetchone()

    assert answer == "Alpha is small."
    assert citations == [
        {"url": url, "title": "Town", "quote": "Alpha has 5,120 residents.", "verified": True}
    ]


def test_webtap_sql_asks_an_ollama_model(run_exe: Any, ollama: FakeOpenAI) -> None:
    run = run_exe(
        "webtap",
        "sql",
        "--json",
        "SELECT stps_ask_ai('c' || x, 'q', 'ollama:llama3.2') AS a FROM range(2) t(x) ORDER BY x",
    )

    assert run.returncode == 0, run.stderr
    assert [row["a"] for row in run.json] == [
        "[llama3.2|1000] Context: c0\n\nQuestion: q",
        "[llama3.2|1000] Context: c1\n\nQuestion: q",
    ]


def test_a_batch_asks_an_ollama_or_openai_compatible_model(
    openai_api: FakeOpenAI, ollama: FakeOpenAI, tmp_path: Path
) -> None:
    source = tmp_path / "in.csv"
    con = duckdb.connect()
    con.register("t", pa.table({"n": [0, 1], "context": ["Paris", "Rome"], "prompt": ["?", "?"]}))
    con.execute(f"COPY t TO '{source}' (FORMAT csv, HEADER)")

    target = tmp_path / "out.parquet"
    assert main(["batch", "ask", str(source), str(target), "--model", "ollama:llama3.2"]) == 0
    result = run_batch(source, tmp_path / "again.parquet", Job(kind="ask", model="openai:gpt-b"))

    first = duckdb.connect().sql(f"SELECT answer FROM read_parquet('{target}') ORDER BY n")
    assert [a for (a,) in first.fetchall()] == [
        "[llama3.2|1000] Context: Paris\n\nQuestion: ?",
        "[llama3.2|1000] Context: Rome\n\nQuestion: ?",
    ]
    rows = (
        duckdb.connect()
        .sql(f"SELECT answer, error FROM read_parquet('{tmp_path / 'again.parquet'}') ORDER BY n")
        .fetchall()
    )
    assert result.done == 2
    assert rows == [
        ("[gpt-b|1000] Context: Paris\n\nQuestion: ?", None),
        ("[gpt-b|1000] Context: Rome\n\nQuestion: ?", None),
    ]
    assert json.dumps(openai_api.bodies).count('"model": "gpt-b"') == 2


def test_a_model_without_tools_is_asked_twice_once_per_process(
    con: Any, ollama: FakeOpenAI, capsys: Any
) -> None:
    answers = con.column(f"SELECT stps_ask_ai(c, 'q', 'ollama:gemma2') {ROWS}")

    assert answers == [f"[gemma2|1000] Context: {c}\n\nQuestion: q" for c in "abc"]
    with_tools = [body for body in ollama.bodies if "tools" in body]
    assert len(ollama.requests) - len(with_tools) == 3  # every row answered without tools
    assert 1 <= len(with_tools) <= 3  # rows in flight together may each learn it
    assert capsys.readouterr().err.count("does not support tools") == 1
