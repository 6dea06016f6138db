"""The Accordion adapter: the whole row as its top cards, and independent moves in one order.

Every rule used here is argued in docs/solving.md ("Accordion"). In short:

* Only the top card of a pile matters for what may move, so a node keeps the top cards
  (``tops``, one byte a pile, left to right) and, for the engine's notation only, the pile sizes.
* The cards still in the stock are known ("thoughtful" solving) and are dealt in a fixed order,
  so the node lays them out at the right end of the row as piles of their own (``dealt`` piles
  are really on the table). A move of a pile not dealt yet stands for the ``deal`` moves that
  bring it, then the move: with ``dealing=one`` a game can deal whenever it likes, and a move
  never looks at the piles to the right of the moving one, so a line of the whole row is a line
  of the game, dealing late.
* Moves in a fixed order where the order does not matter (``frontier``): a move whose pile lies
  left of the pile the previous move built on could have been made before it, with the same
  result. So after a move onto pile ``t`` only piles from ``t`` rightwards move. A node with a
  greater frontier has fewer steps and the same children otherwise, so the frontier is the
  table's "worse" counter.
* No position can come back in Accordion (each move deals a card or takes a pile away), so the
  repetition key is a number that grows by one with every engine move.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from ..engine import State
from ..games.accordion import ROW, Accordion, row_length
from ..moves import Move
from .search import Adapter

__all__ = ["AccordionAdapter", "AccordionNode"]

#: A step: the moving pile's index and its target's index (0-based) in the whole row.
Step = tuple[int, int]


def _matches(card: int, onto: int) -> bool:
    return card % 13 == onto % 13 or card // 13 == onto // 13


@dataclass(slots=True)
class AccordionNode:
    """An Accordion state as the solver holds it (see the module docstring)."""

    tops: bytes
    sizes: bytes
    #: How many piles, from the left, are on the table; the rest are still in the stock.
    dealt: int
    #: The leftmost pile that may move next.
    frontier: int


class AccordionAdapter(Adapter[AccordionNode, Step]):
    """Accordion with either ``dealing`` option."""

    def __init__(self, rules: Accordion) -> None:
        self.rules = rules

    def node(self, state: State) -> AccordionNode:
        """The solver's node for an engine state."""
        piles = [state.piles[name] for name in ROW[: row_length(state)]]
        # The stock lists its cards bottom first: the next card to deal is the last one.
        stock = [int(card) for card in reversed(state.piles["stock"])]
        return AccordionNode(
            tops=bytes(int(pile[-1]) for pile in piles) + bytes(stock),
            sizes=bytes(len(pile) for pile in piles) + bytes(1 for _ in stock),
            dealt=len(piles),
            # Every move is open from a position given from outside.
            frontier=0,
        )

    # -- what the search asks ------------------------------------------------------------------

    def canonical(self, node: AccordionNode) -> Hashable:
        # Winnability depends on the top cards alone: how many of them are dealt does not
        # matter, since a game may deal whenever it likes.
        return node.tops

    def worse(self, node: AccordionNode) -> int:
        return node.frontier

    def path_key(self, node: AccordionNode) -> Hashable:
        # Twice the cards dealt less the piles on the table: a deal adds one, a move (one pile
        # fewer) adds one. Distinct for distinct positions of one game, which is all the
        # repetition rule compares.
        return self._count(len(node.tops), node.dealt)

    @staticmethod
    def _count(piles: int, dealt: int) -> int:
        return 2 * (52 - piles + dealt) - dealt

    def inner_keys(self, node: AccordionNode, step: Step) -> Iterable[Hashable]:
        # The positions after each deal the step makes before its move.
        length = len(node.tops)
        return [self._count(length, dealt) for dealt in range(node.dealt + 1, step[0] + 2)]

    def won(self, node: AccordionNode) -> bool:
        return len(node.tops) == 1

    def moves(self, node: AccordionNode, step: Step) -> list[Move]:
        source, target = step
        deals = [Move.act("deal")] * max(0, source + 1 - node.dealt)
        return [*deals, Move.cards(ROW[source], ROW[target], node.sizes[source])]

    # -- steps ---------------------------------------------------------------------------------

    def steps(self, node: AccordionNode, dominance: bool) -> list[tuple[Step, AccordionNode]]:
        tops = node.tops
        found: list[tuple[Step, AccordionNode]] = []
        # Left to right, for each pile the neighbour before the third to its left: of the
        # orders tried this one resolved the most deals (docs/solving.md).
        start = max(node.frontier, 1) if dominance else 1
        for source in range(start, len(tops)):
            card = tops[source]
            for reach in (1, 3):
                target = source - reach
                if target >= 0 and _matches(card, tops[target]):
                    found.append(((source, target), self._move(node, source, target)))
        return found

    @staticmethod
    def _move(node: AccordionNode, source: int, target: int) -> AccordionNode:
        tops, sizes = node.tops, node.sizes
        new_tops = tops[:target] + tops[source : source + 1] + tops[target + 1 : source]
        new_tops += tops[source + 1 :]
        grown = bytes((sizes[target] + sizes[source],))
        new_sizes = sizes[:target] + grown + sizes[target + 1 : source] + sizes[source + 1 :]
        # Dealing up to the moving pile, then one pile fewer on the table.
        dealt = max(node.dealt, source + 1) - 1
        return AccordionNode(new_tops, new_sizes, dealt, target)
