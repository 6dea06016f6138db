"""Checks shared by the solver tests: every step of an adapter is what the engine makes of its
moves, random walks through the steps, and restarts that change no answer."""

from __future__ import annotations

import random
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


def steps_replayed(adapter: Any, game: Game, node: Any, steps: list[tuple[Any, Any]]) -> list[Any]:
    """The steps of ``node`` (the adapter's node of ``game``'s state) whose moves the engine
    accepts from there, each checked to give the adapter's child (a step the engine refuses
    repeats a position of this line)."""
    legal = []
    for step, child in steps:
        copy = Game.create(game.rules, state=game.state)
        try:
            for move in adapter.moves(node, step):
                copy.push(move)
        except ValueError:
            continue
        assert adapter.node(copy.state).path() == child.path()
        legal.append(step)
    return legal


def take_a_step(adapter: Any, game: Game, node: Any, legal: list[Any], rng: random.Random) -> bool:
    """Push onto ``game`` the moves of one of the ``legal`` steps, picked at random among those
    that repeat no position of the game; False if none does."""
    rng.shuffle(legal)
    for step in legal:
        pushed = 0
        try:
            for move in adapter.moves(node, step):
                game.push(move)
                pushed += 1
            return True
        except ValueError:  # it repeats a position of this game
            for _ in range(pushed):
                game.pop()
    return False
