"""Files written where others can plant things: never through a link, never a stray temporary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from webtap.files import create_private, write_atomic


def test_a_failed_replace_leaves_the_folder_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "target").mkdir()  # a folder where the file should go: the rename fails
    (tmp_path / "target" / "inside").write_text("kept")

    with pytest.raises(OSError):
        write_atomic(tmp_path / "target", "new content")

    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]  # no .target.*.tmp left
    assert (tmp_path / "target" / "inside").read_text() == "kept"


def test_write_atomic_replaces_a_link_instead_of_writing_through_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("untouched")
    (tmp_path / "launcher").symlink_to(victim)

    write_atomic(tmp_path / "launcher", "#!/bin/sh\n", 0o755)

    assert victim.read_text() == "untouched"
    assert not (tmp_path / "launcher").is_symlink()
    assert (tmp_path / "launcher").read_text() == "#!/bin/sh\n"
    assert os.stat(tmp_path / "launcher").st_mode & 0o777 == 0o755


def test_create_private_refuses_a_planted_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.db"
    victim.write_bytes(b"someone else's data")
    link = tmp_path / "cache.db"
    link.symlink_to(victim)

    with pytest.raises(OSError, match="is a symbolic link; webtap will not write through it"):
        create_private(link)
    with pytest.raises(OSError, match="symbolic link"):  # dangling: same refusal
        create_private(_dangling(tmp_path))
    assert victim.read_bytes() == b"someone else's data"


def test_create_private_makes_a_private_file_and_keeps_an_existing_one(tmp_path: Path) -> None:
    fresh = tmp_path / "store.db"
    create_private(fresh)
    assert fresh.read_bytes() == b""
    assert os.stat(fresh).st_mode & 0o777 == 0o600

    fresh.write_bytes(b"data")
    create_private(fresh)
    assert fresh.read_bytes() == b"data"


def _dangling(folder: Path) -> Path:
    link = folder / "dangling.db"
    link.symlink_to(folder / "nowhere" / "x.db")
    return link
