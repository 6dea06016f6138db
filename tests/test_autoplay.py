"""``patience autoplay``: the hints play whole games, resumably, and report a win rate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import patience
from patience.cli import main
from patience.engine import Game
from patience.solve import autoplay
from patience.solve.autoplay import (
    AUTOPLAY_VERSION,
    AutoplayDB,
    PlayedGame,
    Policy,
    autoplay_version,
    play_with_hints,
    win_rate,
)
from patience.solve.hint import GAME_BUDGETS, Hint

#: Small budgets: Accordion's deal 3 is won by these hints in about a hundred moves (policy 5;
#: policy 4 also won deal 2).
SMALL = ["--samples", "4", "--nodes", "500"]


def test_the_hints_play_a_game_to_its_end() -> None:
    game = patience.new("accordion", deal=3)
    played = play_with_hints(game, Policy(samples=4, nodes=500))
    assert game.is_over()
    assert played.result == game.outcome().result == "won"
    assert played.moves == len(game.move_stack)


def test_the_observer_sees_every_hint_before_its_move(monkeypatch: pytest.MonkeyPatch) -> None:
    # A policy that plays the first legal move four times, then suggests none.
    answers = iter([True] * 4 + [False])
    seen: list[tuple[int, float]] = []

    def fake_hint(game: Game, **budget: object) -> Hint:
        move = game.legal_moves()[0] if next(answers) else None
        return Hint(move, 0.5, 8, False, wins=4, reason="a test")

    def observe(game: Game, answer: Hint, cpu: float) -> None:
        seen.append((len(game.move_stack), cpu))

    monkeypatch.setattr(autoplay, "hint", fake_hint)
    game = patience.new("accordion", deal=3)
    played = play_with_hints(game, Policy(8, 100), observe)
    assert (played.result, played.moves, len(game.move_stack)) == ("lost", 4, 4)
    assert played.reason == "no move suggested: a test"
    # Each hint is seen in the position it was asked in, its move not yet played.
    assert [moves for moves, _ in seen] == [0, 1, 2, 3, 4]
    assert all(cpu >= 0 for _, cpu in seen)


def test_the_policy_concedes_a_walk_with_no_win_seen_and_no_progress(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hints that see no world won; a hint that sees a win, or a move that gets the game further
    # than it had been, starts the count again.
    wins = iter([0, 0, 1] + [0] * 100)

    def fake_hint(game: Game, **budget: object) -> Hint:
        return Hint(game.legal_moves()[0], 0.0, 8, False, wins=next(wins), reason="a test")

    monkeypatch.setattr(autoplay, "hint", fake_hint)
    monkeypatch.setattr(autoplay, "CONCEDE_AFTER", 5)
    # Accordion has no foundation and nothing face down: no move is progress.
    game = patience.new("accordion", deal=3)
    played = play_with_hints(game, Policy(8, 100))
    # Hints 1-2 see nothing, hint 3 sees a win, hints 4-8 see nothing: conceded after 8 moves.
    assert (played.result, played.moves) == ("lost", 8)
    assert played.reason.startswith("conceded: 5 hints in a row")

    # Progress 1 at the start, then 2, 3, ... 19 after moves 1-18, then 0: the count starts
    # at move 19 and reaches 5 at move 23.
    wins = iter([0] * 100)
    progress = iter(range(1, 20))
    monkeypatch.setattr(autoplay, "_progress", lambda game: next(progress, 0))
    played = play_with_hints(patience.new("accordion", deal=3), Policy(8, 100))
    assert (played.result, played.moves) == ("lost", 23)
    assert played.reason.startswith("conceded")


def test_progress_counts_foundation_cards_less_cards_face_down_outside_the_stock() -> None:
    game = patience.new("klondike", deal=1, draw=3)
    assert autoplay._progress(game) == -21  # the tableau's face-down cards; the stock's not
    game.push(next(move for move in game.legal_moves() if move.text() == "stock"))
    assert autoplay._progress(game) == -21


def test_autoplay_reports_the_win_rate_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "autoplay.sqlite3"
    runner = CliRunner()
    command = ["autoplay", "accordion", "--range", "3", *SMALL, "--db", str(db)]
    first = runner.invoke(main, [*command, "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert (data["deals"], data["won"]) == (1, 1)
    assert data["win_rate"]["low"] < 1.0 == data["win_rate"]["high"]
    store = AutoplayDB(db)
    assert set(store.played("accordion", '{"dealing":"one"}', Policy(4, 500))) == {3}
    store.close()
    # Run again: the deal comes from the file, it is not played again.
    again = runner.invoke(main, command)
    assert again.exit_code == 0, again.output
    assert "deal 3: won (played in an earlier run)" in again.output
    assert "accordion: won 1 of 1 deals" in again.output


def test_autoplay_plays_the_web_apps_hints_unless_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(GAME_BUDGETS, "accordion", (4, 500))
    db = tmp_path / "autoplay.sqlite3"
    result = CliRunner().invoke(main, ["autoplay", "accordion", "--range", "3", "--db", str(db)])
    assert result.exit_code == 0, result.output
    told = CliRunner().invoke(
        main, ["autoplay", "accordion", "--range", "3", "--nodes", "600", "--db", str(db)]
    )
    assert told.exit_code == 0, told.output
    store = AutoplayDB(db)
    options = '{"dealing":"one"}'
    assert set(store.played("accordion", options, Policy(4, 500))) == {3}
    assert set(store.played("accordion", options, Policy(4, 600))) == {3}
    store.close()


def test_autoplay_refuses_what_it_cannot_play(tmp_path: Path) -> None:
    runner = CliRunner()
    db = ["--db", str(tmp_path / "a.sqlite3")]
    result = runner.invoke(main, ["autoplay", "leopard", "--range", "1-2", *db])
    assert result.exit_code == 2
    assert "not a one-player game" in result.output
    result = runner.invoke(main, ["autoplay", "klondike", "--range", "5-1", *db])
    assert result.exit_code == 2
    assert "is empty" in result.output


def test_the_win_rate_has_its_interval() -> None:
    games = [PlayedGame(deal, "won" if deal % 2 else "lost", 10, 1.0, "") for deal in range(8)]
    rate = win_rate(games)
    assert rate.mean == 0.5
    assert 0.2 < rate.low < 0.5 < rate.high < 0.8


def test_a_game_whose_hints_changed_alone_keys_its_runs_apart() -> None:
    """Leoni's Own's hints changed alone (policy 8 for it, 9 since, 10 with every game's
    policy 9, 11 when they came to remember every card, 12 with policy 10), so its stored runs
    are keyed apart from the other games' runs."""
    policy = Policy(16, 10_000)
    assert autoplay_version("leonis-own") == 12
    assert autoplay_version("klondike") == AUTOPLAY_VERSION == 10
    assert '"version":12' in policy.key("leonis-own")
    assert '"version":10' in policy.key("klondike")
