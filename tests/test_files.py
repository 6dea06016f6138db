"""Files written so that a crash loses nothing (patience.files)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from patience.files import write_atomically
from patience.study.winnable import write_list


def test_a_crash_before_the_rename_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "list.json"
    path.write_text("old", encoding="utf-8")

    def crash(source: object, target: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):
        write_atomically(path, "new")
    assert path.read_text(encoding="utf-8") == "old"
    assert [entry.name for entry in tmp_path.iterdir()] == ["list.json"]


def test_the_winnable_list_is_written_through_a_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "klondike.json"
    write_list(path, "klondike", {"draw": 3}, [5, 2], studied=10)
    before = path.read_bytes()

    def crash(source: object, target: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):
        write_list(path, "klondike", {"draw": 1}, [7], studied=10)
    assert path.read_bytes() == before


def test_a_new_file_is_readable_by_all_and_a_replaced_one_keeps_its_mode(tmp_path: Path) -> None:
    # The temporary file is owner-only (mkstemp): a shipped list or a saved game written
    # through it must not become unreadable to the web server's or another user's account.
    path = tmp_path / "list.json"
    write_atomically(path, "one")
    assert path.stat().st_mode & 0o777 == 0o644
    path.chmod(0o600)
    write_atomically(path, "two")
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.read_text() == "two"
