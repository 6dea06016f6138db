"""The games as OpenSpiel Python games (``pip install patience[openspiel]``).

:func:`register` registers every game of :data:`patience.GAMES` with pyspiel as
``patience_<name>`` (``patience_klondike``, ``patience_double_solitaire``, ...), so that
``pyspiel.load_game("patience_klondike(draw=1)")`` and OpenSpiel's algorithms can play them:

* sequential, imperfect information, terminal rewards (:meth:`patience.Rules.returns`);
* **the shuffle is one chance node** at the start: one outcome per deal number ``0 ..
  deals_range - 1`` (parameter ``deals_range``, 1000 by default), all equally likely; the
  chosen deal is dealt exactly as the rest of the program deals it (docs/deals.md), so a deal
  number means the same game here as in records and at the terminal;
* the game's options are parameters of the same names (booleans as booleans, ``passes`` as a
  whole number, 0 for unlimited), and Leopard's ``players`` option is the number
  of players;
* ``max_moves`` (2000 by default) bounds a game's length: a game cut short there is terminal
  with the returns of where it stands (a one-player game not won counts 0);
* actions are the game's fixed action space (docs/notation.md, "Action numbers"); legal
  actions leave out moves that would repeat a position (the engine's :class:`patience.Game`);
* the observer gives the same information as the engine's views: its string is a seat's view
  (:meth:`patience.Rules.information_state_string`; with ``perfect_recall``, followed by the
  moves that seat has seen, each as the seat may know it), its tensor the view encoded by
  :class:`patience.envs.observation.ViewEncoder`; with ``private_info`` ``NONE`` it is the
  spectator's view. No hidden card ever reaches it.

OpenSpiel's ISMCTS needs to resample hidden cards: :meth:`PatienceState.resample_from_infostate`
deals a world consistent with the seat's view (:meth:`patience.Rules.sample_state`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from .. import games
from ..bots import base as bots_base
from ..engine import SPECTATOR, Game, Observer, Rules
from ..moves import Move
from ..options import UNLIMITED, Option, OptionValue
from .observation import ViewEncoder

__all__ = [
    "DEALS_RANGE",
    "OpenSpielIsmctsBot",
    "PatienceGame",
    "PatienceState",
    "game_name",
    "register",
]

#: The deal numbers the chance node chooses from, by default: 0 .. DEALS_RANGE - 1.
DEALS_RANGE = 1000
#: The parameter naming how many deal numbers the chance node chooses from.
DEALS_PARAMETER = "deals_range"
#: The parameter bounding a game's length in player moves, and its default: positions never
#: repeat, so every game ends, but random play through a patience game can wander for
#: thousands of moves. A game cut short is terminal with the returns of where it stands
#: (:meth:`patience.Rules.returns`: a one-player game not won counts 0).
MAX_MOVES_PARAMETER = "max_moves"
MAX_MOVES = 2000


def game_name(name: str) -> str:
    """The OpenSpiel short name of a game: ``patience_`` and its name, ``-`` as ``_``."""
    return "patience_" + name.replace("-", "_")


def _parameter_default(spec: Option) -> bool | int | str:
    """An option's default as an OpenSpiel parameter (whose type is its default's)."""
    if spec.kind == "bool":
        return bool(spec.default)
    if spec.kind == "passes":  # a whole number, 0 for unlimited (OpenSpiel types by value)
        return 0 if spec.default == UNLIMITED else int(spec.default)
    return spec.default if isinstance(spec.default, int | str) else str(spec.default)


def _bounds(rules: Rules[Any]) -> tuple[float, float, float | None]:
    """Minimum and maximum return and the sum of returns (None: not constant)."""
    if rules.players == 1:
        return 0.0, 1.0, None
    if rules.name == "double-solitaire":
        # A margin of cards on the foundations (going out counts all 52).
        return -52.0, 52.0, 0.0
    # Leopard: a side's total minus the best other side's, loosely bounded (a general-sum
    # game for OpenSpiel: with three sides the margins do not add up to zero).
    return -10_000.0, 10_000.0, None


class PatienceGame(pyspiel.Game):  # type: ignore[misc]
    """One patience game (its rules and options) as an OpenSpiel game."""

    #: Set by :func:`register` on each game's own subclass.
    game_type: pyspiel.GameType
    rules_name: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.deals_range = int(given.pop(DEALS_PARAMETER, DEALS_RANGE))
        self.max_moves = int(given.pop(MAX_MOVES_PARAMETER, MAX_MOVES))
        if self.deals_range < 1:
            raise ValueError(f"{DEALS_PARAMETER} must be 1 or more, not {self.deals_range}")
        if self.max_moves < 1:
            raise ValueError(f"{MAX_MOVES_PARAMETER} must be 1 or more, not {self.max_moves}")
        for spec in games.GAMES[self.rules_name].option_specs:
            if spec.kind == "passes" and given.get(spec.name) == 0:
                given[spec.name] = UNLIMITED
        self.rules: Rules[Any] = games.get_rules(self.rules_name, given)
        low, high, total = _bounds(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_distinct_actions(),
            max_chance_outcomes=self.deals_range,
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=self.max_moves + 1,  # the deal, then the moves
        )
        super().__init__(self.game_type, info, {**dict(params or {})})
        self.encoder = ViewEncoder(self.rules)

    def new_initial_state(self) -> PatienceState:
        """The state before the deal: a chance node."""
        return PatienceState(self)

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> PatienceObserver:
        """An observer of what a seat (or, with ``private_info`` NONE, the spectator) sees."""
        return PatienceObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Held:
    """The rules and the :class:`patience.Game` of a state. OpenSpiel clones a state by deep
    copy: the clone shares the rules (stateless but for their options) and copies the game by
    :meth:`patience.Game.copy` (states are never changed in place once reached, so the copies
    share them): a few list copies instead of the whole game's."""

    def __init__(self, rules: Rules[Any], game: Game | None) -> None:
        self.rules = rules
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.rules, None if self.game is None else self.game.copy())


