"""How well the solver does on a range of deals: won / unwinnable / unknown, and how fast.

Run: ``.venv/bin/python benchmarks/solve.py GAME --deals A-B --budget S [-o KEY=VALUE ...]``
(``--nodes N`` instead of ``--budget`` gives a reproducible run; ``--cpu`` counts the budget and
the seconds printed in CPU time of the solving process, for fair figures on a busy machine;
``--jobs N`` solves N deals at a time in separate processes). Prints one line per deal and
then the counts, the median and 90th-percentile seconds per deal, and nodes per second (per
process).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import patience
from patience.options import parse_option_pairs
from patience.solve import solve


def deal_range(text: str) -> range:
    """``A-B`` (both included) or a single deal number."""
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[index]


def solve_deal(
    game_name: str,
    deal: int,
    options: dict[str, Any],
    seconds: float | None,
    nodes: int | None,
    cpu_time: bool = False,
) -> tuple[int, str, float, int, int]:
    """Solve one deal: (deal, result, seconds, nodes, number of moves)."""
    game = patience.new(game_name, deal=deal, **options)
    solution = solve(game, seconds=seconds, nodes=nodes, cpu_time=cpu_time)
    return deal, solution.result, solution.seconds, solution.nodes, len(solution.moves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--deals", type=deal_range, default=range(1, 51), help="A-B")
    parser.add_argument("--budget", type=float, default=None, help="seconds per deal")
    parser.add_argument("--nodes", type=int, default=None, help="nodes per deal")
    parser.add_argument(
        "--cpu", action="store_true", help="count the budget in CPU seconds of the process"
    )
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    parser.add_argument("--jobs", type=int, default=1, help="deals solved at once (processes)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.budget is None and args.nodes is None:
        args.budget = 10.0
    options = parse_option_pairs(args.option)
    counts = {"won": 0, "unwinnable": 0, "unknown": 0}
    seconds: list[float] = []
    nodes = 0
    jobs = [(args.game, deal, options, args.budget, args.nodes, args.cpu) for deal in args.deals]
    if args.jobs == 1:
        results: Any = (solve_deal(*job) for job in jobs)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=args.jobs)
        results = pool.map(solve_deal, *zip(*jobs, strict=True))
    for deal, result, spent, count, moves in results:
        counts[result] += 1
        seconds.append(spent)
        nodes += count
        if not args.quiet:
            print(
                f"deal {deal:>4}: {result:<10} {spent:7.2f} s {count:>9} nodes {moves:>4} moves",
                flush=True,
            )
    if pool is not None:
        pool.shutdown()
    total = sum(seconds)
    print(
        f"{args.game} {' '.join(args.option)} deals {args.deals.start}-{args.deals.stop - 1}"
        f"{' (CPU seconds)' if args.cpu else ''}: "
        f"won {counts['won']}, unwinnable {counts['unwinnable']}, unknown {counts['unknown']}; "
        f"median {statistics.median(seconds):.2f} s, 90th percentile "
        f"{percentile(seconds, 0.9):.2f} s, {nodes / total if total else 0:,.0f} nodes/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
