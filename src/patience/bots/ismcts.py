"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration deals the cards the bot cannot see at random, consistently with its view
(``Rules.sample_state``), walks one tree shared by all those worlds (UCB1 with availability
counts: a move's exploration term counts only the iterations in which it was legal), adds one
node, plays the world out with the game's playout policy (``Rules.rollout_action``) and backs up
each seat's return. The move played is the root's most visited one. Generic over games with
integer actions.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from ..moves import Move
from .base import Bot, BotError, register

__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_ROLLOUT_DEPTH", "IsmctsBot"]

#: Iterations per move by default: under one second a move for Leopard on the development
#: machine (docs/bots.md has the measurements).
DEFAULT_ITERATIONS = 2000
#: Playouts are cut after this many moves and scored by the game's ``evaluate``: shorter, less
#: noisy playouts bought more strength than full ones in Leopard (docs/bots.md).
DEFAULT_ROLLOUT_DEPTH = 12


class _Node:
    __slots__ = ("available", "children", "player", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat that chose the move leading here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 1
        self.total = 0.0


@register
class IsmctsBot(Bot):
    """ISMCTS with a budget of ``iterations`` per move (or ``seconds``, if given, instead).

    ``exploration`` is UCB1's constant; returns are divided by ``scale`` (Leopard's returns are
    point margins, a few points wide).
    """

    name = "ismcts"
    summary = "information-set Monte Carlo tree search over sampled deals of the unseen cards"

    def __init__(
        self,
        seed: int | str | None = None,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = 0.7,
        scale: float = 10.0,
        rollout_depth: int | None = DEFAULT_ROLLOUT_DEPTH,
    ) -> None:
        super().__init__(seed)
        if int(iterations) < 1:
            raise BotError("ismcts needs iterations of 1 or more")
        self.iterations = int(iterations)
        self.seconds = seconds
        self.exploration = exploration
        self.scale = scale
        #: Playouts stop after this many moves and the game's ``evaluate`` scores the state
        #: (None: play out to the end).
        self.rollout_depth = rollout_depth
        #: Iterations run for the last move (for benchmarks).
        self.last_iterations = 0

    def decide(self, view: Mapping[str, Any]) -> Move:
        moves = self.legal(view)
        if len(moves) == 1:
            return moves[0]
        rules = self.rules_for(view)
        rng = self.rng
        root = _Node(-1)
        c = self.exploration
        scale = self.scale
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < self.iterations if deadline is None else time.perf_counter() < deadline:
            done += 1
            world = rules.sample_state(view, rng)
            node = root
            path = [root]
            # Selection and expansion.
            while not rules.is_terminal(world):
                legal = rules.legal_actions(world)
                player = rules.current_player(world)
                children = node.children
                untried = [action for action in legal if action not in children]
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    child = children[action] = _Node(player)
                    for other in legal:
                        if other in children and other != action:
                            children[other].available += 1
                    world = rules.apply_action(world, action, in_place=True)
                    path.append(child)
                    break
                best_score = -math.inf
                chosen = legal[0]
                for action in legal:
                    child = children[action]
                    child.available += 1
                    score = child.total / child.visits + c * math.sqrt(
                        math.log(child.available) / child.visits
                    )
                    if score > best_score:
                        best_score, chosen = score, action
                node = children[chosen]
                world = rules.apply_action(world, chosen, in_place=True)
                path.append(node)
            # Playout.
            steps = self.rollout_depth
            while not rules.is_terminal(world) and (steps is None or steps > 0):
                world = rules.apply_action(world, rules.rollout_action(world, rng), in_place=True)
                if steps is not None:
                    steps -= 1
            if rules.is_terminal(world):
                returns = rules.returns(world)
            else:
                returns = [rules.evaluate(world, seat) for seat in range(rules.players)]
            for visited in path[1:]:
                visited.visits += 1
                visited.total += returns[visited.player] / scale
        self.last_iterations = done
        world = rules.sample_state(view, rng)
        legal_actions = {rules.move_to_action(world, move): move for move in moves}
        best = max(
            legal_actions,
            key=lambda action: (
                root.children[action].visits if action in root.children else -1,
                -action,
            ),
        )
        return legal_actions[best]
