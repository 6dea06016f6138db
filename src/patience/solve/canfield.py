"""The Canfield adapter: a compact state, the stock as reachable cards, and safe moves.

Every rule used here is argued in docs/solving.md ("Canfield"). In short:

* A node keeps the tableau as tuples of small ints, the foundations as heights by suit (with the
  foundation each suit went to, for the notation), the reserve as a tuple (bottom first), and the
  stock and waste as one sequence ``order`` (the waste bottom first, then the stock top first)
  with ``w`` cards of it on the waste, as the Klondike adapter does.
* One step plays any card the stock can bring to the top of the waste (or, with
  ``spaces=stock-or-waste``, to the top of the stock), with the ``stock``/``recycle`` moves that
  bring it there. Turning a base-rank card onto the waste sends it up at once (a forced move), so
  a turn that does is a step of its own and the turns stop there.
* The forced moves (base-rank cards up, spaces filled from the reserve) are made on every child
  exactly as the game module makes them.
* The table's key sorts the tableau piles and names foundations by suit; passes used are a
  "worse" counter, not part of the key.
* A tableau card goes to its foundation as the only step when nothing that could be built on it
  is still in play, unless that would empty its pile while the reserve has cards.
* A node is lost at once when some reserve card can never leave the reserve: neither it nor
  any pile's bottom card (the only way to a space) can ever go up or onto a card that can be a
  pile's top, with that card and those under it frozen; or fewer piles can empty than cards
  above it wait for a space; or (whole piles moving) that count holds in every case of a split
  on two cards that never go up and compete for the one card they can go on.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from ..cards import RANK_OF
from ..games.canfield import (
    FOUNDATIONS,
    MOVE_BOTH,
    MOVE_PILE,
    MOVE_TOP,
    SPACES_STOCK_OR_WASTE,
    TABLEAU,
    Canfield,
    CanfieldState,
)
from ..moves import Move
from ..options import UNLIMITED
from .search import Adapter

__all__ = ["CanfieldAdapter", "CanfieldNode"]

Pile = tuple[int, ...]


def _red(card: int) -> bool:
    return card // 13 in (1, 2)


#: ``_FITS[card * 52 + onto]``: ``card`` goes on ``onto`` in the tableau (one rank lower round
#: the corner, the other colour).
_FITS = bytes(
    (card % 13 + 1) % 13 == onto % 13 and _red(card) != _red(onto)
    for card in range(52)
    for onto in range(52)
)

#: ``_ONTO[card]``: the two cards ``card`` goes on in the tableau; ``_UNDER[card]``: the two
#: cards that go on ``card``.
_ONTO = tuple(tuple(onto for onto in range(52) if _FITS[card * 52 + onto]) for card in range(52))
_UNDER = tuple(tuple(card for card in range(52) if _FITS[card * 52 + onto]) for onto in range(52))

#: For each suit, the two suits of the other colour.
_OPPOSITE = ((1, 2), (0, 3), (0, 3), (1, 2))


@dataclass(slots=True)
class CanfieldNode:
    """A Canfield state as the solver holds it (see the module docstring)."""

    tab: tuple[Pile, ...]
    found: tuple[int, ...]
    fmap: tuple[int, ...]
    reserve: Pile
    order: Pile
    w: int
    redeals: int
    _layout: bytes | None = None
    _piles: bytes | None = None

    def layout(self) -> bytes:
        """Everything of the engine's key but the split of ``order`` into stock and waste."""
        if self._layout is None:
            parts = bytearray()
            for pile in self.tab:
                parts.append(len(pile))
                parts += bytes(pile)
            parts += bytes(self.found)
            parts += bytes(index + 1 for index in self.fmap)
            parts.append(len(self.reserve))
            parts += bytes(self.order)
            self._layout = bytes(parts)
        return self._layout

    def piles(self) -> bytes:
        """The tableau piles sorted, each with its length in front (the piles are
        interchangeable: rule 1 of docs/solving.md, Canfield)."""
        if self._piles is None:
            self._piles = b"".join(sorted(bytes((len(pile),)) + bytes(pile) for pile in self.tab))
        return self._piles


