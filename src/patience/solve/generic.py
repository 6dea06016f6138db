"""The generic adapter: any one-player game through its :class:`~patience.engine.Rules` alone.

It uses ``candidate_moves``, ``perform``, ``key``, ``finished`` and ``extra_json``: nothing a
game has to add for it. It knows no symmetry and no dominance, so it is slow but sound for every
game; a game-specific adapter (``patience.solve.klondike``) is the fast path.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from ..engine import Rules, State
from ..moves import Move
from .search import Adapter

__all__ = ["WORSE_COUNTERS", "GenericAdapter"]

#: Per game, the parts of ``extra_json`` that count passes (or redeals) used: they only grow
#: along a game, and a state with more used is never better than the same piles with fewer,
#: since the count only limits what is legal (docs/solving.md). The table keeps them out of
#: its key and skips a state seen with no greater count.
WORSE_COUNTERS: dict[str, tuple[str, ...]] = {
    "klondike": ("redeals",),
    "canfield": ("redeals",),
}


class GenericAdapter(Adapter[State, Move]):
    """Nodes are engine states, steps are single engine moves in the game's own order."""

    def __init__(self, rules: Rules[Any]) -> None:
        self.rules = rules
        self.counters = WORSE_COUNTERS.get(rules.name, ())

    def canonical(self, node: State) -> Hashable:
        # The engine key leaves out counters such as passes used; those change what is legal,
        # so they belong in the table's key, except the counters of WORSE_COUNTERS.
        extra = self.rules.extra_json(node)
        for name in self.counters:
            extra.pop(name, None)
        return (self.rules.key(node), json.dumps(extra, sort_keys=True))

    def worse(self, node: State) -> int:
        extra = self.rules.extra_json(node) if self.counters else {}
        return sum(int(extra.get(name, 0)) for name in self.counters)

    def path_key(self, node: State) -> Hashable:
        return self.rules.key(node)

    def won(self, node: State) -> bool:
        outcome = self.rules.finished(node)
        return outcome is not None and outcome.result == "won"

    def steps(self, node: State, dominance: bool) -> list[tuple[Move, State]]:
        if self.rules.finished(node) is not None:
            return []
        return [
            (move, self.rules.perform(node, move)[0]) for move in self.rules.candidate_moves(node)
        ]

    def moves(self, node: State, step: Move) -> list[Move]:
        return [step]
