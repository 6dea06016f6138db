"""Leopard's search in the compiled core (``patience._core``, core/src/leopard.rs): the rules of
one deal, the playout policy, the search rewards, the searching seat's information key, worlds
dealt from its knowledge and the whole ISMCTS loop of :class:`~patience.bots.IsmctsBot`, run
without Python in the loop (docs/bots.md, "Leopard in the compiled core").

States cross as ``(stock, hands, squares, discards, numbers)``: cards as faces (0-51, Leopard's
two packs are equal in play), a face-down layer as ``face | DOWN | seat << SEAT_SHIFT``, and the
numbers dealer, turn, phase (start 0, answer 1, play 2, over 3), asker (-1: none), deal index,
deals scored, then the totals by side. The core's states end with their deal, as the engine's
search states do (``single_deal``). tests/test_core_leopard.py proves the core plays the same
game as :class:`~patience.games.leopard.Leopard`.
"""

from __future__ import annotations

from typing import Any

from ..games.leopard import DOWN, Leopard, LeopardState, Phase

__all__ = ["Parts", "available", "encode", "options", "search"]

_core: Any
try:
    from .. import _core
except ImportError:  # pragma: no cover - a source tree whose extension was never built
    _core = None

Parts = tuple[list[int], list[list[int]], list[list[list[int]]], list[int], list[int]]

#: The phases as the core numbers them.
PHASE_CODES = {Phase.START: 0, Phase.ANSWER: 1, Phase.PLAY: 2, Phase.OVER: 3}


def available() -> bool:
    """Whether the compiled core is built with Leopard's search."""
    return _core is not None and hasattr(_core, "leopard_ismcts")


def options(rules: Leopard) -> tuple[int, int | None, int | None]:
    """The options the core needs: players, deals and target (None: off)."""
    deals, target = rules.options["deals"], rules.options["target"]
    return (
        rules.nplayers,
        None if deals == "off" else int(deals),
        None if target == "off" else int(target),
    )


def _layer(layer: int) -> int:
    if layer < DOWN:
        return layer % 52
    return (layer & (DOWN - 1)) % 52 | layer & ~(DOWN - 1)


def encode(state: LeopardState) -> Parts:
    """The core's parts of an engine state (cards as faces)."""
    return (
        [card % 52 for card in state.stock],
        [[card % 52 for card in hand] for hand in state.hands],
        [[[_layer(layer) for layer in cell] for cell in square] for square in state.squares],
        [int(card) % 52 for card in state.piles["discards"]],
        [
            state.dealer,
            state.turn,
            PHASE_CODES[state.phase],
            state.asker,
            state.deal_index,
            len(state.history),
            *state.totals,
        ],
    )


def search(
    rules: Leopard,
    world: LeopardState,
    seat: int,
    *,
    iterations: int,
    seconds: float | None,
    exploration: float,
    bias: float,
    rollout_depth: int | None,
    seed: int,
    greedy_playouts: bool = False,
) -> tuple[list[tuple[int, int, float, float]], int, int]:
    """ISMCTS by ``seat`` from ``world``, a world dealt from its view (the core deals the
    others from what the seat knows of this one): the root's edges as (action, visits, summed
    reward, bias), the iterations run and the nodes made. ``greedy_playouts``: playouts by
    ``Leopard.playout_choices`` instead of ``Leopard.rollout_choices``."""
    edges, done, nodes = _core.leopard_ismcts(
        options(rules),
        encode(world),
        seat,
        iterations,
        seconds,
        exploration,
        bias,
        rollout_depth,
        seed,
        greedy_playouts,
    )
    return list(edges), int(done), int(nodes)
