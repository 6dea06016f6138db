"""The Klondike adapter: a compact state, the stock as reachable cards, and safe moves.

Every rule used here is argued in docs/solving.md ("Klondike"). In short:

* A node keeps the tableau as tuples of small ints, the foundations as heights by suit, and the
  stock and waste as one sequence ``order`` (the waste bottom first, then the stock top first)
  with ``w`` cards of it on the waste. Turning the stock only moves ``w``; recycling sets it to 0.
* One step plays any card the stock can bring to the top of the waste: it stands for the
  ``stock`` (and ``recycle``) moves that bring it there and the card move that plays it.
* The table's key sorts the tableau piles and names foundations by suit (they are
  interchangeable); passes used are a "worse" counter, not part of the key.
* A card goes to its foundation as the only step when the safe rule allows it: from the tableau
  always, from the waste only with ``draw=1`` (with three cards turned at a time, taking a waste
  card changes which cards later turns reach, so it is not safe there).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from ..games.klondike import FOUNDATIONS, TABLEAU, Klondike, KlondikeState
from ..moves import Move
from ..options import UNLIMITED
from .search import Adapter

__all__ = ["KlondikeAdapter", "KlondikeNode"]

KING = 13


def _rank(card: int) -> int:
    return card % 13 + 1


def _suit(card: int) -> int:
    return card // 13


def _red(card: int) -> bool:
    return card // 13 in (1, 2)


#: For each suit: the two suits of the other colour, and the other suit of the same colour.
_OPPOSITE = ((1, 2), (0, 3), (0, 3), (1, 2))
_PARTNER = (3, 2, 1, 0)


@dataclass(slots=True)
class KlondikeNode:
    """A Klondike state as the solver holds it (see the module docstring)."""

    tab: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    found: tuple[int, ...]
    fmap: tuple[int, ...]
    order: tuple[int, ...]
    w: int
    redeals: int
    _layout: bytes | None = None

    def layout(self) -> bytes:
        """Everything of the engine's key but the split of ``order`` into stock and waste."""
        if self._layout is None:
            parts = bytearray()
            for down, pile in zip(self.down, self.tab, strict=True):
                parts += bytes((down, len(pile)))
                parts += bytes(pile)
            parts += bytes(self.found)
            parts += bytes(f + 1 for f in self.fmap)
            parts += bytes(self.order)
            self._layout = bytes(parts)
        return self._layout


# A step: (source pile, target pile, count, actions before the card move, inner waste sizes).
Step = tuple[str, str, int, tuple[str, ...], tuple[int, ...]]


