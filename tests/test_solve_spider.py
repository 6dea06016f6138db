"""The Spider solver (docs/solving.md, "Spider"): its steps are the engine's moves, its answers
agree with the generic solver and the plain searches on small positions, and node budgets are
reproducible."""

from __future__ import annotations

import random
from typing import Any

import patience
from patience.engine import Game
from patience.solve import adapter_for, solve
from patience.solve.generic import GenericAdapter
from patience.solve.search import Budget, staged, staged_beam
from patience.solve.spider import SpiderAdapter
from solver_checks import restarted_answers, steps_replayed, take_a_step

RANKS = "A23456789TJQK"
SUITS = "cdhs"


def endgame(seed: int, stock: bool) -> Game:
    """A random position with seven suits removed: the cards of the other one lie face up and
    face down on a few piles (with ``stock``, four of them wait in the stock for the last
    deal)."""
    rng = random.Random(seed)
    left = [rng.randrange(4)]
    cards = [RANKS[rank] + SUITS[suit] for suit in left for rank in range(13)]
    rng.shuffle(cards)
    piles: dict[str, dict[str, list[str]]] = {}
    removed = [0, 0, 1, 1, 2, 2, 3, 3]
    for suit in left:
        removed.remove(suit)
    for index in range(8):
        up = []
        if index < len(removed):
            up = [RANKS[rank] + SUITS[removed[index]] for rank in range(12, -1, -1)]
        piles[f"f{index + 1}"] = {"down": [], "up": up}
    piles["stock"] = {"down": cards[:4] if stock else [], "up": []}
    rest = cards[4:] if stock else cards
    columns: list[list[str]] = [[] for _ in range(10)]
    used = rng.sample(range(10), rng.randint(3, 6) if stock else rng.randint(2, 4))
    for text in rest:
        columns[rng.choice(used)].append(text)
    if stock:
        # A deal needs every pile filled: put one card on each empty pile.
        for column in columns:
            if not column:
                donor = max(columns, key=len)
                column.append(donor.pop(0))
    for index, column in enumerate(columns):
        hidden = min(rng.randint(0, 2), max(len(column) - 1, 0))
        piles[f"t{index + 1}"] = {"down": column[:hidden], "up": column[hidden:]}
    data = {"version": 1, "game": "spider", "options": {}, "piles": piles}
    return Game.from_position(data)


def test_every_step_is_what_the_engine_does() -> None:
    """Along random lines, each step's engine moves lead where the adapter says, and every
    engine move leads to the key of a step's child."""
    checked = 0
    for deal, options in ((1, {}), (2, {"suits": 2}), (3, {"layout": 54})):
        game = patience.new("spider", deal=deal, **options)
        adapter = adapter_for(game.rules).adapter
        assert isinstance(adapter, SpiderAdapter)
        rng = random.Random(deal)
        for _ in range(60):
            node = adapter.node(game.state)
            steps = adapter.steps(node, False)
            if not steps:
                break
            keys = {adapter.canonical(child) for _, child in steps}
            for move in game.legal_moves():
                after, _ = game.rules.perform(game.state, move)
                assert adapter.canonical(adapter.node(after)) in keys, move.text()
            legal = steps_replayed(adapter, game, node, steps)
            checked += len(legal)
            if not take_a_step(adapter, game, node, legal, rng):
                break
    assert checked > 500


def test_the_fast_solver_agrees_with_the_plain_searches() -> None:
    """With and without dominance and table. (The generic adapter is too slow on these; it is
    compared on the blocked layout below.)"""
    for seed in range(12):
        game = endgame(seed, stock=seed % 2 == 1)
        results = {
            solve(game, nodes=5_000).result,
            solve(game, nodes=5_000, dominance=False).result,
            solve(game, nodes=5_000, table=False).result,
        }
        assert results == {"won"}, (seed, results)


