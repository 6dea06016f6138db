"""Write the golden Klondike records in tests/golden/ (see tests/test_golden.py).

Run from the project root:

    .venv/bin/python scripts/make_golden.py            # writes into tests/golden/
    .venv/bin/python scripts/make_golden.py --out DIR  # somewhere else, to compare

It searches deal numbers from 1 upwards for games to record, using only the public engine API
(``patience.new``, ``legal_moves``, ``push``, ``pop``, ``resign``): a won game with draw=1, a won
game with draw=3 (found by a bounded depth-first search with a greedy move order), a game lost
because no legal move is left, and a resigned game. Each becomes ``NAME.rec`` (the won draw=1
game also ``NAME-json.json``, the JSON form) plus ``NAME.final.json`` with the outcome and the
final position. The search is deterministic, so running it again writes the same files; it takes
well under a minute.

Golden records are meant to stay fixed: regenerate them only when a change of the rules or of
the record format is intended, and review the diff.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Hashable
from pathlib import Path

import patience
from patience import Card, Game, Move, Rank, record

ROOT = Path(__file__).resolve().parent.parent

#: Pushes allowed per deal before the search gives the deal up.
NODE_BUDGET = 4000
#: Deals tried per target before giving up altogether.
DEALS_TRIED = 200
#: Longest game the search follows (keeps records readable).
MAX_DEPTH = 600


def _is_foundation(pile: str | None) -> bool:
    return pile is not None and pile.startswith("f")


def _is_tableau(pile: str | None) -> bool:
    return pile is not None and pile.startswith("t")


def ordered_moves(game: Game) -> list[Move]:
    """The legal moves worth trying, best first. Moves that rarely help (cards back from the
    foundations, runs shuffled between piles without turning a card up) are left out: the search
    only has to find some win, not prove that none exists."""
    state = game.state
    scored: list[tuple[int, int, Move]] = []
    for index, move in enumerate(game.legal_moves()):
        score: int | None
        if move.is_action:
            score = 10
        elif _is_foundation(move.source):
            score = None
        elif _is_foundation(move.target):
            card = state.top(str(move.source))
            # Aces and twos never need to stay out: play them and consider nothing else.
            if card is not None and card.rank <= 2:
                return [move]
            flips = _is_tableau(move.source) and state.up_count(str(move.source)) == 1
            score = 100 + (5 if flips else 0)
        elif move.source == "waste":
            score = 60
        else:
            source = str(move.source)
            up = state.up_count(source)
            below = len(state.piles[source]) - move.count
            if move.count == up and state.down[source] > 0:
                score = 90  # turns a face-down card up
            elif move.count == up and below == 0:
                # Emptying a pile helps only if the run is not a king's already at the bottom.
                score = None if not state.piles[str(move.target)] else 40
            else:
                # Splitting a run helps only to free the card under it for a foundation.
                under = state.piles[source][-move.count - 1]
                score = 30 if _under_fits(game, under) else None
        if score is not None:
            scored.append((-score, index, move))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [move for _, _, move in scored]


def _under_fits(game: Game, card: Card) -> bool:
    """True if ``card`` could go to a foundation once uncovered."""
    for name in ("f1", "f2", "f3", "f4"):
        top = game.state.top(name)
        if top is None:
            if card.rank == Rank.ACE:
                return True
        elif top.suit == card.suit and top.rank + 1 == card.rank:
            return True
    return False


def search_win(game: Game, budget: int = NODE_BUDGET) -> bool:
    """Depth-first search for a win; on success ``game`` holds the winning moves."""
    seen: set[Hashable] = {game.rules.key(game.state)}
    stack: list[list[Move]] = [ordered_moves(game)]
    nodes = 0
    while stack:
        moves = stack[-1]
        if not moves or len(stack) > MAX_DEPTH or nodes >= budget:
            stack.pop()
            if stack:
                game.pop()
            if nodes >= budget:
                # Unwind completely: the deal is given up.
                while stack:
                    stack.pop()
                    if stack:
                        game.pop()
                return False
            continue
        move = moves.pop(0)
        game.push(move)
        nodes += 1
        key = game.rules.key(game.state)
        if key in seen:
            game.pop()
            continue
        seen.add(key)
        if game.outcome().result == "won":
            return True
        stack.append(ordered_moves(game))
    return False


def find_win(options: dict[str, object]) -> Game:
    for deal in range(1, DEALS_TRIED + 1):
        game = patience.new("klondike", deal=deal, **options)
        if search_win(game):
            print(f"won deal {deal} {options} in {len(game.move_stack)} moves", file=sys.stderr)
            return game
    raise SystemExit(f"no win found for {options} in {DEALS_TRIED} deals")


def play_greedy(game: Game, limit: int = 2000) -> None:
    """Play the best-ordered move (or any legal move) until the game ends or ``limit``."""
    for _ in range(limit):
        if game.is_over():
            return
        moves = ordered_moves(game) or game.legal_moves()
        game.push(moves[0])


def find_stuck(options: dict[str, object]) -> Game:
    for deal in range(1, DEALS_TRIED + 1):
        game = patience.new("klondike", deal=deal, **options)
        play_greedy(game)
        if game.outcome().reason == "no legal move left":
            print(f"stuck deal {deal} {options} after {len(game.move_stack)}", file=sys.stderr)
            return game
    raise SystemExit(f"no stuck game found for {options}")


def write(out: Path, name: str, game: Game, format: str = "text") -> None:
    suffix = ".json" if format == "json" else ".rec"
    text = record.dumps(game, format)
    # The written record must replay to exactly this game before it becomes golden.
    again = record.loads(text)
    assert again.position() == game.position()
    assert again.outcome() == game.outcome()
    (out / f"{name}{suffix}").write_text(text, encoding="utf-8")
    final = {"outcome": game.outcome().to_json(), "position": game.position()}
    (out / f"{name}.final.json").write_text(json.dumps(final, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out / (name + suffix)}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "golden")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    won1 = find_win({"draw": 1})
    write(out, "klondike-won-draw1", won1)
    write(out, "klondike-won-draw1-json", won1, "json")
    write(out, "klondike-won-draw3", find_win({"draw": 3}))
    write(out, "klondike-lost-stuck", find_stuck({"draw": 3, "passes": 1}))

    resigned = patience.new("klondike", deal=3, draw=3)
    play_greedy(resigned, limit=12)
    resigned.resign()
    write(out, "klondike-resigned", resigned)


if __name__ == "__main__":
    main()
