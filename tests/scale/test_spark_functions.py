"""The Spark UDFs' bodies without Spark (an iterator of Arrow batches, pandas Series), and, where
pyspark is installed, on a local Spark session bound to 127.0.0.1."""

from __future__ import annotations

import sys
from typing import Any

import pyarrow as pa
import pytest
from tests.scale.scale_kit import Pages

from webtap.scale.udfs import answer_series, fetch_batches

LOCAL = {"WEBTAP_ALLOW_PRIVATE_NETWORKS": "1", "WEBTAP_HOST_RATE": "1000", "WEBTAP_CACHE": "off"}


def test_the_arrow_udf_adds_the_pages_to_each_batch(
    pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in LOCAL.items():
        monkeypatch.setenv(name, value)
    urls = [*pages.urls[:6], pages.url("/missing")]
    batches = pa.table({"id": range(7), "url": urls}).to_batches(max_chunksize=3)
    out = pa.Table.from_batches(list(fetch_batches("url", threads=2)(iter(batches))))
    assert out.column_names == [
        "id", "url", "final_url", "title", "markdown", "verdict", "error", "published",
        "modified", "author", "site_name", "language", "description", "canonical_url", "image",
    ]  # fmt: skip
    assert out.column("verdict").to_pylist() == ["OK"] * 6 + ["HTTP_ERROR"]
    assert out.column("id").to_pylist() == list(range(7))


def test_the_pandas_udf_answers_as_stps_ask_ai(anthropic_api: Any) -> None:
    pd = pytest.importorskip("pandas", reason="pandas comes with the ray extra")
    answers = answer_series(pd.Series(["Paris", "Rome"]), pd.Series(["Which country?", None]))
    assert "Context: Paris" in answers[0] and answers[1] is None


def test_on_a_local_spark_session(
    pages: Pages, anthropic_api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyspark = pytest.importorskip(
        "pyspark",
        reason="pyspark is not installed (and needs Java): the Spark example is "
        "checked where it is",
    )
    from pyspark.sql import SparkSession

    import webtap.scale.udfs

    env = {
        **LOCAL,
        "ANTHROPIC_BASE_URL": anthropic_api.url,
        "SPARK_LOCAL_IP": "127.0.0.1",
        "PYSPARK_PYTHON": sys.executable,
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    builder = SparkSession.builder.master("local[2]").appName("webtap-test")
    for name, value in {
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.driver.host": "127.0.0.1",
        "spark.ui.enabled": "false",
    }.items():
        builder = builder.config(name, value)
    for name, value in env.items():
        builder = builder.config(f"spark.executorEnv.{name}", value)
    spark = builder.getOrCreate()
    try:
        urls = spark.createDataFrame(
            [(n, url) for n, url in enumerate(pages.urls[:8])], "n long, url string"
        )
        fetched = urls.mapInArrow(
            webtap.scale.udfs.fetch_batches("url"), webtap.scale.udfs.fetch_schema(urls)
        )
        assert {row.verdict for row in fetched.collect()} == {"OK"}
        questions = spark.createDataFrame(
            [("Paris", "Which country?")], "context string, prompt string"
        )
        ask = webtap.scale.udfs.ask_udf()
        (row,) = questions.withColumn("answer", ask("context", "prompt")).collect()
        assert "Context: Paris" in row.answer
    finally:
        spark.stop()
    assert pyspark
