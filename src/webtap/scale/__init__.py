"""webtap at scale: fetch and ask over whole tables.

- :mod:`webtap.scale.rows`: fetch and ask over Arrow batches (``FetchPages``, ``AskRows``),
  every input column kept, errors as values; what every engine below runs;
- :mod:`webtap.scale.batch`: ``webtap batch fetch|ask IN OUT``, a Parquet or CSV file through
  the rows, resumable;
- :mod:`webtap.scale.cluster`: the rows on a Ray cluster (Ray Data's ``map_batches`` over an
  actor pool);
- :mod:`webtap.scale.udfs`: the rows as Spark UDFs.

Importing this package imports nothing: Ray, Spark and pyarrow are loaded by the module that
needs them.
"""
