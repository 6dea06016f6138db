"""The simple bots: ``random`` and ``greedy``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..moves import Move
from .base import Bot, register

__all__ = ["GreedyBot", "RandomBot"]


@register
class RandomBot(Bot):
    """Any legal move, uniformly at random."""

    name = "random"
    summary = "a legal move at random"

    def decide(self, view: Mapping[str, Any]) -> Move:
        moves = self.legal(view)
        return moves[self.rng.randrange(len(moves))]


@register
class GreedyBot(Bot):
    """One ply deep: the move whose result the game's ``evaluate`` likes best for this seat.

    The result is computed in a world sampled from the view (hidden cards dealt at random), so
    the bot never peeks; Leopard's ``evaluate`` values one's own square and its unfinished
    lines and counts the rivals' the other way, so spoiling their lines pays. Equal moves are
    broken by the game's playout policy (``Rules.rollout_action``) when it names one of them,
    else at random.
    """

    name = "greedy"
    summary = "the move that looks best one ply ahead (own square up, rivals' down)"

    def decide(self, view: Mapping[str, Any]) -> Move:
        moves = self.legal(view)
        if len(moves) == 1:
            return moves[0]
        rules = self.rules_for(view)
        seat = int(view["seat"])
        world = rules.sample_state(view, self.rng)
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            after = rules.apply_action(world, rules.move_to_action(world, move))
            value = rules.evaluate(after, seat)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value > best_value - 1e-9:
                best.append(move)
        if len(best) > 1:
            # Equal moves: the playout policy's, if it is one of them (it does not, say, shuffle
            # a run between Double Solitaire's piles for nothing), else one at random.
            policy = rules.action_to_move(world, rules.rollout_action(world, self.rng))
            if policy in best:
                return policy
        return best[self.rng.randrange(len(best))]
