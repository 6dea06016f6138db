"""How well the solvers do on a range of deals, engine beside engine: won / unwinnable / unknown,
how fast, how many nodes a second, and how much memory.

Run: ``.venv/bin/python benchmarks/solve.py GAME --engine core,python --deals A-B --budget S
--cpu [-o KEY=VALUE ...]`` (``--nodes N`` instead of ``--budget`` gives a reproducible run;
``--cpu`` counts the budget and the seconds printed in CPU seconds of the solving thread, for
fair figures on a busy machine; ``--python-deals A-B`` runs the Python engine on a subset, it is
slow). Every deal is solved in a fresh process, so the peak resident size printed is that
deal's own. For Klondike, ``--engine ...,ksolve`` adds Klondike-Solver (the ``pyksolve`` package
from PyPI, installed for the benchmark only: ``.venv/bin/pip install pyksolve``) on the same
deals: see ``benchmarks/ksolve.py``.

Prints one line per deal and engine (``--quiet``: only the table), then one row per engine:
resolved, won, unwinnable, unknown, median and 90th-percentile seconds, nodes per CPU second,
the largest peak resident size; when ``--python-deals`` is a subset, the core's row on those
deals alone and the ratio of the two engines' nodes per CPU second on them.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import patience
from patience.options import parse_option_pairs
from patience.solve import solve

sys.path.insert(0, str(Path(__file__).resolve().parent))


def deal_range(text: str) -> range:
    """``A-B`` (both included) or a single deal number."""
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[index]


@dataclass
class DealRun:
    """One deal solved by one engine."""

    engine: str
    deal: int
    result: str
    seconds: float
    cpu_seconds: float
    nodes: int
    moves: int
    peak_mib: float


def solve_deal(
    engine: str,
    game_name: str,
    deal: int,
    options: dict[str, Any],
    seconds: float | None,
    nodes: int | None,
    cpu_time: bool,
) -> DealRun:
    """Solve one deal (in a worker process of its own)."""
    if engine == "ksolve":
        from ksolve import solve_klondike

        return DealRun(engine, deal, *solve_klondike(deal, options, seconds, nodes))
    game = patience.new(game_name, deal=deal, **options)
    started = time.thread_time()
    solution = solve(game, seconds=seconds, nodes=nodes, cpu_time=cpu_time, engine=engine)
    cpu = time.thread_time() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return DealRun(
        engine,
        deal,
        solution.result,
        solution.seconds,
        cpu,
        solution.nodes,
        len(solution.moves),
        peak,
    )


def run_one(job: tuple[Any, ...]) -> DealRun:
    return solve_deal(*job)


def nodes_per_cpu_second(runs: list[DealRun]) -> float:
    """The runs' nodes over their CPU seconds (0 without either)."""
    cpu = sum(run.cpu_seconds for run in runs)
    return sum(run.nodes for run in runs) / cpu if cpu else 0.0


def summary_row(engine: str, runs: list[DealRun]) -> str:
    counts = {kind: sum(run.result == kind for run in runs) for kind in ("won", "unwinnable")}
    unknown = len(runs) - counts["won"] - counts["unwinnable"]
    seconds = [run.seconds for run in runs]
    speed = nodes_per_cpu_second(runs)
    rate = f"{speed:,.0f}" if speed else "-"
    return (
        f"| {engine} | {len(runs)} | {counts['won'] + counts['unwinnable']} | {counts['won']} "
        f"| {counts['unwinnable']} | {unknown} | {statistics.median(seconds):.2f} "
        f"| {percentile(seconds, 0.9):.2f} | {rate} | {max(run.peak_mib for run in runs):,.0f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--deals", type=deal_range, default=range(1, 51), help="A-B")
    parser.add_argument(
        "--engine", default="core", help="engines side by side: core, python, ksolve (comma list)"
    )
    parser.add_argument(
        "--python-deals", type=deal_range, default=None, help="A-B: the Python engine's deals"
    )
    parser.add_argument("--budget", type=float, default=None, help="seconds per deal")
    parser.add_argument("--nodes", type=int, default=None, help="nodes per deal")
    parser.add_argument(
        "--cpu", action="store_true", help="count the budget in CPU seconds of the solver"
    )
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--quiet", action="store_true", help="only the table")
    parser.add_argument("--jobs", type=int, default=1, help="deals solved at once (processes)")
    args = parser.parse_args(argv)
    engines = [name.strip() for name in args.engine.split(",") if name.strip()]
    unknown_engines = set(engines) - {"core", "python", "ksolve"}
    if unknown_engines:
        parser.error(f"unknown engine {sorted(unknown_engines)[0]}: core, python or ksolve")
    if "ksolve" in engines and args.game != "klondike":
        parser.error("ksolve (Klondike-Solver) solves Klondike only")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.budget is None and args.nodes is None:
        args.budget = 10.0
    options = parse_option_pairs(args.option)
    jobs = []
    for engine in engines:
        deals = args.python_deals if engine == "python" and args.python_deals else args.deals
        for deal in deals:
            jobs.append((engine, args.game, deal, options, args.budget, args.nodes, args.cpu))
    runs: dict[str, list[DealRun]] = {engine: [] for engine in engines}
    # A fresh process per deal: each deal's peak resident size is its own.
    with ProcessPoolExecutor(max_workers=args.jobs, max_tasks_per_child=1) as pool:
        for run in pool.map(run_one, jobs):
            runs[run.engine].append(run)
            if not args.quiet:
                print(
                    f"{run.engine:<7} deal {run.deal:>5}: {run.result:<10} {run.seconds:7.2f} s "
                    f"{run.nodes:>10} nodes {run.moves:>4} moves {run.peak_mib:7.0f} MiB",
                    flush=True,
                )
    unit = "CPU s" if args.cpu else "s"
    budget = f"{args.nodes:,} nodes" if args.nodes else f"{args.budget:g} {unit}"
    print(
        f"\n{args.game} {' '.join(args.option)}, deals {args.deals.start}-{args.deals.stop - 1}"
        f", {budget} a deal"
    )
    print(
        "| engine | deals | resolved | won | unwinnable | unknown | median s | p90 s "
        "| nodes/CPU s | peak MiB |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for engine in engines:
        if runs[engine]:
            print(summary_row(engine, runs[engine]))
    same = same_deals_ratio(runs)
    if same:
        print(same)
    return 0


def same_deals_ratio(runs: dict[str, list[DealRun]]) -> str | None:
    """The core's row on the Python engine's deals alone, and the two engines' nodes per CPU
    second on them: when the Python engine ran a subset, the whole column compares different
    deals (the harder ones search in larger tables, fewer nodes a second), not the engines."""
    python = runs.get("python", [])
    core = runs.get("core", [])
    deals = {run.deal for run in python}
    subset = [run for run in core if run.deal in deals]
    if not python or not subset or len(subset) == len(core):
        return None
    row = summary_row("core, the Python deals", subset)
    core_speed, python_speed = nodes_per_cpu_second(subset), nodes_per_cpu_second(python)
    if not core_speed or not python_speed:
        return row
    times = core_speed / python_speed
    return f"{row}\n\nOn the same deals the core expands {times:.1f} times the nodes a CPU second."


if __name__ == "__main__":
    sys.exit(main())
