"""On a real local Ray cluster: every port on loopback, the fetch UDF row for row as the plain
loop, errors as values, and one key's rate kept by the Ray store across four tasks, through a
killed worker and a killed-and-restarted budget actor."""

from __future__ import annotations

import ipaddress
import os
import signal
import threading
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from tests.scale.scale_kit import (
    BRAVE_KEY,
    Pages,
    brave_budget,
    brave_env,
    descendants,
    most_in_any_window,
)

LOCAL_PAGES = {
    "WEBTAP_ALLOW_PRIVATE_NETWORKS": "1",
    "WEBTAP_HOST_RATE": "1000",
    "WEBTAP_CACHE": "off",
}


# -- every port on loopback ------------------------------------------------------------------


def _address(hex_address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    raw = bytes.fromhex(hex_address)
    if len(raw) == 4:
        return ipaddress.IPv4Address(raw[::-1])
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
    return ipaddress.IPv6Address(words)


def bound_sockets(pids: set[int]) -> list[tuple[str, str, str]]:
    """(process name, protocol, address) of every listening TCP and bound UDP socket that a
    process in ``pids`` holds, read from /proc."""
    by_inode: dict[str, tuple[str, str]] = {}
    for protocol in ("tcp", "tcp6", "udp", "udp6"):
        for line in Path(f"/proc/net/{protocol}").read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if protocol.startswith("tcp") and state != "0A":  # LISTEN
                continue
            host, port = local.split(":")
            by_inode[inode] = (protocol, f"{_address(host)}:{int(port, 16)}")
    found = []
    for pid in pids:
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inode = target[8:-1]
                if inode in by_inode:
                    found.append((name, *by_inode[inode]))
    return found


def is_loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address.rsplit(":", 1)[0])
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


def test_every_port_of_the_cluster_is_on_loopback(ray_cluster: Any) -> None:
    """Fails when RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 stops keeping Ray on 127.0.0.1."""
    ray = ray_cluster

    @ray.remote(num_cpus=0.5)
    def ping() -> int:
        return os.getpid()

    assert ray.get([ping.remote() for _ in range(2)])  # workers started and listening
    assert ray.util.get_node_ip_address() == "127.0.0.1"
    sockets = bound_sockets(descendants(os.getpid()))
    names = {name for name, _, _ in sockets}
    assert {"gcs_server", "raylet"} <= names, sockets  # the cluster's own servers were seen
    assert any(name.startswith("ray::") for name in names), sockets
    assert [s for s in sockets if not is_loopback(s[2])] == []


# -- the fetch UDF -------------------------------------------------------------------------------


def _fetched(ray: Any, urls: Sequence[str | None], env: dict[str, str]) -> Any:
    import pyarrow as pa

    import webtap.scale.cluster

    dataset = webtap.scale.cluster.from_table(
        pa.table({"url": urls, "n": list(range(len(urls)))}), 8
    )
    out = webtap.scale.cluster.fetch_pages(
        dataset, actors=2, threads=4, batch_size=8, num_cpus=0.5, env=env
    )
    return pa.concat_tables(ray.get(out.to_arrow_refs())).sort_by("n")


