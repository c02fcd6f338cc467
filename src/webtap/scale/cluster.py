"""webtap on Ray Data: fetch and ask over a dataset, on every worker of a cluster.

::

    import ray, webtap.scale.cluster
    pages = webtap.scale.cluster.fetch_pages(ray.data.read_parquet("urls.parquet"), actors=8)
    pages.write_parquet("pages/")

:func:`fetch_pages` and :func:`ask_rows` apply the callable classes :class:`FetchPages` and
:class:`AskRows` (from :mod:`webtap.scale.rows`) with ``Dataset.map_batches`` over Arrow
batches, on an autoscaling pool of actors (``ray.data.ActorPoolStrategy``); each actor runs its
batch's rows on its own threads, as one machine would. Errors are values (``verdict``/``error``
columns), never a failed job. ``env`` sets environment variables for the actors (a
``runtime_env``), for settings the cluster's nodes do not already have. The actors' rate budgets
are the cluster's (``WEBTAP_BUDGET=ray``) unless ``env`` or this process names another store: a
budget file per node would multiply each key's rate by the number of nodes (docs/scale.md).

:func:`start_local_cluster` starts Ray on this machine with every port on 127.0.0.1;
:func:`connect` joins a cluster at an address, or starts one so.

Needs the ``ray`` extra: ``pip install 'webtap[ray]'``. Ray is imported inside the functions,
after :func:`connect` or :func:`start_local_cluster` has set the variables Ray reads when it is
imported (``RAY_ENABLE_AUTO_CONNECT``, ``LOOPBACK_ENV``).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from webtap.scale.rows import ASK_COLUMNS, FETCH_COLUMNS, AskRows, FetchPages
from webtap.settings import BUDGET

__all__ = [
    "ASK_COLUMNS",
    "FETCH_COLUMNS",
    "LOOPBACK_ENV",
    "AskRows",
    "FetchPages",
    "ask_rows",
    "connect",
    "fetch_pages",
    "from_table",
    "start_local_cluster",
]

# Ray decides at import whether a node may serve other machines: with this at 0 its node
# address is 127.0.0.1 and every server binds there. There is no supported switch for it on
# Linux (ray.init(_node_ip_address="127.0.0.1") and ray start --node-ip-address=127.0.0.1 turn
# 127.0.0.1 into the interface address); tests/scale/test_ray_cluster.py fails if this stops
# keeping every port on loopback.
LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
AUTO_CONNECT_ENV = "RAY_ENABLE_AUTO_CONNECT"
# Ray's core worker installs a crash handler (absl's FailureSignalHandler) in the driver, and
# it takes SIGTERM for a crash: it prints a C stack on stderr and arms a 3 s alarm that aborts
# the process (SIGABRT) if it is still running then. To webtap's driver SIGTERM is a stop
# (`webtap batch` lets go of the cluster, keeps its rows and exits 143), which on a busy machine
# takes longer than 3 s. Read when ray is imported.
CRASH_HANDLER_ENV = "RAY_DISABLE_FAILURE_SIGNAL_HANDLER"


def fetch_pages(
    dataset: Any,
    column: str = "url",
    *,
    actors: int = 2,
    min_actors: int = 1,
    threads: int = 16,
    batch_size: int = 64,
    num_cpus: float = 1.0,
    mode: str | None = None,
    env: dict[str, str] | None = None,
) -> Any:
    """``dataset`` with the pages of its ``column`` of URLs: ``final_url``, ``title``,
    ``markdown``, ``verdict`` (``OK`` or the error code) and ``error`` added, on a pool of
    ``min_actors`` to ``actors`` actors, ``threads`` fetches at once in each."""
    return _map(
        dataset,
        FetchPages,
        {"column": column, "threads": threads, "mode": mode},
        (min_actors, actors),
        batch_size,
        num_cpus,
        env,
    )


def ask_rows(
    dataset: Any,
    context: str = "context",
    prompt: str = "prompt",
    *,
    actors: int = 2,
    min_actors: int = 1,
    concurrency: int = 8,
    batch_size: int = 32,
    num_cpus: float = 0.25,
    model: str | None = None,
    max_tokens: int | None = None,
    env: dict[str, str] | None = None,
    schema: str | None = None,
) -> Any:
    """``dataset`` with the model's ``answer`` (or ``error``, an ``ERROR: ...`` value) for its
    ``context`` and ``prompt`` columns, ``concurrency`` model calls at once per actor; with
    ``schema``, a typed ``answer`` and its ``sources`` (:class:`AskRows`)."""
    options = {
        "context": context,
        "prompt": prompt,
        "model": model,
        "max_tokens": max_tokens,
        "concurrency": concurrency,
        "schema": schema,
    }
    return _map(dataset, AskRows, options, (min_actors, actors), batch_size, num_cpus, env)


def _map(
    dataset: Any,
    udf: type,
    options: dict[str, Any],
    actors: tuple[int, int],
    batch_size: int,
    num_cpus: float,
    env: dict[str, str] | None,
) -> Any:
    import ray.data

    env = dict(env or {})
    env.setdefault(BUDGET.name, BUDGET.get() or "ray")
    return dataset.map_batches(
        udf,
        fn_constructor_kwargs=options,
        batch_format="pyarrow",
        batch_size=batch_size,
        compute=ray.data.ActorPoolStrategy(
            min_size=max(1, min(actors)), max_size=max(1, actors[1])
        ),
        num_cpus=num_cpus,
        runtime_env={"env_vars": env},
    )


def from_table(table: Any, rows_per_block: int = 64) -> Any:
    """A Ray dataset of the Arrow ``table``, cut into blocks of ``rows_per_block`` rows: a
    dataset of one block is one task, and an actor pool then works one actor at a time."""
    import ray.data

    step = max(1, rows_per_block)
    return ray.data.from_arrow(
        [table.slice(start, step) for start in range(0, table.num_rows, step)] or [table]
    )


def connect(address: str | None = None) -> bool:
    """Connect this process to the Ray cluster at ``address``, or start one on this machine
    (:func:`start_local_cluster`), unless it is connected already. Returns whether it did:
    then the caller ends it with ``ray.shutdown()``.

    A process that webtap connects so does not connect again by itself (Ray's automatic
    ``ray.init()`` on first use, off with ``RAY_ENABLE_AUTO_CONNECT=0``): a run stopped by
    ``ray.shutdown()`` whose thread still calls Ray would otherwise start a new local cluster
    that nothing ends. Nor does Ray take its SIGTERM for a crash (:data:`CRASH_HANDLER_ENV`)."""
    if "ray" in sys.modules:
        import ray

        if ray.is_initialized():
            return False
    else:
        os.environ.setdefault(AUTO_CONNECT_ENV, "0")  # read when ray is imported
        os.environ.setdefault(CRASH_HANDLER_ENV, "1")
    if address:
        import ray

        ray.init(address=address, log_to_driver=False)
    else:
        start_local_cluster()
    return True


def start_local_cluster(num_cpus: int | None = None, **options: Any) -> Any:
    """Start Ray on this machine for this process, every port on 127.0.0.1 and no dashboard;
    returns ``ray.init``'s context. Call it before anything imports ``ray``."""
    if "ray" in sys.modules and os.environ.get(LOOPBACK_ENV) != "0":
        raise RuntimeError(
            f"ray was imported before webtap could keep it on 127.0.0.1: set {LOOPBACK_ENV}=0 "
            "in the environment, or call start_local_cluster() before importing ray"
        )
    os.environ[LOOPBACK_ENV] = "0"  # read by ray when it is imported, and by its processes
    import ray

    options.setdefault("include_dashboard", False)
    options.setdefault("log_to_driver", False)
    context: Any = ray.init(num_cpus=num_cpus, **options)  # a RayContext
    node = context.address_info.get("node_ip_address")
    if node != "127.0.0.1":
        ray.shutdown()
        raise RuntimeError(
            f"Ray started on {node}, not 127.0.0.1: this version of ray no longer honours "
            f"{LOOPBACK_ENV}=0"
        )
    return context
