"""Double Solitaire in the compiled core (core/src/double_solitaire.rs) plays the same game as
the Python rules, and its ISMCTS sees only the bot's view (docs/bots.md).

Along random walks over many deals and every option set (and walks hypothesis draws), at every
step: the core's legal actions equal the engine's, its playout policy chooses among the same
moves as the engine's ``rollout_action``, its evaluation, search rewards, end of the game and
move costs equal the engine's, and the position after each move equals the engine's.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import patience
from corruption import CHANGES, answered_or_refused, corrupted
from patience import _core, bots
from patience.games.common import alternating_run_length, fits_foundation_up, fitting_run_count
from patience.games.double_solitaire import (
    FOUNDATIONS,
    PILE_NAMES,
    STOCKS,
    TABLEAUX,
    WASTES,
    DoubleSolitaire,
    DoubleSolitaireState,
)

OPTIONS: list[dict[str, Any]] = [
    {},
    {"passes": 2},
    {"passes": 3, "auto_stop": False},
    {"auto_stop": False},
]


class _Pick:
    """A stand-in for ``random.Random`` whose ``randrange(n)`` answers ``index`` (capped at
    ``n - 1``) and remembers ``n``: it lists the moves ``rollout_action`` chooses among."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.seen: int | None = None

    def randrange(self, n: int) -> int:
        self.seen = n
        return min(self.index, n - 1)


def python_rollout_choices(rules: DoubleSolitaire, state: DoubleSolitaireState) -> list[int]:
    """Every move the engine's playout policy may choose in ``state``, in its order."""
    first = _Pick(0)
    action = rules.rollout_action(state, first)  # type: ignore[arg-type]
    if first.seen is None:
        return [action]
    return [
        rules.rollout_action(state, _Pick(index))  # type: ignore[arg-type]
        for index in range(first.seen)
    ]


def plain(parts: Any) -> Any:
    """Parts with the piles as lists (the core gives them back as bytes)."""
    piles, down, extra = parts
    return [list(pile) for pile in piles], list(down), list(extra)


def check_step(rules: DoubleSolitaire, state: DoubleSolitaireState) -> list[int]:
    """Compare the core with the engine at ``state``; return the legal actions."""
    options = rules.core_options()
    parts = rules.core_parts(state)
    legal = rules.legal_actions(state)
    assert _core.ds_legal_actions(options, parts) == legal
    choices, margin, evaluations, rewards, costs = _core.ds_inspect(options, parts)
    assert choices == python_rollout_choices(rules, state)
    assert set(choices) <= set(legal)
    terminal = rules.is_terminal(state)
    assert (margin is not None) == terminal
    if terminal:
        assert margin == rules.returns(state)[0]
    for seat in (0, 1):
        assert evaluations[seat] == pytest.approx(rules.evaluate(state, seat), rel=1e-12)
        assert rewards[seat] == pytest.approx(rules.search_reward(state, seat), rel=1e-12)
    assert costs == [
        rules.move_cost(state, rules.action_to_move(state, action)) for action in legal
    ]
    return legal


def walk(deal: int, options: dict[str, Any], seed: int, steps: int) -> int:
    """A random walk from ``deal`` (playout moves mixed with uniform ones, so that it gets far
    into the game), checked at every step; the steps taken."""
    rules = patience.get_rules("double-solitaire", options)
    assert isinstance(rules, DoubleSolitaire)
    state = rules.deal(deal)
    rng = random.Random(seed)
    for step in range(steps):
        legal = check_step(rules, state)
        if rules.is_terminal(state):
            return step
        if rng.random() < 0.7:
            action = rules.rollout_action(state, rng)
        else:
            action = legal[rng.randrange(len(legal))]
        after = rules.apply_action(state, action)
        core_after = _core.ds_apply(rules.core_options(), rules.core_parts(state), action)
        assert plain(core_after) == rules.core_parts(after)
        assert rules.from_core_parts(core_after) == after
        state = after
    return steps


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(map(str, o.items())))
def test_core_walks_play_the_engines_game(options: dict[str, Any]) -> None:
    taken = sum(walk(deal, options, seed=deal, steps=400) for deal in range(6))
    assert taken > 600  # the walks got far into their games


