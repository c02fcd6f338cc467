"""webtap on Spark, thinly: fetch as an Arrow UDF and ``stps_ask_ai`` as a pandas UDF.

::

    from webtap.scale import udfs

    pages = urls.mapInArrow(udfs.fetch_batches("url"), udfs.fetch_schema(urls))
    ask = udfs.ask_udf()
    answers = questions.withColumn("answer", ask("context", "prompt"))

Both run :mod:`webtap.scale.rows` on each executor, as Ray's actors do: a batch's rows on threads,
errors as values (``verdict``/``error`` columns; ``ERROR: ...`` answers, as in SQL). Spark's
executors are processes on many machines, so their rate budgets belong in Redis: set
``spark.executorEnv.WEBTAP_BUDGET=redis://HOST:6379/0`` (docs/scale.md has a runnable example).
Nothing else in webtap imports pyspark; this module imports it (and pandas, which comes with
it) inside the functions that build the UDFs, so that it loads without them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pyarrow as pa

from webtap.scale.rows import FETCH_COLUMNS, AskRows, FetchPages

__all__ = ["answer_series", "ask_udf", "fetch_batches", "fetch_schema"]

_asking: dict[tuple[Any, ...], AskRows] = {}  # one per executor process and setting


def fetch_batches(
    column: str = "url", *, threads: int = 16, mode: str | None = None
) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The function for ``DataFrame.mapInArrow``: Arrow record batches with a URL ``column``
    in, the same rows with :data:`~webtap.scale.rows.FETCH_COLUMNS` added out."""

    def fetch(batches: Iterator[Any]) -> Iterator[Any]:
        pages = FetchPages(column, threads=threads, mode=mode)
        for batch in batches:
            yield from pages(batch).to_batches()

    return fetch


def fetch_schema(frame: Any) -> Any:
    """The Spark schema of :func:`fetch_batches`' output for the DataFrame ``frame``."""
    from pyspark.sql.types import StringType, StructField, StructType

    fields = [field for field in frame.schema.fields if field.name not in FETCH_COLUMNS]
    return StructType(fields + [StructField(name, StringType()) for name in FETCH_COLUMNS])


def answer_series(
    contexts: Any,
    prompts: Any,
    *,
    model: str | None = None,
    max_tokens: int | None = None,
    concurrency: int = 8,
) -> Any:
    """``stps_ask_ai`` over two pandas Series: the answers, or ``ERROR: ...`` values."""
    import pandas as pd

    setting = (model, max_tokens, concurrency)
    asking = _asking.get(setting)
    if asking is None:
        asking = _asking[setting] = AskRows(
            model=model, max_tokens=max_tokens, concurrency=concurrency
        )
    table = pa.table(
        {
            "context": pa.array(contexts, type=pa.string(), from_pandas=True),
            "prompt": pa.array(prompts, type=pa.string(), from_pandas=True),
        }
    )
    answered = asking(table)
    values = [
        error if error is not None else answer
        for answer, error in zip(
            answered.column("answer").to_pylist(),
            answered.column("error").to_pylist(),
            strict=True,
        )
    ]
    return pd.Series(values, dtype=object)


def ask_udf(model: str | None = None, max_tokens: int | None = None, concurrency: int = 8) -> Any:
    """``stps_ask_ai(context, prompt)`` as a pandas UDF returning a string column."""
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    def stps_ask_ai(contexts, prompts):
        return answer_series(
            contexts, prompts, model=model, max_tokens=max_tokens, concurrency=concurrency
        )

    # Spark reads the kind of UDF from real annotations (this module's are strings).
    stps_ask_ai.__annotations__ = {"contexts": pd.Series, "prompts": pd.Series, "return": pd.Series}
    return pandas_udf("string")(stps_ask_ai)
