"""The registry of games: names (as in RULES.md), their rules classes and options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import Rules
from .accordion import Accordion
from .canfield import Canfield
from .double_solitaire import DoubleSolitaire
from .klondike import Klondike
from .leonis_own import LeonisOwn
from .leopard import Leopard
from .napoleon import Napoleon
from .spider import Spider

__all__ = ["GAMES", "UnknownGame", "get_rules", "resolve_name"]

#: Every implemented game, by its RULES.md name, in the order RULES.md lists them.
GAMES: dict[str, type[Rules[Any]]] = {
    cls.name: cls
    for cls in (
        Klondike,
        DoubleSolitaire,
        Spider,
        Canfield,
        Accordion,
        Napoleon,
        LeonisOwn,
        Leopard,
    )
}


class UnknownGame(ValueError):
    """A game name that is not one of ours."""


def resolve_name(name: str) -> str:
    """The RULES.md name of a game, given its name or an alias (``forty-thieves``)."""
    key = name.strip().lower().replace("_", "-")
    if key in GAMES:
        return key
    for cls in GAMES.values():
        if key in cls.aliases:
            return cls.name
    raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")


def get_rules(name: str, options: Mapping[str, object] | None = None) -> Rules[Any]:
    """The rules of game ``name`` with ``options`` (validated; defaults filled in)."""
    return GAMES[resolve_name(name)](options)
