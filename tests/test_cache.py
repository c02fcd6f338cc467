"""The caches' store: hits, misses, bounds, and every way a cache file can be unusable."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

from webtap.cache import Cache, cache_dir, enabled
from webtap.errors import ConfigError
from webtap.settings import env_ttl


def test_round_trip_and_miss(tmp_path: Path) -> None:
    cache = Cache("pages", max_bytes=1 << 20, folder=tmp_path)
    assert cache.get("a") is None
    cache.put("a", {"markdown": "# A", "lines": [1, 2]})
    entry = cache.get("a")
    assert entry is not None
    assert entry.value == {"markdown": "# A", "lines": [1, 2]}
    assert 0 <= entry.age() < 60
    cache.put("a", "replaced")
    assert cache.get("a").value == "replaced"
    cache.delete("a")
    assert cache.get("a") is None


def test_shared_between_instances_and_keys_hashed(tmp_path: Path) -> None:
    Cache("search", max_bytes=1 << 20, folder=tmp_path).put("brave|duckdb udf", [1])
    assert Cache("search", max_bytes=1 << 20, folder=tmp_path).get("brave|duckdb udf").value == [1]
    assert b"duckdb udf" not in (tmp_path / "search.sqlite3").read_bytes()


def test_default_folder_is_the_user_cache_folder(isolated_env: Path) -> None:
    assert cache_dir() == isolated_env / ".cache" / "webtap"
    Cache("pages", max_bytes=1 << 20).put("k", 1)
    assert (isolated_env / ".cache" / "webtap" / "pages.sqlite3").is_file()


def test_folder_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBTAP_CACHE_DIR", str(tmp_path / "elsewhere"))
    Cache("pages", max_bytes=1 << 20).put("k", 1)
    assert (tmp_path / "elsewhere" / "pages.sqlite3").is_file()


def test_off_switch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBTAP_CACHE", "off")
    assert not enabled()
    cache = Cache("pages", max_bytes=1 << 20, folder=tmp_path)
    cache.put("k", 1)
    assert cache.get("k") is None
    assert not (tmp_path / "pages.sqlite3").exists()


def test_bounded_oldest_out_first(tmp_path: Path) -> None:
    cache = Cache("pages", max_bytes=250, folder=tmp_path)
    for n in range(5):
        cache.put(f"k{n}", "x" * 98)  # 100 bytes of JSON each
    assert [cache.get(f"k{n}") is not None for n in range(5)] == [False] * 3 + [True] * 2
    cache.put("huge", "x" * 1000)  # larger than the whole bound: not stored, nothing evicted
    assert cache.get("huge") is None and cache.get("k4") is not None


def test_corrupt_file_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "pages.sqlite3").write_bytes(b"this is not a database" * 100)
    cache = Cache("pages", max_bytes=1 << 20, folder=tmp_path)
    assert cache.get("k") is None
    cache.put("k", 1)
    assert cache.get("k").value == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through read-only permissions")
def test_read_only_folder_is_a_miss(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        cache = Cache("pages", max_bytes=1 << 20, folder=folder)
        cache.put("k", 1)
        assert cache.get("k") is None
    finally:
        folder.chmod(0o700)


def test_folder_that_is_a_file_is_a_miss(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    cache = Cache("pages", max_bytes=1 << 20, folder=tmp_path / "file" / "sub")
    cache.put("k", 1)
    assert cache.get("k") is None


def test_planted_symlink_is_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "notes.txt"
    victim.write_text("precious")
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / "pages.sqlite3").symlink_to(victim)
    cache = Cache("pages", max_bytes=1 << 20, folder=folder)
    cache.put("k", 1)
    assert cache.get("k") is None
    assert victim.read_text() == "precious"


def test_locked_file_is_a_miss_not_an_error(tmp_path: Path) -> None:
    cache = Cache("pages", max_bytes=1 << 20, folder=tmp_path)
    cache.put("k", 1)
    cache.close()
    holder = sqlite3.connect(tmp_path / "pages.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    other = Cache("pages", max_bytes=1 << 20, folder=tmp_path)
    try:
        other.put("k2", 2)  # waits its short busy timeout, then gives up quietly
        assert other.get("k2") is None
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    other.put("k3", 3)  # a lock is a miss this once, not the end of the cache
    assert other.get("k3").value == 3
    assert other.get("k").value == 1


def test_threads_share_one_cache(tmp_path: Path) -> None:
    cache = Cache("pages", max_bytes=1 << 20, folder=tmp_path)

    def work(n: int) -> None:
        for i in range(20):
            cache.put(f"{n}-{i}", i)
            assert cache.get(f"{n}-{i}").value == i

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(cache.get(f"{n}-19") is not None for n in range(8)) == 8


def test_ttl_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert env_ttl("WEBTAP_SOME_TTL", 600) == 600
    monkeypatch.setenv("WEBTAP_SOME_TTL", "0")
    assert env_ttl("WEBTAP_SOME_TTL", 600) == 0
    monkeypatch.setenv("WEBTAP_SOME_TTL", "10m")
    with pytest.raises(ConfigError, match="WEBTAP_SOME_TTL"):
        env_ttl("WEBTAP_SOME_TTL", 600)


def test_read_only_filesystem_is_a_miss() -> None:
    # /proc refuses new files even to root: a real read-only place, unlike chmod for root.
    cache = Cache("pages", max_bytes=1 << 20, folder=Path("/proc/self/webtap-cache"))
    cache.put("k", 1)
    assert cache.get("k") is None


def test_a_file_made_before_migrations_keeps_its_entries(tmp_path: Path) -> None:
    """Cache files written before the caches used webtap.sqlite's opener: the entries table and
    no _migrations. The first migration finds the table there and records itself."""
    Cache("pages", max_bytes=1 << 20, folder=tmp_path).put("k", "kept")
    with sqlite3.connect(tmp_path / "pages.sqlite3") as db:
        db.execute("DROP TABLE _migrations")
    assert Cache("pages", max_bytes=1 << 20, folder=tmp_path).get("k").value == "kept"
    with sqlite3.connect(tmp_path / "pages.sqlite3") as db:
        assert db.execute("SELECT name FROM _migrations").fetchall() == [("m001_entries",)]
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_open_cache_is_one_cache_per_file_and_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from webtap.cache import open_cache

    monkeypatch.setenv("WEBTAP_CACHE_DIR", str(tmp_path / "one"))
    first = open_cache("pages", 1 << 20)
    assert open_cache("pages", 1 << 20) is first
    assert open_cache("pages", 1 << 21) is not first  # another bound
    assert open_cache("search", 1 << 20) is not first
    monkeypatch.setenv("WEBTAP_CACHE_DIR", str(tmp_path / "two"))
    moved = open_cache("pages", 1 << 20)
    assert moved is not first and moved.path == tmp_path / "two" / "pages.sqlite3"