def test_core_walks_reach_the_end_of_games() -> None:
    # Playout moves only end games (two passes, or a player out): the end is compared too.
    rules = patience.get_rules("double-solitaire", {})
    assert isinstance(rules, DoubleSolitaire)
    ended = 0
    for deal in range(4):
        state = rules.deal(deal)
        rng = random.Random(deal)
        for _ in range(3000):
            check_step(rules, state)
            if rules.is_terminal(state):
                ended += 1
                break
            action = rules.rollout_action(state, rng)
            after = rules.apply_action(state, action)
            core_after = _core.ds_apply(rules.core_options(), rules.core_parts(state), action)
            assert plain(core_after) == rules.core_parts(after)
            state = after
    assert ended == 4


@settings(max_examples=15, deadline=None)
@given(
    deal=st.integers(0, 10**6),
    options=st.sampled_from(OPTIONS),
    seed=st.integers(0, 2**32),
)
def test_core_hypothesis_walks(deal: int, options: dict[str, Any], seed: int) -> None:
    walk(deal, options, seed, steps=120)


def test_core_refuses_illegal_actions_and_bad_states() -> None:
    rules = patience.get_rules("double-solitaire", {})
    assert isinstance(rules, DoubleSolitaire)
    state = rules.deal(3)
    options = rules.core_options()
    illegal = next(
        a for a in range(rules.num_distinct_actions()) if a not in rules.legal_actions(state)
    )
    with pytest.raises(ValueError, match="not legal"):
        _core.ds_apply(options, rules.core_parts(state), illegal)
    piles, down, extra = rules.core_parts(state)
    with pytest.raises(ValueError, match="has 28 piles and 28 face-down counts, not 27 and 28"):
        _core.ds_legal_actions(options, (piles[:-1], down, extra))
    with pytest.raises(ValueError, match="the seat to move must be 0 or 1, not 2"):
        _core.ds_legal_actions(options, (piles, down, [2, 0, 0, 0, 0]))
    with pytest.raises(ValueError, match="passes must be 1, 2 or 3, not 4"):
        _core.ds_legal_actions((4, True), (piles, down, extra))
    with pytest.raises(ValueError, match="passes must be 1, 2 or 3, not 300"):
        _core.ds_legal_actions((300, True), (piles, down, extra))
    with pytest.raises(ValueError, match="300 is no card number"):
        _core.ds_sample(([[300], *piles[1:]], down, extra), 1)
    with pytest.raises(ValueError, match="pile number 9 holds 0 cards, fewer than 1 face down"):
        _core.ds_legal_actions(options, (piles, [*down[:9], 1, *down[10:]], extra))
    with pytest.raises(ValueError, match="-1 is no count of face-down cards"):
        _core.ds_inspect(options, (piles, [-1, *down[1:]], extra))
    seat = rules.current_player(state)
    with pytest.raises(ValueError, match=f"must be the one to move \\({seat}\\), not {1 - seat}"):
        _core.ds_ismcts(options, (piles, down, extra), 1 - seat, 10, None, 0.7, 1, 2, 7)


@settings(max_examples=200)
@given(
    deal=st.integers(min_value=0, max_value=2**53 - 1),
    choices=st.lists(st.integers(min_value=0, max_value=1 << 30), max_size=40),
    changes=CHANGES,
)
def test_core_answers_a_corrupted_state_or_says_what_is_wrong(
    deal: int, choices: list[int], changes: Any
) -> None:
    # Never the "internal error" of a panic caught at the border (a RuntimeError): a state the
    # core cannot hold is refused by name (ValueError), a number no pile could hold too.
    rules = patience.get_rules("double-solitaire", {})
    assert isinstance(rules, DoubleSolitaire)
    state = rules.deal(deal)
    for choice in choices:
        if rules.finished(state) is not None:
            break
        legal = rules.legal_actions(state)
        state = rules.apply_action(state, legal[choice % len(legal)])
    parts = corrupted(rules.core_parts(state), changes)
    options = rules.core_options()
    seat = rules.current_player(state)
    calls: list[Callable[[], object]] = [
        lambda: _core.ds_legal_actions(options, parts),
        lambda: _core.ds_inspect(options, parts),
        lambda: _core.ds_sample(parts, deal),
        lambda: _core.ds_ismcts(options, parts, seat, 20, None, 0.7, 1.0, 2, deal),
    ]
    answered_or_refused(
        calls,
        lambda: _core.ds_legal_actions(options, parts),
        lambda action: _core.ds_apply(options, parts, action),
    )


