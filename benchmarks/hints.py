"""How well the hints play: the hint policy's win rate beside the solver's, its blunders, and
how long a hint takes.

Run: ``.venv/bin/python benchmarks/hints.py GAME --deals A-B [-o KEY=VALUE ...] [--samples K]
[--nodes N] [--solver-budget S] [--blunder-nodes M]``.

For each deal the hint policy (patience.solve.hint at the web app's budget unless told
otherwise) plays the whole game from the player's view, as ``patience autoplay`` does; the
solver, which sees every card, is given the same deal with ``--solver-budget`` CPU seconds: its
win rate is the upper bound of any policy's. With ``--blunder-nodes M`` every hinted move is
checked with the hidden cards known: a **blunder** is a move from a position the solver proves
winnable (within M nodes) to one it proves lost, where the hint judged another move still
winnable in more than half of its worlds. Prints one row: deals, the policy's and the solver's
win rates with 95% Wilson intervals, blunders, and the hint's median and 95th-percentile
seconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import patience
from patience.engine import Game
from patience.options import parse_option_pairs
from patience.solve import hint, solve
from patience.solve.autoplay import MAX_MOVES
from patience.solve.hint import DEFAULT_NODES, DEFAULT_SAMPLES
from patience.stats import Interval


def deal_range(text: str) -> range:
    """``A-B`` (both included) or a single deal number."""
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[index]


def proved(game: Game, nodes: int) -> str:
    """The solver's answer for ``game`` as it stands (it sees every card)."""
    return solve(game, nodes=nodes).result


def play(game: Game, samples: int, nodes: int, blunder_nodes: int | None) -> dict[str, Any]:
    """The hint policy plays ``game`` to its end; its result, hint times and blunders."""
    times: list[float] = []
    blunders = 0
    for _ in range(MAX_MOVES):
        if game.is_over():
            break
        started = time.perf_counter()
        answer = hint(game, samples=samples, seconds=None, nodes=nodes)
        times.append(time.perf_counter() - started)
        if answer.move is None:
            break
        before = proved(game, blunder_nodes) if blunder_nodes else ""
        game.push(answer.move)
        if before == "won" and blunder_nodes and proved(game, blunder_nodes) == "unwinnable":
            others = [
                won
                for text, won in answer.votes.items()
                if text != answer.move.text() and won * 2 > answer.samples
            ]
            blunders += bool(others)
    return {"won": game.outcome().result == "won", "times": times, "blunders": blunders}


def rate(wins: int, deals: int) -> str:
    interval = Interval.wilson(wins, deals)
    return f"{interval.mean:.1%} ({interval.low:.1%}-{interval.high:.1%})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--deals", type=deal_range, default=range(1001, 1011), help="A-B")
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES)
    parser.add_argument("--solver-budget", type=float, default=10.0, help="CPU s a deal")
    parser.add_argument("--blunder-nodes", type=int, default=None)
    args = parser.parse_args(argv)
    options = parse_option_pairs(args.option)
    policy_wins = solver_wins = blunders = 0
    times: list[float] = []
    for deal in args.deals:
        game = patience.new(args.game, deal=deal, **options)
        solved = solve(game, seconds=args.solver_budget, cpu_time=True).result
        solver_wins += solved == "won"
        played = play(game, args.samples, args.nodes, args.blunder_nodes)
        policy_wins += played["won"]
        blunders += played["blunders"]
        times.extend(played["times"])
        print(
            f"deal {deal}: policy {'won' if played['won'] else 'lost'}, solver {solved}, "
            f"{len(played['times'])} hints",
            flush=True,
        )
    deals = len(args.deals)
    print()
    print(
        "| game | deals | policy wins | solver wins | blunders | hint median s | hint p95 s |\n"
        "| --- | ---: | --- | --- | ---: | ---: | ---: |"
    )
    name = args.game + "".join(f" {pair}" for pair in args.option)
    checked = str(blunders) if args.blunder_nodes else "-"
    print(
        f"| {name} | {deals} | {rate(policy_wins, deals)} | {rate(solver_wins, deals)} "
        f"| {checked} | {statistics.median(times):.2f} | {percentile(times, 0.95):.2f} |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