class KlondikeAdapter(Adapter[KlondikeNode, Step]):
    """Klondike with every option: ``draw`` 1 or 3, ``passes``, ``from_foundation``."""

    def __init__(self, rules: Klondike) -> None:
        self.rules = rules
        self.draw = rules.draw
        passes = rules.options["passes"]
        self.passes: int | None = None if passes == UNLIMITED else int(passes)
        self.from_foundation = bool(rules.options["from_foundation"])

    # -- conversion ----------------------------------------------------------------------------

    def node(self, state: KlondikeState) -> KlondikeNode:
        """The solver's node for an engine state."""
        found = [0, 0, 0, 0]
        fmap = [-1, -1, -1, -1]
        for index, name in enumerate(FOUNDATIONS):
            cards = state.piles[name]
            if cards:
                suit = _suit(int(cards[0]))
                found[suit] = len(cards)
                fmap[suit] = index
        waste = [int(card) for card in state.piles["waste"]]
        stock = [int(card) for card in state.piles["stock"]]
        return KlondikeNode(
            tab=tuple(tuple(int(card) for card in state.piles[name]) for name in TABLEAU),
            down=tuple(state.down[name] for name in TABLEAU),
            found=tuple(found),
            fmap=tuple(fmap),
            order=tuple(waste + stock[::-1]),
            w=len(waste),
            redeals=state.redeals,
        )

    # -- what the search asks ------------------------------------------------------------------

    def canonical(self, node: KlondikeNode) -> Hashable:
        piles = sorted(
            bytes((down, len(pile))) + bytes(pile)
            for down, pile in zip(node.down, node.tab, strict=True)
        )
        return b"".join(piles) + bytes(node.found) + bytes(node.order) + bytes((node.w,))

    def worse(self, node: KlondikeNode) -> int:
        # With unlimited passes the count of passes changes nothing.
        return 0 if self.passes is None else node.redeals

    def path_key(self, node: KlondikeNode) -> Hashable:
        return (node.layout(), node.w)

    def layout_key(self, node: KlondikeNode) -> Hashable:
        return node.layout()

    def inner_keys(self, node: KlondikeNode, step: Step) -> Iterable[Hashable]:
        layout = node.layout()
        return [(layout, w) for w in step[4]]

    def won(self, node: KlondikeNode) -> bool:
        return sum(node.found) == 52

    def moves(self, node: KlondikeNode, step: Step) -> list[Move]:
        source, target, count, actions, _ = step
        return [Move.act(action) for action in actions] + [Move.cards(source, target, count)]

    # -- steps ---------------------------------------------------------------------------------

    def _passes_left(self, redeals: int) -> bool:
        return self.passes is None or redeals + 1 < self.passes

    def _safe(self, card: int, found: tuple[int, ...]) -> bool:
        rank = _rank(card)
        if rank <= 2:
            return True
        suit = _suit(card)
        first, second = _OPPOSITE[suit]
        if found[first] < rank - 1 or found[second] < rank - 1:
            return False
        return not self.from_foundation or found[_PARTNER[suit]] >= rank - 2

    def _foundation_name(self, node: KlondikeNode, suit: int) -> tuple[str, tuple[int, ...]]:
        """The foundation that takes ``suit`` next, and the suit map after it does."""
        index = node.fmap[suit]
        if index >= 0:
            return FOUNDATIONS[index], node.fmap
        # An ace goes to the first empty foundation: they are interchangeable.
        index = min(i for i in range(4) if i not in node.fmap)
        fmap = list(node.fmap)
        fmap[suit] = index
        return FOUNDATIONS[index], tuple(fmap)

    def _reachable(
        self, node: KlondikeNode
    ) -> list[tuple[int, tuple[str, ...], tuple[int, ...], int]]:
        """Every waste size the stock can reach without repeating a position, with the
        actions that reach it, the waste sizes passed on the way, and the passes used."""
        total = len(node.order)
        start = node.w
        reach: list[tuple[int, tuple[str, ...], tuple[int, ...], int]] = []
        if start:
            reach.append((start, (), (), node.redeals))
        actions: list[str] = []
        trail: list[int] = []
        size = start
        while size < total:
            if actions:
                trail.append(size)
            size = min(size + self.draw, total)
            actions.append("stock")
            reach.append((size, tuple(actions), tuple(trail), node.redeals))
        if total and self._passes_left(node.redeals):
            if actions:
                trail.append(size)
            actions.append("recycle")
            size = 0
            # The next pass stops before it comes back to the starting position (or to the end
            # of the stock, reached already in this pass): that would repeat a position.
            while size != start:
                trail.append(size)
                size = min(size + self.draw, total)
                actions.append("stock")
                if size in (start, total):
                    break
                reach.append((size, tuple(actions), tuple(trail), node.redeals + 1))
        return reach

    def steps(self, node: KlondikeNode, dominance: bool) -> list[tuple[Step, KlondikeNode]]:
        tab, down, found = node.tab, node.down, node.found
        if dominance:
            for index, pile in enumerate(tab):
                if len(pile) > down[index]:
                    card = pile[-1]
                    if found[_suit(card)] == _rank(card) - 1 and self._safe(card, found):
                        return [self._tableau_to_foundation(node, index)]
            if self.draw == 1 and node.w:
                card = node.order[node.w - 1]
                if found[_suit(card)] == _rank(card) - 1 and self._safe(card, found):
                    return [self._waste_to_foundation(node, node.w, (), (), node.redeals)]

        to_foundation: list[tuple[Step, KlondikeNode]] = []
        uncovering: list[tuple[int, int, tuple[Step, KlondikeNode]]] = []
        from_waste: list[tuple[Step, KlondikeNode]] = []
        other: list[tuple[Step, KlondikeNode]] = []
        back: list[tuple[Step, KlondikeNode]] = []

        for index, pile in enumerate(tab):
            if len(pile) > down[index]:
                card = pile[-1]
                if found[_suit(card)] == _rank(card) - 1:
                    to_foundation.append(self._tableau_to_foundation(node, index))

        empty = next((index for index, pile in enumerate(tab) if not pile), -1)
        for size, actions, trail, redeals in self._reachable(node):
            card = node.order[size - 1]
            if found[_suit(card)] == _rank(card) - 1:
                to_foundation.append(self._waste_to_foundation(node, size, actions, trail, redeals))
            for target, pile in enumerate(tab):
                if self._fits(card, pile, target, empty):
                    from_waste.append(
                        self._waste_to_tableau(node, size, actions, trail, redeals, target)
                    )

        for source, pile in enumerate(tab):
            up = len(pile) - down[source]
            if not up:
                continue
            top_rank = _rank(pile[-1])
            for target, onto in enumerate(tab):
                if target == source:
                    continue
                wanted = _rank(onto[-1]) - 1 if onto else KING
                count = wanted - top_rank + 1
                if not 1 <= count <= up:
                    continue
                base = pile[-count]
                if onto:
                    if _red(base) == _red(onto[-1]):
                        continue
                elif target != empty or count == len(pile):
                    # Spaces are interchangeable, and a king's whole pile moving to a space
                    # changes nothing.
                    continue
                step = self._tableau_to_tableau(node, source, target, count)
                if count == up and down[source]:
                    uncovering.append((-down[source], len(uncovering), step))
                elif count == len(pile):
                    uncovering.append((1, len(uncovering), step))
                else:
                    other.append(step)

        if self.from_foundation:
            for suit in range(4):
                height = found[suit]
                # Aces and twos never need to come back: nothing useful goes on them.
                if height < 3:
                    continue
                card = suit * 13 + height - 1
                for target, pile in enumerate(tab):
                    if self._fits(card, pile, target, empty):
                        back.append(self._foundation_to_tableau(node, suit, target))

        uncovering.sort(key=lambda entry: (entry[0], entry[1]))
        return [
            *to_foundation,
            *(entry[2] for entry in uncovering),
            *from_waste,
            *other,
            *back,
        ]

    @staticmethod
    def _fits(card: int, pile: tuple[int, ...], index: int, empty: int) -> bool:
        if not pile:
            return index == empty and _rank(card) == KING
        onto = pile[-1]
        return _rank(onto) == _rank(card) + 1 and _red(onto) != _red(card)

    # -- children ------------------------------------------------------------------------------

    def _raise(self, node: KlondikeNode, suit: int) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
        name, fmap = self._foundation_name(node, suit)
        found = list(node.found)
        found[suit] += 1
        return name, tuple(found), fmap

    @staticmethod
    def _without_top(
        node: KlondikeNode, index: int, count: int
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        tab = list(node.tab)
        rest = tab[index][:-count]
        tab[index] = rest
        down = node.down
        if rest and down[index] >= len(rest):
            down = (*down[:index], len(rest) - 1, *down[index + 1 :])
        return tuple(tab), down

    def _tableau_to_foundation(self, node: KlondikeNode, index: int) -> tuple[Step, KlondikeNode]:
        card = node.tab[index][-1]
        name, found, fmap = self._raise(node, _suit(card))
        tab, down = self._without_top(node, index, 1)
        child = KlondikeNode(tab, down, found, fmap, node.order, node.w, node.redeals)
        return (TABLEAU[index], name, 1, (), ()), child

    def _waste_to_foundation(
        self,
        node: KlondikeNode,
        size: int,
        actions: tuple[str, ...],
        trail: tuple[int, ...],
        redeals: int,
    ) -> tuple[Step, KlondikeNode]:
        card = node.order[size - 1]
        name, found, fmap = self._raise(node, _suit(card))
        order = node.order[: size - 1] + node.order[size:]
        child = KlondikeNode(node.tab, node.down, found, fmap, order, size - 1, redeals)
        return ("waste", name, 1, actions, trail), child

    def _waste_to_tableau(
        self,
        node: KlondikeNode,
        size: int,
        actions: tuple[str, ...],
        trail: tuple[int, ...],
        redeals: int,
        target: int,
    ) -> tuple[Step, KlondikeNode]:
        card = node.order[size - 1]
        tab = list(node.tab)
        tab[target] = tab[target] + (card,)
        order = node.order[: size - 1] + node.order[size:]
        child = KlondikeNode(tuple(tab), node.down, node.found, node.fmap, order, size - 1, redeals)
        return ("waste", TABLEAU[target], 1, actions, trail), child

    def _tableau_to_tableau(
        self, node: KlondikeNode, source: int, target: int, count: int
    ) -> tuple[Step, KlondikeNode]:
        run = node.tab[source][-count:]
        tab, down = self._without_top(node, source, count)
        tab_list = list(tab)
        tab_list[target] = tab_list[target] + run
        child = KlondikeNode(
            tuple(tab_list), down, node.found, node.fmap, node.order, node.w, node.redeals
        )
        return (TABLEAU[source], TABLEAU[target], count, (), ()), child

    def _foundation_to_tableau(
        self, node: KlondikeNode, suit: int, target: int
    ) -> tuple[Step, KlondikeNode]:
        card = suit * 13 + node.found[suit] - 1
        found = list(node.found)
        found[suit] -= 1
        tab = list(node.tab)
        tab[target] = tab[target] + (card,)
        child = KlondikeNode(
            tuple(tab), node.down, tuple(found), node.fmap, node.order, node.w, node.redeals
        )
        return (FOUNDATIONS[node.fmap[suit]], TABLEAU[target], 1, (), ()), child