def public(rules: DoubleSolitaire, state: DoubleSolitaireState) -> Any:
    return rules.information_key(state, 0)


def test_core_sampling_deals_only_the_hidden_cards_of_each_pack() -> None:
    rules = patience.get_rules("double-solitaire", {})
    assert isinstance(rules, DoubleSolitaire)
    state = rules.deal(5)
    rng = random.Random(5)
    for _ in range(40):  # somewhere in the game, with cards on the foundations
        state = rules.apply_action(state, rules.rollout_action(state, rng))
    parts = rules.core_parts(state)
    hidden_places = {
        seat: [name for name in (STOCKS[seat], *TABLEAUX[seat]) if state.down[name]]
        for seat in (0, 1)
    }
    seen = set()
    for seed in range(30):
        world = rules.from_core_parts(_core.ds_sample(parts, seed))
        # Everything either player sees is unchanged, and so are the moves.
        assert public(rules, world) == public(rules, state)
        assert rules.legal_actions(world) == rules.legal_actions(state)
        for seat in (0, 1):
            hidden = Counter(
                card
                for name in hidden_places[seat]
                for card in world.piles[name][: world.down[name]]
            )
            before = Counter(
                card
                for name in hidden_places[seat]
                for card in state.piles[name][: state.down[name]]
            )
            assert hidden == before  # the same cards, each seat's own, only moved about
        seen.add(tuple(tuple(world.piles[name]) for name in PILE_NAMES))
    assert len(seen) > 25  # the worlds differ


def test_core_search_spends_its_iterations_on_the_root() -> None:
    game = patience.new("double-solitaire", deal=2)
    rules = game.rules
    assert isinstance(rules, DoubleSolitaire)
    view = game.view(game.current_player())
    found = rules.native_ismcts(
        view, random.Random(1), iterations=400, seconds=None, exploration=0.7, bias=1.0
    )
    assert found is not None
    done, stats = found
    assert 100 <= done <= 400
    # Every iteration goes through one of the root's moves, each a legal move of the view.
    assert sum(visits for _, visits, _, _ in stats) == done
    legal = set(game.legal_moves())
    assert {move for move, _, _, _ in stats} <= legal
    for _, visits, total, _ in stats:
        assert -rules.SHUFFLE_COST * visits <= total <= visits


def test_core_search_weighs_the_move_costs_by_costs() -> None:
    """``costs`` weighs :meth:`DoubleSolitaire.move_cost` in the rewards: at 0 no root move's
    mean reward is below 0 (rewards lie in [0, 1]); at 1000 a costly root move's mean lies
    near minus 1000 times its cost, a free one's in [0, 1]."""
    rules = patience.get_rules("double-solitaire", {})
    assert isinstance(rules, DoubleSolitaire)
    state = rules.deal(1)  # the first player has a shuffle that opens something
    seat = rules.current_player(state)
    costly = {
        action: rules.move_cost(state, rules.action_to_move(state, action))
        for action in rules.legal_actions(state)
    }
    assert any(costly.values())
    args = (rules.core_options(), rules.core_parts(state), seat, 2000, None, 0.7, 1.0, 2, 7)
    free, _ = _core.ds_ismcts(*args, 0.0)
    assert all(0 <= total <= visits for _, visits, total, _ in free)
    heavy, _ = _core.ds_ismcts(*args, 1000.0)
    charged = 0
    for action, visits, total, _ in heavy:
        mean = total / visits
        if costly[action]:
            charged += 1
            assert -1000 * costly[action] <= mean <= 1 - 1000 * costly[action]
        else:
            assert 0 <= mean <= 1
    assert charged
    with pytest.raises(ValueError, match="costs"):
        _core.ds_ismcts(*args, -1.0)


