"""The compiled search core plays the same game as the Python rules (docs/solving.md, "The
compiled core").

For every game the core knows and a spread of its options: along random walks over many deals
(and walks hypothesis draws), at every step the core's candidate moves equal the engine's, the
position after each of them (and the forced moves) equal the engine's, every step of the
solver's adapter replays through the engine to the position the core says, and the core's
repetition keys are equal exactly when the engine's are. On small positions the core's answer
equals the Python searches'.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import patience
from corruption import CHANGES, answered_or_refused, corrupted
from drawn_positions import DRAWERS
from patience import _core
from patience.engine import Game, Rules, State
from patience.solve import core, solve
from patience.solve.core import CoreUnavailable

#: (game, options) pairs the differential tests walk: every option of RULES.md for each game
#: the core knows, in combinations.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("klondike", {}),
    ("klondike", {"draw": 1}),
    ("klondike", {"draw": 3, "passes": 1}),
    ("klondike", {"draw": 1, "passes": 2, "from_foundation": False}),
    ("klondike", {"draw": 3, "passes": 3, "from_foundation": False}),
    ("canfield", {}),
    ("canfield", {"spaces": "waste"}),
    ("canfield", {"draw": 1, "passes": 1}),
    ("canfield", {"draw": 3, "passes": 2, "move": "top"}),
    ("canfield", {"draw": 1, "passes": 3, "move": "both", "spaces": "waste"}),
    ("canfield", {"move": "both", "spaces": "stock-or-waste"}),
    ("leonis-own", {}),
    ("leonis-own", {"exile": "choose"}),
    ("accordion", {}),
    ("accordion", {"dealing": "all"}),
    ("napoleon", {}),
    ("spider", {}),
    ("spider", {"suits": 1}),
    ("spider", {"suits": 2, "layout": 54}),
    ("spider", {"suits": 4, "layout": 54, "auto_remove": False}),
    ("spider", {"suits": 1, "auto_remove": False}),
    ("spider", {"suits": 2, "layout": 50, "auto_remove": False}),
]

#: Per game, the node budgets of the Python adapter and of the generic search on small
#: positions when they differ from (15,000, 2,000): Leoni's Own's 104 cards make the Python
#: searches slow, and most of its positions late in a random walk resolve in a few nodes.
#: Canfield's adapter expands its nodes slowly (the dead-end test of docs/solving.md, rules 7-9).
SMALL_NODES: dict[str, tuple[int, int]] = {"leonis-own": (5_000, 1_000), "canfield": (5_000, 2_000)}

#: Configurations whose Python engine is the generic adapter (Spider with ``auto_remove=off``):
#: a few hundred nodes a second, it resolves none of the positions of the answers test, nor a
#: one-suit Spider position with 13 cards left in 15,000 nodes. Their answers are checked by
#: :func:`test_the_core_wins_small_spider_positions_with_auto_remove_off` instead.
GENERIC_ONLY = [
    config for config in CONFIGS if config[0] == "spider" and config[1].get("auto_remove") is False
]

#: Positions of the answers test (core against the Python searches) a configuration needs
#: resolved by both the core and the Python adapter before it stops walking deals.
SMALL_AGREED = 6

#: Deals walked per configuration, and the most moves of a walk.
WALK_DEALS = range(1, 9)
WALK_MOVES = 160


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    game, options = config
    return game + ("-" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")


def compare_moves(rules: Rules[Any], state: State) -> list[Any]:
    """Assert that the core lists the engine's candidate moves for ``state`` and makes the same
    position (and forced moves) of each; return the moves."""
    engine_moves = rules.candidate_moves(state)
    core_moves = core.candidate_moves(rules, state)
    assert sorted(m.text() for m in core_moves) == sorted(m.text() for m in engine_moves)
    for index, move in enumerate(core_moves):
        after, forced = rules.perform(state, move)
        core_after, core_forced = core.apply(rules, state, index)
        assert core_after == core.encode(rules, after), move.text()
        assert [m.text() for m in core_forced] == [m.text() for m in forced], move.text()
    return engine_moves


def compare_steps(rules: Rules[Any], state: State) -> None:
    """Assert that every step of the core's adapter (with and without dominance) is a line of
    legal engine moves that ends in the position the core says."""
    # Steps share their first moves (stock turns, deals): the engine's state and legal moves
    # after each line of moves are worked out once (perform is deterministic).
    after: dict[tuple[str, ...], State] = {(): state}
    legal: dict[tuple[str, ...], set[str]] = {}
    for dominance in (True, False):
        for moves, parts in core.steps(rules, state, dominance):
            line: tuple[str, ...] = ()
            for move in moves:
                here = after[line]
                if line not in legal:
                    legal[line] = {m.text() for m in rules.candidate_moves(here)}
                assert move.text() in legal[line], (
                    f"step {[m.text() for m in moves]}: {move.text()} is not legal"
                )
                line = (*line, move.text())
                if line not in after:
                    after[line], _ = rules.perform(here, move)
            assert core.encode(rules, after[line]) == parts, [m.text() for m in moves]


def walk(
    rules: Rules[Any], state: State, choices: list[int], keys: dict[Any, int], check_steps: bool
) -> None:
    """Follow ``choices`` (indices into the legal moves, modulo their number) from ``state``,
    comparing the core with the engine at every step; ``keys`` maps engine keys to the core's
    path fingerprints seen so far (an engine key must always give the same fingerprint and
    different keys different fingerprints)."""
    inverse = {fingerprint: key for key, fingerprint in keys.items()}
    for choice in choices:
        _, path, won = core.keys(rules, state)
        engine_key = rules.key(state)
        assert keys.setdefault(engine_key, path) == path
        assert inverse.setdefault(path, engine_key) == engine_key
        outcome = rules.finished(state)
        assert won == (outcome is not None and outcome.result == "won")
        if outcome is not None:
            return
        moves = compare_moves(rules, state)
        if check_steps:
            compare_steps(rules, state)
        if not moves:
            return
        state, _ = rules.perform(state, moves[choice % len(moves)])


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_core_plays_the_engines_game_on_random_walks(
    config: tuple[str, dict[str, Any]],
) -> None:
    game_name, options = config
    keys: dict[Any, int] = {}
    for deal in WALK_DEALS:
        game = patience.new(game_name, deal=deal, **options)
        rng = random.Random(deal)
        choices = [rng.randrange(1 << 30) for _ in range(WALK_MOVES)]
        walk(game.rules, game.state, choices, keys, check_steps=deal <= 3)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@given(
    deal=st.integers(min_value=0, max_value=2**53 - 1),
    choices=st.lists(st.integers(min_value=0, max_value=1 << 30), max_size=120),
)
def test_the_core_plays_the_engines_game_on_drawn_walks(
    config: tuple[str, dict[str, Any]], deal: int, choices: list[int]
) -> None:
    game_name, options = config
    game = patience.new(game_name, deal=deal, **options)
    walk(game.rules, game.state, choices, {}, check_steps=True)


@pytest.mark.parametrize(
    "config", [config for config in CONFIGS if config not in GENERIC_ONLY], ids=config_id
)
def test_core_and_python_engines_give_the_same_answers_on_small_positions(
    config: tuple[str, dict[str, Any]],
) -> None:
    """Positions late in random walks are small: the core's answer must be the Python
    adapter's and the generic search's, and every win must replay.

    The deals are walked in turn until :data:`SMALL_AGREED` positions have been resolved by
    both the core and the Python adapter. A position the core leaves unknown in 200,000 nodes
    is not given to the slower searches: an unknown answer is compared with nothing."""
    game_name, options = config
    compared = set()
    agreed = 0
    for deal in range(1, 16):
        if agreed >= SMALL_AGREED:
            break
        game = patience.new(game_name, deal=deal, **options)
        rng = random.Random(deal)
        for _ in range(rng.randrange(20, 140)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
            if game.is_over():
                game.pop()
                break
        if game.is_over() or not game.legal_moves():
            continue
        python_nodes, generic_nodes = SMALL_NODES.get(game_name, (15_000, 2_000))
        fast = solve(game, nodes=200_000, engine="core")
        compared.add(fast.result)
        if fast.result == "unknown":
            continue
        python = solve(game, nodes=python_nodes, engine="python")
        generic = solve(game, nodes=generic_nodes, generic=True)
        if python.result != "unknown":
            assert fast.result == python.result, deal
            agreed += 1
        if generic.result != "unknown":
            assert fast.result == generic.result, deal
    assert compared & {"won", "unwinnable"}
    assert agreed >= 5


#: Configurations with a drawer of small positions (tests/drawn_positions.py): every game the
#: core solves.
DRAWN_CONFIGS = [config for config in CONFIGS if config[0] in DRAWERS]


@pytest.mark.parametrize("config", DRAWN_CONFIGS, ids=config_id)
@settings(max_examples=8)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    left=st.integers(min_value=1, max_value=30),
    choices=st.lists(st.integers(min_value=0, max_value=1 << 30), max_size=12),
)
def test_the_core_plays_and_solves_drawn_positions_as_the_engine(
    config: tuple[str, dict[str, Any]], seed: int, left: int, choices: list[int]
) -> None:
    """Positions drawn at random rather than reached by play (most cards up, the rest anywhere
    the game allows: stocks and wastes in any order, spaces, runs cut anywhere): along a short
    walk from each the core's moves, steps and keys are the engine's, and its answer is the
    Python adapter's and the generic search's wherever they resolve it (every win replays)."""
    game_name, options = config
    game = Game.from_position(DRAWERS[game_name](options, random.Random(seed), left))
    walk(game.rules, game.state, [*choices, 0], {}, check_steps=True)
    fast = solve(game, nodes=200_000, engine="core")
    if fast.result == "unknown" or config in GENERIC_ONLY:
        return
    # (Spider's Python adapter expands a few thousand nodes a second.)
    python_nodes = 3_000 if game_name == "spider" else SMALL_NODES.get(game_name, (15_000,))[0]
    python = solve(game, nodes=python_nodes, engine="python")
    assert python.result in (fast.result, "unknown")
    if game_name != "spider":
        # (The generic search resolves no Spider position here in a few thousand nodes.)
        generic = solve(game, nodes=1_000, generic=True)
        assert generic.result in (fast.result, "unknown")


def small_spider_position(rules: Any, rng: random.Random, removed: int, stock: int) -> State:
    """A Spider position with ``removed`` suits on the foundations, ``stock`` cards in the
    stock and the rest spread at random over the tableau (some face down)."""
    from patience.cards import Card
    from patience.games.spider import FOUNDATIONS, SUITS_IN_PLAY, TABLEAU, SpiderState

    suits = SUITS_IN_PLAY[int(rules.options["suits"])]
    groups = [
        [Card.make(rank, suit, copy) for rank in range(13, 0, -1)]
        for copy in range(8 // len(suits))
        for suit in suits
    ]
    rng.shuffle(groups)
    piles: dict[str, list[Card]] = {name: [] for name in rules.pile_names}
    down = dict.fromkeys(rules.pile_names, 0)
    for name, group in zip(FOUNDATIONS, groups[:removed], strict=False):
        piles[name] = group
    rest = [card for group in groups[removed:] for card in group]
    rng.shuffle(rest)
    piles["stock"], down["stock"] = rest[:stock], stock
    for card in rest[stock:]:
        piles[rng.choice(TABLEAU)].append(card)
    for name in TABLEAU:
        down[name] = rng.randrange(min(len(piles[name]), 4)) if piles[name] else 0
    return SpiderState(piles=piles, down=down)


@pytest.mark.parametrize(("removed", "stock"), [(7, 4), (3, 54), (6, 14)])
def test_the_core_deals_onto_a_space_only_when_fewer_than_ten_cards_are_out(
    removed: int, stock: int
) -> None:
    """RULES.md, Spider: a deal needs every pile filled, unless the tableau holds fewer than
    ten cards in all. With t10 empty, the deal is a move with 9 cards out and not with 11 or
    12, in the core as in the engine (random walks seldom reach the edge; 10 cannot happen:
    the suits left hold a multiple of 13 cards, the stock 4, 14, ... or 54)."""
    from patience.cards import Card
    from patience.games.spider import FOUNDATIONS, SUITS_IN_PLAY, TABLEAU, SpiderState

    rules = patience.new("spider", deal=1, suits=1).rules
    spades = SUITS_IN_PLAY[1][0]
    groups = [[Card.make(rank, spades, copy) for rank in range(13, 0, -1)] for copy in range(8)]
    piles: dict[str, list[Card]] = {name: [] for name in rules.pile_names}
    down = dict.fromkeys(rules.pile_names, 0)
    for name, group in zip(FOUNDATIONS, groups[:removed], strict=False):
        piles[name] = group
    rest = [card for group in groups[removed:] for card in group]
    piles["stock"], down["stock"] = rest[:stock], stock
    for at, card in enumerate(rest[stock:]):
        piles[TABLEAU[at % 9]].append(card)
    state = SpiderState(piles=piles, down=down)
    moves = {move.text() for move in compare_moves(rules, state)}
    assert ("stock" in moves) == (len(rest) - stock < 10)


@pytest.mark.parametrize("config", GENERIC_ONLY, ids=config_id)
def test_the_core_wins_small_spider_positions_with_auto_remove_off(
    config: tuple[str, dict[str, Any]],
) -> None:
    """With auto_remove=off the player removes each complete suit (a step of the core's
    adapter): one suit left, the core wins at once, and the Python engine replays each win."""
    game_name, options = config
    rules = patience.new(game_name, deal=1, **{**options, "layout": 54}).rules
    rng = random.Random(7)
    for _ in range(6):
        state = small_spider_position(rules, rng, removed=7, stock=0)
        found = solve(Game.create(rules, state=state), nodes=2_000, engine="core")
        assert found.result == "won"
        # The one removal is the player's move, the last of the win.
        assert found.moves[-1].text().endswith("-f8:13")


def test_the_core_refuses_a_position_it_cannot_hold_with_a_clear_error() -> None:
    game = patience.new("klondike", deal=1)
    piles, down, extra = core.encode(game.rules, game.state)
    piles[6].append(piles[6][0])  # a card twice
    options = core.options_pairs(game.rules)
    with pytest.raises(ValueError, match="each of the 52 cards once"):
        _core.candidate_moves("klondike", options, (piles, down, extra))
    with pytest.raises(ValueError, match="has no game"):
        _core.candidate_moves("nonsense", [], (piles, down, extra))
    with pytest.raises(ValueError, match="draw is 1 or 3"):
        _core.candidate_moves("klondike", [("draw", "2")], core.encode(game.rules, game.state))
    piles, down, extra = core.encode(game.rules, game.state)
    piles[6][0] = 300
    with pytest.raises(ValueError, match="300 is no card number"):
        _core.keys("klondike", options, (piles, down, extra))
    piles, down, extra = core.encode(game.rules, game.state)
    down[7] = -1
    with pytest.raises(ValueError, match="-1 is no count of face-down cards"):
        _core.solve("klondike", options, (piles, down, extra), [], None, 10, 100, False)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@settings(max_examples=100)
@given(
    deal=st.integers(min_value=0, max_value=2**53 - 1),
    choices=st.lists(st.integers(min_value=0, max_value=1 << 30), max_size=60),
    changes=CHANGES,
)
def test_the_core_answers_a_corrupted_position_or_says_what_is_wrong(
    config: tuple[str, dict[str, Any]], deal: int, choices: list[int], changes: Any
) -> None:
    # Never the "internal error" of a panic caught at the border: a position the core cannot
    # hold is refused by name (ValueError), a number no pile could hold too.
    game_name, options = config
    game = patience.new(game_name, deal=deal, **options)
    state = game.state
    for choice in choices:
        if game.rules.finished(state) is not None:
            break
        moves = game.rules.candidate_moves(state)
        if not moves:
            break
        state, _ = game.rules.perform(state, moves[choice % len(moves)])
    parts = corrupted(core.encode(game.rules, state), changes)
    pairs = core.options_pairs(game.rules)
    calls: list[Callable[[], object]] = [
        lambda: _core.solve(game_name, pairs, parts, [], None, 200, 10_000, False),
        lambda: _core.candidate_moves(game_name, pairs, parts),
        lambda: _core.steps(game_name, pairs, parts, True),
        lambda: _core.keys(game_name, pairs, parts),
    ]
    answered_or_refused(calls)


def test_the_core_refuses_a_klondike_pile_that_is_no_built_run() -> None:
    # The engine refuses such a position; the core's steps move face-up runs by their length
    # and panicked on one (found by the corrupted positions above).
    game = patience.new("klondike", deal=1)
    piles, down, extra = core.encode(game.rules, game.state)
    options = core.options_pairs(game.rules)
    piles[12].append(piles[11].pop())  # t6's top onto t7's: no build
    with pytest.raises(ValueError, match="face-up cards of t7 do not form a built run"):
        _core.steps("klondike", options, (piles, [*down[:11], 4, 6], extra), True)
    piles, down, extra = core.encode(game.rules, game.state)
    down[6] = 3  # t1 holds one card
    with pytest.raises(ValueError, match="t1 holds 1 cards, fewer than 3 face down"):
        _core.keys("klondike", options, (piles, down, extra))


def test_the_core_refuses_a_canfield_position_the_engine_would_refuse() -> None:
    game = patience.new("canfield", deal=1)
    piles, down, extra = core.encode(game.rules, game.state)
    options = core.options_pairs(game.rules)
    with pytest.raises(ValueError, match="the stock lies face down"):
        _core.candidate_moves("canfield", options, (piles, [0] * len(down), extra))
    with pytest.raises(ValueError, match="move is pile, top or both"):
        _core.candidate_moves("canfield", [("move", "run")], (piles, down, extra))


def test_the_core_refuses_a_leonis_own_position_it_cannot_hold() -> None:
    game = patience.new("leonis-own", deal=1)
    piles, down, extra = core.encode(game.rules, game.state)
    options = core.options_pairs(game.rules)
    twice = [list(pile) for pile in piles]
    twice[8].append(twice[0][0])  # a foundation's ace in pile 1 as well
    with pytest.raises(ValueError, match="each of the 104 cards once"):
        _core.candidate_moves("leonis-own", options, (twice, down, extra))
    with pytest.raises(ValueError, match="redeals must be 0, 1 or 2"):
        _core.candidate_moves("leonis-own", options, (piles, down, [3, 0, 0]))
    with pytest.raises(ValueError, match="notes are not well formed"):
        _core.candidate_moves("leonis-own", options, (piles, down, [0, 0, 1, 60]))
    with pytest.raises(ValueError, match="exile is top or choose"):
        _core.candidate_moves("leonis-own", [("exile", "bottom")], (piles, down, extra))


def test_the_core_refuses_a_spider_position_it_cannot_hold() -> None:
    game = patience.new("spider", deal=1, suits=2)
    piles, down, extra = core.encode(game.rules, game.state)
    options = core.options_pairs(game.rules)
    twice = [list(pile) for pile in piles]
    twice[9].append(twice[10][-1])  # t2's top card on t1 as well: five copies of it
    with pytest.raises(ValueError, match="holds 4 copies of each card in play"):
        _core.candidate_moves("spider", options, (twice, down, extra))
    engine_card = [list(pile) for pile in piles]
    engine_card[9][0] += 52  # the engine's number of the second copy, not its face
    with pytest.raises(ValueError, match="crosses as its face"):
        _core.candidate_moves("spider", options, (engine_card, down, extra))
    with pytest.raises(ValueError, match="suits is 1, 2 or 4"):
        _core.candidate_moves("spider", [("suits", "3")], (piles, down, extra))
    with pytest.raises(ValueError, match="layout is 50 or 54"):
        _core.candidate_moves("spider", [("layout", "52")], (piles, down, extra))


def test_an_unknown_engine_is_refused() -> None:
    game = patience.new("klondike", deal=1)
    with pytest.raises(ValueError, match="the engines are core, python"):
        solve(game, nodes=10, engine="rust")


def test_a_game_the_core_does_not_solve_uses_python_and_says_so_when_asked() -> None:
    game = patience.new("double-solitaire", deal=1)
    assert not core.available("leopard")
    with pytest.raises(CoreUnavailable, match="does not solve"):
        core.candidate_moves(game.rules, game.state)


def test_the_core_refuses_a_napoleon_position_the_engine_would_refuse() -> None:
    game = patience.new("napoleon", deal=1)
    piles, down, extra = core.encode(game.rules, game.state)
    options = core.options_pairs(game.rules)
    twice = [list(pile) for pile in piles]
    twice[10].append(twice[0][0])  # a stock card on t1 as well
    with pytest.raises(ValueError, match="each of the 104 cards once"):
        _core.candidate_moves("napoleon", options, (twice, down, extra))
    with pytest.raises(ValueError, match="the stock lies face down"):
        _core.candidate_moves("napoleon", options, (piles, [0] * len(down), extra))
