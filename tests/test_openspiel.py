"""The games as OpenSpiel Python games (patience.envs.openspiel): OpenSpiel's own random
simulation test for every game and option set that changes the action space or the seats, a
serialization round trip, the observer giving what the views give, and OpenSpiel's ISMCTS
finding its way through a resampled world."""

from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the extra patience[openspiel]")

import numpy as np  # noqa: E402  (after the skip: numpy comes with the extra)

import patience  # noqa: E402
from patience import SPECTATOR  # noqa: E402
from patience.envs import openspiel  # noqa: E402
from patience.envs.observation import ViewEncoder  # noqa: E402

openspiel.register()

#: Every game, and the options that change its seats or its action space; games are cut at
#: 150 moves and Leopard plays one deal, to keep random play through Python short.
GAMES = [
    f"{name[:-1]},max_moves=150)" if name.endswith(")") else f"{name}(max_moves=150)"
    for name in (
        "patience_klondike(draw=1)",
        "patience_klondike(from_foundation=False,passes=1)",
        "patience_double_solitaire",
        "patience_spider(auto_remove=False,suits=1)",
        "patience_canfield(move=top)",
        "patience_accordion",
        "patience_napoleon",
        "patience_leonis_own(exile=choose)",
        "patience_leopard(players=2,deals=1)",
        "patience_leopard(players=3,deals=1)",
        "patience_leopard(players=4,deals=1)",
    )
]


def test_every_game_is_registered() -> None:
    names = {game.short_name for game in pyspiel.registered_games()}
    assert {openspiel.game_name(name) for name in patience.GAMES} <= names


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_passes(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_serialization_round_trip(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(name)
    state.apply_action(rng.randrange(game.max_chance_outcomes()))
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    loaded_game, loaded = pyspiel.deserialize_game_and_state(text)
    assert loaded_game.get_parameters() == game.get_parameters()
    assert loaded.history() == state.history()
    assert str(loaded) == str(state)


def test_the_chance_node_is_the_deal_and_the_options_are_parameters() -> None:
    game = pyspiel.load_game("patience_klondike(draw=1,deals_range=10)")
    assert game.num_distinct_actions() == patience.get_rules("klondike").num_distinct_actions()
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(deal, 0.1) for deal in range(10)]
    state.apply_action(7)
    position = json.loads(str(state))
    assert position == patience.new("klondike", deal=7, draw=1).position()
    assert state.legal_actions() == patience.new("klondike", deal=7, draw=1).legal_actions()
    with pytest.raises(Exception, match="option draw=2 is not allowed"):
        pyspiel.load_game("patience_klondike(draw=2)")


def test_a_game_cut_at_max_moves_is_terminal_where_it_stands() -> None:
    game = pyspiel.load_game("patience_klondike(max_moves=3)")
    assert game.max_game_length() == 4
    state = game.new_initial_state()
    state.apply_action(1)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.returns() == [0.0]


def test_the_observer_sees_what_the_view_shows() -> None:
    game = pyspiel.load_game("patience_leopard(players=3,deals=1)")
    state = game.new_initial_state()
    state.apply_action(3)
    for action in state.legal_actions()[:1]:
        state.apply_action(action)
    rules = patience.get_rules("leopard", {"players": 3, "deals": 1})
    seat = state.current_player()
    inner = state.game.state
    assert state.observation_string(seat) == rules.information_state_string(inner, seat)
    encoder = ViewEncoder(rules)
    assert np.array_equal(
        np.asarray(state.observation_tensor(seat), np.float32), encoder.encode(inner, seat)
    )
    # The information state (perfect recall) adds the moves the seat saw; the first mover's
    # played card is known to everybody once on a square or discarded.
    lines = state.information_state_string(seat).split("\n")
    assert lines[0] == rules.information_state_string(inner, seat)
    assert len(lines) == 2
    # A spectator's observer (no private information) sees the spectator's view.
    public = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    assert observer.string_from(state, seat) == rules.information_state_string(inner, SPECTATOR)


def test_openspiel_ismcts_plays_through_resampled_worlds() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("patience_leopard(players=2,deals=1)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 1.4, 10, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    state.apply_action(5)
    seat = state.current_player()
    world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(seat) == state.information_state_string(seat)
    assert bot.step(state) in state.legal_actions()


def test_openspiel_ismcts_bot_keeps_to_the_views_legal_moves() -> None:
    # Its root is dealt from the view and has no history: the real game's refusals of moves
    # that would repeat a position must still hold (Double Solitaire's positions can repeat).
    from patience import bots

    game = patience.new("double-solitaire", deal=2)
    players = [bots.get("openspiel-ismcts", seed=seat, simulations=3, horizon=8) for seat in (0, 1)]
    for _ in range(40):
        if game.is_over():
            break
        seat = game.current_player()
        move = players[seat].choose(game.view(seat))
        assert move in game.legal_moves()
        game.push(move)
