"""The web app's scores (patience.scoring; docs/web.md, "Score and time"): Klondike's standard
and Vegas scoring, Spider's 500-point scoring, move by move through whole won games."""

from __future__ import annotations

from pathlib import Path

import patience
from patience import record
from patience.scoring import scores

GOLDEN = Path(__file__).parent / "golden"


def replayed(name: str) -> tuple[patience.Game, list[dict[str, int]]]:
    """The golden game ``name`` replayed, with the scores before and after every move."""
    rec = record.read_record((GOLDEN / f"{name}.rec").read_text())
    game = patience.Game.create(patience.get_rules(rec.game, rec.options), deal=rec.deal)
    seen = [scores(game)]
    for move in rec.moves:
        game.push(move)
        seen.append(scores(game))
    return game, seen


def test_klondike_standard_and_vegas_move_by_move() -> None:
    game, seen = replayed("klondike-won-draw1")
    assert seen[0] == {"standard": 0, "vegas": -52}
    draw = int(game.options["draw"])
    for index, (move, forced) in enumerate(zip(game.move_stack, game.forced_stack, strict=True)):
        before, after = seen[index], seen[index + 1]
        flips = 5 * sum(1 for step in forced if step.action == "flip")
        if move.action == "recycle":
            expected = -100 if draw == 1 else -20
        elif move.target and move.target.startswith("f"):
            expected = 10
        elif move.source == "waste":
            expected = 5
        elif move.source and move.source.startswith("f"):
            expected = -15
        else:
            expected = 0
        assert after["standard"] == max(0, before["standard"] + expected + flips), move
        to_foundation = 1 if move.target and move.target.startswith("f") else 0
        from_foundation = 1 if move.source and move.source.startswith("f") else 0
        assert after["vegas"] - before["vegas"] == 5 * (to_foundation - from_foundation), move
    assert game.outcome().result.value == "won"
    assert seen[-1]["vegas"] == -52 + 5 * 52


def test_the_standard_score_never_goes_below_zero() -> None:
    # A pass through the stock playing one waste card (so that turning the waste over brings
    # back no earlier position), then the waste turned over: 5 or 10, less 100, is 0.
    for deal in range(50):
        game = patience.new("klondike", deal=deal, draw=1)
        played = False
        while True:
            texts = [move.text() for move in game.legal_moves()]
            waste = [m for m in game.legal_moves() if m.source == "waste"]
            if waste and not played:
                game.push(waste[0])
                played = True
            elif "stock" in texts:
                game.push("stock")
            else:
                break
        if played and "recycle" in texts and scores(game)["standard"] < 100:
            game.push("recycle")
            assert scores(game)["standard"] == 0
            return
    raise AssertionError("no deal of 50 had a waste card to play in the first pass")


def test_spider_is_500_less_a_move_plus_100_a_suit() -> None:
    game = patience.new("spider", deal=5, suits=1)
    assert scores(game) == {"spider": 500}
    game.push(game.legal_moves()[0])
    game.push("stock")
    assert scores(game) == {"spider": 498}
    game.pop()
    assert scores(game) == {"spider": 499}  # an undone move is not counted


def test_spider_pays_100_a_removed_suit() -> None:
    game, seen = replayed(next(p.stem for p in GOLDEN.glob("spider-won*.rec")))
    moves = sum(1 for move in game.move_stack if not (move.target or "").startswith("f"))
    assert seen[-1] == {"spider": 500 - moves + 800}


def test_other_games_have_no_score() -> None:
    assert scores(patience.new("canfield", deal=1)) == {}
