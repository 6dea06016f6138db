"""Leopard in the compiled core (core/src/leopard.rs) plays the same game as the Python rules.

Along random walks over many deals, with 2, 3 and 4 players and matches ending by deals or by a
target at different points of a match, and along walks hypothesis draws: at every step the
core's legal actions equal the engine's, the position after each of them equals the engine's,
the playout policy's choices are the same, the search rewards are equal, and the core's
information key of every seat is equal exactly when the engine's is. Worlds the core deals from
a seat's knowledge keep everything that seat knows and hold every card once. The bot that
searches in the core still plays from its view only (tests/test_bots.py checks the views).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import patience
from corruption import answered_or_refused
from patience import bots
from patience.bots import leopard_core
from patience.games.leopard import DECLARE, DOWN, JACK, QUEEN, SEAT_SHIFT, Leopard, LeopardState

pytestmark = pytest.mark.skipif(not leopard_core.available(), reason="the core is not built")

_core: Any = leopard_core._core

#: (options, totals and history before the deal walked): matches by deals and by target, at
#: their start, in their middle and at their last deal.
CONFIGS: list[tuple[dict[str, Any], list[list[int]]]] = [
    ({"players": 2, "deals": 1}, []),
    ({"players": 2}, [[3, 5], [7, 2], [4, 4]]),
    ({"players": 2, "deals": 3}, [[3, 5], [7, 2]]),
    ({"players": 2, "target": 20}, [[9, 5], [8, 6]]),
    ({"players": 3}, []),
    ({"players": 3, "deals": 2}, [[4, 4, 1]]),
    ({"players": 3, "target": 15}, [[6, 2, 5], [5, 6, 2]]),
    ({"players": 4}, []),
    ({"players": 4, "deals": 2}, [[3, 6]]),
    ({"players": 4, "target": 12}, [[6, 4]]),
]

WALK_DEALS = range(1, 7)


def config_id(config: tuple[dict[str, Any], list[list[int]]]) -> str:
    options, history = config
    return ",".join(f"{k}={v}" for k, v in options.items()) + f"+{len(history)}"


def start(
    config: tuple[dict[str, Any], list[list[int]]], deal: int
) -> tuple[Leopard, LeopardState]:
    """The first position of a deal of the match ``config`` describes, as a search state (the
    play stops at the deal's end)."""
    options, history = config
    game = patience.new("leopard", deal=deal, **options)
    rules = game.rules
    assert isinstance(rules, Leopard)
    state = game.state.copy()
    state.history = tuple(tuple(points) for points in history)
    state.declarers = (-1,) * len(history)
    state.totals = tuple(sum(column) for column in zip(*history, strict=True)) or state.totals
    state.deal_index = len(history)
    state.single_deal = True
    return rules, state


def compare(rules: Leopard, state: LeopardState, keys: list[dict[Any, int]]) -> list[int]:
    """Assert that the core and the engine agree on ``state``; return the legal actions."""
    options = leopard_core.options(rules)
    parts = leopard_core.encode(state)
    legal = rules.legal_actions(state)
    assert sorted(_core.leopard_actions(options, parts)) == legal
    for action in legal:
        after = rules.apply_action(state, action)
        assert _core.leopard_apply(options, parts, action) == leopard_core.encode(after), action
    assert _core.leopard_rewards(options, parts) == pytest.approx(
        rules.search_rewards(state), abs=1e-12
    )
    if not rules.is_terminal(state):
        assert _core.leopard_rollout_choices(options, parts) == rules.rollout_choices(state)
        assert _core.leopard_playout_choices(options, parts) == rules.playout_choices(state)
        # Within a deal, the core's key of each seat is equal exactly when the engine's is.
        for seat, seen in enumerate(keys):
            engine_key = rules.information_key(state, seat)
            core_key = _core.leopard_key(options, parts, seat)
            assert seen.setdefault(engine_key, core_key) == core_key
            inverse = {value: key for key, value in seen.items()}
            assert inverse[core_key] == engine_key
    return legal


def decode(state: LeopardState, parts: leopard_core.Parts) -> LeopardState:
    """``state`` with the cards of ``parts`` (faces) in its places."""
    stock, hands, squares, discards, numbers = parts
    world = state.copy()
    world.stock = list(stock)
    world.hands = [list(hand) for hand in hands]
    world.squares = [[list(cell) for cell in square] for square in squares]
    assert [int(card) % 52 for card in world.piles["discards"]] == discards
    assert numbers == leopard_core.encode(state)[4]
    return world


def check_worlds(rules: Leopard, state: LeopardState, seat: int, seed: int) -> None:
    """Worlds the core deals for ``seat`` keep what it knows and hold every card once; a
    face-down card is a jack, or a queen in its layer's own square."""
    options = leopard_core.options(rules)
    parts = leopard_core.encode(state)
    known = rules.information_key(state, seat)
    for n in range(3):
        dealt = _core.leopard_deal(options, parts, seat, seed + n)
        world = decode(state, dealt)
        assert rules.information_key(world, seat) == known
        assert _core.leopard_key(options, dealt, seat) == _core.leopard_key(options, parts, seat)
        faces = [*dealt[0], *(c for hand in dealt[1] for c in hand), *dealt[3]]
        for side, square in enumerate(dealt[2]):
            for cell in square:
                for layer in cell:
                    faces.append(layer & (DOWN - 1))
                    if layer >= DOWN:
                        rank = (layer & (DOWN - 1)) % 13 + 1
                        by = layer >> SEAT_SHIFT
                        assert rank == JACK or (rank == QUEEN and by % rules.sides == side)
        assert sorted(faces) == sorted(list(range(52)) * 2)


def walk(rules: Leopard, state: LeopardState, choices: list[int], worlds: bool) -> None:
    keys: list[dict[Any, int]] = [{} for _ in range(rules.players)]
    for step, choice in enumerate(choices):
        legal = compare(rules, state, keys)
        if not legal:
            return
        if worlds and step % 7 == 0:
            check_worlds(rules, state, state.turn, step)
        state = rules.apply_action(state, legal[choice % len(legal)])
    compare(rules, state, keys)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_core_plays_leopard_as_the_engine_on_random_walks(
    config: tuple[dict[str, Any], list[list[int]]],
) -> None:
    for deal in WALK_DEALS:
        rules, state = start(config, deal)
        rng = random.Random(deal)
        walk(rules, state, [rng.randrange(1 << 30) for _ in range(400)], worlds=True)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_core_plays_leopard_as_the_engine_along_its_playout_policy(
    config: tuple[dict[str, Any], list[list[int]]],
) -> None:
    """Walks that follow the playout policy reach the declarations and well-built squares that
    random walks rarely do."""
    for deal in WALK_DEALS:
        rules, state = start(config, deal)
        rng = random.Random(deal)
        keys: list[dict[Any, int]] = [{} for _ in range(rules.players)]
        while compare(rules, state, keys):
            state = rules.apply_action(state, rules.rollout_action(state, rng))
        assert rules.is_terminal(state)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_core_plays_leopard_as_the_engine_along_its_greedy_playouts(
    config: tuple[dict[str, Any], list[list[int]]],
) -> None:
    """Walks that follow search's greedy playout policy (``Leopard.playout_choices``), whose
    choices the core must list the same."""
    for deal in WALK_DEALS:
        rules, state = start(config, deal)
        rng = random.Random(deal)
        keys: list[dict[Any, int]] = [{} for _ in range(rules.players)]
        while compare(rules, state, keys):
            state = rules.apply_action(state, rules.playout_action(state, rng, "greedy"))
        assert rules.is_terminal(state)


@settings(max_examples=40, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    deal=st.integers(min_value=0, max_value=2**53 - 1),
    choices=st.lists(st.integers(min_value=0, max_value=1 << 30), max_size=150),
)
def test_the_core_plays_leopard_as_the_engine_on_drawn_walks(
    config: tuple[dict[str, Any], list[list[int]]], deal: int, choices: list[int]
) -> None:
    rules, state = start(config, deal)
    walk(rules, state, choices, worlds=True)


def test_the_core_refuses_a_position_it_cannot_hold() -> None:
    rules, state = start(({"players": 2, "deals": 1}, []), 1)
    options = leopard_core.options(rules)
    stock, hands, squares, discards, numbers = leopard_core.encode(state)
    with pytest.raises(ValueError, match="104 cards"):
        _core.leopard_actions(options, (stock[1:], hands, squares, discards, numbers))
    assert state.phase == "play"  # the card is drawn: no declaring now
    with pytest.raises(ValueError, match="not legal"):
        _core.leopard_apply(options, (stock, hands, squares, discards, numbers), DECLARE)
    with pytest.raises(ValueError, match="turn"):
        _core.leopard_ismcts(
            options, (stock, hands, squares, discards, numbers), 1, 10, None, 0.7, 1.0, 12, 1
        )
    # Numbers no pile could hold are refused by name, not by the conversion (OverflowError).
    parts = (stock, hands, squares, discards, numbers)
    with pytest.raises(ValueError, match="card 300 is not a face"):
        _core.leopard_actions(options, ([300, *stock[1:]], hands, squares, discards, numbers))
    with pytest.raises(ValueError, match="card -1 is not a face"):
        _core.leopard_actions(options, (stock, hands, squares, [-1], numbers))
    with pytest.raises(ValueError, match="layer 70000 is no layer"):
        _core.leopard_actions(options, (stock, hands, [[[70000]] * 9] * 2, discards, numbers))
    with pytest.raises(ValueError, match="layer 300 is no layer"):
        _core.leopard_actions(options, (stock, hands, [[[300]] * 9] * 2, discards, numbers))
    with pytest.raises(ValueError, match="total 4294967296 out of range"):
        _core.leopard_rewards(options, (stock, hands, squares, discards, [*numbers[:6], 2**32, 0]))
    with pytest.raises(ValueError, match="seat -1 does not exist"):
        _core.leopard_key(options, parts, -1)
    with pytest.raises(ValueError, match="seat 2 does not exist"):
        _core.leopard_deal(options, parts, 2, 1)
    with pytest.raises(ValueError, match="2, 3 or 4 players, not -2"):
        _core.leopard_actions((-2, 1, None), parts)
    with pytest.raises(ValueError, match="deals=-1 is no count"):
        _core.leopard_actions((2, -1, None), parts)
    # States the engine's positions refuse too, on which the core's moves or worlds panicked.
    other = 1 - numbers[1]
    fuller = [list(hand) for hand in hands]
    fuller[other].append(stock[-1])
    with pytest.raises(ValueError, match=f"hand {other} holds 9 cards, more than the 8"):
        _core.leopard_actions(options, (stock[:-1], fuller, squares, discards, numbers))
    emptied = [list(hand) for hand in hands]
    emptied[numbers[1]] = []
    with pytest.raises(ValueError, match="plays from an empty hand"):
        _core.leopard_actions(
            options, (stock, emptied, squares, [*discards, *hands[numbers[1]]], numbers)
        )
    with pytest.raises(ValueError, match="the asker is the seat whose partner must answer"):
        _core.leopard_actions(
            options, (stock, hands, squares, discards, [*numbers[:3], 1, *numbers[4:]])
        )
    five = next(face for face in stock if face % 13 == 4)
    laid = [[list(cell) for cell in square] for square in squares]
    laid[0][4].append(five | DOWN | 1 << SEAT_SHIFT)
    rest = list(stock)
    rest.remove(five)
    with pytest.raises(ValueError, match="only jacks, and queens in their own square"):
        _core.leopard_deal(options, (rest, hands, laid, discards, numbers), 0, 1)


@settings(max_examples=150)
@given(
    config=st.sampled_from(CONFIGS),
    deal=st.integers(min_value=0, max_value=2**53 - 1),
    choices=st.lists(st.integers(min_value=0, max_value=1 << 30), max_size=60),
    changes=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=5),
            st.integers(min_value=0, max_value=1 << 30),
            st.sampled_from([-1, 0, 1, 2, 3, 8, 51, 52, 127, 128, 255, 256, 300, 2**31, 2**40]),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_the_core_answers_a_corrupted_position_or_says_what_is_wrong(
    config: tuple[dict[str, Any], list[list[int]]],
    deal: int,
    choices: list[int],
    changes: list[tuple[int, int, int]],
) -> None:
    # Never the "internal error" of a panic caught at the border (a RuntimeError): a number of
    # the stock, a hand, a square, the discards or the numbers set to a value that may be no
    # card, no layer or out of range, a card dropped or added, a card moved to another place
    # (every card still there once: only the game's invariants can refuse it), a place
    # shuffled: each call answers or is refused by name (ValueError).
    rules, state = start(config, deal)
    for choice in choices:
        if rules.is_terminal(state):
            break
        legal = rules.legal_actions(state)
        state = rules.apply_action(state, legal[choice % len(legal)])
    stock, hands, squares, discards, numbers = leopard_core.encode(state)
    places: list[list[int]] = [stock, *hands, *(cell for square in squares for cell in square)]
    places += [discards, numbers]
    for kind, where, value in changes:
        filled = [place for place in places if place]
        place = filled[where % len(filled)]
        if kind == 0:
            place[where % len(place)] = value
        elif kind == 1:
            place.pop(where % len(place))
        elif kind == 2:
            place.append(value)
        elif kind == 3:
            numbers[where % len(numbers)] = value
        elif kind == 4:
            random.Random(where).shuffle(place)
        elif place is not numbers:
            cards = [other for other in places[:-1] if other is not place]
            cards[value % len(cards)].append(place.pop(where % len(place)))
    parts = (stock, hands, squares, discards, numbers)
    options = leopard_core.options(rules)
    seat = int(numbers[1]) if 0 <= numbers[1] < 4 else 0
    calls: list[Callable[[], object]] = [
        lambda: _core.leopard_actions(options, parts),
        lambda: _core.leopard_rollout_choices(options, parts),
        lambda: _core.leopard_playout_choices(options, parts),
        lambda: _core.leopard_rewards(options, parts),
        lambda: _core.leopard_key(options, parts, seat),
        lambda: _core.leopard_deal(options, parts, seat, deal),
        lambda: _core.leopard_ismcts(options, parts, seat, 20, None, 0.7, 1.0, 12, deal),
    ]
    answered_or_refused(
        calls,
        lambda: _core.leopard_actions(options, parts),
        lambda action: _core.leopard_apply(options, parts, action),
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_core_search_chooses_a_legal_move_from_the_view(players: int) -> None:
    game = patience.new("leopard", deal=11, players=players, deals=1)
    for _ in range(12):
        if game.is_over():
            break
        seat = game.current_player()
        bot = bots.get("ismcts", seed=seat, iterations=300, engine="core")
        move = bot.choose(game.view(seat))
        assert game.is_legal(move)
        game.push(move)
        assert bot.last_iterations <= 300


def test_the_core_search_is_reproducible_and_searches_a_lot() -> None:
    game = patience.new("leopard", deal=5, deals=1)
    view = game.view(game.current_player())
    first = bots.get("ismcts", seed=7, engine="core")
    second = bots.get("ismcts", seed=7, engine="core")
    assert first.choose(view) == second.choose(view)
    assert first.last_iterations == second.last_iterations > 1000


@pytest.mark.parametrize("players", [2, 3])
def test_the_rules_hook_searches_in_the_core(players: int) -> None:
    """``Leopard.native_ismcts`` (the hook the bot calls, as Double Solitaire's): every
    iteration goes through one of the root's moves, each legal in the view; the playout cut and
    the playout policy are passed on (a different cut or policy, a different search)."""
    game = patience.new("leopard", deal=3, players=players, deals=1)
    rules = game.rules
    assert isinstance(rules, Leopard)
    view = game.view(game.current_player())
    searches = []
    for depth, playout in ((12, None), (None, None), (12, "policy")):
        found = rules.native_ismcts(
            view,
            random.Random(1),
            iterations=400,
            seconds=None,
            exploration=0.7,
            bias=1.0,
            rollout_depth=depth,
            playout=playout,
        )
        assert found is not None
        done, stats = found
        assert 100 <= done <= 400
        assert sum(visits for _, visits, _, _ in stats) == done
        assert {move for move, _, _, _ in stats} <= set(game.legal_moves())
        for _, visits, total, _ in stats:
            assert 0 <= total <= visits
        searches.append(stats)
    assert searches[0] != searches[1]
    assert searches[0] != searches[2]
