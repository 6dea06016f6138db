"""How well the hints play: the hint policy's win rate beside the solver's, its blunders, and
how long a hint takes.

Run: ``.venv/bin/python benchmarks/hints.py GAME --deals A-B [-o KEY=VALUE ...] [--samples K]
[--nodes N] [--solver-budget S] [--blunder-nodes M] [--winnable] [--store FILE] [--report]``.

For each deal the hint policy (patience.solve.hint at the web app's budget unless told
otherwise) plays the whole game from the player's view, as ``patience autoplay`` does; the
solver, which sees every card, is given the same deal with ``--solver-budget`` CPU seconds: its
win rate is the upper bound of any policy's. With ``--blunder-nodes M`` every hinted move is
checked with the hidden cards known: a **blunder** is a move from a position the solver proves
winnable (within M nodes) to one it proves lost, where the hint judged another move still
winnable in more than half of its worlds (the row also counts every hinted move that lost a
proved win, blunder or not, and how many blunders were *outvoted*: another move had been won in
more of the hint's worlds than the move chosen; the others were ties that no sampled world told
apart, decided by progress). ``--winnable`` keeps only the deals of the range on the game's
shipped winnable list (src/patience/data/winnable). Each deal's figures go to ``--store``
(JSON lines, keyed by game, options, policy, solver budget and blunder budget) as soon as it
is played: a run stopped part way goes on where it stopped, and ``--report`` prints the deals
of the range already stored without playing any. Prints one row: deals, the policy's and the
solver's win rates with 95% Wilson intervals, blunders, and the median and 95th-percentile CPU
seconds of a hint.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import patience
from patience.engine import Game
from patience.options import parse_option_pairs
from patience.solve import hint, solve
from patience.solve.autoplay import Policy, play_with_hints
from patience.solve.hint import Hint, hint_budget
from patience.stats import Interval
from patience.study.winnable import shipped_deals

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solve import deal_range, percentile  # benchmarks/solve.py


def proved(game: Game, nodes: int) -> str:
    """The solver's answer for ``game`` as it stands (it sees every card)."""
    return solve(game, nodes=nodes).result


def play(game: Game, policy: Policy, blunder_nodes: int | None) -> dict[str, Any]:
    """The hint policy plays ``game`` to its end (:func:`play_with_hints`, the loop of
    ``patience autoplay``); its result, hint CPU times, blunders, and the hinted moves that
    lost a position proved winnable (``lost_wins``, a blunder or not)."""
    times: list[float] = []
    counts = {"blunders": 0, "lost_wins": 0}
    losses: list[dict[str, Any]] = []
    # The solver's answer for the position as it stands; once it is proved lost, no later
    # move can lose a win, and the checks stop.
    before = proved(game, blunder_nodes) if blunder_nodes else ""

    def check(game: Game, answer: Hint, cpu_seconds: float) -> None:
        nonlocal before
        times.append(cpu_seconds)
        if answer.move is None or not blunder_nodes or before == "unwinnable":
            return
        game.push(answer.move)
        after = proved(game, blunder_nodes)
        game.pop()
        if before == "won" and after == "unwinnable":
            counts["lost_wins"] += 1
            # The race drops a move once it cannot be the best: judge every move in every
            # world to know how many stayed winnable (the same move is chosen).
            full = hint(game, samples=policy.samples, seconds=None, nodes=policy.nodes, race=False)
            chosen = answer.move.text()
            others = [
                won for text, won in full.votes.items() if text != chosen and won * 2 > full.samples
            ]
            counts["blunders"] += bool(others)
            losses.append(
                {
                    "hint": len(times),
                    "move": chosen,
                    "won": full.votes.get(chosen, 0),
                    "best_other": max(others, default=0),
                    "samples": full.samples,
                    "blunder": bool(others),
                }
            )
        before = after

    played = play_with_hints(game, policy, check)
    return {
        "won": played.result == "won",
        "times": times,
        "reason": played.reason,
        **counts,
        "losses": losses,
    }


def outvoted(row: dict[str, Any]) -> int | None:
    """How many of ``row``'s blunders chose a move that fewer of the hint's worlds won than
    another move (the others were ties: no sampled world told the moves apart); None for rows
    stored before each lost win was kept."""
    if not row["blunders"]:
        return 0
    if "losses" not in row:
        return None
    return sum(1 for loss in row["losses"] if loss["blunder"] and loss["best_other"] > loss["won"])


