"""`patience study export-winnable` onto a file that is not a list of winnable deals."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.games import get_rules
from patience.solve import solver_version
from patience.study import Budget, DealResult, StudyDB, options_key


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A study of Klondike's default options with deal 8 won."""
    path = tmp_path / "s.sqlite3"
    with StudyDB(path) as study:
        study.write_chunk(
            "klondike",
            options_key(get_rules("klondike").options),
            Budget("nodes", 300),
            solver_version("klondike"),
            [DealResult(8, "won", 0.1, 9, 80), DealResult(9, "unknown", 0.1, 300, 0)],
            engine="python",
        )
    return path


def export(db: Path, game: str, out: Path) -> tuple[int, str]:
    args = ["study", "export-winnable", game, "--db", str(db), "--out", str(out)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (b'{"game": "klondike"}', 'it has no "lists" array'),
        (b"[1, 2]", "it holds a JSON array, not an object"),
        (b"{not json", "it is not JSON"),
        (b"\xff\xfe", "it is not UTF-8 text"),
        (b'{"lists": []}', 'it names no "game"'),
        (b'{"game": "klondike", "lists": [1]}', 'list 1 is not an object with "options"'),
        (b'{"game": "klondike", "lists": [{"deals": []}]}', "list 1 is not an object"),
    ],
)
def test_a_malformed_list_file_is_named_and_left_as_it_is(
    db: Path, tmp_path: Path, content: bytes, what: str
) -> None:
    out = tmp_path / "F.json"
    out.write_bytes(content)
    code, output = export(db, "klondike", out)
    assert code == 1
    assert f"{out} is not a list of winnable deals: {what}" in output
    assert 'it must hold a JSON object {"game": GAME, "lists": [' in output
    assert out.read_bytes() == content


def test_a_list_file_of_another_game_is_refused(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "F.json"
    out.write_text('{"game": "spider", "lists": []}')
    code, output = export(db, "klondike", out)
    assert code == 1
    assert f"{out} holds the lists of 'spider', not 'klondike'" in output


def test_no_won_deal_writes_nothing_and_keeps_the_list_there(db: Path, tmp_path: Path) -> None:
    """What docs/studies.md describes: the file's list for those options stays as it was."""
    out = tmp_path / "F.json"
    code, _ = export(db, "klondike", out)
    assert code == 0
    listed = out.read_bytes()
    draw1 = ["-o", "draw=1"]
    args = ["study", "export-winnable", "klondike", *draw1, "--db", str(db), "--out", str(out)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 1
    assert "has no won deal of klondike draw=1" in result.output
    assert out.read_bytes() == listed
