"""Issue 14: a key written any way DuckDB reads one is never echoed by ``webtap sql``."""

from __future__ import annotations

from typing import Any

import pytest

from webtap.sql import key_literals

KEY = "sk-ant-hidden-key-0123456789"
WRITINGS = [
    f"$${KEY}$$",
    f"$q${KEY}$q$",
    f"/* a comment */ '{KEY}'",
    f"E'{KEY}'",
    f"concat('{KEY[:10]}', '{KEY[10:]}')",
]


@pytest.mark.parametrize("argument", WRITINGS)
@pytest.mark.parametrize("name", ["stps_set_api_key", '"stps_set_api_key"', "STPS_SET_API_KEY"])
def test_the_tokenizer_finds_the_key_however_it_is_written(name: str, argument: str) -> None:
    literals = key_literals(f"SELECT {name} -- comment\n ({argument}) FROM nowhere")
    assert literals in ({KEY}, {KEY[:10], KEY[10:]})


@pytest.mark.parametrize(
    "sql",
    [
        f'SELECT "stps_set_api_key"($${KEY}$$) FROM nowhere',
        f"SELECT stps_set_api_key /* c */ ($q${KEY}$q$) FROM nowhere",
        f"SELECT stps_set_api_key($${KEY}$$",
        f"SELECT stps_set_api_key(k) FROM (SELECT '{KEY}' AS k) JOIN nowhere",
    ],
)
def test_webtap_sql_never_echoes_a_key(run_exe: Any, sql: str) -> None:
    run = run_exe("webtap", "sql", sql)
    assert run.returncode == 1 and run.stderr.startswith("webtap: ")
    assert KEY not in run.stdout + run.stderr
    assert KEY[4:20] not in run.stdout + run.stderr  # nor most of it


def test_the_column_header_hides_a_dollar_quoted_key(run_exe: Any) -> None:
    run = run_exe("webtap", "sql", "--csv", f"SELECT stps_set_api_key($${KEY}$$)")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == f"stps_set_api_key('{'*' * len(KEY)}')"


def test_an_error_value_from_a_function_is_redacted(run_exe: Any, monkeypatch) -> None:
    from webtap.redact import remember
    from webtap.sql.errors import never_raise

    remember([KEY])

    def leaky() -> str:
        raise RuntimeError(f"upstream said: bad key {KEY.replace('-', '%2D')}")

    assert never_raise(leaky)() == "ERROR: RuntimeError: upstream said: bad key ***"
