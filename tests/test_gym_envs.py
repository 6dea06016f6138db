"""The Gymnasium environments of the one-player games and the PettingZoo environments of Leopard
and Double Solitaire (patience.envs): the libraries' own checkers pass for every game, and the
observations come from the views only."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is the extra patience[gymnasium]")
pettingzoo_test = pytest.importorskip(
    "pettingzoo.test", reason="PettingZoo is the extra patience[pettingzoo]"
)

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import patience  # noqa: E402
from patience.envs import gymnasium as patience_gym  # noqa: E402
from patience.envs import pettingzoo as patience_pz  # noqa: E402
from patience.envs.observation import ViewEncoder  # noqa: E402

ONE_PLAYER = [name for name in patience.GAMES if patience.get_rules(name).players == 1]


def test_every_one_player_game_has_an_id() -> None:
    assert set(patience_gym.ENV_IDS) == set(ONE_PLAYER)
    assert patience_gym.ENV_IDS["klondike"] == "patience/Klondike-v0"
    assert patience_gym.ENV_IDS["leonis-own"] == "patience/LeonisOwn-v0"


@pytest.mark.parametrize("name", ONE_PLAYER)
def test_gymnasium_env_checker_passes(name: str) -> None:
    env = gymnasium.make(patience_gym.ENV_IDS[name], render_mode="ansi")
    check_env(env.unwrapped)


@pytest.mark.parametrize("name", ONE_PLAYER)
def test_a_random_masked_episode(name: str) -> None:
    env = gymnasium.make(patience_gym.ENV_IDS[name])
    observation, info = env.reset(seed=3)
    game = patience.new(name, deal=info["deal"])
    rng = np.random.default_rng(3)
    for _ in range(25):
        mask = observation["action_mask"]
        assert mask.tolist() == [int(flag) for flag in game.legal_action_mask()]
        action = int(rng.choice(np.flatnonzero(mask)))
        game.apply_action(action)
        observation, reward, terminated, _, _ = env.step(action)
        assert np.array_equal(
            observation["observation"], ViewEncoder(game.rules).encode(game.state, 0)
        )
        if terminated:
            assert reward == game.returns()[0]
            break


def test_options_are_keyword_arguments_and_deals_can_be_chosen() -> None:
    env = gymnasium.make("patience/Klondike-v0", draw=1, passes=1)
    _, info = env.reset(options={"deal": 7})
    assert info["deal"] == 7
    unwrapped = env.unwrapped
    assert unwrapped.rules.options["draw"] == 1
    assert (
        env.action_space.n == patience.get_rules("klondike", {"passes": 1}).num_distinct_actions()
    )
    with pytest.raises(ValueError, match="option draw=2 is not allowed"):
        gymnasium.make("patience/Klondike-v0", draw=2)


def test_an_illegal_action_ends_the_episode_and_says_why() -> None:
    env = gymnasium.make("patience/Klondike-v0")
    observation, _ = env.reset(options={"deal": 1})
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True)
    assert "is not legal here" in info["illegal_action"]


def test_observations_never_name_a_face_down_card() -> None:
    # The encoder reads the view: a position whose face-down cards are swapped looks the same.
    rules = patience.get_rules("klondike")
    state = rules.start(5)[0]
    other = state.copy()
    other.piles["t7"][0], other.piles["t6"][0] = other.piles["t6"][0], other.piles["t7"][0]
    encoder = ViewEncoder(rules)
    assert np.array_equal(encoder.encode(state, 0), encoder.encode(other, 0))
    assert rules.position_json(state, None) != rules.position_json(other, None)


@pytest.mark.filterwarnings(
    # A dict of the observation and its action mask, as PettingZoo's own classic games have.
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
)
@pytest.mark.parametrize(
    "make",
    [
        lambda: patience_pz.leopard_env(2, deals=1),
        lambda: patience_pz.leopard_env(3, deals=1),
        lambda: patience_pz.leopard_env(4, deals=1),
        patience_pz.double_solitaire_env,
    ],
    ids=["leopard-2", "leopard-3", "leopard-4", "double-solitaire"],
)
def test_pettingzoo_api_test_passes(make: object) -> None:
    env = make()  # type: ignore[operator]
    pettingzoo_test.api_test(env, num_cycles=30, verbose_progress=False)


def test_a_seat_sees_its_own_hand_only() -> None:
    env = patience_pz.leopard_env(2, deals=1)
    env.reset(options={"deal": 9})
    assert env.game is not None
    hands = env.game.state.hands
    for seat, agent in enumerate(env.possible_agents):
        observation = env.observe(agent)["observation"]
        expected = ViewEncoder(env.rules).encode(env.game.state, seat)
        assert np.array_equal(observation, expected)
    assert hands[0] != hands[1]
    first, second = (env.observe(agent)["observation"] for agent in env.possible_agents)
    assert not np.array_equal(first, second)


def test_a_pettingzoo_game_plays_to_the_end() -> None:
    env = patience_pz.double_solitaire_env()
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    steps = 0
    for _agent in env.agent_iter(max_iter=4000):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            steps += 1
        env.step(action)
    assert env.game is not None
    if env.game.is_over():
        assert sum(env._cumulative_rewards.values()) == 0  # a margin: zero-sum
    assert steps > 0
    env.reset(seed=4)
    with pytest.raises(ValueError, match="is not legal"):
        env.step(env.rules.num_distinct_actions() - 1)