#: A step: the actions before the card move, the card move's source, target and count (source
#: ``""``: no card move, the turns sent a base-rank card up), and the waste sizes passed on the
#: way (the states inside the step, for the repetition rule).
Step = tuple[tuple[str, ...], str, str, int, tuple[int, ...]]
Child = tuple[Step, CanfieldNode]
#: A place the stock can reach: waste size, actions, sizes passed, passes used, base card up.
Point = tuple[int, tuple[str, ...], tuple[int, ...], int, bool]


#: ``_ONTO_BITS[card]``: the two cards ``card`` goes on, as a bit set.
_ONTO_BITS = tuple(sum(1 << onto for onto in _ONTO[card]) for card in range(52))

#: The thirteen ranks of one suit as bits (a suit's cards are ``suit * 13`` on).
_RANKS = (1 << 13) - 1


def _down(ranks: int) -> int:
    """The 13-bit rank set ``ranks`` one rank lower, round the corner (an ace to a king)."""
    return ranks >> 1 | (ranks & 1) << 12


def _closure(start: int, top: int, allowed: int) -> int:
    """``top`` (a bit set of cards that can be a pile's top) with the cards of ``start`` and,
    repeatedly, every card of ``allowed`` that goes on one of them added."""
    new = start & ~top
    top |= new
    while new:
        # The cards that go on a card of ``new``: the black ones one rank below a red one
        # (round the corner: the ranks of a suit are 13 bits), and the red ones one rank
        # below a black one.
        red = (new >> 13 | new >> 26) & _RANKS
        black = (new | new >> 39) & _RANKS
        red = red >> 1 | (red & 1) << 12
        black = black >> 1 | (black & 1) << 12
        new = (red | red << 39 | black << 13 | black << 26) & allowed & ~top
        top |= new
    return top


def _waits_in_vain(tab: tuple[Pile, ...], above: list[int], up: int, tops: int, never: int) -> bool:
    """Rule 8's count: no more piles can empty (their bottom card can go up, in ``up``, or
    onto a card of ``tops``) than cards ``above`` the stuck one wait for a space (they can do
    neither). The cards of the bit set ``never`` are never put on a card."""
    emptied = sum(
        1
        for pile in tab
        if not never >> pile[0] & 1 and (up >> pile[0] & 1 or tops & _ONTO_BITS[pile[0]])
    )
    waiting = sum(
        1 for card in above if never >> card & 1 or not (up >> card & 1 or tops & _ONTO_BITS[card])
    )
    return emptied <= waiting


#: How many levels deep rule 9 splits cases (docs/solving.md, Canfield).
SPLIT_DEPTH = 4


