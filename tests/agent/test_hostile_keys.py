"""A key that could not be an HTTP header value is refused where it is read, never sent.

Sent, it failed in httpx with an error quoting the header escaped (``b'Bearer a\\nX: 1'``), which
no scrubber matched: the key reached the output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from webtap.credentials import Keys
from webtap.errors import ConfigError

BAD_KEYS = ["sk-ant-a\nX-Evil: 1", "sk\x00ant", "sk-ключ", 'sk"ant', "sk ant", "sk\\ant"]


@pytest.mark.parametrize("key", BAD_KEYS)
def test_a_key_set_from_sql_or_the_api_is_checked(key: str) -> None:
    with pytest.raises(ConfigError, match="Anthropic API key given is not usable") as caught:
        Keys().set("anthropic", key)
    assert key.strip() not in str(caught.value)


@pytest.mark.parametrize("key", BAD_KEYS)
def test_a_key_from_the_environment_or_stps_is_checked(
    key: str, monkeypatch: pytest.MonkeyPatch, isolated_env: Path
) -> None:
    if "\x00" not in key:  # an environment cannot hold a NUL
        monkeypatch.setenv("BRAVE_API_KEY", key)
        with pytest.raises(ConfigError, match="key in BRAVE_API_KEY is not usable"):
            Keys().resolve()
        monkeypatch.delenv("BRAVE_API_KEY")
    stps = Path.home() / ".stps"
    stps.mkdir(exist_ok=True)
    (stps / "anthropic_api_key").write_text(key.split("\n")[0] + "\n", encoding="utf-8")
    expected = key.split("\n")[0].strip()
    if expected == "sk-ant-a":  # the first line alone is a fine key
        assert Keys().resolve().anthropic == expected
    else:
        credentials = Keys().resolve()  # a file problem is noted, then named when it matters
        assert credentials.anthropic is None and "is not usable" in credentials.problem


def test_a_search_tool_with_a_bad_key_says_so_and_shows_no_key(run_exe) -> None:
    run = run_exe(
        "web-search-brave-tool", stdin={"query": "hello"}, env={"BRAVE_API_KEY": "abc\nX-Evil: 1"}
    )
    assert run.json["error_code"] == "CONFIG_ERROR"
    assert "The key in BRAVE_API_KEY is not usable" in run.json["error"]
    assert "X-Evil" not in run.stdout + run.stderr
