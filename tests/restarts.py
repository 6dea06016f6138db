"""A check shared by the solver tests of games whose adapters restart: runs in other orders,
keeping only proved losses, answer as the plain search does, and their wins replay."""

from __future__ import annotations

from typing import Any

from patience.engine import Game
from patience.solve import solve
from patience.solve.search import Budget, depth_first


def restarted_answers(
    adapter_class: type[Any], games: list[Game], plain_nodes: int, nodes: int
) -> tuple[int, int]:
    """Solve each game with ``adapter_class`` made to restart every 5 nodes and compare with
    the plain search (no table, no dominance) where that finishes within ``plain_nodes``;
    every win must replay through the engine. Returns (games compared, games that restarted)."""

    class OftenRestarting(adapter_class):  # type: ignore[misc,valid-type]
        restart_nodes = 5
        first_run_nodes = 5

    compared = restarted = 0
    for index, game in enumerate(games):
        plain = solve(game, nodes=plain_nodes, table=False, dominance=False).result
        if plain == "unknown":
            continue
        compared += 1
        adapter = OftenRestarting(game.rules)
        found = depth_first(adapter, adapter.node(game.state), Budget(nodes=nodes))
        assert found.result == plain, index
        restarted += found.nodes > 10
        if found.result == "won":
            copy = Game.create(game.rules, state=game.state)
            for move in found.moves:
                copy.push(move)
            assert copy.outcome().result == "won"
    return compared, restarted