def test_core_search_explores_the_root_by_root_exploration() -> None:
    """``root_exploration`` is UCB1's constant at the root alone: None is ``exploration``'s
    search exactly; a wider one spreads the root's visits (its most visited move gets fewer,
    its least visited more) on every position where the root has several moves."""
    rules = patience.get_rules("double-solitaire", {})
    assert isinstance(rules, DoubleSolitaire)
    for deal in (0, 3, 5):
        state = rules.deal(deal)
        seat = rules.current_player(state)
        args = (rules.core_options(), rules.core_parts(state), seat, 2000, None, 0.7, 1.0, 2, 7)
        narrow, _ = _core.ds_ismcts(*args, 1.0, None)
        assert _core.ds_ismcts(*args, 1.0, 0.7)[0] == narrow
        wide, _ = _core.ds_ismcts(*args, 1.0, 2.5)
        narrow_visits = sorted(visits for _, visits, _, _ in narrow)
        wide_visits = sorted(visits for _, visits, _, _ in wide)
        assert len(narrow_visits) > 2
        assert wide_visits[-1] < narrow_visits[-1]
        assert wide_visits[0] > narrow_visits[0]
    with pytest.raises(ValueError, match="root_exploration"):
        _core.ds_ismcts(*args, 1.0, -1.0)


def test_native_ismcts_explores_the_root_by_the_rules_attribute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hook the bot calls passes :attr:`DoubleSolitaire.native_root_exploration` (2.5, the
    wider root of docs/bots.md) to the core; None leaves the bot's ``exploration`` there."""
    game = patience.new("double-solitaire", deal=5)
    rules = game.rules
    assert isinstance(rules, DoubleSolitaire)
    assert rules.native_root_exploration == 2.5
    view = game.view(game.current_player())

    def most_visits() -> int:
        found = rules.native_ismcts(
            view, random.Random(1), iterations=2000, seconds=None, exploration=0.7, bias=1.0
        )
        assert found is not None
        return max(visits for _, visits, _, _ in found[1])

    wide = most_visits()
    monkeypatch.setattr(rules, "native_root_exploration", None)
    assert most_visits() > wide


@pytest.mark.parametrize("engine", ["auto", "core", "python"])
def test_ismcts_in_the_core_or_not_plays_legal_moves(engine: str) -> None:
    game = patience.new("double-solitaire", deal=4, auto_stop=False)
    players = [bots.get("ismcts", seed=seat, iterations=60, engine=engine) for seat in (0, 1)]
    for _ in range(25):
        if game.is_over():
            break
        seat = game.current_player()
        move = players[seat].choose(game.view(seat))
        assert game.is_legal(move)
        game.push(move)
    assert getattr(players[0], "last_iterations", 0) >= 1


def test_ismcts_in_the_core_is_reproducible() -> None:
    game = patience.new("double-solitaire", deal=9)
    view = game.view(game.current_player())
    first = bots.get("ismcts", seed=3, iterations=300).choose(view)
    assert bots.get("ismcts", seed=3, iterations=300).choose(view) == first


def test_core_search_makes_no_move_back_to_a_position_of_its_walk() -> None:
    # After deal 0's second playout move the seat to move has a shuffle whose reverse is legal
    # after it: without the no-repetition rule the walk comes back to the root's node and the
    # root's moves are counted twice in one iteration.
    rules = patience.get_rules("double-solitaire", {})
    assert isinstance(rules, DoubleSolitaire)
    state = rules.deal(0)
    rng = random.Random(0)
    for _ in range(2):
        state = rules.apply_action(state, rules.rollout_action(state, rng))
    shuffles = [
        action
        for action in rules.legal_actions(state)
        if rules.move_cost(state, move := rules.action_to_move(state, action)) == rules.SHUFFLE_COST
        and move.source in TABLEAUX[state.turn]
    ]
    assert shuffles
    seat = rules.current_player(state)
    stats, done = _core.ds_ismcts(
        rules.core_options(), rules.core_parts(state), seat, 3000, None, 0.7, 1.0, 2, 7
    )
    assert sum(visits for _, visits, _, _ in stats) == done
    assert {action for action, _, _, _ in stats} <= set(rules.legal_actions(state))