def test_a_blocked_layout_is_unwinnable_by_every_solver() -> None:
    """Ten tops none of which fits on another, no space, no stock: no move at all."""
    tops = [rank + suit for rank in "A3579" for suit in "ch"]
    under = [rank + suit for rank in "2468TJQK" for suit in "ch"]
    piles: dict[str, dict[str, list[str]]] = {"stock": {"down": [], "up": []}}
    for index, suit in enumerate([0, 1, 1, 2, 3, 3]):
        piles[f"f{index + 1}"] = {
            "down": [],
            "up": [RANKS[r] + SUITS[suit] for r in range(12, -1, -1)],
        }
    for index in (6, 7):
        piles[f"f{index + 1}"] = {"down": [], "up": []}
    for index in range(10):
        column = under[index::10]
        piles[f"t{index + 1}"] = {"down": column, "up": [tops[index]]}
    game = Game.from_position({"version": 1, "game": "spider", "options": {}, "piles": piles})
    for options in ({}, {"generic": True}, {"dominance": False}, {"table": False}):
        assert solve(game, nodes=1_000, **options).result == "unwinnable"
    # The staged search alone never proves a loss.
    adapter = SpiderAdapter(game.rules)
    assert staged(adapter, adapter.node(game.state), Budget(nodes=1_000)).result == "unknown"


def test_auto_remove_off_uses_the_generic_adapter() -> None:
    rules: Any = patience.new("spider", deal=1, auto_remove=False).rules
    assert isinstance(adapter_for(rules).adapter, GenericAdapter)


def test_node_budgets_are_reproducible() -> None:
    first = solve(patience.new("spider", deal=1), nodes=2_000)
    second = solve(patience.new("spider", deal=1), nodes=2_000)
    assert first.result == second.result == "unknown"
    assert first.nodes == second.nodes
    won = solve(endgame(3, stock=False), nodes=20_000)
    again = solve(endgame(3, stock=False), nodes=20_000)
    assert won.result == again.result
    assert won.moves == again.moves


def test_restarts_keep_the_answers() -> None:
    """Restarting every few nodes (the reorder acts while the stock holds cards) changes no
    answer of the plain search, and the wins replay."""
    games = [endgame(seed, stock=seed % 2 == 0) for seed in range(12)]
    compared, restarted = restarted_answers(SpiderAdapter, games, plain_nodes=2_000, nodes=5_000)
    assert compared >= 10  # the plain search is slow on a few of them
    assert restarted >= 3


def replayed_wins(games: list[Game], search: Any, budget: Budget) -> int:
    """How many of ``games`` an incomplete ``search`` wins; it answers only won or unknown, and
    every win replays to a win through the engine."""
    wins = 0
    for game in games:
        adapter = SpiderAdapter(game.rules)
        found = search(adapter, adapter.node(game.state), budget)
        assert found.result in ("won", "unknown")
        if found.result == "won":
            wins += 1
            copy = Game.create(game.rules, state=game.state)
            for move in found.moves:
                copy.push(move)
            assert copy.outcome().result == "won"
    return wins


def test_the_staged_search_wins_endgames_and_its_wins_replay() -> None:
    """The beam before the last deal (docs/solving.md, "The staged search") answers won or
    unknown only, and its wins replay."""
    games = [endgame(seed, stock=True) for seed in range(8)]
    assert replayed_wins(games, staged, Budget(nodes=3_000)) >= 6


def test_the_staged_beam_wins_and_its_wins_replay() -> None:
    """The staged beam (docs/solving.md, Spider, "Staged beam") answers won or unknown only,
    reproducibly with a node budget, and its wins replay: endgames before the last deal and a
    two-suit deal from the start."""
    games = [endgame(seed, stock=True) for seed in range(6)]
    games.append(patience.new("spider", deal=3, suits=2))
    assert replayed_wins(games, staged_beam, Budget(nodes=20_000)) >= 6
    game = games[-1]
    adapter = SpiderAdapter(game.rules)
    first = staged_beam(adapter, adapter.node(game.state), Budget(nodes=20_000))
    assert first.result == "won"
    again = staged_beam(adapter, adapter.node(game.state), Budget(nodes=20_000))
    assert (again.result, again.moves, again.nodes) == (first.result, first.moves, first.nodes)
