"""``webtap ask`` as a person runs it: the real command against the fake API and fake Brave."""

from __future__ import annotations

from typing import Any

from tests.fakes.anthropic import FakeAnthropic, message, text, tool_use
from tests.fakes.brave import FakeBrave


def test_the_answer_goes_to_stdout_and_the_tool_call_to_stderr(
    run_exe: Any, anthropic_api: FakeAnthropic, brave: Any
) -> None:
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "brave search"}), stop_reason="tool_use"),
        message(text("Brave Search is private.")),
    )

    run = run_exe("webtap", "ask", "What is Brave Search?", "--context", "search engines")

    assert run.returncode == 0, run.stderr
    assert run.stdout == "Brave Search is private.\n"
    assert '→ web_search {"query": "brave search"}' in run.stderr
    assert "← web_search: 5 results" in run.stderr
    assert FakeBrave.KEY not in run.stdout + run.stderr
    first = anthropic_api.bodies[0]["messages"][0]["content"]
    assert first == "Context: search engines\n\nQuestion: What is Brave Search?"


def test_json_output_and_options(run_exe: Any, anthropic_api: FakeAnthropic) -> None:
    run = run_exe(
        "webtap",
        "ask",
        "q",
        "--model",
        "claude-x",
        "--max-tokens",
        "7",
        "--max-tool-calls",
        "0",
        "--json",
    )

    assert run.returncode == 0, run.stderr
    out = run.json
    assert out["answer"] == "[claude-x|7] Context: \n\nQuestion: q"
    assert out["stop_reason"] == "end_turn"
    assert out["tool_calls"] == []
    assert "tools" not in anthropic_api.bodies[0]


def test_a_rate_limit_event_is_shown_in_the_terminal(
    run_exe: Any, anthropic_api: FakeAnthropic, brave: Any
) -> None:
    brave.answer("error_429_quota_limited", 429)
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "x"}), stop_reason="tool_use"),
        message(text("from memory")),
    )

    run = run_exe("webtap", "ask", "q")

    assert run.returncode == 0, run.stderr
    assert run.stdout == "from memory\n"
    assert "✗ web_search:" in run.stderr
    events = run_exe("webtap", "events", "--json")
    assert [e["kind"] for e in events.json] == ["rate_limited"]


def test_errors_are_one_clear_line(run_exe: Any) -> None:
    run = run_exe("webtap", "ask", "q")

    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.startswith("webtap: No Anthropic API key found.")
    assert "Traceback" not in run.stderr


def test_a_blank_question_is_refused_before_any_call(
    run_exe: Any, anthropic_api: FakeAnthropic
) -> None:
    run = run_exe("webtap", "ask", "  ", "--context", "c")

    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        'webtap: the question is empty: ask something, e.g. webtap ask "What is DuckDB?"\n'
    )
    assert anthropic_api.requests == []


# -- citations (issue 28) ------------------------------------------------------------------------

CITED_PAGE = (
    "<html><head><title>Harbour</title></head><body>"
    "<p>The ferry carried 41,300 passengers in 2025.</p><p>The pier opened in September.</p>"
    "</body></html>"
)


def citing_model(anthropic_api: FakeAnthropic, url: str) -> None:
    from tests.fakes.anthropic import cited

    def answer(body: dict[str, Any]) -> Any:
        good = cited(body, "41,300 rode the ferry.", 0, 0)
        forged = cited(body, " The pier opened in May.", 0, 1)
        forged["citations"][0]["cited_text"] = "The pier opened in May."
        return message(good, forged)

    anthropic_api.queue(
        message(tool_use("web_fetch", {"url": url}), stop_reason="tool_use"), answer
    )


def test_the_answer_is_printed_with_numbered_sources_each_marked(
    run_exe: Any, anthropic_api: FakeAnthropic, httpserver: Any, allow_private: None
) -> None:
    httpserver.expect_request("/h").respond_with_data(CITED_PAGE, content_type="text/html")
    url = f"http://127.0.0.1:{httpserver.port}/h"
    citing_model(anthropic_api, url)

    run = run_exe("webtap", "ask", "How many rode?")

    assert run.returncode == 0, run.stderr
    assert run.stdout == (
        "41,300 rode the ferry.[1] The pier opened in May.[1]\n"
        "\n"
        "Sources:\n"
        f"[1] Harbour — {url}\n"
        "    ✓ “The ferry carried 41,300 passengers in 2025.”\n"
        "    ✗ not found in what was read: “The pier opened in May.”\n"
    )


def test_json_gives_the_answer_and_its_citations(
    run_exe: Any, anthropic_api: FakeAnthropic, httpserver: Any, allow_private: None
) -> None:
    httpserver.expect_request("/h").respond_with_data(CITED_PAGE, content_type="text/html")
    url = f"http://127.0.0.1:{httpserver.port}/h"
    citing_model(anthropic_api, url)

    out = run_exe("webtap", "ask", "How many rode?", "--json").json

    good, forged = out["citations"]
    assert out["answer"] == "41,300 rode the ferry. The pier opened in May."
    assert {k: good[k] for k in ("url", "title", "quote", "verified")} == {
        "url": url,
        "title": "Harbour",
        "quote": "The ferry carried 41,300 passengers in 2025.",
        "verified": True,
    }
    assert good["end"] - good["start"] == len(good["quote"])
    assert len(good["snapshot"]) == 64
    assert (forged["verified"], forged["start"], forged["end"]) == (False, None, None)


