"""Issue 14 for the ask loop: a reply quoted in an error never carries the key, however cut."""

from __future__ import annotations

import urllib.parse

import pytest
from tests.fakes.anthropic import API_KEY, Reply

from webtap.agent import AskSettings, ask
from webtap.errors import APIError

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

QUICK = AskSettings(max_retries=0, store_events=False)


@pytest.mark.parametrize("pad", [0, 30, 50, 55, 58, 190])
@pytest.mark.parametrize("encode", [str, lambda k: urllib.parse.quote(k, safe="")])
def test_a_non_json_200_quoting_the_key_is_redacted(anthropic_api, pad: int, encode) -> None:
    body = "<" * pad + f"key {encode(API_KEY)} was sent"
    anthropic_api.queue(Reply(200, body, {"content-type": "text/html"}))
    with pytest.raises(APIError, match="malformed response") as caught:
        ask("q", settings=QUICK)
    assert API_KEY[:10] not in caught.value.message
    assert "sk-ant-tes" not in caught.value.message


@pytest.mark.parametrize("pad", [0, 150, 190, 198])
def test_an_error_body_quoting_the_key_is_redacted_before_the_cut(anthropic_api, pad) -> None:
    body = "x" * pad + f" {API_KEY} rest"
    anthropic_api.queue(Reply(418, body, {"content-type": "text/plain"}))
    with pytest.raises(APIError, match="418") as caught:
        ask("q", settings=QUICK)
    assert "sk-ant-" not in caught.value.message
