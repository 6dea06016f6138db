"""How fast the engine plays: legal-move generation plus apply, per second, during random play.

Run: ``.venv/bin/python benchmarks/engine.py [--seconds S] [--seed N] [--leopard]`` (or ``make
bench``); ``--leopard`` measures only Leopard's search speeds.

For each registered game, random legal moves are played from deal 0, 1, 2, ... for about the
given number of seconds; a game is restarted when it ends or after ``--cap`` moves (random play
can last very long under the no-repeated-position rule). One "move" is one call of
``legal_moves()`` and one ``push()`` of a move chosen from it, which is what a player, a bot's
playout or a random test does.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

import patience


def measure(name: str, seconds: float, seed: int, cap: int) -> tuple[int, int, float]:
    """Play random moves for about ``seconds``; return (moves, games, elapsed)."""
    rng = random.Random(seed)
    moves = games = 0
    deal = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = patience.new(name, deal=deal)
        games += 1
        deal += 1
        for _ in range(cap):
            legal = game.legal_moves()
            if not legal:
                break
            game.push(rng.choice(legal))
            moves += 1
    return moves, games, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per game (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the moves")
    parser.add_argument("--cap", type=int, default=500, help="moves per game at most")
    parser.add_argument(
        "--leopard", action="store_true", help="only Leopard's search speeds (Python and core)"
    )
    args = parser.parse_args()
    if args.leopard:
        Console().print(leopard_table(args.seconds, args.seed))
        return
    table = Table(title="Engine speed: legal_moves() + push() during random play")
    for column in ("game", "moves", "games", "seconds", "moves/s"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for name in patience.GAMES:
        moves, games, elapsed = measure(name, args.seconds, args.seed, args.cap)
        table.add_row(name, str(moves), str(games), f"{elapsed:.1f}", f"{moves / elapsed:,.0f}")
    Console().print(table)
    Console().print(leopard_table(args.seconds, args.seed))


def leopard_playouts(seconds: float, seed: int) -> tuple[int, float]:
    """Whole Leopard deals played out with random legal actions on bare states (the rules'
    integer-action API, as a search playout does it); return (deals, elapsed)."""
    from patience.games.leopard import Leopard

    rules = Leopard({"deals": 1})
    rng = random.Random(seed)
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = rules.deal(deals)
        while not rules.is_terminal(state):
            actions = rules.legal_actions(state)
            state = rules.apply_action(state, actions[rng.randrange(len(actions))], in_place=True)
        deals += 1
    return deals, time.perf_counter() - start


def ismcts_rate(seconds: float, seed: int, engine: str) -> tuple[int, float]:
    """ISMCTS iterations run from the first move of Leopard deals (the longest playouts) for
    about ``seconds`` of CPU time, the search in ``engine`` (``python`` or ``core``); return
    (iterations, CPU seconds)."""
    from patience.bots import IsmctsBot

    iterations = 0
    start = time.process_time()
    deal = 0
    while time.process_time() - start < seconds:
        game = patience.new("leopard", deal=deal, deals=1)
        bot = IsmctsBot(seed=seed, iterations=200 if engine == "python" else 5000, engine=engine)
        bot.choose(game.view(game.current_player()))
        iterations += bot.last_iterations
        deal += 1
    return iterations, time.process_time() - start


def leopard_table(seconds: float, seed: int) -> Table:
    """Leopard's search speeds: random playouts of whole deals, and ISMCTS iterations."""
    table = Table(title="Leopard search speed")
    for column in ("measure", "count", "seconds", "per second"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    deals, elapsed = leopard_playouts(seconds, seed)
    table.add_row(
        "random playouts (whole deals)", str(deals), f"{elapsed:.1f}", f"{deals / elapsed:,.0f}"
    )
    for engine in ("python", "core"):
        iterations, elapsed = ismcts_rate(seconds, seed, engine)
        table.add_row(
            f"ISMCTS iterations (first move, {engine}, per CPU second)",
            str(iterations),
            f"{elapsed:.1f}",
            f"{iterations / elapsed:,.0f}",
        )
    return table


if __name__ == "__main__":
    main()