def test_no_citations_sends_the_specs_texts(
    run_exe: Any, anthropic_api: FakeAnthropic, httpserver: Any, allow_private: None
) -> None:
    httpserver.expect_request("/h").respond_with_data(CITED_PAGE, content_type="text/html")
    url = f"http://127.0.0.1:{httpserver.port}/h"
    anthropic_api.queue(
        message(tool_use("web_fetch", {"url": url}), stop_reason="tool_use"),
        message(text("41,300.")),
    )

    run = run_exe("webtap", "ask", "How many?", "--no-citations")

    assert run.stdout == "41,300.\n"
    (result,) = anthropic_api.bodies[1]["messages"][-1]["content"]
    assert isinstance(result["content"], str)


# -- models beyond one vendor (issue 30) ---------------------------------------------------------


def test_ask_through_an_ollama_model(run_exe: Any, ollama: Any, httpserver: Any) -> None:
    from tests.fakes.openai import completion, tool_call

    httpserver.expect_request("/harbour").respond_with_data(CITED_PAGE, content_type="text/html")
    url = httpserver.url_for("/harbour")
    ollama.queue(
        completion(None, tool_call("web_fetch", {"url": url})),
        completion('The ferry carried 41,300 [1: "The ferry carried 41,300 passengers in 2025."].'),
    )

    run = run_exe(
        "webtap",
        "ask",
        "How many passengers?",
        "--model",
        "ollama:qwen2.5",
        env={"WEBTAP_ALLOW_PRIVATE_NETWORKS": "1"},
    )

    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("The ferry carried 41,300[1].\n\nSources:\n[1] Harbour")
    assert "✓ “The ferry carried 41,300 passengers in 2025.”" in run.stdout
    assert f'→ web_fetch {{"url": "{url}"}}' in run.stderr
    assert ollama.bodies[0]["model"] == "qwen2.5"
    assert ollama.violations == []


def test_ask_through_an_openai_compatible_server_keeps_the_key_out(
    run_exe: Any, openai_api: Any
) -> None:
    from tests.fakes.openai import API_KEY

    run = run_exe("webtap", "ask", "q", "--model", "openai:gpt-test", "--json")

    assert run.returncode == 0, run.stderr
    assert run.json["answer"] == "[gpt-test|1000] Context: \n\nQuestion: q"
    assert run.json["model"] == "openai:gpt-test"
    assert API_KEY not in run.stdout + run.stderr


def test_a_model_without_tools_is_said_once_and_answered(run_exe: Any, ollama: Any) -> None:
    run = run_exe("webtap", "ask", "q", "--model", "ollama:gemma2")

    assert run.returncode == 0, run.stderr
    assert run.stdout == "[gemma2|1000] Context: \n\nQuestion: q\n"
    assert run.stderr == (
        "webtap: ollama:gemma2 does not support tools: answering without web search or fetch. "
        "For answers from the web, choose a model that does, e.g. ollama:qwen2.5.\n"
    )


def test_ollama_not_running_is_one_line_saying_start_it(run_exe: Any) -> None:
    from tests.fakes.ports import free_port

    run = run_exe(
        "webtap",
        "ask",
        "q",
        "--model",
        "ollama:qwen2.5",
        env={"OLLAMA_HOST": f"127.0.0.1:{free_port()}"},
    )

    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("webtap: Could not reach Ollama at http://127.0.0.1:")
    assert run.stderr.rstrip().endswith("or set OLLAMA_HOST to where it listens.")
    assert "Is Ollama running? Start it with `ollama serve`" in run.stderr


def test_a_wrong_openai_key_is_one_line_without_it(run_exe: Any, openai_api: Any) -> None:
    run = run_exe(
        "webtap", "ask", "q", "-m", "openai:gpt-test", env={"OPENAI_API_KEY": "sk-wrong-99999999"}
    )

    assert run.returncode == 1
    assert run.stderr.startswith("webtap: The OpenAI-compatible API at http://127.0.0.1:")
    assert "rejected the API key (401 unauthorized). Check OPENAI_API_KEY" in run.stderr
    assert "sk-wrong" not in run.stderr


# -- typed answers (issue 29) --------------------------------------------------------------------


def test_schema_prints_the_value_as_json(
    run_exe: Any, anthropic_api: FakeAnthropic, tmp_path: Any
) -> None:
    schema = tmp_path / "facts.json"
    schema.write_text(
        '{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}'
    )
    anthropic_api.queue(
        message(text("Lyon.")),
        message(tool_use("answer", {"city": "Lyon"}), stop_reason="tool_use"),
    )

    run = run_exe("webtap", "ask", "Where?", "--schema", str(schema), "--json")

    assert run.returncode == 0, run.stderr
    assert run.json == {"city": "Lyon"}


def test_a_duckdb_type_as_schema_and_a_value_that_never_fits(
    run_exe: Any, anthropic_api: FakeAnthropic
) -> None:
    never = message(tool_use("answer", {"year": "soon"}), stop_reason="tool_use")
    anthropic_api.queue(message(text("Soon.")), never, never)

    run = run_exe("webtap", "ask", "When?", "--schema", "STRUCT(year INTEGER)")

    assert run.returncode == 1
    assert run.stdout == ""
    assert "did not fit the schema, also when asked again: At year" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_bad_schema_is_one_line(run_exe: Any, anthropic_api: FakeAnthropic) -> None:
    run = run_exe("webtap", "ask", "q", "--schema", "STRUCT(a NOPE)")
    assert run.returncode == 1
    assert "is not a DuckDB type" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert anthropic_api.requests == []
