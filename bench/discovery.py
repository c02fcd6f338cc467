"""Discovery of 50 tools, cold and cached, beside spawning one tool's ``--schema`` once.

    .venv/bin/python bench/discovery.py [--tools 50] [--repeat 20]

Target: a cached discovery of 50 tools costs less than one ``--schema`` call. The tools are
small ``sh`` scripts in a temporary project folder (the cheapest tool there can be, so the
comparison is the strict one); webtap's own ``web-fetch-tool --schema`` is measured too.
Everything runs in a temporary HOME and cache folder: your own tools and cache are untouched.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def write_tools(folder: Path, count: int) -> None:
    folder.mkdir(parents=True)
    for index in range(count):
        name = f"bench_tool_{index:02d}"
        schema = {
            "name": name,
            "description": f"Benchmark tool number {index}: echoes its input back.",
            "parameters": {
                "type": "object",
                "properties": {"text": {"type": "string", "description": "Text to echo"}},
                "required": ["text"],
            },
        }
        path = folder / f"{name.replace('_', '-')}-tool"
        path.write_text(
            '#!/bin/sh\nif [ "$1" = "--schema" ]; then\n'
            f"cat <<'E'\n{json.dumps(schema)}\nE\nexit 0\nfi\ncat\n"
        )
        path.chmod(0o755)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="webtap-bench-"))
    os.environ.update(
        HOME=str(root / "home"),
        XDG_CACHE_HOME=str(root / "cache"),
        WEBTAP_SYSTEM_TOOLS_DIR=str(root / "system"),
    )
    project = root / "project"
    write_tools(project / ".ikigai" / "tools", args.tools)

    from webtap.host import discover
    from webtap.host.discovery import cache_path

    one_tool = project / ".ikigai" / "tools" / "bench-tool-00-tool"
    fetch_tool = Path(sys.executable).parent / "web-fetch-tool"

    def spawn(path: Path) -> Callable[[], object]:
        return lambda: subprocess.run([str(path), "--schema"], capture_output=True, check=True)

    found = discover(project)  # warm imports (jsonschema) and the cache once
    assert len(found.tools) == args.tools and not found.rejected, found.rejected

    sh_schema = median_seconds(spawn(one_tool), args.repeat)
    py_schema = median_seconds(spawn(fetch_tool), max(3, args.repeat // 4))
    cold = median_seconds(lambda: discover(project, use_cache=False), max(3, args.repeat // 4))

    def cached_discovery() -> None:
        result = discover(project)
        assert len(result.tools) == args.tools

    cached = median_seconds(cached_discovery, args.repeat * 5)
    assert cache_path().is_file()

    n = args.tools
    rows = [
        ("one --schema call (sh tool)", sh_schema),
        ("one --schema call (web-fetch-tool, Python)", py_schema),
        (f"discovery of {n} tools, cold (no cache)", cold),
        (f"discovery of {n} tools, cached", cached),
    ]
    width = max(len(label) for label, _ in rows)
    print(f"cpus: {os.cpu_count()}  python: {sys.version.split()[0]}  (medians)")
    for label, seconds in rows:
        print(f"{label:<{width}}  {seconds * 1000:9.2f} ms")
    print()
    print(f"cold discovery / one sh --schema:     {cold / sh_schema:8.1f}x  ({n} tools at once)")
    print(f"cached discovery / one sh --schema:   {cached / sh_schema:8.3f}x  (target < 1)")
    print(f"cached discovery / one Python --schema: {cached / py_schema:6.3f}x")
    print(f"cold / cached:                        {cold / cached:8.0f}x")
    ok = cached < sh_schema
    shutil.rmtree(root, ignore_errors=True)
    print("target met" if ok else "TARGET MISSED: cached discovery slower than one --schema")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
