"""patience: card games of patience and their relatives, from the rules up.

>>> import patience
>>> game = patience.new("klondike", deal=7, draw=1)
>>> game
Game('klondike', deal=7, options={'draw': 1, 'passes': 'unlimited', 'from_foundation': True})
>>> game.push("stock")
[]
>>> game.pop()
Move.parse('stock')
"""

from __future__ import annotations

from .cards import Card, CardError, Colour, Rank, Suit
from .deals import DealError
from .engine import (
    SPECTATOR,
    Game,
    IllegalMove,
    Observer,
    ObserverError,
    Outcome,
    PlayedMove,
    PositionError,
    Result,
    Rules,
    Spectator,
    State,
)
from .games import GAMES, UnknownGame, get_rules
from .moves import Move, MoveSyntaxError
from .options import OptionError

__all__ = [
    "GAMES",
    "SPECTATOR",
    "Card",
    "CardError",
    "Colour",
    "DealError",
    "Game",
    "IllegalMove",
    "Move",
    "MoveSyntaxError",
    "Observer",
    "ObserverError",
    "OptionError",
    "Outcome",
    "PlayedMove",
    "PositionError",
    "Rank",
    "Result",
    "Rules",
    "Spectator",
    "State",
    "Suit",
    "UnknownGame",
    "get_rules",
    "new",
]

__version__ = "0.1.0"


def new(name: str, deal: int | None = None, **options: object) -> Game:
    """Start game ``name`` (as in RULES.md) from a deal number (random if None) with options.

    Unknown games, unknown options and values out of range are refused with a message that
    lists what is allowed.
    """
    return Game.create(get_rules(name, options), deal=deal)
