"""Gymnasium environments for the one-player games (``pip install patience[gymnasium]``).

Importing this module registers one id per one-player game of :data:`patience.GAMES`:
``patience/Klondike-v0``, ``patience/Spider-v0``, ``patience/Canfield-v0``,
``patience/Accordion-v0``, ``patience/Napoleon-v0`` and ``patience/LeonisOwn-v0``. The game's
options are keyword arguments (``gymnasium.make("patience/Klondike-v0", draw=1)``).

* Observations are a dict: ``"observation"``, the player's view as a fixed-shape ``float32``
  array (:class:`patience.envs.observation.ViewEncoder`: face-down cards are counted, never
  named), and ``"action_mask"``, one ``int8`` per action of the game's fixed action space
  (docs/notation.md, "Action numbers"), 1 where the action is legal.
* Actions are those integers (``Discrete(num_distinct_actions)``).
* The reward is the game's return when it ends (1 for a win, 0 for a loss) and 0 before;
  ``terminated`` is True once the game is over (won, or no legal move left: moves that would
  repeat a position are not legal).
* An illegal action ends the episode (``terminated``) with reward ``illegal_reward`` (-1 by
  default) and ``info["illegal_action"]`` saying why: the state is left as it was.
* :meth:`PatienceEnv.reset` deals a deal number drawn from the environment's seeded generator,
  or the one given as ``options={"deal": N}``; ``info["deal"]`` tells which.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .. import games
from ..deals import MAX_DEAL
from ..engine import Game, IllegalMove, Rules
from .observation import ViewEncoder

__all__ = ["ENV_IDS", "PatienceEnv", "env_id", "register"]

Observation = dict[str, npt.NDArray[Any]]


def env_id(name: str) -> str:
    """The Gymnasium id of a game: ``patience/`` and its name in CamelCase, version 0."""
    return "patience/" + "".join(part.capitalize() for part in name.split("-")) + "-v0"


class PatienceEnv(gymnasium.Env[Observation, np.int64]):
    """A one-player game of patience as a Gymnasium environment (the module says how)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (as Env declares it)

    def __init__(
        self,
        game: str = "klondike",
        *,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        rules: Rules[Any] = games.get_rules(game, options)
        if rules.players != 1:
            raise ValueError(
                f"{rules.name} is played by {rules.players} seats: use its PettingZoo "
                "environment (patience.envs.pettingzoo)"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.encoder = ViewEncoder(rules)
        self.observation_space = cast(
            spaces.Space[Observation],
            spaces.Dict(
                {
                    "observation": spaces.Box(-1.0, 1e6, self.encoder.shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (rules.num_distinct_actions(),), np.int8),
                }
            ),
        )
        self.action_space = spaces.Discrete(rules.num_distinct_actions())
        self.game: Game | None = None

    def _observation(self) -> Observation:
        assert self.game is not None
        mask = np.zeros(self.rules.num_distinct_actions(), np.int8)
        if not self.game.is_over():
            mask[self.game.legal_actions()] = 1
        return {"observation": self.encoder.encode(self.game.state, 0), "action_mask": mask}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game: ``options={"deal": N}`` or a deal drawn from the seeded
        generator."""
        super().reset(seed=seed)
        deal = (options or {}).get("deal")
        if deal is None:
            deal = int(self.np_random.integers(0, MAX_DEAL, endpoint=True))
        self.game = Game.create(self.rules, deal=int(deal))
        return self._observation(), {"deal": self.game.deal}

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Make the move numbered ``action``."""
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self.game.is_over():
            raise RuntimeError("the game is over: call reset() for a new one")
        if int(action) not in self.game.legal_actions():
            why = f"action {int(action)} is not legal here"
            try:
                move = self.rules.action_to_move(self.game.state, int(action))
                why = f"action {int(action)} ({move}) is not legal here"
            except IllegalMove:
                pass
            return self._observation(), self.illegal_reward, True, False, {"illegal_action": why}
        self.game.apply_action(int(action))
        over = self.game.is_over()
        reward = float(self.game.returns()[0]) if over else 0.0
        info: dict[str, Any] = {"outcome": self.game.outcome().to_json()} if over else {}
        return self._observation(), reward, over, False, info

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the position as the player sees it (text)."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return self.rules.information_state_string(self.game.state, 0)


#: The ids registered by :func:`register`, by game name.
ENV_IDS: dict[str, str] = {}


def register() -> dict[str, str]:
    """Register an id per one-player game with Gymnasium (done when this module is imported;
    later calls do nothing) and return them by game name."""
    for name, rules_class in games.GAMES.items():
        if rules_class().players != 1 or name in ENV_IDS:
            continue
        ENV_IDS[name] = env_id(name)
        gymnasium.register(
            id=ENV_IDS[name],
            entry_point=f"{__name__}:PatienceEnv",
            kwargs={"game": name},
        )
    return dict(ENV_IDS)


register()