def rate(wins: int, deals: int) -> str:
    interval = Interval.wilson(wins, deals)
    return f"{interval.mean:.1%} ({interval.low:.1%}-{interval.high:.1%})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--deals", type=deal_range, default=range(1001, 1011), help="A-B")
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--samples", type=int, default=None, help="default: the web app's")
    parser.add_argument("--nodes", type=int, default=None, help="default: the web app's")
    parser.add_argument("--solver-budget", type=float, default=10.0, help="CPU s a deal")
    parser.add_argument("--blunder-nodes", type=int, default=None)
    parser.add_argument(
        "--winnable", action="store_true", help="only the deals of the range on the winnable list"
    )
    parser.add_argument("--store", type=Path, default=None, help="JSON lines kept between runs")
    parser.add_argument(
        "--report", action="store_true", help="only the deals of the range already stored"
    )
    args = parser.parse_args(argv)
    options = parse_option_pairs(args.option)
    budget = hint_budget(args.game)
    args.samples = budget["samples"] if args.samples is None else args.samples
    args.nodes = budget["nodes"] if args.nodes is None else args.nodes
    key = {
        "game": args.game,
        "options": sorted(args.option),
        "policy": Policy(args.samples, args.nodes).key(args.game),
        "solver_budget": args.solver_budget,
        "blunder_nodes": args.blunder_nodes,
    }
    stored: dict[int, dict[str, Any]] = {}
    if args.store is not None and args.store.exists():
        for line in args.store.read_text().splitlines():
            row = json.loads(line)
            if row["key"] == key:
                stored[row["deal"]] = row
    deals_asked: list[int] = list(args.deals)
    if args.winnable:
        listed = set(shipped_deals(patience.new(args.game, deal=1, **options).rules))
        if not listed:
            parser.error(f"no winnable list is shipped for {args.game} {' '.join(args.option)}")
        deals_asked = [deal for deal in deals_asked if deal in listed]
    policy_wins = solver_wins = blunders = lost_wins = outvoted_blunders = 0
    blunders_unseen = 0  # blunders of rows stored without each lost win
    times: list[float] = []
    for deal in deals_asked:
        row = stored.get(deal)
        if row is None and args.report:
            continue
        if row is None:
            game = patience.new(args.game, deal=deal, **options)
            solved = solve(game, seconds=args.solver_budget, cpu_time=True).result
            played = play(game, Policy(args.samples, args.nodes), args.blunder_nodes)
            row = {"key": key, "deal": deal, "solver": solved, **played}
            if args.store is not None:
                with args.store.open("a") as store:
                    store.write(json.dumps(row) + "\n")
        solver_wins += row["solver"] == "won"
        policy_wins += row["won"]
        blunders += row["blunders"]
        lost_wins += row.get("lost_wins", 0)
        against = outvoted(row)
        if against is None:
            blunders_unseen += row["blunders"]
        else:
            outvoted_blunders += against
        times.extend(row["times"])
        print(
            f"deal {deal}: policy {'won' if row['won'] else 'lost'}, solver {row['solver']}, "
            f"{len(row['times'])} hints",
            flush=True,
        )
    deals = len(deals_asked) if not args.report else len(set(deals_asked) & set(stored))
    if not times:
        print(f"no deal of the range played yet ({args.game} {' '.join(args.option)})")
        return 1
    print()
    print(
        "| game | deals | policy wins | solver wins | blunders "
        "| hint CPU median s | hint CPU p95 s |\n"
        "| --- | ---: | --- | --- | ---: | ---: | ---: |"
    )
    name = args.game + "".join(f" {pair}" for pair in args.option)
    unseen = f", {blunders_unseen} not kept" if blunders_unseen else ""
    checked = (
        f"{blunders} ({outvoted_blunders} outvoted{unseen}; {lost_wins} wins lost)"
        if args.blunder_nodes
        else "-"
    )
    print(
        f"| {name} | {deals} | {rate(policy_wins, deals)} | {rate(solver_wins, deals)} "
        f"| {checked} | {statistics.median(times):.2f} | {percentile(times, 0.95):.2f} |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
