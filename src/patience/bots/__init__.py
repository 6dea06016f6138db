"""Players for the multi-player games: ``random``, ``greedy`` and ``ismcts``; matches and arenas.

Bots see only a seat's view (:meth:`patience.Game.view`), never the full state, and all their
randomness comes from their seed, so a match is reproducible. They are generic over games: a
game joins by giving its :class:`~patience.engine.Rules` the search hooks (``sample_state``,
``evaluate``, ``rollout_action`` and the integer-action vocabulary). docs/bots.md says more.

>>> import patience
>>> from patience import bots
>>> game = patience.new("leopard", deal=3, deals=1)
>>> bot = bots.get("greedy", seed=1)
>>> move = bot.choose(game.view(game.current_player()))
>>> game.is_legal(move)
True
"""

from __future__ import annotations

from .base import BOTS, Bot, BotError, get
from .ismcts import IsmctsBot
from .players import GreedyBot, RandomBot

__all__ = ["BOTS", "Bot", "BotError", "GreedyBot", "IsmctsBot", "RandomBot", "get"]
