"""`webtap install` refuses what it must not overwrite, and says where and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from webtap.cli import main

EXECUTABLES = [
    "web-fetch-tool",
    "web-search-brave-tool",
    "web-search-google-tool",
    "web-search-searxng-tool",
]


def test_a_folder_in_the_way_of_a_launcher_is_refused(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "libexec" / "ikigai"
    (folder / "web-fetch-tool").mkdir(parents=True)  # not a launcher: cannot even be read

    assert main(["install", "--system", str(tmp_path)]) != 0

    err = capsys.readouterr().err
    assert f"{folder / 'web-fetch-tool'} already exists and was not written by webtap" in err
    assert sorted(p.name for p in folder.iterdir()) == ["web-fetch-tool"]  # nothing written


def test_a_prefix_that_is_a_file_is_an_error_naming_the_folder(tmp_path: Path, capsys) -> None:
    prefix = tmp_path / "prefix"
    prefix.write_text("a file, not a folder")

    assert main(["install", "--system", str(prefix)]) != 0

    err = capsys.readouterr().err
    assert f"cannot write to {prefix / 'libexec' / 'ikigai'}" in err
    assert "Traceback" not in err


def test_an_empty_prefix_is_refused_not_taken_for_the_project(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # `--system "$PREFIX"` with PREFIX unset
    assert main(["install", "--system", ""]) != 0
    assert "--system needs a PREFIX" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing went to ./.ikigai/tools


def test_install_twice_refreshes_and_uninstall_leaves_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "libexec" / "ikigai"
    assert main(["install", "--system", str(tmp_path)]) == 0
    (folder / "web-fetch-tool").write_text("#!/bin/sh\n# stale, but ours? no marker\n")
    assert main(["install", "--system", str(tmp_path)]) != 0  # now foreign: kept
    assert "web-fetch-tool already exists" in capsys.readouterr().err

    assert main(["uninstall", "--system", str(tmp_path)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["web-fetch-tool"]
