"""PettingZoo AEC environments for the games of several seats (``pip install
patience[pettingzoo]``): Leopard (2, 3 or 4 players) and Double Solitaire.

``env(game="leopard", players=3)`` (options as keyword arguments) or the shortcuts
:func:`leopard_env` and :func:`double_solitaire_env`. Agents are ``player_0``, ``player_1``,
... (seat 0 first); the agent to act is the seat the game says (Leopard's partner answering,
Double Solitaire's opponent deciding on a stop).

* Each agent observes a dict: ``"observation"``, its own view as a fixed-shape ``float32`` array
  (:class:`patience.envs.observation.ViewEncoder`: its own hand, never another seat's or a
  face-down card it did not lay), and ``"action_mask"``, one ``int8`` per action of the game's
  fixed action space (docs/notation.md, "Action numbers"), 1 where legal, all 0 when it is not
  the agent's turn.
* The rewards come at the end: each seat's return (:meth:`patience.Rules.returns`: Leopard's
  margin over the best other side, Double Solitaire's margin of cards).
* An illegal action raises :class:`ValueError` saying why (the state is left as it was): use the
  mask.
* :meth:`PatienceAECEnv.reset` deals from the seeded generator, or ``options={"deal": N}``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import games
from ..deals import MAX_DEAL
from ..engine import Game, Rules
from .observation import ViewEncoder

__all__ = ["PatienceAECEnv", "double_solitaire_env", "env", "leopard_env"]

Observation = dict[str, npt.NDArray[Any]]
RENDER_MODES = ("ansi",)


class PatienceAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """A game of several seats as a PettingZoo AEC environment (the module says how)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "patience_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: str = "leopard", *, render_mode: str | None = None, **options: Any
    ) -> None:
        super().__init__()
        rules: Rules[Any] = games.get_rules(game, options)
        if rules.players < 2:
            raise ValueError(
                f"{rules.name} is a one-player game: use its Gymnasium environment "
                "(patience.envs.gymnasium)"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.metadata = {  # type: ignore[misc]  # each game's own name, per instance
            **type(self).metadata,
            "name": f"patience_{rules.name.replace('-', '_')}_v0",
        }
        self.encoder = ViewEncoder(rules)
        self.possible_agents = [f"player_{seat}" for seat in range(rules.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = rules.num_distinct_actions()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-1.0, 1e6, self.encoder.shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self.game: Game | None = None
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: the game's fixed action space."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now, and its legal actions if it is its turn."""
        assert self.game is not None
        seat = self._seats[agent]
        mask = np.zeros(self.rules.num_distinct_actions(), np.int8)
        if not self.game.is_over() and self.game.current_player() == seat:
            mask[self.game.legal_actions()] = 1
        return {"observation": self.encoder.encode(self.game.state, seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``options={"deal": N}``, else a deal from the seeded generator."""
        if seed is not None:
            self._rng = random.Random(seed)
        deal = (options or {}).get("deal")
        if deal is None:
            deal = self._rng.randint(0, MAX_DEAL)
        self.game = Game.create(self.rules, deal=int(deal))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {
            agent: {"deal": int(deal)} for agent in self.agents
        }
        self.agent_selection = self.possible_agents[self.game.current_player()]
        self._settle()

    def _settle(self) -> None:
        """End the game for every agent once it is over (returns as rewards)."""
        assert self.game is not None
        if not self.game.is_over():
            return
        outcome = self.game.outcome().to_json()
        for agent, value in zip(self.possible_agents, self.game.returns(), strict=True):
            if agent in self.agents:
                self.rewards[agent] = float(value)
                self.terminations[agent] = True
                self.infos[agent]["outcome"] = outcome

    def step(self, action: int | None) -> None:
        """Make the move numbered ``action`` for :attr:`agent_selection` (None for an agent
        whose game has ended, as PettingZoo asks)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        if action is None or int(action) not in self.game.legal_actions():
            raise ValueError(
                f"action {action} is not legal for {agent} now: its legal actions are those "
                "its observation's action_mask marks"
            )
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.game.apply_action(int(action))
        self._settle()
        if not self.game.is_over():
            self.agent_selection = self.possible_agents[self.game.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as a spectator sees it (text)."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        from ..engine import SPECTATOR

        return self.rules.information_state_string(self.game.state, SPECTATOR)

    def close(self) -> None:
        """Nothing to release."""


def env(game: str = "leopard", *, render_mode: str | None = None, **options: Any) -> PatienceAECEnv:
    """A PettingZoo AEC environment for ``game`` (a game of several seats) with ``options``."""
    return PatienceAECEnv(game, render_mode=render_mode, **options)


def leopard_env(players: int = 2, **options: Any) -> PatienceAECEnv:
    """Leopard for ``players`` (2, 3 or 4) seats."""
    return PatienceAECEnv("leopard", players=players, **options)


def double_solitaire_env(**options: Any) -> PatienceAECEnv:
    """Double Solitaire for two seats."""
    return PatienceAECEnv("double-solitaire", **options)
