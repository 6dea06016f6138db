"""Scores of the web app, by the usual conventions of solitaire programs (docs/web.md, "Score
and time"): settings of the app, not options of the rules, so they are worked out from a game's
moves and position and never change what is legal.

* Klondike, **standard** (Microsoft's untimed scoring): +5 a card from the waste to the tableau,
  +10 a card to a foundation (from the waste or the tableau), +5 a tableau card turned face up,
  -15 a card back from a foundation to the tableau, -100 turning the waste over when drawing one
  card (-20 when drawing three); never below 0.
* Klondike, **Vegas**: the cards cost 52 at the start, each card on a foundation pays 5
  (-52 + 5 x cards on the foundations; one game, not carried over).
* Spider: 500, less 1 a move on the stack (a deal of the stock counts; a suit removed by the
  player does not), plus 100 a complete suit removed.

Undone moves do not count (the score is the moves on the stack's), unlike programs that charge
for an undo. Other games have no score: the table shows their time and moves.
"""

from __future__ import annotations

from .engine import Game

__all__ = ["scores"]

#: Klondike's standard scoring, per kind of move.
WASTE_TO_TABLEAU = 5
TO_FOUNDATION = 10
TURNED_UP = 5
FOUNDATION_TO_TABLEAU = -15
RECYCLE = {1: -100, 3: -20}
#: Klondike's Vegas scoring: the cost of the pack and what a card on a foundation pays.
VEGAS_COST = 52
VEGAS_CARD = 5
#: Spider's scoring: the start, the cost of a move, what a removed suit pays.
SPIDER_START = 500
SPIDER_SUIT = 100


def _foundation(pile: str | None) -> bool:
    return pile is not None and pile.startswith("f") and pile[1:].isdigit()


def _tableau(pile: str | None) -> bool:
    return pile is not None and pile.startswith("t") and pile[1:].isdigit()


def klondike_standard(game: Game) -> int:
    """Klondike's standard score of ``game`` (module docstring)."""
    score = 0
    recycle = RECYCLE.get(int(game.options.get("draw", 3)), RECYCLE[3])
    for move, forced in zip(game.move_stack, game.forced_stack, strict=True):
        if move.action == "recycle":
            score += recycle
        elif _foundation(move.target):
            score += TO_FOUNDATION
        elif move.source == "waste" and _tableau(move.target):
            score += WASTE_TO_TABLEAU
        elif _foundation(move.source) and _tableau(move.target):
            score += FOUNDATION_TO_TABLEAU
        score += TURNED_UP * sum(1 for step in forced if step.action == "flip")
        score = max(score, 0)
    return score


def _on_foundations(game: Game) -> list[int]:
    piles = game.position()["piles"]
    return [
        len(pile["up"]) + len(pile["down"]) for name, pile in piles.items() if _foundation(name)
    ]


def klondike_vegas(game: Game) -> int:
    """Klondike's Vegas score of ``game``: -52 + 5 a card on the foundations."""
    return -VEGAS_COST + VEGAS_CARD * sum(_on_foundations(game))


def spider_score(game: Game) -> int:
    """Spider's score of ``game``: 500 - moves + 100 a removed suit."""
    moves = sum(1 for move in game.move_stack if not _foundation(move.target))
    suits = sum(1 for count in _on_foundations(game) if count)
    return SPIDER_START - moves + SPIDER_SUIT * suits


def scores(game: Game) -> dict[str, int]:
    """The scores the web app may show for ``game``, by scoring name: ``standard`` and
    ``vegas`` for Klondike, ``spider`` for Spider; empty for the other games."""
    if game.name == "klondike":
        return {"standard": klondike_standard(game), "vegas": klondike_vegas(game)}
    if game.name == "spider":
        return {"spider": spider_score(game)}
    return {}
