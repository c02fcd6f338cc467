"""Fixtures for webtap past one machine: a real local Ray cluster, a real Redis, local pages on
the suite's fake site, and the suite's fake Brave saying a limit of 5 requests a second.

Ray binds every port to 127.0.0.1 only with ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` (see
``webtap.scale.cluster.LOOPBACK_ENV``), read when ray is imported: it is set here, before any
test module imports ray. One cluster serves the whole session (``num_cpus=2``, no dashboard).

Every test here runs in one xdist worker, one at a time (``pytest_xdist_make_scheduler`` in
tests/conftest.py): the session's cluster starts once, and no test that starts a Ray instance of
its own (seconds of CPU on 2 cores) runs beside one that counts the requests in each second.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # before ray is imported, anywhere

from tests.fakes.brave import FakeBrave
from tests.fakes.ports import free_port
from tests.fakes.site import Site
from tests.scale.scale_kit import Pages


@pytest.fixture
def pages() -> Iterator[Pages]:
    with Site.running() as site:
        yield Pages(site)


@pytest.fixture
def limited_brave(brave: FakeBrave) -> FakeBrave:
    """The suite's fake Brave, answering everything and saying a limit of 5 requests a second
    (``arrivals``: when each request came)."""
    return brave.limited(per_second=5)


# -- Redis -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real redis-server on a free loopback port, for the session; stopped after."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.skip(
            "redis-server is not installed (apt-get install redis-server): the Redis "
            "budget tests need a real server"
        )
    pytest.importorskip(
        "redis",
        reason="the redis package is not installed: pip install "
        "'webtap[ray]' to run the Redis budget tests",
    )
    import redis

    folder = tempfile.mkdtemp(prefix="webtap-redis-")
    port = free_port()
    server = subprocess.Popen(
        [
            exe,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            folder,
            "--protected-mode",
            "yes",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.exceptions.ConnectionError:
            time.sleep(0.05)
    else:
        server.kill()
        pytest.fail("redis-server did not start")
    client.close()
    yield url
    server.terminate()
    server.wait(timeout=10)
    shutil.rmtree(folder, ignore_errors=True)


# -- Ray -------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    """One local Ray cluster for the session: 2 CPUs, no dashboard, every port on 127.0.0.1.
    Its processes get a HOME of their own (Ray keeps its token there)."""
    ray = pytest.importorskip(
        "ray", reason="Ray is not installed: pip install 'webtap[ray]' to run the cluster tests"
    )
    from webtap.scale.cluster import start_local_cluster

    folder = tempfile.mkdtemp(prefix="webtap-ray-")
    home = os.environ.get("HOME")
    os.environ["HOME"] = folder
    try:
        start_local_cluster(num_cpus=2, _temp_dir=os.path.join(folder, "ray"))
    finally:
        if home is not None:
            os.environ["HOME"] = home
    yield ray
    ray.shutdown()
    shutil.rmtree(folder, ignore_errors=True)