def test_the_fetch_udf_equals_the_plain_loop_row_for_row(
    ray_cluster: Any, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    from webtap.fetch import fetch

    urls = [*pages.urls, pages.url("/missing"), None]
    assert len(pages.urls) == 50
    table = _fetched(ray_cluster, urls, LOCAL_PAGES)
    for name, value in LOCAL_PAGES.items():
        monkeypatch.setenv(name, value)
    rows = table.to_pylist()
    assert [row["url"] for row in rows] == urls
    for url, row in zip(pages.urls, rows, strict=False):
        page = fetch(url)
        assert (row["final_url"], row["title"], row["markdown"], row["verdict"], row["error"]) == (
            page.url,
            page.title,
            page.markdown,
            "OK",
            None,
        )
    missing, null = rows[-2], rows[-1]
    assert (missing["verdict"], missing["markdown"]) == ("HTTP_ERROR", None)
    assert "404" in missing["error"]
    assert (null["verdict"], null["error"], null["markdown"]) == (None, None, None)
    assert [pages.hits[path] for path in pages.bodies] == [2] * 50  # once by Ray, once here


def test_the_guard_refuses_loopback_as_error_values(ray_cluster: Any, pages: Pages) -> None:
    urls = pages.urls[:5]
    table = _fetched(ray_cluster, urls, {"WEBTAP_HOST_RATE": "1000", "WEBTAP_CACHE": "off"})
    assert set(table.column("verdict").to_pylist()) == {"URL_NOT_ALLOWED"}
    assert all("WEBTAP_ALLOW_PRIVATE_NETWORKS" in e for e in table.column("error").to_pylist())
    assert pages.hits == {}  # nothing was sent


def test_two_actors_keep_to_one_host_s_politeness_limit_by_default(
    ray_cluster: Any, pages: Pages
) -> None:
    """No store named: the actors' budgets are the cluster's (a file per node would not hold
    two nodes to one limit)."""
    env = {"WEBTAP_ALLOW_PRIVATE_NETWORKS": "1", "WEBTAP_HOST_RATE": "5", "WEBTAP_CACHE": "off"}
    table = _fetched(ray_cluster, pages.urls[:20], env)
    assert set(table.column("verdict").to_pylist()) == {"OK"}
    print(f"most in one second at the host: {most_in_any_window(pages.arrivals)} (limit 5)")
    assert most_in_any_window(pages.arrivals) <= 5
    from webtap.budget.rate import RateBudget
    from webtap.budget.ray_store import NAMESPACE, actor_name

    host = RateBudget("host", "127.0.0.1", what="politeness").name
    assert ray_cluster.get_actor(actor_name(host), namespace=NAMESPACE)  # kept by the cluster


# -- one key's rate across four tasks --------------------------------------------------------


def _searches(ray: Any, env: dict[str, str], count: int, kill_after: float | None = None) -> Any:
    """A task that makes ``count`` searches with the shared key (and, with ``kill_after``,
    SIGKILLs its own worker that many seconds in, whatever it is doing)."""

    @ray.remote(num_cpus=0.5, max_retries=0)
    def searches(count: int, kill_after: float | None) -> int:
        from webtap.net import Deadline
        from webtap.search import brave_search

        if kill_after is not None:
            threading.Timer(kill_after, os.kill, (os.getpid(), signal.SIGKILL)).start()
        for n in range(count):
            brave_search(f"query {n}", deadline=Deadline(60))
        return count

    return searches.options(runtime_env={"env_vars": env}).remote(count, kill_after)


def _keeper(ray: Any, key: str) -> Any:
    from webtap.budget.ray_store import NAMESPACE, actor_name

    return ray.get_actor(actor_name(brave_budget(key).name), namespace=NAMESPACE)


def test_four_tasks_sharing_a_key_never_exceed_its_rate(
    ray_cluster: Any, limited_brave: Any
) -> None:
    ray, key = ray_cluster, f"{BRAVE_KEY}-{uuid.uuid4().hex[:8]}"
    env = brave_env(limited_brave, WEBTAP_BUDGET="ray", BRAVE_API_KEY=key)
    assert ray.get([_searches(ray, env, 6) for _ in range(4)]) == [6, 6, 6, 6]
    assert len(limited_brave.arrivals) == 24
    print(f"most in one second: {most_in_any_window(limited_brave.arrivals)} (limit 5)")
    assert most_in_any_window(limited_brave.arrivals) <= 5
    ray.kill(_keeper(ray, key))


def test_a_killed_worker_does_not_make_the_others_burst(
    ray_cluster: Any, limited_brave: Any
) -> None:
    ray, key = ray_cluster, f"{BRAVE_KEY}-{uuid.uuid4().hex[:8]}"
    env = brave_env(limited_brave, WEBTAP_BUDGET="ray", BRAVE_API_KEY=key)
    tasks = [_searches(ray, env, 6, kill_after=1.0), *(_searches(ray, env, 6) for _ in range(3))]
    with pytest.raises(ray.exceptions.RayError):  # the worker died
        ray.get(tasks[0])
    assert ray.get(tasks[1:]) == [6, 6, 6]
    assert len(limited_brave.arrivals) >= 18
    print(f"most in one second: {most_in_any_window(limited_brave.arrivals)} (limit 5)")
    assert most_in_any_window(limited_brave.arrivals) <= 5
    ray.kill(_keeper(ray, key))


def test_a_killed_and_restarted_budget_actor_does_not_make_a_burst(
    ray_cluster: Any, limited_brave: Any
) -> None:
    ray, key = ray_cluster, f"{BRAVE_KEY}-{uuid.uuid4().hex[:8]}"
    env = brave_env(limited_brave, WEBTAP_BUDGET="ray", BRAVE_API_KEY=key)
    tasks = [_searches(ray, env, 8) for _ in range(4)]
    while len(limited_brave.arrivals) < 6:  # the tasks are under way
        time.sleep(0.05)
    keeper = _keeper(ray, key)
    first = ray.get(keeper.start_time.remote())
    ray.kill(keeper, no_restart=False)  # Ray starts it again, without its state
    assert ray.get(tasks) == [8, 8, 8, 8]
    assert ray.get(_keeper(ray, key).start_time.remote()) > first  # it was restarted
    assert len(limited_brave.arrivals) == 32
    print(f"most in one second: {most_in_any_window(limited_brave.arrivals)} (limit 5)")
    assert most_in_any_window(limited_brave.arrivals) <= 5
    ray.kill(_keeper(ray, key))


def test_ray_tasks_share_a_key_through_redis_too(
    ray_cluster: Any, limited_brave: Any, redis_url: str
) -> None:
    ray, key = ray_cluster, f"{BRAVE_KEY}-{uuid.uuid4().hex[:8]}"
    env = brave_env(limited_brave, WEBTAP_BUDGET=redis_url, BRAVE_API_KEY=key)
    assert ray.get([_searches(ray, env, 5) for _ in range(4)]) == [5, 5, 5, 5]
    print(f"most in one second: {most_in_any_window(limited_brave.arrivals)} (limit 5)")
    assert most_in_any_window(limited_brave.arrivals) <= 5


# -- the ask UDF ---------------------------------------------------------------------------------


def test_the_ask_udf_answers_as_sql_does_and_errors_are_values(
    ray_cluster: Any, anthropic_api: Any
) -> None:
    import pyarrow as pa
    from tests.fakes.anthropic import API_KEY

    import webtap.scale.cluster
    from webtap.sql import SqlFunctions

    ray = ray_cluster
    contexts = [f"city {n}" for n in range(20)] + ["no prompt"]
    prompts = ["Which country?"] * 20 + [None]
    table = pa.table({"n": range(21), "context": contexts, "prompt": prompts})

    def asked(key: str) -> list[dict[str, Any]]:
        env = {"ANTHROPIC_BASE_URL": anthropic_api.url, "ANTHROPIC_API_KEY": key}
        dataset = webtap.scale.cluster.from_table(table, 5)
        out = webtap.scale.cluster.ask_rows(dataset, actors=2, batch_size=5, env=env)
        return pa.concat_tables(ray.get(out.to_arrow_refs())).sort_by("n").to_pylist()

    rows = asked(API_KEY)
    questions = [(c, p, None, None) for c, p in zip(contexts, prompts, strict=True)]
    expected = SqlFunctions().ask_many(questions)
    assert [row["answer"] for row in rows] == expected
    assert [row["error"] for row in rows] == [None] * 21
    assert rows[20]["answer"] is None  # NULL in, NULL out

    wrong = asked("sk-ant-not-the-key-123456")
    assert all(row["answer"] is None for row in wrong)
    assert all(row["error"].startswith("ERROR:") for row in wrong[:20])
    assert not any("sk-ant-not-the-key" in row["error"] for row in wrong[:20])