class CanfieldAdapter(Adapter[CanfieldNode, Step]):
    """Canfield with every option: ``draw``, ``passes``, ``move`` and ``spaces``."""

    def __init__(self, rules: Canfield) -> None:
        self.rules = rules
        self.draw = rules.draw
        passes = rules.options["passes"]
        self.passes: int | None = None if passes == UNLIMITED else int(passes)
        mode = str(rules.options["move"])
        self.move_pile = mode in (MOVE_PILE, MOVE_BOTH)
        self.move_top = mode in (MOVE_TOP, MOVE_BOTH)
        self.stock_spaces = rules.options["spaces"] == SPACES_STOCK_OR_WASTE
        #: Each card's place in its foundation (0: the base rank), set by :meth:`node`.
        self.rel = bytes(52)
        #: ``_card_at[suit * 13 + place]``: the card at that place of its suit's foundation.
        self._card_at = bytes(range(52))
        #: ``_up_to[suit * 14 + height]``: the cards of ``suit`` a foundation of that height
        #: holds; ``_in_play[suit * 14 + height]``: the others but the base-rank card (which
        #: never stays in play), as bit sets.
        self._up_to: tuple[int, ...] = ()
        self._in_play: tuple[int, ...] = ()
        self._dead_cache: dict[bytes, bool] = {}

    # -- conversion ----------------------------------------------------------------------------

    def node(self, state: CanfieldState) -> CanfieldNode:
        """The solver's node for an engine state (every state of a game has the same base)."""
        base = RANK_OF[state.piles["f1"][0]]
        rel = bytes((card % 13 + 1 - base) % 13 for card in range(52))
        if rel != self.rel:
            # The dead-end answers hold for one base rank.
            self._dead_cache.clear()
        self.rel = rel
        self._card_at = bytes(
            suit * 13 + (place + base - 1) % 13 for suit in range(4) for place in range(13)
        )
        self._up_to = tuple(
            sum(1 << self._card_at[suit * 13 + place] for place in range(height))
            for suit in range(4)
            for height in range(14)
        )
        self._in_play = tuple(
            sum(1 << self._card_at[suit * 13 + place] for place in range(max(height, 1), 13))
            for suit in range(4)
            for height in range(14)
        )
        found = [0, 0, 0, 0]
        fmap = [-1, -1, -1, -1]
        for index, name in enumerate(FOUNDATIONS):
            cards = state.piles[name]
            if cards:
                suit = int(cards[0]) // 13
                found[suit] = len(cards)
                fmap[suit] = index
        waste = [int(card) for card in state.piles["waste"]]
        stock = [int(card) for card in state.piles["stock"]]
        return CanfieldNode(
            tab=tuple(tuple(int(card) for card in state.piles[name]) for name in TABLEAU),
            found=tuple(found),
            fmap=tuple(fmap),
            reserve=tuple(int(card) for card in state.piles["reserve"]),
            order=tuple(waste + stock[::-1]),
            w=len(waste),
            redeals=state.redeals,
        )

    # -- what the search asks ------------------------------------------------------------------

    def canonical(self, node: CanfieldNode) -> Hashable:
        # Within one search the reserve is always a bottom part of the root's, so its length
        # names it; the sizes in front of each pile keep the joined piles apart.
        head = bytes(node.found) + bytes((len(node.reserve), self._cycle_w(node)))
        return head + node.piles() + bytes(node.order)

    def _cycle_w(self, node: CanfieldNode) -> int:
        """The waste size for the table. With unlimited passes, the sizes a pass from an empty
        waste stops at (multiples of ``draw``, and the whole stock) are reached from each other
        by turning, so they are one state for winnability: 0 stands for all of them."""
        w = node.w
        if self.passes is None and (w % self.draw == 0 or w == len(node.order)):
            return 0
        return w

    def worse(self, node: CanfieldNode) -> int:
        # With unlimited passes the count of passes changes nothing.
        return 0 if self.passes is None else node.redeals

    def path_key(self, node: CanfieldNode) -> Hashable:
        return (node.layout(), node.w)

    def layout_key(self, node: CanfieldNode) -> Hashable:
        return node.layout()

    def inner_keys(self, node: CanfieldNode, step: Step) -> Iterable[Hashable]:
        layout = node.layout()
        return [(layout, size) for size in step[4]]

    def won(self, node: CanfieldNode) -> bool:
        return sum(node.found) == 52

    def moves(self, node: CanfieldNode, step: Step) -> list[Move]:
        actions, source, target, count, _ = step
        moves = [Move.act(action) for action in actions]
        if source:
            moves.append(Move.cards(source, target, count))
        return moves

    # -- the stock -----------------------------------------------------------------------------

    def _passes_left(self, redeals: int) -> bool:
        return self.passes is None or redeals + 1 < self.passes

    def _points(self, node: CanfieldNode) -> list[Point]:
        """Every waste size the stock can reach without repeating a position: the rest of this
        pass, then (if a pass is left) the next pass until it would come back to the start or
        to the end of the stock. A turn that uncovers a base-rank card ends the list: the card
        goes up at once, and the child made there reaches the rest."""
        order, start, rel = node.order, node.w, self.rel
        total = len(order)
        points: list[Point] = [(start, (), (), node.redeals, False)]
        actions: list[str] = []
        trail: list[int] = []
        size = start
        while size < total:
            size = min(size + self.draw, total)
            actions.append("stock")
            if rel[order[size - 1]] == 0:
                points.append((size, tuple(actions), tuple(trail), node.redeals, True))
                return points
            trail.append(size)
            points.append((size, tuple(actions), tuple(trail), node.redeals, False))
        # With start 0 the whole stock was turned in this pass: turning the waste over would
        # bring back the node's own position.
        if not total or not start or not self._passes_left(node.redeals):
            return points
        redeals = node.redeals + 1
        actions.append("recycle")
        size = 0
        trail.append(size)
        points.append((size, tuple(actions), tuple(trail), redeals, False))
        while True:
            size = min(size + self.draw, total)
            if size in (start, total):
                break
            actions.append("stock")
            if rel[order[size - 1]] == 0:
                points.append((size, tuple(actions), tuple(trail), redeals, True))
                break
            trail.append(size)
            points.append((size, tuple(actions), tuple(trail), redeals, False))
        return points

    # -- steps ---------------------------------------------------------------------------------

    def _safe(self, card: int, found: tuple[int, ...]) -> bool:
        """True if every card that could go on ``card`` in the tableau is on a foundation."""
        place = self.rel[card]
        if place == 1:
            # Only base-rank cards would go on it, and they are never in the tableau.
            return True
        first, second = _OPPOSITE[card // 13]
        return found[first] >= place and found[second] >= place

    def _dead(self, node: CanfieldNode) -> bool:
        """True if some reserve card can never leave the reserve, so the node is lost
        (docs/solving.md, Canfield, rules 7 and 8). The answer depends only on the tableau,
        the foundations and the reserve (the stock and waste hold the other cards), so it is
        remembered for the positions that differ only in the stock's order or the order of
        the piles (the test treats the piles alike)."""
        key = bytes(node.found) + node.piles() + bytes(node.reserve)
        known = self._dead_cache.get(key)
        if known is None:
            if len(self._dead_cache) >= 1_000_000:
                self._dead_cache.clear()
            known = self._dead_cache[key] = self._find_stuck(node) > 0
        return known

    def _find_stuck(self, node: CanfieldNode) -> int:
        """For each reserve card ``stuck``, with it and the cards under it frozen, an
        over-estimate of what can happen before it leaves: how far each foundation can grow,
        which cards can be a tableau pile's top. It is stuck when it can neither go up nor onto
        such a card and no pile's bottom card can ever move (the only way a space, the third
        way out of the reserve, is made: rule 7), or when fewer piles can empty than cards
        above it wait for a space (rule 8), or when rule 8 holds both ways round for two cards
        that compete for one card to go on (rule 9). Returns the rule that proves the node
        lost, or 0. Sets of cards are bit sets (bit ``card``)."""
        reserve, found, tab, rel = node.reserve, node.found, node.tab, self.rel
        up_to, in_play = self._up_to, self._in_play
        in_tableau = 0
        bottoms = 0
        tops_now = 0
        for pile in tab:
            bottoms |= 1 << pile[0]
            tops_now |= 1 << pile[-1]
            for card in pile:
                in_tableau |= 1 << card
        # Cards not on a foundation and not of the base rank: those that can be built.
        free = (
            in_play[found[0]]
            | in_play[14 + found[1]]
            | in_play[28 + found[2]]
            | in_play[42 + found[3]]
        )
        # With whole piles moving, a tableau card is uncovered only by the cards above it
        # going up, the one just above it last: ``cover[card]`` is that card (-1: none, or
        # with single cards moving, where every tableau card can be uncovered).
        cover = [-1] * 52
        if not self.move_top:
            for pile in tab:
                for index in range(len(pile) - 1):
                    cover[pile[index]] = pile[index + 1]
        # The heights and tops of the card below, kept while freezing the next card cannot
        # change them: its foundation never got past it, and it was not among the tops.
        height: list[int] | None = None
        up = 0
        top = -1
        frozen = 0
        for index, stuck in enumerate(reserve):
            bit = 1 << stuck
            frozen |= bit
            if height is not None and up & bit:
                height = None
            if top >= 0 and top & bit:
                top = -1
            onto = _ONTO_BITS[stuck]
            if found[stuck // 13] == rel[stuck] or tops_now & onto:
                continue  # it can go up or onto a pile now (the tests below say so too)
            if height is None:
                height = self._heights(found, cover, frozen)
                up = up_to[height[0]] | up_to[14 + height[1]]
                up |= up_to[28 + height[2]] | up_to[42 + height[3]]
                top = -1
            if height[stuck // 13] >= rel[stuck]:
                continue  # it could go up (the heights reach it: it is next)
            allowed = free & ~(in_tableau | frozen)
            if top < 0:
                # The cards that can ever be a pile's top: those that can be uncovered, and
                # what builds on them from the stock, the waste and the reserve above
                # ``stuck`` (not from a foundation; a base-rank card never stays in play).
                top = _closure(self._uncovered(tab, up, in_tableau), 0, allowed)
            if top & onto:
                continue  # it could go onto a pile
            if not any(up >> pile[0] & 1 or top & _ONTO_BITS[pile[0]] for pile in tab):
                return 7  # no pile can ever empty, so no space comes for it
            # Rule 8: every space that comes while ``stuck`` waits takes the reserve's top
            # card; a reserve card above it that can leave no other way takes one, and a
            # card that filled a space and leaves again makes at most one more. The cards
            # above can be tops once they fill spaces.
            above = [card for card in reserve[index + 1 :] if rel[card]]
            above_bits = sum(1 << card for card in above)
            wider = _closure(above_bits, top, allowed)
            if wider & onto:
                continue
            if _waits_in_vain(tab, above, up, wider, 0):
                return 8
            # Rule 9: the cards that can be put on a card and never go up.
            placeable = free & ~up & ~frozen & ~(in_tableau & ~bottoms)
            if not self.move_top and self._shared_slot(
                tab,
                above,
                self._uncovered(tab, up, in_tableau) | above_bits,
                up,
                wider,
                allowed,
                placeable,
                0,
                SPLIT_DEPTH,
            ):
                return 9
        return 0

    def _uncovered(self, tab: tuple[Pile, ...], up: int, in_tableau: int) -> int:
        """The tableau cards that can be uncovered with the cards of ``up`` on foundations:
        each pile's top, and with whole piles moving, the cards under it down to the first
        whose cover does not go up (the heights take a card only after its cover)."""
        if self.move_top:
            return in_tableau
        cards = 0
        for pile in tab:
            index = len(pile) - 1
            cards |= 1 << pile[index]
            while index and up >> pile[index] & 1:
                index -= 1
                cards |= 1 << pile[index]
        return cards

    def _shared_slot(
        self,
        tab: tuple[Pile, ...],
        above: list[int],
        starts: int,
        up: int,
        wider: int,
        allowed: int,
        placeable: int,
        never: int,
        depth: int,
    ) -> bool:
        """Rule 9 (whole piles moving): two cards of one rank and colour that can never go up
        (``placeable``: they can be put on a card, so not frozen and in the tableau only a
        pile's bottom), when only one of the two cards they go on can ever be a top, are not
        both put on a card while the stuck card waits: the first stays there for good. So if
        the stuck card is proved never to leave with either of them never put on a card
        (rule 8's count, or this rule again, ``depth`` levels deep), it never leaves.
        ``wider`` holds the tops (none of which the stuck card goes on), ``never`` the cards
        already assumed never put on a card, ``starts`` the tops that need no building
        (uncovered cards, reserve cards above the stuck one)."""
        # Ranks (as 13-bit sets) of the classes with both cards placeable, and of the
        # classes whose two cards to go on have exactly one among the wider tops.
        red_both = placeable >> 13 & placeable >> 26 & _RANKS
        black_both = placeable & placeable >> 39 & _RANKS
        red_split = red_both & _down((wider ^ wider >> 39) & _RANKS)
        black_split = black_both & _down((wider >> 13 ^ wider >> 26) & _RANKS)
        if not red_split | black_split:
            return False
        pairs = [(13 + rank, 26 + rank) for rank in range(13) if red_split >> rank & 1]
        pairs += [(rank, 39 + rank) for rank in range(13) if black_split >> rank & 1]
        for pair in pairs:
            for card in pair:
                bit = 1 << card
                narrower = allowed & ~bit
                # Fewer tops than ``wider``, which had none that ``stuck`` goes on: it still
                # leaves only into a space.
                tops = _closure(starts, 0, narrower)
                if _waits_in_vain(tab, above, up, tops, never | bit):
                    continue
                if depth > 1 and self._shared_slot(
                    tab,
                    above,
                    starts,
                    up,
                    tops,
                    narrower,
                    placeable & ~bit,
                    never | bit,
                    depth - 1,
                ):
                    continue
                break
            else:
                return True
        return False

    def _heights(self, found: tuple[int, ...], cover: list[int], frozen: int) -> list[int]:
        """The fixpoint of the heights the foundations can reach with the ``frozen`` cards
        (a bit set) staying put and each tableau card waiting for its ``cover`` (the card just
        above it) to go up. One pack: a foundation passes a card's place only by taking that
        card, so the cover is up exactly when its foundation's height passes its place."""
        card_at, rel = self._card_at, self.rel
        height = list(found)
        changed = True
        while changed:
            changed = False
            for suit in range(4):
                while height[suit] < 13:
                    card = card_at[suit * 13 + height[suit]]
                    if frozen >> card & 1:
                        break
                    over = cover[card]
                    if over >= 0 and height[over // 13] <= rel[over]:
                        break
                    height[suit] += 1
                    changed = True
        return height

    def safe_step(self, node: CanfieldNode) -> Child | None:
        """The safe move to a foundation of rule 5 (docs/solving.md), if there is one: a tableau
        pile's top card or the reserve's top card that nothing will ever be built on again."""
        tab, found, rel, reserve = node.tab, node.found, self.rel, node.reserve
        for index, pile in enumerate(tab):
            if pile:
                card = pile[-1]
                if found[card // 13] == rel[card] and self._safe(card, found):
                    return self._tableau_to_foundation(node, index)
        if reserve:
            card = reserve[-1]
            if found[card // 13] == rel[card] and self._safe(card, found):
                return self._reserve_move(node, -1)
        return None

    def steps(self, node: CanfieldNode, dominance: bool) -> list[Child]:
        tab, found, rel, reserve = node.tab, node.found, self.rel, node.reserve
        if dominance and reserve and self._dead(node):
            return []
        if dominance:
            safe = self.safe_step(node)
            if safe is not None:
                return [safe]

        to_foundation: list[Child] = []
        from_reserve: list[Child] = []
        emptying: list[Child] = []
        from_stock: list[Child] = []
        other: list[Child] = []

        for index, pile in enumerate(tab):
            if pile:
                card = pile[-1]
                if found[card // 13] == rel[card]:
                    to_foundation.append(self._tableau_to_foundation(node, index))
        if reserve:
            card = reserve[-1]
            if found[card // 13] == rel[card]:
                to_foundation.append(self._reserve_move(node, -1))
            for target, onto in enumerate(tab):
                if onto and _FITS[card * 52 + onto[-1]]:
                    from_reserve.append(self._reserve_move(node, target))

        for source, pile in enumerate(tab):
            size = len(pile)
            if not size:
                continue
            # With move=both a one-card pile's whole-pile and top-card moves are one move.
            counts = [size] if self.move_pile else []
            if self.move_top and (size > 1 or not self.move_pile):
                counts.append(1)
            for target, onto in enumerate(tab):
                if target == source or not onto:
                    continue
                for count in counts:
                    if _FITS[pile[-count] * 52 + onto[-1]]:
                        step = self._tableau_move(node, source, target, count)
                        (emptying if count == size else other).append(step)

        space = -1 if reserve else next((i for i, pile in enumerate(tab) if not pile), -1)
        order = node.order
        total = len(order)
        for point in self._points(node):
            size, _, _, _, base_up = point
            if base_up:
                to_foundation.append(self._turns_only(node, point))
                continue
            if size:
                card = order[size - 1]
                if found[card // 13] == rel[card]:
                    to_foundation.append(self._waste_move(node, point, -1))
                for target, onto in enumerate(tab):
                    if onto and _FITS[card * 52 + onto[-1]]:
                        from_stock.append(self._waste_move(node, point, target))
                if space >= 0:
                    from_stock.append(self._waste_move(node, point, space))
            if space >= 0 and self.stock_spaces and size < total:
                from_stock.append(self._stock_to_space(node, point, space))

        return [*to_foundation, *from_reserve, *emptying, *from_stock, *other]

    # -- children ------------------------------------------------------------------------------

    def _make(
        self,
        node: CanfieldNode,
        tab: list[Pile],
        found: list[int],
        reserve: Pile,
        order: Pile,
        w: int,
        redeals: int,
    ) -> CanfieldNode:
        """The child with the forced moves made, as the game module makes them: an available
        base-rank card goes up (reserve, t1..t4, then the waste; to the first empty foundation);
        else the leftmost space takes the reserve's top card; until neither applies."""
        fmap = node.fmap
        if -1 in fmap or (reserve and not all(tab)):
            rel = self.rel
            fmap_list = list(fmap)
            reserve_list = list(reserve)
            order_list = list(order)
            while True:
                if -1 in fmap_list:
                    source = -2
                    card = -1
                    if reserve_list and rel[reserve_list[-1]] == 0:
                        source, card = -1, reserve_list.pop()
                    else:
                        for index, pile in enumerate(tab):
                            if pile and rel[pile[-1]] == 0:
                                source, card = index, pile[-1]
                                tab[index] = pile[:-1]
                                break
                        else:
                            if w and rel[order_list[w - 1]] == 0:
                                source, card = 4, order_list.pop(w - 1)
                                w -= 1
                    if source != -2:
                        suit = card // 13
                        fmap_list[suit] = min(i for i in range(4) if i not in fmap_list)
                        found[suit] = 1
                        continue
                if reserve_list:
                    index = next((i for i, pile in enumerate(tab) if not pile), -1)
                    if index >= 0:
                        tab[index] = (reserve_list.pop(),)
                        continue
                break
            fmap = tuple(fmap_list)
            reserve = tuple(reserve_list)
            order = tuple(order_list)
        return CanfieldNode(tuple(tab), tuple(found), fmap, reserve, order, w, redeals)

    def _foundation(self, node: CanfieldNode, card: int) -> tuple[str, list[int]]:
        suit = card // 13
        found = list(node.found)
        found[suit] += 1
        return FOUNDATIONS[node.fmap[suit]], found

    def _tableau_to_foundation(self, node: CanfieldNode, index: int) -> Child:
        pile = node.tab[index]
        name, found = self._foundation(node, pile[-1])
        tab = list(node.tab)
        tab[index] = pile[:-1]
        child = self._make(node, tab, found, node.reserve, node.order, node.w, node.redeals)
        return ((), TABLEAU[index], name, 1, ()), child

    def _reserve_move(self, node: CanfieldNode, target: int) -> Child:
        """The reserve's top card onto tableau pile ``target`` (-1: to its foundation)."""
        card = node.reserve[-1]
        tab = list(node.tab)
        found = list(node.found)
        if target < 0:
            name, found = self._foundation(node, card)
        else:
            name = TABLEAU[target]
            tab[target] = tab[target] + (card,)
        child = self._make(node, tab, found, node.reserve[:-1], node.order, node.w, node.redeals)
        return ((), "reserve", name, 1, ()), child

    def _tableau_move(self, node: CanfieldNode, source: int, target: int, count: int) -> Child:
        tab = list(node.tab)
        pile = tab[source]
        tab[target] = tab[target] + pile[-count:]
        tab[source] = pile[:-count]
        child = self._make(
            node, tab, list(node.found), node.reserve, node.order, node.w, node.redeals
        )
        return ((), TABLEAU[source], TABLEAU[target], count, ()), child

    def _waste_move(self, node: CanfieldNode, point: Point, target: int) -> Child:
        """The waste card at ``point`` onto tableau pile ``target`` (-1: to its foundation)."""
        size, actions, trail, redeals, _ = point
        card = node.order[size - 1]
        tab = list(node.tab)
        found = list(node.found)
        if target < 0:
            name, found = self._foundation(node, card)
        else:
            name = TABLEAU[target]
            tab[target] = tab[target] + (card,)
        order = node.order[: size - 1] + node.order[size:]
        child = self._make(node, tab, found, node.reserve, order, size - 1, redeals)
        return (actions, "waste", name, 1, trail), child

    def _stock_to_space(self, node: CanfieldNode, point: Point, space: int) -> Child:
        size, actions, trail, redeals, _ = point
        tab = list(node.tab)
        tab[space] = (node.order[size],)
        order = node.order[:size] + node.order[size + 1 :]
        child = self._make(node, tab, list(node.found), node.reserve, order, size, redeals)
        return (actions, "stock", TABLEAU[space], 1, trail), child

    def _turns_only(self, node: CanfieldNode, point: Point) -> Child:
        size, actions, trail, redeals, _ = point
        child = self._make(
            node, list(node.tab), list(node.found), node.reserve, node.order, size, redeals
        )
        return (actions, "", "", 0, trail), child
