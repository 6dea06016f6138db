"""Klondike-Solver (Shootme's C++ solver, through the ``pyksolve`` package of PyPI) on our deals,
for benchmarks/solve.py's ``--engine ksolve`` row. ``pyksolve`` is installed for the benchmark only
(``.venv/bin/pip install pyksolve``), never a dependency of patience.

The deal is handed over card for card: Klondike-Solver's deck string lists the cards in the order
they are dealt (the tableau row by row, then the stock from its top), which is the order of our
shuffled pack (patience.deals, docs/deals.md), so both solve the same layout (its
``game_diagram()`` shows our piles). Klondike-Solver plays with unlimited passes and cards back
from the foundations (our defaults); it has no time budget, so it runs in a child
process whose CPU time is capped at the budget (RLIMIT_CPU): a child stopped by the cap is
``unknown``.
"""

from __future__ import annotations

import multiprocessing
import resource
import time
from typing import Any

from patience.cards import packs
from patience.deals import Shuffler

#: Klondike-Solver's bound on closed states: its own default (it allocates for it up front; a
#: deal that needs more is ``unknown``, like one stopped by the CPU cap).
MAX_CLOSED = 5_000_000


def deck_string(deal: int) -> str:
    """Our deal as Klondike-Solver's deck string: per card two digits of rank, one of suit
    (1 clubs, 2 diamonds, 3 hearts, 4 spades), in the order the cards are dealt."""
    cards = [int(card) for card in Shuffler(deal).shuffle(packs(1))]
    return "".join(f"{card % 13 + 1:02d}{card // 13 + 1}" for card in cards)


def _child(deal: int, draw: int, seconds: float | None, pipe: Any) -> None:
    from pyksolve import solver

    if seconds is not None:
        limit = max(1, round(seconds))
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
    game = solver.Solitaire()
    game.load_solitaire(deck_string(deal))
    game.reset_game()
    game.draw_count = draw
    result = game.solve_minimal(MAX_CLOSED)
    moves = game.moves_made_count if result.value > 0 or result.value == -1 else 0
    pipe.send((result.name, moves))


def solve_klondike(
    deal: int, options: dict[str, Any], seconds: float | None, nodes: int | None
) -> tuple[str, float, float, int, int, float]:
    """(result, seconds, CPU seconds, nodes, moves, peak MiB) of Klondike-Solver on ``deal``."""
    if options.get("passes", "unlimited") != "unlimited" or not options.get(
        "from_foundation", True
    ):
        raise ValueError("Klondike-Solver plays unlimited passes with from_foundation on only")
    if nodes is not None:
        raise ValueError("Klondike-Solver has no node budget: use --budget")
    draw = int(options.get("draw", 3))
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = context.Process(target=_child, args=(deal, draw, seconds, send))
    child.start()
    send.close()
    try:
        answer = receive.recv()
    except EOFError:  # the child was stopped by its CPU cap
        answer = None
    child.join()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    peak = after.ru_maxrss / 1024
    result, moves = "unknown", 0
    if answer is not None:
        name, moves = answer
        result = {
            "SolvedMinimal": "won",
            "SolvedMayNotBeMinimal": "won",
            "Impossible": "unwinnable",
        }.get(name, "unknown")
    return result, (cpu if seconds is not None else wall), cpu, 0, moves, peak
