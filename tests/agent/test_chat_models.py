"""The ask loop on OpenAI-compatible servers (issue 30): ``openai:`` and ``ollama:`` names, the
same loop through Chat Completions, each quirk of local servers taken in, each failure one line
that says what to do, and quoted citations located and verified (issue 28)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.fakes.openai import (
    API_KEY,
    FakeOpenAI,
    completion,
    error,
    tool_call,
    tool_messages,
)
from tests.fakes.ports import free_port

from webtap import agent
from webtap.agent.chat_api import QUOTE_INSTRUCTION, quoted_citations
from webtap.budget.rate import Pace
from webtap.errors import APIError, AuthInvalid, AuthMissing, InvalidInput, NetworkError, RateLimit

PAGE = (
    "<html><head><title>Harbour</title></head><body>"
    "<p>The ferry carried 41,300 passengers in 2025.</p><p>The pier opened in September.</p>"
    "</body></html>"
)
QUICK = agent.AskSettings(max_retries=0, store_events=False)


@pytest.fixture
def page(httpserver: Any, allow_private: None) -> str:
    httpserver.expect_request("/harbour").respond_with_data(PAGE, content_type="text/html")
    return str(httpserver.url_for("/harbour"))


def fetched(page: str, **options: Any) -> dict[str, Any]:
    return tool_call("web_fetch", {"url": page}, **options)


# -- the loop -------------------------------------------------------------------------------------


def test_an_ollama_model_fetches_a_page_and_answers(ollama: FakeOpenAI, page: str) -> None:
    ollama.queue(completion(None, fetched(page)), completion("About 41,300 passengers."))

    answer = agent.ask("How many passengers?", "the harbour", model="ollama:qwen2.5")

    assert answer.text == "About 41,300 passengers."
    assert answer.model == "ollama:qwen2.5"
    assert [r.call.name for r in answer.tool_results] == ["web_fetch"]
    assert answer.usage == {"input_tokens": 22, "output_tokens": 10}
    first, second = ollama.bodies
    assert first["model"] == "qwen2.5"  # the name after the prefix
    assert first["messages"] == [
        {"role": "user", "content": "Context: the harbour\n\nQuestion: How many passengers?"}
    ]
    assert [t["function"]["name"] for t in first["tools"]] == ["web_fetch"]
    assert first["tools"][0]["type"] == "function"
    assert first["tools"][0]["function"]["parameters"]["type"] == "object"
    (result,) = tool_messages(second)
    assert result["tool_call_id"] == second["messages"][1]["tool_calls"][0]["id"]
    assert "41,300 passengers" in result["content"]
    assert second["tool_choice"] == "none"  # the limit of one tool call reached
    assert ollama.violations == []


def test_an_ollama_model_name_keeps_its_tag(ollama: FakeOpenAI) -> None:
    answer = agent.ask("q", model="ollama:qwen2.5:7b", max_tool_calls=0)

    assert ollama.bodies[0]["model"] == "qwen2.5:7b"
    assert answer.text.startswith("[qwen2.5:7b|1000]")
    assert "tools" not in ollama.bodies[0]


def test_an_openai_compatible_server_gets_the_key_and_its_own_address(
    openai_api: FakeOpenAI,
) -> None:
    answer = agent.ask("q", model="openai:gpt-test", max_tokens=9)

    assert answer.text == "[gpt-test|9] Context: \n\nQuestion: q"
    assert openai_api.requests[0].headers["authorization"] == f"Bearer {API_KEY}"


def test_a_preset_is_an_address_and_a_key_variable(
    openai_api: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("GROQ_BASE_URL", openai_api.url)
    monkeypatch.setenv("GROQ_API_KEY", API_KEY)

    answer = agent.ask("q", model="groq:llama-3.3-70b-versatile", max_tool_calls=0)

    assert answer.text.startswith("[llama-3.3-70b-versatile|")


def test_webtap_model_names_the_provider_too(
    ollama: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBTAP_MODEL", "ollama:llama3.2")

    assert agent.ask("q", max_tool_calls=0).model == "ollama:llama3.2"
    assert ollama.bodies[0]["model"] == "llama3.2"


# -- quirks (issue 30, item 3) --------------------------------------------------------------------


def test_arguments_sent_as_an_object_are_taken(ollama: FakeOpenAI, page: str) -> None:
    ollama.queue(completion(None, fetched(page, as_object=True)), completion("done"))

    answer = agent.ask("q", model="ollama:qwen2.5")

    assert answer.tool_results[0].call.input == {"url": page}
    assert not answer.tool_results[0].is_error
    # Sent back as the API wants them: a JSON string.
    sent = ollama.bodies[1]["messages"][1]["tool_calls"][0]["function"]["arguments"]
    assert json.loads(sent) == {"url": page}
    assert ollama.violations == []


def test_arguments_that_are_a_string_of_json_text_are_taken(ollama: FakeOpenAI, page: str) -> None:
    twice = json.dumps(json.dumps({"url": page}))
    ollama.queue(completion(None, tool_call("web_fetch", twice)), completion("done"))

    answer = agent.ask("q", model="ollama:qwen2.5")

    assert answer.tool_results[0].call.input == {"url": page}


def test_arguments_that_are_not_json_are_the_call_s_error_for_the_model(
    ollama: FakeOpenAI,
) -> None:
    ollama.queue(
        completion(None, tool_call("web_fetch", "{url: https://x.example")),
        completion("I could not fetch it."),
    )

    answer = agent.ask("q", model="ollama:qwen2.5")

    assert answer.text == "I could not fetch it."
    (reply,) = answer.tool_results
    assert reply.is_error and "not valid JSON" in reply.detail
    (result,) = tool_messages(ollama.bodies[1])
    assert result["content"].startswith("Error: the arguments are not valid JSON")
    assert "as a JSON object" in result["content"]
    # The garbled arguments go back as they came.
    sent = ollama.bodies[1]["messages"][1]["tool_calls"][0]["function"]["arguments"]
    assert sent == "{url: https://x.example"
    assert ollama.violations == []


def test_several_calls_in_one_turn_run_to_the_limit_and_the_rest_are_told(
    ollama: FakeOpenAI, page: str
) -> None:
    ollama.queue(
        completion(None, fetched(page), fetched(page + "?again"), fetched(page + "?third")),
        completion("done"),
    )

    answer = agent.ask("q", model="ollama:qwen2.5", max_tool_calls=2)

    assert len(answer.tool_results) == 2
    results = tool_messages(ollama.bodies[1])
    assert len(results) == 3  # every call answered, in order
    assert results[2]["content"] == "Tool call limit reached. Please answer with what you have."
    assert ollama.violations == []


def test_a_call_without_an_id_gets_one_used_for_its_result_too(
    ollama: FakeOpenAI, page: str
) -> None:
    ollama.queue(completion(None, fetched(page, id=None), fetched(page, id=None)), completion("ok"))

    agent.ask("q", model="ollama:qwen2.5", max_tool_calls=2)

    sent = ollama.bodies[1]["messages"][1]["tool_calls"]
    ids = [call["id"] for call in sent]
    assert all(ids) and len(set(ids)) == 2
    assert [m["tool_call_id"] for m in tool_messages(ollama.bodies[1])] == ids
    assert ollama.violations == []


def test_a_call_written_in_the_text_hermes_style_is_run(ollama: FakeOpenAI, page: str) -> None:
    written = json.dumps({"name": "web_fetch", "arguments": {"url": page}})
    ollama.queue(
        completion(f"Let me look.\n<tool_call>\n{written}\n</tool_call>"),
        completion("The pier opened in September."),
    )

    answer = agent.ask("When did the pier open?", model="ollama:qwen2.5")

    assert answer.text == "The pier opened in September."
    assert answer.tool_results[0].call.input == {"url": page}
    assistant = ollama.bodies[1]["messages"][1]
    assert assistant["content"] == "Let me look."
    assert assistant["tool_calls"][0]["function"]["name"] == "web_fetch"
    assert ollama.violations == []


def test_finish_reason_stop_with_calls_present_still_runs_them(
    ollama: FakeOpenAI, page: str
) -> None:
    ollama.queue(completion(None, fetched(page), finish_reason="stop"), completion("done"))

    answer = agent.ask("q", model="ollama:qwen2.5")

    assert [r.call.name for r in answer.tool_results] == ["web_fetch"]
    assert answer.text == "done"


def test_a_model_that_refuses_tools_answers_without_them_said_once_on_stderr(
    ollama: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = agent.ask("q", model="ollama:gemma2")
    agent.ask("q2", model="ollama:gemma2")

    assert answer.text.startswith("[gemma2|1000]")
    assert "tools" in ollama.bodies[0] and "tools" not in ollama.bodies[1]
    err = capsys.readouterr().err
    assert err.count("\n") == 1  # once a process
    assert err.startswith("webtap: ollama:gemma2 does not support tools: answering without")
    assert "e.g. ollama:qwen2.5" in err


def test_a_text_part_list_and_a_length_stop_are_read(ollama: FakeOpenAI) -> None:
    reply = completion(None, finish_reason="length")
    reply.body["choices"][0]["message"]["content"] = [{"type": "text", "text": "cut he"}]
    ollama.queue(reply)

    answer = agent.ask("q", model="ollama:qwen2.5", max_tool_calls=0)

    assert (answer.text, answer.stop_reason) == ("cut he", "max_tokens")


# -- errors people can act on (issue 30, item 5) --------------------------------------------------


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and API_KEY not in text and "Traceback" not in text
    return text


def test_a_wrong_key_names_the_variable(
    openai_api: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-wrong-000000000")

    with pytest.raises(AuthInvalid) as caught:
        agent.ask("q", model="openai:gpt-test", settings=QUICK)

    said = one_line(caught.value)
    assert "rejected the API key (401" in said and "Check OPENAI_API_KEY" in said
    assert "sk-openai-wrong" not in said


def test_no_key_says_where_to_put_one(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(AuthMissing) as caught:
        agent.ask("q", model="openai:gpt-test")

    said = one_line(caught.value)
    assert said.startswith("No OpenAI API key found for openai: models. Set OPENAI_API_KEY")
    assert "stps_set_openai_api_key" in said


def test_an_unknown_model_names_one_that_is_served(openai_api: FakeOpenAI) -> None:
    openai_api.models = {"gpt-test"}

    with pytest.raises(agent.ModelNotFound) as caught:
        agent.ask("q", model="openai:gpt-nope", settings=QUICK)

    said = one_line(caught.value)
    assert "does not serve the model 'gpt-nope'" in said and "e.g. openai:" in said


def test_a_model_ollama_has_not_pulled_says_how_to_pull_it(ollama: FakeOpenAI) -> None:
    with pytest.raises(agent.ModelNotFound) as caught:
        agent.ask("q", model="ollama:mistral-nemo", settings=QUICK)

    said = one_line(caught.value)
    assert said.startswith("Ollama has no model 'mistral-nemo'")
    assert "Pull it with `ollama pull mistral-nemo`" in said


def test_ollama_not_running_says_start_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{free_port()}")

    with pytest.raises(NetworkError) as caught:
        agent.ask("q", model="ollama:qwen2.5", settings=QUICK)

    said = one_line(caught.value)
    assert said.startswith("Could not reach Ollama at http://127.0.0.1:")
    assert "Is Ollama running? Start it with `ollama serve`" in said


def test_tools_refused_after_a_tool_was_used_is_one_line_with_what_to_do(
    ollama: FakeOpenAI, page: str
) -> None:
    ollama.queue(
        completion(None, fetched(page)),
        error(400, "registry.ollama.ai/library/x does not support tools", "api_error"),
    )

    with pytest.raises(agent.ToolsUnsupported) as caught:
        agent.ask("q", model="ollama:qwen2.5", settings=QUICK)

    said = one_line(caught.value)
    assert "does not support tools" in said and "--max-tool-calls 0" in said


def test_an_unknown_provider_is_refused_before_any_call() -> None:
    with pytest.raises(InvalidInput, match=r"Unknown model provider 'acme'.*ollama:"):
        agent.ask("q", model="acme:model-1")


def test_a_429_is_retried_after_the_server_s_retry_after(openai_api: FakeOpenAI) -> None:
    limited = error(429, "Rate limit reached", "requests", "rate_limit_exceeded")
    limited.headers["retry-after"] = "0.1"
    openai_api.queue(limited, completion("after the wait"))

    answer = agent.ask("q", model="openai:gpt-test", settings=agent.AskSettings(max_retries=1))

    assert answer.text == "after the wait"
    assert [r.headers["x-stainless-retry-count"] for r in openai_api.requests] == ["0", "1"]


def test_a_429_past_the_retries_is_a_rate_limit_without_the_key(openai_api: FakeOpenAI) -> None:
    openai_api.queue(error(429, f"Slow down, {API_KEY}", "requests", "rate_limit_exceeded"))

    with pytest.raises(RateLimit) as caught:
        agent.ask("q", model="openai:gpt-test", settings=QUICK)

    assert "is rate limiting this key (429)" in one_line(caught.value)


def test_an_error_body_that_echoes_the_key_is_redacted(openai_api: FakeOpenAI) -> None:
    openai_api.queue(error(500, f"upstream failed for key {API_KEY}", "server_error"))

    with pytest.raises(APIError) as caught:
        agent.ask("q", model="openai:gpt-test", settings=QUICK)

    said = one_line(caught.value)
    assert "answered 500" in said and "***" in said


# -- quoted citations (issue 28 on these models) ---------------------------------------------------


def test_quotes_in_the_documented_form_are_located_and_verified(
    ollama: FakeOpenAI, page: str
) -> None:
    ollama.queue(
        completion(None, fetched(page)),
        completion(
            'The ferry carried 41,300 people [1: "The ferry carried 41,300 passengers in 2025."]. '
            'The pier opened in May [1: "The pier opened in May."].'
        ),
    )

    answer = agent.ask("q", model="ollama:qwen2.5", citations=True)

    assert answer.text == "The ferry carried 41,300 people. The pier opened in May."
    good, forged = answer.citations
    assert good.verified and good.url == page and good.title == "Harbour"
    assert answer.text[good.answer_start : good.answer_end] == "The ferry carried 41,300 people"
    assert not forged.verified
    assert answer.text[forged.answer_start : forged.answer_end] == "The pier opened in May"
    first, second = ollama.bodies
    assert first["messages"][0] == {"role": "system", "content": QUOTE_INSTRUCTION}
    (result,) = tool_messages(second)
    assert result["content"].startswith(f"[1] Harbour\n{page}\n\nThe ferry carried 41,300")
    assert ollama.violations == []


def test_marks_are_taken_out_and_each_names_its_stretch() -> None:
    text, spans = quoted_citations(
        'Alpha is old [1: "alpha"]. Beta [2: “beta”] [3: "gamma"] and delta [0: "none"].'
    )

    assert text == "Alpha is old. Beta and delta."
    assert [(text[s.answer_start : s.answer_end], s.source, s.cited_text) for s in spans] == [
        ("Alpha is old", 0, "alpha"),
        ("Beta", 1, "beta"),
        ("Beta", 2, "gamma"),
        (" and delta".strip(), spans[3].source, "none"),
    ]
    assert spans[3].source > 1000  # no source 0: none is named, and the citation is dropped
    assert quoted_citations("No marks [here].") == ("No marks [here].", ())


def test_a_model_that_wants_max_completion_tokens_gets_it(openai_api: FakeOpenAI) -> None:
    openai_api.queue(
        error(
            400,
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
            "'max_completion_tokens' instead.",
            code="unsupported_parameter",
        ),
        completion("fine"),
        completion("still fine"),
    )

    answer = agent.ask("q", model="openai:gpt-5", settings=QUICK)

    assert answer.text == "fine"
    assert [("max_tokens" in b, b.get("max_completion_tokens")) for b in openai_api.bodies] == [
        (True, None),
        (False, 1000),
    ]


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"x-ratelimit-limit-requests": "600"}, Pace(per_second=10.0)),
        (
            {"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "1.5s"},
            Pace(wait=1.5),
        ),
        (
            {"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6m0s"},
            Pace(wait=60.0),
        ),
        ({"anthropic-ratelimit-requests-limit": "600"}, Pace()),  # another protocol's header
    ],
)
def test_an_openai_compatible_server_s_rate_headers_feed_the_key_s_budget(
    headers: dict[str, str], expected: Any
) -> None:
    from webtap.agent.chat_api import ChatAPI
    from webtap.agent.rate import pace_of

    assert pace_of(200, headers, ChatAPI.rate_headers) == expected


# -- typed answers (issue 29) on these models ----------------------------------------------------


def test_a_typed_answer_forces_the_answer_function(ollama: FakeOpenAI) -> None:
    ollama.queue(
        completion("Lyon, 1921."),
        completion(None, tool_call("answer", {"city": "Lyon", "founded": "1921x"})),
        completion(None, tool_call("answer", {"city": "Lyon", "founded": 1921})),
    )

    answer = agent.ask(
        "Where and when?",
        model="ollama:qwen2.5",
        schema="STRUCT(city VARCHAR, founded INTEGER)",
        max_tool_calls=0,
    )

    assert answer.value == {"city": "Lyon", "founded": 1921}
    forced = ollama.bodies[1]
    assert forced["tool_choice"] == {"type": "function", "function": {"name": "answer"}}
    assert forced["messages"][-1]["role"] == "user"  # the ask for data, after the text answer
    again = ollama.bodies[2]["messages"]
    assert again[-1]["role"] == "tool" and "founded" in again[-1]["content"]  # what was wrong
    assert ollama.violations == []


def test_an_empty_text_answer_goes_back_as_empty_content(ollama: FakeOpenAI) -> None:
    ollama.queue(completion(None), completion(None, tool_call("answer", {"n": 3})))

    answer = agent.ask("How many?", model="ollama:qwen2.5", schema="STRUCT(n INTEGER)")

    assert answer.value == {"n": 3}
    assert ollama.bodies[1]["messages"][1] == {"role": "assistant", "content": ""}
    assert ollama.violations == []
