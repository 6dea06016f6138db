"""ISMCTS iterations per CPU second in Double Solitaire: the search in Python
(``ismcts:engine=python``) and in the compiled core (the default), on the same positions.

Run: ``.venv/bin/python benchmarks/ds_ismcts.py [--deals N] [--iterations I]
[--core-iterations J]``.
The positions: for each of deals 0..N-1, the positions with a choice after 0, 15, 30, 45 and 60
moves of a game of ``greedy`` against ``greedy``. Each search is timed in CPU seconds of this
process (``time.process_time``), so other work on the machine counts little.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping
from typing import Any

import patience
from patience import bots


def positions(deals: int) -> list[Mapping[str, Any]]:
    """Views of the seat to move, with a choice of moves, spread over greedy games."""
    views: list[Mapping[str, Any]] = []
    for deal in range(deals):
        game = patience.new("double-solitaire", deal=deal)
        players = [bots.get("greedy", seed=f"{deal}:{seat}") for seat in (0, 1)]
        played = 0
        while not game.is_over() and played <= 60:
            seat = game.current_player()
            view = game.view(seat)
            if played % 15 == 0 and len(view["legal_moves"]) > 1:
                views.append(view)
            game.push(players[seat].choose(view))
            played += 1
    return views


def rate(views: list[Mapping[str, Any]], iterations: int, core: bool) -> tuple[int, float]:
    """(iterations run, CPU seconds) of one search per view."""
    done, cpu = 0, 0.0
    for index, view in enumerate(views):
        bot = bots.get(
            "ismcts", seed=index, iterations=iterations, engine="auto" if core else "python"
        )
        start = time.process_time()
        bot.decide(view)
        cpu += time.process_time() - start
        done += bot.last_iterations  # type: ignore[attr-defined]
    return done, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=300, help="per move, in Python")
    parser.add_argument("--core-iterations", type=int, default=13000, help="per move, core")
    args = parser.parse_args()
    views = positions(args.deals)
    print(f"{len(views)} positions")
    for label, core, iterations in (
        ("python", False, args.iterations),
        ("core", True, args.core_iterations),
    ):
        done, cpu = rate(views, iterations, core)
        print(f"{label:6} {done:8d} iterations {cpu:8.2f} CPU s {done / cpu:10,.0f} per CPU s")


if __name__ == "__main__":
    main()
