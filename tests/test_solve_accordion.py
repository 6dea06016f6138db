"""The Accordion adapter: wins replay (deals included), answers agree with the generic adapter
and the plain searches on small positions, dealing one at a time is as winnable as dealing all,
node budgets repeat."""

from __future__ import annotations

import random
from typing import Any

import pytest

import patience
from patience.cards import Card
from patience.engine import Rules, State
from patience.games import get_rules
from patience.games.accordion import ROW, Accordion
from patience.solve import solve, solve_state
from patience.solve.accordion import AccordionAdapter


def small(seed: int, row: int, stock: int, dealing: str = "one") -> tuple[Rules[Any], State]:
    """A position with most cards already gathered in ``t1``, ``row`` more piles of one card
    and ``stock`` cards still to deal (dealt onto the row instead with ``dealing=all``)."""
    rng = random.Random(seed)
    # The loose cards come from two suits, so that about half the positions are winnable.
    suits = rng.sample(range(4), 2)
    loose = [Card(value) for value in range(52) if value // 13 in suits]
    rng.shuffle(loose)
    loose = loose[: row + stock]
    cards = [Card(value) for value in range(52) if Card(value) not in loose] + loose
    rules = get_rules("accordion", {"dealing": dealing})
    piles: dict[str, list[Card]] = {name: [] for name in rules.pile_names}
    gathered = 52 - row - stock
    piles["t1"] = cards[:gathered]
    loose = cards[gathered:]
    if dealing == "all":
        row, stock = row + stock, 0
    for name, one in zip(ROW[1:], loose[:row], strict=False):
        piles[name] = [one]
    # The stock lists its cards bottom first: the next card to deal is the last one.
    piles["stock"] = loose[row:][::-1]
    down = dict.fromkeys(rules.pile_names, 0)
    down["stock"] = len(piles["stock"])
    return rules, State(piles=piles, down=down)


# -- whole deals ---------------------------------------------------------------------------


@pytest.mark.parametrize(("deal", "dealing"), [(2, "one"), (3, "one"), (5, "one"), (2, "all")])
def test_deals_are_won_and_the_wins_replay(deal: int, dealing: str) -> None:
    game = patience.new("accordion", deal=deal, dealing=dealing)
    solution = solve(game, nodes=50_000)
    assert solution.result == "won"
    if dealing == "one":
        assert any(move.is_action for move in solution.moves)
    game.replay_moves(solution.moves)
    assert game.outcome().result == "won"


def test_node_budget_is_reproducible_and_unknown_when_it_runs_out() -> None:
    runs = [solve(patience.new("accordion", deal=4), nodes=30_000) for _ in range(2)]
    assert runs[0].result == runs[1].result == "won"
    assert runs[0].moves == runs[1].moves
    assert runs[0].nodes == runs[1].nodes
    short = solve(patience.new("accordion", deal=4), nodes=20)
    assert short.result == "unknown"


def test_solving_continues_a_game() -> None:
    game = patience.new("accordion", deal=3)
    for _ in range(6):
        game.push(game.legal_moves()[-1])
    solution = solve(game, nodes=50_000)
    assert solution.result == "won"
    game.replay_moves(solution.moves)
    assert game.outcome().result == "won"


def test_the_adapter_is_registered() -> None:
    from patience.solve import adapter_for

    game = patience.new("accordion", deal=1)
    assert isinstance(adapter_for(game.rules).adapter, AccordionAdapter)


# -- agreement on small positions ------------------------------------------------------------


@pytest.mark.parametrize("stock", [0, 3, 6])
def test_fast_adapter_agrees_with_generic_and_plain_searches(stock: int) -> None:
    answers = set()
    for seed in range(10):
        rules, state = small(seed, row=8 - stock, stock=stock)
        fast = solve_state(rules, state, nodes=100_000)
        plain = solve_state(rules, state, nodes=100_000, generic=True)
        no_order = solve_state(rules, state, nodes=100_000, dominance=False)
        no_table = solve_state(rules, state, nodes=100_000, table=False)
        assert fast.result in ("won", "unwinnable"), seed
        assert fast.result == plain.result == no_order.result == no_table.result, seed
        answers.add(fast.result)
    assert answers == {"won", "unwinnable"}


def test_dealing_one_at_a_time_is_as_winnable_as_dealing_all() -> None:
    for seed in range(10):
        one = solve_state(*small(seed, row=4, stock=6), nodes=100_000)
        every = solve_state(*small(seed, row=4, stock=6, dealing="all"), nodes=100_000)
        assert one.result == every.result != "unknown", seed


@pytest.mark.parametrize("dealing", ["one", "all"])
def test_every_step_is_what_the_engine_makes_of_its_moves(dealing: str) -> None:
    rng = random.Random(3)
    for deal in range(1, 6):
        game = patience.new("accordion", deal=deal, dealing=dealing)
        rules = game.rules
        assert isinstance(rules, Accordion)
        adapter = AccordionAdapter(rules)
        state = game.state
        node = adapter.node(state)
        while True:
            steps = adapter.steps(node, False)
            if not steps:
                break
            for step, child in steps:
                after = state
                for move in adapter.moves(node, step):
                    after, _ = rules.apply(after, move)
                again = adapter.node(after)
                assert (again.tops, again.sizes, again.dealt) == (
                    child.tops,
                    child.sizes,
                    child.dealt,
                )
                assert adapter.path_key(again) == adapter.path_key(child)
            step, child = steps[rng.randrange(len(steps))]
            for move in adapter.moves(node, step):
                state, _ = rules.apply(state, move)
            node = child