class PatienceState(pyspiel.State):  # type: ignore[misc]
    """A patience game in progress (a :class:`patience.Game`), or the deal still to come."""

    def __init__(self, game: PatienceGame) -> None:
        super().__init__(game)
        self._deals_range = game.deals_range
        self._max_moves = game.max_moves
        self._held = _Held(game.rules, None)
        #: The legal actions, when a bot's root state is given them (its own game, dealt
        #: from a view, has no history, so it would allow moves that repeat a position of the
        #: real game's); forgotten at the next move.
        self.only_actions: list[int] | None = None
        #: For each seat, the moves it has seen so far, as it may know them (JSON text).
        self.seen: list[list[str]] = [[] for _ in range(game.rules.players)]

    @property
    def _rules(self) -> Rules[Any]:
        return self._held.rules

    @property
    def game(self) -> Game | None:
        """The game in progress (None before the deal)."""
        return self._held.game

    @game.setter
    def game(self, game: Game | None) -> None:
        self._held.game = game

    # -- OpenSpiel's API -------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's CHANCE or TERMINAL."""
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.game.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game is not None
        assert player == self.game.current_player()
        if self.only_actions is not None:
            return list(self.only_actions)
        return self.game.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """One outcome per deal number, all equally likely."""
        assert self.game is None
        chance = 1.0 / self._deals_range
        return [(deal, chance) for deal in range(self._deals_range)]

    def _apply_action(self, action: int) -> None:
        self.only_actions = None
        if self.game is None:
            self.game = Game.create(self._rules, deal=int(action))
            return
        mover = self.game.current_player()
        self.game.apply_action(int(action))
        for seat in range(self._rules.players):
            seen = self.game.last_move_view(seat)
            if seen is not None:
                seen["seat"] = mover
                self.seen[seat].append(json.dumps(seen, sort_keys=True, separators=(",", ":")))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        if self.game is None:
            return f"action {action}"
        try:
            return self._rules.action_to_move(self.game.state, int(action)).text()
        except ValueError:  # a template the state cannot fill (no card there now)
            return str(self._rules.action_moves()[int(action)])

    def is_terminal(self) -> bool:
        """True once the game is over (won, lost, blocked, the match ended) or has reached
        the ``max_moves`` parameter's number of moves."""
        return self.game is not None and (
            len(self.game.move_stack) >= self._max_moves or self.game.is_over()
        )

    def returns(self) -> list[float]:
        """Each seat's return: :meth:`patience.Rules.returns` once over, else zeros."""
        if self.game is None or not self.is_terminal():
            return [0.0] * self._rules.players
        return [float(value) for value in self._rules.returns(self.game.state)]

    def __str__(self) -> str:
        """The exact position (hidden cards included) as JSON, for debugging."""
        if self.game is None:
            return "(before the deal)"
        return json.dumps(self.game.position(), sort_keys=True, separators=(",", ":"))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PatienceState:
        """A state that ``player_id`` cannot tell from this one: the cards its view hides
        dealt at random (:meth:`patience.Rules.sample_state`), the same moves seen. Used by
        OpenSpiel's ISMCTS; ``probability_sampler`` (a number in [0, 1) per call) seeds the
        deal."""
        return self.resample(player_id, random.Random(float(probability_sampler())))

    def resample(self, player_id: int, rng: random.Random) -> PatienceState:
        """:meth:`resample_from_infostate` with the hidden cards dealt by ``rng``."""
        clone: PatienceState = self.clone()
        if self.game is None:
            return clone
        world = self._rules.sample_state(self.game.view(player_id), rng)
        # A new game from the sampled world: the clone keeps no earlier (true) state.
        clone.game = Game.create(self._rules, state=world)
        return clone


