"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ..engine import Rules
from ..games import get_rules
from ..moves import Move

__all__ = ["BOTS", "Bot", "BotError", "get"]


class BotError(ValueError):
    """An unknown bot name or a bad bot parameter."""


class Bot(abc.ABC):
    """A player that chooses a move from a seat's view (the JSON of :meth:`Game.view`).

    ``seed`` fixes every random choice the bot makes (a string or an int); the same seed and
    the same views give the same moves.
    """

    name: ClassVar[str]
    summary: ClassVar[str]

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self._rules: dict[str, Rules[Any]] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def rules_for(self, view: Mapping[str, Any]) -> Rules[Any]:
        """The rules of the view's game and options (made once per distinct options)."""
        key = f"{view['game']}:{sorted(view['options'].items())}"
        rules = self._rules.get(key)
        if rules is None:
            rules = self._rules[key] = get_rules(view["game"], view["options"])
        return rules

    @staticmethod
    def legal(view: Mapping[str, Any]) -> list[Move]:
        """The legal moves listed in the view (only when it is the view's seat to move)."""
        moves = [Move.from_json(data) for data in view["legal_moves"]]
        if not moves:
            raise BotError("the view lists no legal move: it is not this seat's turn")
        return moves

    def choose(self, view: Mapping[str, Any]) -> Move:
        """The move to make, one of ``view["legal_moves"]``: the move the rules oblige a bot
        to make (:meth:`Rules.bot_duty`, e.g. Double Solitaire's stop call), else the bot's own
        :meth:`decide`."""
        duty = self.rules_for(view).bot_duty(view)
        if duty is not None:
            return duty
        return self.decide(view)

    @abc.abstractmethod
    def decide(self, view: Mapping[str, Any]) -> Move:
        """The bot's own choice among ``view["legal_moves"]`` (no duty of the rules applies)."""


BOTS: dict[str, type[Bot]] = {}


def register(cls: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot available by its name."""
    BOTS[cls.name] = cls
    return cls


def get(name: str, seed: int | str | None = None, **params: Any) -> Bot:
    """A bot by name (``random``, ``greedy``, ``ismcts``) with its seed and parameters."""
    cls = BOTS.get(name.strip().lower())
    if cls is None:
        raise BotError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}")
    try:
        return cls(seed=seed, **params)
    except TypeError as error:
        raise BotError(f"bad parameter for bot {name}: {error}") from None