def takes_run(after: DoubleSolitaireState, seat: int, holder: str) -> bool:
    """The top card of ``holder`` (a space: a king) takes the whole face-up run of another of
    ``seat``'s piles that lies on face-down cards."""
    piles = after.piles
    exposed = piles[holder][-1:]
    for other in TABLEAUX[seat]:
        hidden, up = after.down[other], after.up_count(other)
        run = alternating_run_length(piles[other][hidden:])
        if (
            other != holder
            and hidden
            and up
            and run == up
            and fitting_run_count(piles[other], up, exposed) == up
        ):
            return True
    return False


def opens(rules: DoubleSolitaire, after: DoubleSolitaireState, seat: int, source: str) -> bool:
    """A shuffle from ``source`` (made in ``after``) opens something: a model of the core's
    ``Rules::opens`` (docs/bots.md)."""
    piles = after.piles
    exposed = piles[source][-1:]
    if exposed and any(fits_foundation_up(exposed[0], piles[f]) for f in FOUNDATIONS):
        return True
    if piles[WASTES[seat]] and fitting_run_count(piles[WASTES[seat]], 1, exposed):
        return True
    return takes_run(after, seat, source)


def opens_from_waste(after: DoubleSolitaireState, seat: int, target: str) -> bool:
    """The waste's card put on ``target`` (made in ``after``) opens something: a model of the
    core's ``Rules::opens_from_waste`` (docs/bots.md)."""
    piles = after.piles
    uncovered = piles[WASTES[seat]][-1:]
    if uncovered and (
        any(fits_foundation_up(uncovered[0], piles[f]) for f in FOUNDATIONS)
        or any(fitting_run_count(uncovered, 1, piles[t]) for t in TABLEAUX[seat])
    ):
        return True
    return takes_run(after, seat, target)


def test_core_search_tries_only_shuffles_that_open_something() -> None:
    # Shuffles and the waste's card onto the tableau alike: the core searches them only when
    # they open something.
    rules = patience.get_rules("double-solitaire", {})
    assert isinstance(rules, DoubleSolitaire)
    kinds: Counter[tuple[str, bool]] = Counter()
    for deal in range(16):
        state = rules.deal(deal)
        rng = random.Random(deal)
        for step in range(160):
            if rules.is_terminal(state):
                break
            state = rules.apply_action(state, rules.rollout_action(state, rng))
            if step % 10 or state.stop_offered:
                continue
            seat = rules.current_player(state)
            idle = {}
            for action in rules.legal_actions(state):
                move = rules.action_to_move(state, action)
                if move.is_action or move.target not in TABLEAUX[seat]:
                    continue
                after = rules.apply_action(state, action)
                if move.source == WASTES[seat]:
                    idle[action] = ("waste", opens_from_waste(after, seat, str(move.target)))
                elif move.source in TABLEAUX[seat]:
                    source = str(move.source)
                    turns_up = state.down[source] > 0 and move.count == state.up_count(source)
                    if not turns_up:
                        idle[action] = ("shuffle", opens(rules, after, seat, source))
            if not idle:
                continue
            kinds.update(idle.values())
            stats, _ = _core.ds_ismcts(
                rules.core_options(), rules.core_parts(state), seat, 400, None, 0.7, 1.0, 2, step
            )
            searched = {action for action, _, _, _ in stats}
            assert not {action for action, (_, useful) in idle.items() if not useful} & searched
    # Each kind of move, useful or not, was met.
    assert kinds[("shuffle", True)]
    assert kinds[("shuffle", False)]
    assert kinds[("waste", True)]
    assert kinds[("waste", False)]