class PatienceObserver:
    """OpenSpiel's Python observer: the tensor and string of a seat's view."""

    def __init__(
        self,
        game: PatienceGame,
        iig_obs_type: pyspiel.IIGObservationType,
        params: Mapping[str, Any] | None,
    ) -> None:
        if params:
            raise ValueError(f"the patience observers take no parameters, not {dict(params)}")
        self.encoder = game.encoder
        self.rules = game.rules
        self.spectator = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def _observer(self, player: int) -> Observer:
        return SPECTATOR if self.spectator else player

    def set_from(self, state: PatienceState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as ``player`` sees it."""
        if state.game is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = self.encoder.encode(state.game.state, self._observer(player))

    def string_from(self, state: PatienceState, player: int) -> str:
        """``state`` as ``player`` sees it: the view as canonical JSON (with ``perfect_recall``,
        then the moves it has seen, one per line)."""
        if state.game is None:
            return "(before the deal)"
        text = self.rules.information_state_string(state.game.state, self._observer(player))
        if self.perfect_recall:
            moves = [] if self.spectator else state.seen[player]
            text = "\n".join([text, *moves])
        return text


def _register_one(name: str) -> str:
    rules_class = games.GAMES[name]
    sample = games.get_rules(name)
    short = game_name(name)
    parameters: dict[str, OptionValue] = {
        spec.name: _parameter_default(spec) for spec in rules_class.option_specs
    }
    parameters[DEALS_PARAMETER] = DEALS_RANGE
    parameters[MAX_MOVES_PARAMETER] = MAX_MOVES
    # Leopard's option players is OpenSpiel's number of players; other games have fixed seats.
    players = next((spec for spec in rules_class.option_specs if spec.name == "players"), None)
    seats = [int(str(choice)) for choice in players.choices] if players else [sample.players]
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"patience: {rules_class.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if name == "double-solitaire"
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(seats),
        min_num_players=min(seats),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )
    subclass = type(
        f"Patience{rules_class.__name__}Game",
        (PatienceGame,),
        {"game_type": game_type, "rules_name": name, "__module__": __name__},
    )
    pyspiel.register_game(game_type, subclass)
    return short


_registered: list[str] = []


def register() -> list[str]:
    """Register every game of :data:`patience.GAMES` with pyspiel (once; later calls do
    nothing) and return their OpenSpiel names."""
    if not _registered:
        _registered.extend(_register_one(name) for name in games.GAMES)
    return list(_registered)


@bots_base.register
class OpenSpielIsmctsBot(bots_base.Bot):
    """OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts``) as a patience bot,
    playing through the OpenSpiel registration: from a seat's view only (the root is a world
    sampled from the view, and every simulation resamples one), random rollouts, UCT.
    Parameters: ``simulations`` (100), ``uct_c`` (1.4), ``rollouts`` per leaf (1) and
    ``horizon``: the game loaded with ``max_moves=horizon``, so that a simulation stops that
    many moves after the decision and scores the state reached by its returns (default: the
    game's own bound, :data:`MAX_MOVES`)."""

    name = "openspiel-ismcts"
    summary = "OpenSpiel's information-set MCTS, through the OpenSpiel registration"

    def __init__(
        self,
        seed: int | str | None = None,
        simulations: int = 100,
        uct_c: float = 1.4,
        rollouts: int = 1,
        horizon: int = MAX_MOVES,
    ) -> None:
        super().__init__(seed)
        if int(horizon) < 1:
            raise ValueError(f"horizon must be 1 or more, not {horizon}")
        self.horizon = int(horizon)
        self.simulations = int(simulations)
        self.uct_c = float(uct_c)
        self.rollouts = int(rollouts)
        self._games: dict[str, PatienceGame] = {}

    def _game_for(self, rules: Rules[Any]) -> PatienceGame:
        register()
        key = f"{rules.name}:{sorted(rules.options.items())}"
        game = self._games.get(key)
        if game is None:
            params: dict[str, Any] = {MAX_MOVES_PARAMETER: self.horizon}
            for spec in rules.option_specs:
                value = rules.options[spec.name]
                params[spec.name] = 0 if value == UNLIMITED else value
            game = pyspiel.load_game(game_name(rules.name), params)
            self._games[key] = game
        return game

    def decide(self, view: Mapping[str, Any]) -> Move:
        from open_spiel.python.algorithms import ismcts, mcts

        legal = self.legal(view)
        if len(legal) == 1:
            return legal[0]
        rules = self.rules_for(view)
        game = self._game_for(rules)
        root = game.new_initial_state()
        # The root is a world dealt from the view: the true hidden cards never reach the bot.
        root.game = Game.create(rules, state=rules.sample_state(view, self.rng))
        root.only_actions = sorted(rules.move_to_action(root.game.state, move) for move in legal)
        seed = self.rng.randrange(2**31)
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, np.random.RandomState(seed))
        bot = ismcts.ISMCTSBot(
            game,
            evaluator,
            self.uct_c,
            self.simulations,
            random_state=np.random.RandomState(seed + 1),
        )
        # Worlds are dealt by the bot's own generator: the same seed, the same moves.
        bot.set_resampler(lambda state, player: state.resample(player, self.rng))
        action = bot.step(root)
        move = rules.action_to_move(root.game.state, int(action))
        if move not in legal:  # the view's own list is the authority on what is legal
            raise bots_base.BotError(f"OpenSpiel's ISMCTS chose {move}, not a legal move here")
        return move
