"""The Klondike adapter: a compact state, the stock as reachable cards, and safe moves.

Every rule used here is argued in docs/solving.md ("Klondike"). In short:

* A node keeps the tableau as byte strings of card numbers, the foundations as heights by suit,
  and the stock and waste as one byte string ``order`` (the waste bottom first, then the stock
  top first) with ``w`` cards of it on the waste. Turning the stock only moves ``w``; recycling
  sets it to 0.
* One step plays any card the stock can bring to the top of the waste: it stands for the
  ``stock`` (and ``recycle``) moves that bring it there and the card move that plays it.
* The table's key sorts the tableau piles and names foundations by suit (they are
  interchangeable); passes used are a "worse" counter, not part of the key; with unlimited
  passes the waste sizes of a full pass are one (rule 11).
* A card goes to its foundation as the only step when the safe rule allows it: from the tableau
  always, from the waste only with ``draw=1`` (with three cards turned at a time, taking a waste
  card changes which cards later turns reach, so it is not safe there).
* With ``dominance``: a built run is split, a space made, or a card brought back from a
  foundation only when what that frees could be used at once (rules 8-10).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from ..games.klondike import FOUNDATIONS, TABLEAU, Klondike, KlondikeState
from ..moves import Move
from ..options import UNLIMITED
from .search import Adapter, one_of_the_first

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

# Lookup tables: indexing a tuple is cheaper than a call in the inner loops.
_RANK = tuple(_rank(card) for card in range(52))
_SUIT = tuple(_suit(card) for card in range(52))
#: The cards that may be built on each card in the tableau (one rank lower, other colour).
_ONTO = tuple(
    tuple(other * 13 + card % 13 - 1 for other in _OPPOSITE[card // 13]) if card % 13 else ()
    for card in range(52)
)


@dataclass(slots=True)
class KlondikeNode:
    """A Klondike state as the solver holds it (see the module docstring)."""

    tab: tuple[bytes, ...]
    down: tuple[int, ...]
    found: tuple[int, ...]
    fmap: tuple[int, ...]
    order: bytes
    w: int
    redeals: int
    _layout: bytes | None = None
    #: Each pile's part of the table's key (face-down count, length, cards), filled in by
    #: :meth:`keys` or inherited from the parent for the piles a step leaves alone.
    _keys: tuple[bytes, ...] | None = None
    #: Made from an engine state (a search's root), not by a step: where rule 12 is tested
    #: when cards may come back from the foundations (docs/solving.md).
    root: bool = False

    def keys(self) -> tuple[bytes, ...]:
        """Each pile's part of the table's key."""
        if self._keys is None:
            self._keys = tuple(
                bytes((down, len(pile))) + pile
                for down, pile in zip(self.down, self.tab, strict=True)
            )
        return self._keys

    def child(
        self,
        tab: tuple[bytes, ...],
        down: tuple[int, ...],
        found: tuple[int, ...],
        fmap: tuple[int, ...],
        order: bytes,
        w: int,
        redeals: int,
        changed: tuple[int, ...],
    ) -> KlondikeNode:
        """A node that differs from this one in the piles ``changed`` (and any other part)."""
        keys = list(self.keys())
        for index in changed:
            keys[index] = bytes((down[index], len(tab[index]))) + tab[index]
        return KlondikeNode(tab, down, found, fmap, order, w, redeals, None, tuple(keys))

    def layout(self) -> bytes:
        """Everything of the engine's key but the split of ``order`` into stock and waste."""
        if self._layout is None:
            self._layout = (
                b"".join(self.keys())
                + bytes(self.found)
                + bytes(f + 1 for f in self.fmap)
                + self.order
            )
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
            tab=tuple(bytes(int(card) for card in state.piles[name]) for name in TABLEAU),
            down=tuple(state.down[name] for name in TABLEAU),
            found=tuple(found),
            fmap=tuple(fmap),
            order=bytes(waste + stock[::-1]),
            w=len(waste),
            redeals=state.redeals,
            root=True,
        )

    # -- what the search asks ------------------------------------------------------------------

    def canonical(self, node: KlondikeNode) -> bytes:
        piles = sorted(node.keys())
        w = node.w
        if self.passes is None and (w % self.draw == 0 or w == len(node.order)):
            w = 255
        return b"".join(piles) + bytes(node.found) + node.order + bytes((w,))

    #: The first restart after this many nodes (docs/solving.md, Klondike, "Restarts").
    restart_nodes = 20_000

    def reorder(
        self,
        node: KlondikeNode,
        canon: Hashable,
        steps: list[tuple[Step, KlondikeNode]],
        restart: int,
    ) -> list[tuple[Step, KlondikeNode]]:
        # One of the three most promising steps, chosen by a checksum of the state and the run
        # number (deterministic on every machine), goes first.
        if len(steps) < 2:
            return steps
        state = canon if isinstance(canon, bytes) else self.canonical(node)
        return one_of_the_first(steps, state, restart, 3)

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
            # The position right after the last turn counts too: the engine refuses to recreate
            # it, even though the step goes on to move the waste card.
            reach.append((size, tuple(actions), (*trail, size), node.redeals))
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
                reach.append((size, tuple(actions), (*trail, size), node.redeals + 1))
        return reach

    def safe_step(self, node: KlondikeNode) -> tuple[Step, KlondikeNode] | None:
        """The safe move to a foundation of rule 4 (docs/solving.md), if there is one: a tableau
        top card (or, with ``draw=1``, the waste top) that no winning line needs elsewhere."""
        tab, down, found = node.tab, node.down, node.found
        rank_of, suit_of = _RANK, _SUIT
        for index, pile in enumerate(tab):
            if len(pile) > down[index]:
                card = pile[-1]
                if found[suit_of[card]] == rank_of[card] - 1 and self._safe(card, found):
                    return self._tableau_to_foundation(node, index)
        if self.draw == 1 and node.w:
            card = node.order[node.w - 1]
            if found[suit_of[card]] == rank_of[card] - 1 and self._safe(card, found):
                return self._waste_to_foundation(node, node.w, (), (), node.redeals)
        return None

    def deadlocked(self, node: KlondikeNode) -> bool:
        """Whether some tableau cards can never move (rule 12, docs/solving.md): the largest set
        U of face-down and bottom face-up cards (not kings) such that every way a card of U
        could first move (onto either card of the next rank in the other colour, or to its
        foundation) needs a card of U to have moved before it. No card of U can be the first
        of U to move, so none ever does: the position is lost."""
        rank_of, suit_of = _RANK, _SUIT
        # For each tableau card: the candidates of its pile at or above it (covered), and
        # strictly above it (over).
        covered: dict[int, int] = {}
        over: dict[int, int] = {}
        candidates = 0
        for pile, down in zip(node.tab, node.down, strict=True):
            last = min(down, len(pile) - 1)
            above = 0
            for at in range(len(pile) - 1, -1, -1):
                card = pile[at]
                over[card] = above
                if at <= last and rank_of[card] != KING:
                    above |= 1 << card
                covered[card] = above
            candidates |= above
        if not candidates:
            return False
        # Each candidate's ways out as masks of candidates: a way is open while none of its
        # cards is in U; None marks a way that is never open.
        ways: dict[int, list[int | None]] = {}
        stuck = 0
        for card in range(52):
            if not candidates >> card & 1:
                continue
            rank, suit = rank_of[card], suit_of[card]
            card_ways: list[int | None] = []
            open_way = False
            for other in _OPPOSITE[suit]:
                onto = other * 13 + rank  # the card of rank + 1 in the other colour
                if node.found[other] > rank:
                    if self.from_foundation:
                        open_way = True  # it may come down again
                    else:
                        card_ways.append(None)
                elif onto not in over:
                    open_way = True  # in the stock or waste
                else:
                    card_ways.append(over[onto])
            lower = 0
            for low in range(suit * 13, card):
                lower |= covered.get(low, 0)
            card_ways.append(lower)
            if not open_way:
                ways[card] = card_ways
                stuck |= 1 << card
        while True:
            freed = 0
            for card, card_ways in ways.items():
                if stuck >> card & 1 and any(w is not None and not w & stuck for w in card_ways):
                    freed |= 1 << card
            if not freed:
                return stuck != 0
            stuck &= ~freed

    def steps(self, node: KlondikeNode, dominance: bool) -> list[tuple[Step, KlondikeNode]]:
        tab, down, found = node.tab, node.down, node.found
        rank_of, suit_of = _RANK, _SUIT
        if dominance:
            # A position that is not dead-locked has no dead-locked successor while cards may
            # come back from the foundations (rule 12): testing the root is enough then.
            if (node.root or not self.from_foundation) and self.deadlocked(node):
                return []
            safe = self.safe_step(node)
            if safe is not None:
                return [safe]

        to_foundation: list[tuple[Step, KlondikeNode]] = []
        uncovering: list[tuple[int, int, tuple[Step, KlondikeNode]]] = []
        from_waste: list[tuple[Step, KlondikeNode]] = []
        other: list[tuple[Step, KlondikeNode]] = []
        back: list[tuple[Step, KlondikeNode]] = []

        # Which piles each card may go on: the first space for a king, else the piles whose
        # top card is one rank higher in the other colour.
        targets: dict[int, list[int]] = {}
        empty = -1
        for index, pile in enumerate(tab):
            if pile:
                top = pile[-1]
                for card in _ONTO[top]:
                    targets.setdefault(card, []).append(index)
                if found[suit_of[top]] == rank_of[top] - 1:
                    to_foundation.append(self._tableau_to_foundation(node, index))
            elif empty < 0:
                empty = index
        if empty >= 0:
            for suit in range(4):
                targets[suit * 13 + KING - 1] = [empty]

        reachable_cards: set[int] = set()
        for size, actions, trail, redeals in self._reachable(node):
            card = node.order[size - 1]
            reachable_cards.add(card)
            if found[suit_of[card]] == rank_of[card] - 1:
                to_foundation.append(self._waste_to_foundation(node, size, actions, trail, redeals))
            for target in targets.get(card, ()):
                from_waste.append(
                    self._waste_to_tableau(node, size, actions, trail, redeals, target)
                )

        tops = {pile[-1] for pile in tab if pile}
        faceup = {card for index, pile in enumerate(tab) for card in pile[down[index] :]}
        king_waiting: bool | None = None  # worked out when first needed
        for source, pile in enumerate(tab):
            size = len(pile)
            hidden = down[source]
            for position in range(hidden, size):
                for target in targets.get(pile[position], ()):
                    count = size - position
                    if not tab[target] and count == size:
                        # A king's whole pile moving to a space changes nothing.
                        continue
                    if position == hidden and hidden:
                        step = self._tableau_to_tableau(node, source, target, count)
                        uncovering.append((-hidden, len(uncovering), step))
                    elif position == 0:
                        if dominance and king_waiting is None:
                            king_waiting = self._king_waiting(node, reachable_cards)
                        if not dominance or king_waiting:
                            step = self._tableau_to_tableau(node, source, target, count)
                            uncovering.append((1, len(uncovering), step))
                    elif not dominance or self._split_useful(
                        node, source, count, tops, faceup, reachable_cards
                    ):
                        other.append(self._tableau_to_tableau(node, source, target, count))

        if self.from_foundation:
            for suit in range(4):
                height = found[suit]
                # Aces and twos never need to come back: nothing useful goes on them.
                if height < 3:
                    continue
                if dominance and not self._descent_useful(
                    node, suit, tops, faceup, reachable_cards
                ):
                    continue
                for target in targets.get(suit * 13 + height - 1, ()):
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
    def _available(
        card: int, found: tuple[int, ...], faceup: set[int], reachable: set[int]
    ) -> bool:
        """Whether ``card`` is face up in the tableau, reachable in the stock, or anywhere on its
        foundation (the lenient "could be played soon" of rules 8 and 9, docs/solving.md)."""
        return card in faceup or card in reachable or found[card // 13] > card % 13

    def _split_useful(
        self,
        node: KlondikeNode,
        source: int,
        count: int,
        tops: set[int],
        faceup: set[int],
        reachable: set[int],
    ) -> bool:
        """Rule 8: a move that splits a built run must leave the card it uncovers usable at
        once: able to go to its foundation or onto another card, or to take a card."""
        found = node.found
        pile = node.tab[source]
        exposed = pile[-count - 1]
        rank, suit = _rank(exposed), _suit(exposed)
        if found[suit] == rank - 1:
            return True
        if rank == KING:
            # It has face-down cards under it (nothing face up goes under a king).
            return True
        for other in _OPPOSITE[suit]:
            onto = other * 13 + rank
            if onto in tops or found[other] > rank:
                return True
        twin = _PARTNER[_suit(pile[-count])] * 13 + rank - 2
        return self._available(twin, found, faceup, reachable)

    def _king_waiting(self, node: KlondikeNode, reachable: set[int]) -> bool:
        """Rule 10: a space is worth making only if a king could fill it: a king with cards
        under it, one the stock can reach, or one on a foundation."""
        for hidden, pile in zip(node.down, node.tab, strict=True):
            # A king is the lowest face-up card of its pile (nothing goes under a king).
            if 0 < hidden < len(pile) and _RANK[pile[hidden]] == KING:
                return True
        if any(suit * 13 + KING - 1 in reachable for suit in range(4)):
            return True
        return self.from_foundation and KING in node.found

    def _descent_useful(
        self, node: KlondikeNode, suit: int, tops: set[int], faceup: set[int], reachable: set[int]
    ) -> bool:
        """Rule 9: a card comes back from a foundation only if a card could go on it at once,
        or the next card of its suit could come back too."""
        found = node.found
        rank = found[suit]
        for other in _OPPOSITE[suit]:
            if self._available(other * 13 + rank - 2, found, faceup, reachable):
                return True
            # (The card of rank ``rank`` on its foundation needs no test: the card under it,
            # one rank lower, is up too, which the first test counts.)
            onto = other * 13 + rank - 1
            if onto in tops:
                return True
        return False

    # -- children ------------------------------------------------------------------------------

    def _raise(self, node: KlondikeNode, suit: int) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
        name, fmap = self._foundation_name(node, suit)
        found = list(node.found)
        found[suit] += 1
        return name, tuple(found), fmap

    @staticmethod
    def _without_top(
        node: KlondikeNode, index: int, count: int
    ) -> tuple[tuple[bytes, ...], tuple[int, ...]]:
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
        child = node.child(tab, down, found, fmap, node.order, node.w, node.redeals, (index,))
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
        child = node.child(node.tab, node.down, found, fmap, order, size - 1, redeals, ())
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
        tab[target] = tab[target] + bytes((card,))
        order = node.order[: size - 1] + node.order[size:]
        child = node.child(
            tuple(tab), node.down, node.found, node.fmap, order, size - 1, redeals, (target,)
        )
        return ("waste", TABLEAU[target], 1, actions, trail), child

    def _tableau_to_tableau(
        self, node: KlondikeNode, source: int, target: int, count: int
    ) -> tuple[Step, KlondikeNode]:
        run = node.tab[source][-count:]
        tab, down = self._without_top(node, source, count)
        tab_list = list(tab)
        tab_list[target] = tab_list[target] + run
        child = node.child(
            tuple(tab_list),
            down,
            node.found,
            node.fmap,
            node.order,
            node.w,
            node.redeals,
            (source, target),
        )
        return (TABLEAU[source], TABLEAU[target], count, (), ()), child

    def _foundation_to_tableau(
        self, node: KlondikeNode, suit: int, target: int
    ) -> tuple[Step, KlondikeNode]:
        card = suit * 13 + node.found[suit] - 1
        found = list(node.found)
        found[suit] -= 1
        tab = list(node.tab)
        tab[target] = tab[target] + bytes((card,))
        child = node.child(
            tuple(tab),
            node.down,
            tuple(found),
            node.fmap,
            node.order,
            node.w,
            node.redeals,
            (target,),
        )
        return (FOUNDATIONS[node.fmap[suit]], TABLEAU[target], 1, (), ()), child
