"""The ``patience`` command line, driven through click's CliRunner."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

import patience
from patience import record
from patience.cli import main
from patience.terminal import PlaySession

# Deal 7 (draw 3): t1 is 4d, t2 6d, t3 Js, t4 7s, t5 3c, t6 8d, t7 Ac; the first stock turn
# shows 9c Jd 6h. The scripts below rely on these cards.
DEAL = "7"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its autosave in its own directory, never in the user's."""
    directory = tmp_path / "home"
    monkeypatch.setenv("PATIENCE_HOME", str(directory))
    return directory


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def script(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


# -- games ---------------------------------------------------------------------------------------


def test_games_lists_klondike_and_its_options() -> None:
    result = run("games")
    assert result.exit_code == 0, result.output
    for text in ("klondike", "Klondike", "draw", "1 or 3", "passes", "unlimited"):
        assert text in result.output
    assert "from_foundation" in result.output
    assert "on or off" in result.output


def test_games_json() -> None:
    result = run("games", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    klondike = next(entry for entry in data if entry["name"] == "klondike")
    assert klondike["title"] == "Klondike"
    assert klondike["summary"] == patience.GAMES["klondike"].summary
    options = {option["name"]: option for option in klondike["options"]}
    assert list(options) == ["draw", "passes", "from_foundation"]
    assert options["draw"]["allowed"] == "1 or 3"
    assert options["draw"]["default"] == "3"
    assert options["passes"]["default"] == "unlimited"
    assert options["from_foundation"]["default"] == "on"
    assert options["draw"]["help"]


# -- deal ----------------------------------------------------------------------------------------


def test_deal_json_is_the_engines_position() -> None:
    result = run("deal", "klondike", "--deal", DEAL, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == patience.new("klondike", deal=7).position()


def test_deal_json_without_deal_number_names_the_random_deal() -> None:
    result = run("deal", "klondike", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data["deal"], int)
    assert data == patience.new("klondike", deal=data["deal"]).position()


@pytest.mark.parametrize("options", [["-o", "draw=1,passes=3"], ["-o", "draw=1", "-o", "passes=3"]])
def test_deal_options(options: list[str]) -> None:
    result = run("deal", "klondike", "--deal", DEAL, *options, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["options"] == {"draw": 1, "passes": 3, "from_foundation": True}
    assert data == patience.new("klondike", deal=7, draw=1, passes=3).position()


def test_deal_table() -> None:
    result = run("deal", "klondike", "--deal", DEAL)
    assert result.exit_code == 0, result.output
    assert "deal 7" in result.output
    assert "draw=3,passes=unlimited,from_foundation=on" in result.output
    for name in ("stock", "waste", "f1", "f4", "t1", "t7"):
        assert name in result.output
    # Face-up tops, and the face-down cards shown in parentheses (the exact position).
    assert "4♦" in result.output
    assert "A♣" in result.output
    assert "(5♣)" in result.output
    assert "24" in result.output


def test_deal_table_random_shows_its_number() -> None:
    result = run("deal", "klondike")
    assert result.exit_code == 0, result.output
    header = result.output.splitlines()[0]
    number = int(header.split("deal ")[1].split()[0])
    assert 0 <= number < 2**53


def test_deal_bad_option_value_lists_allowed_values() -> None:
    result = run("deal", "klondike", "-o", "draw=2")
    assert result.exit_code == 2
    assert "draw" in result.output
    assert "1 or 3" in result.output


def test_deal_unknown_option_lists_the_options() -> None:
    result = run("deal", "klondike", "-o", "colour=red")
    assert result.exit_code == 2
    assert "colour" in result.output
    for name in ("draw", "passes", "from_foundation"):
        assert name in result.output


def test_deal_malformed_option() -> None:
    result = run("deal", "klondike", "-o", "draw")
    assert result.exit_code == 2
    assert "KEY=VALUE" in result.output


def test_unknown_game() -> None:
    result = run("deal", "hearts")
    assert result.exit_code == 2
    assert "unknown game 'hearts'" in result.output
    assert "klondike" in result.output


@pytest.mark.parametrize("deal", ["-1", "9007199254740992", "seven"])
def test_bad_deal_number(deal: str) -> None:
    result = run("deal", "klondike", "--deal", deal)
    assert result.exit_code == 2
    assert "9007199254740991" in result.output


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert patience.__version__ in result.output


# -- play ----------------------------------------------------------------------------------------


def test_play_scripted_session(tmp_path: Path) -> None:
    # A path longer than the terminal is wide is still printed whole, on one line.
    folder = tmp_path / ("a-folder-with-a-long-name-" * 3)
    folder.mkdir()
    saved = folder / "game.rec"
    result = run(
        "play",
        "--deal",
        DEAL,
        input=script(
            "t7-f",  # lenient: finds the foundation
            "t1-t2",  # 4d on 6d: illegal
            "undo",
            "redo",
            "moves",
            "bogus",
            "t5-t1",
            f"save {saved}",
            "quit",
        ),
    )
    assert result.exit_code == 0, result.output
    assert result.exception is None
    output = result.output
    assert "deal 7" in output.splitlines()[0]
    assert "Played t7-f1; t7 turns up 6♠" in output
    assert "illegal move t1-t2: 4d cannot go on 6d" in output
    assert "Undid t7-f1" in output
    assert output.count("Played t7-f1") == 2  # once made, once redone
    assert "legal: t2-t4 6♦, t4-t6 7♠, t5-t1 3♣, stock" in output
    assert "unknown command 'bogus'" in output
    assert f"Saved to {saved}" in output
    assert "2 moves" in output

    game = record.load(saved)
    assert game.name == "klondike"
    assert game.deal == 7
    assert [move.text() for move in game.move_stack] == ["t7-f1", "t5-t1"]


def test_play_hides_face_down_cards() -> None:
    result = run("play", "--deal", DEAL, input=script("quit"))
    assert result.exit_code == 0, result.output
    assert "##" in result.output
    assert "(5♣)" not in result.output
    assert "5♣" not in result.output  # t2's face-down card stays hidden


def test_play_stock_alias_recycles_when_the_stock_is_empty() -> None:
    # 24 stock cards, three at a time: eight turns empty the stock, the ninth recycles. A move
    # on the tableau after the first turn: without it, recycling would recreate the position
    # after the first move (full stock, empty waste), which the rules forbid.
    result = run("play", "--deal", DEAL, input=script("s", "t5-t1", *["s"] * 8, "quit"))
    assert result.exit_code == 0, result.output
    assert result.output.count("Played stock") == 8
    assert "Played recycle" in result.output
    tables = result.output.split("Played recycle")
    assert "pass" in tables[1]
    assert re.search(r"^\s*24\s+2\s+--", tables[1], re.MULTILINE)  # stock 24, pass 2, no waste


def test_play_bad_inputs_never_crash(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.rec"
    garbage.write_text("this is not a record\n", encoding="utf-8")
    result = run(
        "play",
        "--deal",
        DEAL,
        input=script(
            "t3-t5:0",
            "t9-t1",
            "t1-f",
            "{not json",
            "redo",
            "undo",
            "undo x",
            f"load {tmp_path / 'missing.rec'}",
            f"load {garbage}",
            "save",
            f"save {tmp_path / 'no-such-dir' / 'x.rec'}",
            "frobnicate(x=1)",
            "quit",
        ),
    )
    assert result.exit_code == 0, result.output
    assert result.exception is None
    output = result.output
    assert "the count must be 1 or more" in output
    assert "no pile 't9'" in output
    assert "illegal move t1-f: no foundation takes 4♦ now" in output
    assert "bad JSON" in output
    assert "no undone move to redo" in output
    assert "no move to undo" in output
    assert "undo takes a number" in output
    assert "there is no such file" in output
    assert f"cannot load {garbage}" in output
    assert "save needs a file name" in output
    assert "cannot save to" in output
    assert "no action 'frobnicate'" in output


def test_play_resign_then_undo_and_moves_after_the_end() -> None:
    result = run(
        "play",
        "--deal",
        DEAL,
        input=script("t7-f", "resign", "stock", "undo", "stock", "quit"),
    )
    assert result.exit_code == 0, result.output
    output = result.output
    assert "Lost: resigned" in output
    assert "the game is over (lost: resigned)" in output
    assert "Resignation taken back" in output
    # The move before the resignation is kept: stock is the second move.
    assert "Played stock" in output
    assert "2 moves" in output


def test_play_stock_alias_explains_a_recycle_that_repeats_the_start() -> None:
    result = run("play", "--deal", DEAL, input=script(*["s"] * 9, "quit"))
    assert result.exit_code == 0, result.output
    assert result.output.count("Played stock") == 8
    assert "illegal move recycle: it would recreate a position already reached" in result.output


def test_play_end_of_input_quits_and_saves(home: Path) -> None:
    result = run("play", "--deal", DEAL, input="t7-f\n")
    assert result.exit_code == 0, result.output
    assert "Game saved to" in result.output
    game = record.load(home / "autosave.rec")
    assert [move.text() for move in game.move_stack] == ["t7-f1"]


def test_play_bad_option_exits_2() -> None:
    result = run("play", "klondike", "-o", "passes=0", input="quit\n")
    assert result.exit_code == 2
    assert "a positive number or unlimited" in result.output


def test_autosave_and_resume(home: Path) -> None:
    first = run("play", "--deal", DEAL, "-o", "draw=1", input=script("t7-f", "stock", "quit"))
    assert first.exit_code == 0, first.output
    autosave = home / "autosave.rec"
    assert autosave.exists()
    saved = record.load(autosave)
    assert saved.options["draw"] == 1
    assert [move.text() for move in saved.move_stack] == ["t7-f1", "stock"]

    second = run("play", "--resume", input=script("t5-t1", "quit"))
    assert second.exit_code == 0, second.output
    assert "deal 7" in second.output.splitlines()[0]
    assert "draw=1" in second.output
    assert "2 moves" in second.output
    assert "Played t5-t1" in second.output
    resumed = record.load(autosave)
    assert [move.text() for move in resumed.move_stack] == ["t7-f1", "stock", "t5-t1"]


def test_resume_without_a_saved_game() -> None:
    result = run("play", "--resume")
    assert result.exit_code == 1
    assert "no saved game to resume" in result.output


def test_resume_refuses_a_new_deal(home: Path) -> None:
    run("play", "--deal", DEAL, input="quit\n")
    result = run("play", "--resume", "--deal", "3")
    assert result.exit_code == 2
    assert "--resume" in result.output


def test_autosave_after_every_move_survives_a_crash(home: Path) -> None:
    # The crash comes from the input: the session never reaches quit, so only the saves made
    # after each move can have written the file.
    autosave = home / "autosave.rec"
    lines = iter(["t7-f", "t5-t1"])

    def read_line() -> str:
        try:
            return next(lines)
        except StopIteration:
            raise RuntimeError("power cut") from None

    session = PlaySession(
        patience.new("klondike", deal=7),
        Console(file=io.StringIO()),
        autosave=autosave,
        read_line=read_line,
    )
    with pytest.raises(RuntimeError, match="power cut"):
        session.run()
    game = record.load(autosave)
    assert [move.text() for move in game.move_stack] == ["t7-f1", "t5-t1"]


# -- replay --------------------------------------------------------------------------------------


def _saved_game(path: Path, *moves: str) -> patience.Game:
    game = patience.new("klondike", deal=7)
    for move in moves:
        game.push(move)
    record.dump(game, path)
    return game


def test_replay_json(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    game = _saved_game(path, "t7-f1", "t5-t1", "stock")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data == {"outcome": {"result": "ongoing"}, "position": game.position()}


def test_replay_json_of_a_played_game(tmp_path: Path) -> None:
    saved = tmp_path / "played.rec"
    played = run("play", "--deal", DEAL, input=script("t7-f", "resign", f"save {saved}", "quit"))
    assert played.exit_code == 0, played.output
    result = run("replay", str(saved), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    expected = patience.new("klondike", deal=7)
    expected.push("t7-f1")
    assert data["position"] == expected.position()
    assert data["outcome"]["result"] in ("ongoing", "lost")


def test_replay_table(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    _saved_game(path, "t7-f1")
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    assert "Klondike" in result.output
    assert "deal 7" in result.output
    assert "1 move" in result.output
    assert "The game is on." in result.output


def test_replay_tampered_record_exits_1_naming_the_move(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    _saved_game(path, "t7-f1", "t5-t1", "stock")
    text = path.read_text(encoding="utf-8")
    assert text.count("t5-t1") == 1
    # 3c onto Js: not a legal move; it is the second move of the game.
    path.write_text(text.replace("t5-t1", "t5-t3"), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "move 2: illegal move t5-t3: 3c cannot go on Js" in result.output
    with pytest.raises(record.RecordError) as caught:
        record.load(path)
    assert caught.value.move_number == 2
    assert str(caught.value) in result.output


def test_replay_missing_file(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nothing.rec"))
    assert result.exit_code == 1
    assert "nothing.rec" in result.output


# -- play: multi-player games at the table -------------------------------------------------------


def test_play_leopard_human_against_random() -> None:
    # Deal 5: seat 0 holds Jh 3h 5d As 6s Ac 6c 8d Qh and plays first.
    result = run(
        "play",
        "leopard",
        "--deal",
        "5",
        "--seats",
        "human,random",
        "--seed",
        "1",
        input=script("Jh 0 5", "3h 0 5", "ZZ 9", "quit"),
    )
    assert result.exit_code == 0, result.output
    assert "seats: 0 human, 1 random" in result.output
    assert "5:[(J♥)/0]" in result.output  # the legal play is on the square
    assert "seat 1 (random) plays" in result.output
    assert "3h goes only on the position of its rank, 3" in result.output
    assert "cannot read move 'ZZ 9'" in result.output
    assert "Game left unfinished" in result.output


def test_play_leopard_defaults_to_human_and_greedy_and_says_so() -> None:
    result = run("play", "leopard", "--deal", "5", "-o", "players=3", input=script("quit"))
    assert result.exit_code == 0, result.output
    assert "you sit in seat 0, greedy bots in the others" in result.output
    assert "seats: 0 human, 1 greedy, 2 greedy" in result.output


def test_play_double_solitaire_human_against_random() -> None:
    result = run(
        "play",
        "double-solitaire",
        "--deal",
        "1",
        "--seats",
        "human,random",
        input=script("a1-a7", "a1-a7", "quit"),
    )
    assert result.exit_code == 0, result.output
    assert "seats: 0 human, 1 random" in result.output
    assert "1 move" in result.output
    assert "illegal move a1-a7" in result.output
    assert "Game left unfinished" in result.output


def test_play_double_solitaire_asks_the_human_to_call_stop() -> None:
    # Deal 1 with auto_stop off: after b4-b7 player 2 has left an ace unplayed, so seat 0 is
    # asked whether to call stop.
    moves = ["a1-a7", "a5-a1", "a5-f5", "a3-f5", "stock", "ahand-awaste", "b7-f1", "b4-b7"]
    result = run(
        "play",
        "double-solitaire",
        "--deal",
        "1",
        "-o",
        "auto_stop=off",
        "--seats",
        "human,human",
        input=script(*moves, "pass", "stop", "quit"),
    )
    assert result.exit_code == 0, result.output
    assert "You may call stop on seat 1's last move" in result.output
    assert "Type stop or let-pass." in result.output
    assert "must first answer" in result.output  # pass is refused while the question stands
    assert "9 moves" in result.output


def test_play_seats_refused_for_a_one_player_game() -> None:
    for extra in (["--seats", "human,greedy"], ["--seed", "3"]):
        result = run("play", "klondike", *extra)
        assert result.exit_code == 2
        assert "Klondike is a one-player game" in result.output
        assert "multi-player games (double-solitaire, leopard)" in result.output


def test_play_bad_seats() -> None:
    result = run("play", "leopard", "--seats", "human,nobody")
    assert result.exit_code == 2
    assert "unknown seat 'nobody'" in result.output
    result = run("play", "double-solitaire", "--seats", "human")
    assert result.exit_code == 2
    assert "2 seats but 1 were given" in result.output
    result = run("play", "--resume", "--seats", "human,greedy")
    assert result.exit_code == 2
    assert "leave out --deal, -o, --seats and --seed" in result.output
