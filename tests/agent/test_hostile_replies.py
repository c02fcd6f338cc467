"""Replies no real API sends: each is one clear APIError, never a TypeError from the loop."""

from __future__ import annotations

from typing import Any

import pytest
from tests.fakes.anthropic import FakeAnthropic, Reply

from webtap.agent import AskSettings, ask
from webtap.errors import APIError

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

QUICK = AskSettings(max_retries=0, store_events=False)


def reply(content: Any, stop_reason: Any = "end_turn", **extra: Any) -> Reply:
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m"}
    body |= {"content": content, "stop_reason": stop_reason, **extra}
    return Reply(200, body)


def use(**fields: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": "toolu_1", "name": "web_fetch", "input": {}} | fields


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (reply([{"type": "text", "text": None}]), "content[0] is a text block whose 'text'"),
        (reply([{"type": "text", "text": ["a"]}]), "content[0] is a text block whose 'text'"),
        (reply([{"type": ["text"], "text": "a"}]), "content[0] has no string 'type'"),
        (reply([{"type": "text", "text": "a"}], ["x"]), "'stop_reason' is not a string"),
        (reply([use(name=["web_fetch"])], "tool_use"), "tool_use block whose 'name'"),
        (reply([use(id={"x": 1})], "tool_use"), "tool_use block whose 'id'"),
        (reply([use(input=[1, 2])], "tool_use"), "tool_use block whose 'input'"),
        (reply([{"type": "tool_use", "id": "t", "name": "web_fetch"}], "tool_use"), "'input'"),
    ],
)
def test_a_block_of_the_wrong_shape_is_a_malformed_response(
    anthropic_api: FakeAnthropic, answer: Reply, problem: str
) -> None:
    anthropic_api.queue(answer)
    with pytest.raises(APIError, match="malformed response") as caught:
        ask("What is new?", settings=QUICK)
    assert problem in str(caught.value)


def test_unknown_blocks_and_stop_reasons_are_read_past(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.queue(
        reply(
            [{"type": "thinking_v9", "x": 1}, {"type": "text", "text": "ok"}],
            "brand_new_reason",
            usage={"input_tokens": 2**80, "output_tokens": -5},
        )
    )
    answer = ask("What is new?", settings=QUICK)
    assert (answer.text, answer.stop_reason) == ("ok", "brand_new_reason")
    assert answer.usage == {"input_tokens": 0, "output_tokens": 0}  # nonsense counts are dropped
