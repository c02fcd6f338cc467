"""The fetch tests' fixtures: the fake site (``tests/fakes/site.py``) on 127.0.0.1, over
HTTP and TLS, and helpers that run web-fetch-tool or its handler in process.
"""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tests.fakes.site import Site


@pytest.fixture
def site() -> Iterator[Site]:
    with Site.running() as server:
        yield server


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A self-signed certificate for the name ``public.test``: (cert file, key file)."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = str(folder / "cert.pem"), str(folder / "key.pem")
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            key,
            "-out",
            cert,
            "-days",
            "2",
            "-subj",
            "/CN=public.test",
            "-addext",
            "subjectAltName=DNS:public.test",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.fixture
def tls_site(certificate: tuple[str, str]) -> Iterator[Site]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    with Site.running(tls=context) as server:
        yield server


@pytest.fixture
def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on."""
    from tests.fakes.ports import free_port

    return free_port()


@pytest.fixture
def fetch_tool(run_exe: Callable[..., Any]) -> Callable[..., dict[str, Any]]:
    """Run web-fetch-tool on a request; it must exit 0 without a traceback.

    Returns the JSON response, with ``_seconds`` (how long the run took) added.
    """

    def run(url: str, env: dict[str, str] | None = None, **fields: Any) -> dict[str, Any]:
        started = time.monotonic()
        result = run_exe("web-fetch-tool", stdin={"url": url, **fields}, env=env, timeout=30)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert result.stderr == ""
        response = result.json
        assert set(response) <= {
            "success",
            "url",
            "title",
            "content",
            "total_lines",
            "content_mode",
            "invisible_characters_removed",
            "markdown_source",
            "verdict",  # a paywall's success, or a failure's verdict (issue 22)
            "notice",
            "advice",  # a failure's advice in words, beside retryable (issue 32)
            "rendered",
            "error",
            "error_code",
            "retryable",
            "retry_with",
            "retry_after",
            "vendor",
            "robots_rule",
            # what the page says of itself (issue 32), each only when it says it
            "published",
            "modified",
            "author",
            "site_name",
            "language",
            "description",
            "canonical_url",
            "image",
        }
        response["_seconds"] = time.monotonic() - started
        return response

    return run


@pytest.fixture
def fetch_call() -> Callable[..., dict[str, Any]]:
    """The same handler in process (``webtap.tools.call``, as the MCP server and ask loop run
    it): for the variants of a case whose first variant runs the real executable."""
    from webtap.tools import call

    def run(url: str, env: dict[str, str] | None = None, **fields: Any) -> dict[str, Any]:
        with pytest.MonkeyPatch.context() as patch:
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            started = time.monotonic()
            response = json.loads(json.dumps(call("web_fetch", {"url": url, **fields}).response()))
        response["_seconds"] = time.monotonic() - started
        return response

    return run


@pytest.fixture
def runner(request: pytest.FixtureRequest) -> Callable[[str], Callable[..., dict[str, Any]]]:
    """``runner("exe")`` is :func:`fetch_tool`, ``runner("call")`` is :func:`fetch_call`."""
    return lambda how: request.getfixturevalue({"exe": "fetch_tool", "call": "fetch_call"}[how])
