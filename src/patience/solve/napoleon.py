"""The Napoleon at St Helena adapter: a compact state, the stock as reachable cards, and safe moves
proved for two packs. Every rule is argued in docs/solving.md ("Napoleon at St Helena"):

* A node holds the columns as ``bytes`` of card faces (``suit * 13 + rank - 1``: the engine's
  key compares faces), the foundations as ``top face + 1`` (0 for an empty one), and the stock
  and waste as one sequence ``order`` (the waste bottom first, then the stock top first) with
  ``w`` cards of it on the waste. Aces go up by themselves, as the engine sends them.
* One step plays any card that turning the stock can bring to the top of the waste (the
  ``stock`` moves before it are part of the step), or turns the stock up to an ace.
* The table's key sorts the columns and names the foundations by suit.
* A card goes to a foundation as the only step when both cards one rank lower of its suit are
  on the foundations already (several such moves make one step).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from functools import lru_cache

from ..games.napoleon import FOUNDATIONS, TABLEAU, Napoleon, NapoleonState
from ..moves import Move
from .search import Adapter, one_of_the_first

__all__ = ["NapoleonAdapter", "NapoleonNode"]

COLUMNS = 10
WASTE = -1

# A step: (source, target, turns, plays). Source is a column index or WASTE; target a column
# index, or 10 + a foundation index; turns is how many times the stock is turned first. A safe
# chain has turns 0 and its card moves in ``plays`` ((source, target) pairs), source -2.
Step = tuple[int, int, int, tuple[tuple[int, int], ...]]
CHAIN = -2
# How a state's promise is weighed (docs/solving.md, Napoleon at St Helena, "Order"): a space,
# a card on a card it does not build on in a column or in the waste, a card on a foundation
# (and buried cards, below).
SPACE_WEIGHT = 10
BREAK_WEIGHT = 2
WASTE_WEIGHT = 3
FOUND_WEIGHT = 4
TURN_ONLY = -3


class NapoleonNode:
    """A Napoleon state as the solver holds it (see the module docstring)."""

    __slots__ = ("_layout", "_path", "_score", "cols", "found", "order", "w")

    def __init__(self, cols: tuple[bytes, ...], found: bytes, order: bytes, w: int) -> None:
        self.cols = cols
        self.found = found
        self.order = order
        self.w = w
        self._path: bytes | None = None
        self._layout: bytes | None = None
        self._score: int | None = None

    def layout(self) -> bytes:
        """The columns and how many cards other than aces the stock and waste hold: shared by
        the node and the positions its steps pass through while the stock is turned."""
        if self._layout is None:
            aces = sum(1 for face in self.order if face % 13 == 0)
            self._layout = b"\xff".join(self.cols) + bytes((len(self.order) - aces,))
        return self._layout

    def path(self) -> bytes:
        """Equal exactly when the engine's keys are equal."""
        if self._path is None:
            self._path = (
                b"\xff".join(self.cols) + b"\xfe" + self.found + self.order + bytes((self.w,))
            )
        return self._path


def _settle(cols: list[bytearray], found: bytearray, order: bytearray, w: int) -> int:
    """Send every available ace to the first empty foundation, as the engine does (the waste
    first, then the columns, again after each ace); return the new waste size."""
    while True:
        if w and order[w - 1] % 13 == 0:
            ace = order.pop(w - 1)
            w -= 1
        else:
            for col in cols:
                if col and col[-1] % 13 == 0:
                    ace = col.pop()
                    break
            else:
                return w
        found[found.index(0)] = ace + 1


def _target(found: bytes, face: int) -> int:
    """The first foundation that takes ``face`` (not an ace), or -1."""
    return found.find(face) if face % 13 else -1


class NapoleonAdapter(Adapter[NapoleonNode, Step]):
    """Napoleon at St Helena (no options)."""

    #: The first run, in the order of promise, is 20,000 nodes long, then restarts come after
    #: 10,000, 20,000, ... nodes (docs/solving.md, Napoleon at St Helena, "Restarts").
    restart_nodes: int | None = 5_000
    first_run_nodes: int | None = 20_000
    #: The staged search's tries (width, expansions per start of a stage), each wider and
    #: longer than the one before; the last is only reached when the others die out early
    #: (docs/solving.md, Napoleon at St Helena, "Staged search").
    staged_tries: tuple[tuple[int, int], ...] = (
        (4, 200),
        (16, 400),
        (64, 800),
        (256, 1600),
        (1024, 3200),
    )

    def __init__(self, rules: Napoleon) -> None:
        self.rules = rules

    def reorder(
        self,
        node: NapoleonNode,
        canon: Hashable,
        steps: list[tuple[Step, NapoleonNode]],
        restart: int,
    ) -> list[tuple[Step, NapoleonNode]]:
        # One of the restart + 1 most promising steps, chosen by a checksum of the node's key and
        # the run number (the same on every run and machine), goes first: the early runs stay
        # close to the order of promise, the later ones stray further.
        return one_of_the_first(steps, node.path(), restart, restart + 1)

    def score(self, node: NapoleonNode) -> float:
        return _promise(node)

    def stage(self, node: NapoleonNode) -> int:
        # The stock left, in steps of STAGE_CARDS: a stage lets the best-first search inside it
        # weigh turning a few cards against rearranging the columns.
        return (len(node.order) - node.w) // STAGE_CARDS

    # -- conversion ----------------------------------------------------------------------------

    def node(self, state: NapoleonState) -> NapoleonNode:
        """The solver's node for an engine state."""
        piles = state.piles
        found = bytes(int(piles[name][-1]) % 52 + 1 if piles[name] else 0 for name in FOUNDATIONS)
        waste = [int(card) % 52 for card in piles["waste"]]
        stock = [int(card) % 52 for card in piles["stock"]]
        return NapoleonNode(
            tuple(bytes(int(card) % 52 for card in piles[name]) for name in TABLEAU),
            found,
            bytes(waste + stock[::-1]),
            len(waste),
        )

    # -- what the search asks ------------------------------------------------------------------

    def canonical(self, node: NapoleonNode) -> Hashable:
        return (
            b"\xff".join(sorted(node.cols))
            + b"\xfe"
            + bytes(sorted(node.found))
            + node.order
            + bytes((node.w,))
        )

    def path_key(self, node: NapoleonNode) -> Hashable:
        return node.path()

    def layout_key(self, node: NapoleonNode) -> Hashable:
        return node.layout()

    def inner_keys(self, node: NapoleonNode, step: Step) -> Iterable[Hashable]:
        source, _, turns, plays = step
        keys = []
        if source == CHAIN:
            for play in plays[:-1]:
                node = self._move(node, *play)
                keys.append(node.path())
            return keys
        for _ in range(turns - (source == TURN_ONLY)):
            node = self._turn(node)
            keys.append(node.path())
        return keys

    def won(self, node: NapoleonNode) -> bool:
        return not node.order and not any(node.cols)

    def moves(self, node: NapoleonNode, step: Step) -> list[Move]:
        source, target, turns, plays = step
        if source == CHAIN:
            return [Move.cards(_name(a), _name(b)) for a, b in plays]
        moves = [Move.act("stock")] * turns
        if source != TURN_ONLY:
            moves.append(Move.cards(_name(source), _name(target)))
        return moves

    # -- children ------------------------------------------------------------------------------

    @staticmethod
    def _turn(node: NapoleonNode) -> NapoleonNode:
        """Turn one stock card (an ace goes up at once: the card under it is no ace)."""
        order, w, found = node.order, node.w + 1, node.found
        face = order[w - 1]
        if face % 13 == 0:
            order = order[: w - 1] + order[w:]
            w -= 1
            index = found.index(0)
            found = found[:index] + bytes((face + 1,)) + found[index + 1 :]
        return NapoleonNode(node.cols, found, order, w)

    @staticmethod
    def _move(node: NapoleonNode, source: int, target: int) -> NapoleonNode:
        """The top card of ``source`` (a column or the waste) to ``target`` (a column, or 10 +
        a foundation), then aces up."""
        cols = list(node.cols)
        order = node.order
        w = node.w
        if source == WASTE:
            face = order[w - 1]
            order = order[: w - 1] + order[w:]
            w -= 1
        else:
            col = cols[source]
            face = col[-1]
            cols[source] = col[:-1]
        found = node.found
        if target >= COLUMNS:
            index = target - COLUMNS
            found = found[:index] + bytes((face + 1,)) + found[index + 1 :]
        else:
            cols[target] = cols[target] + bytes((face,))
        # An ace can only turn up where a card left: the source column or the waste.
        uncovered = order[w - 1] if source == WASTE and w else -1
        if source != WASTE and cols[source]:
            uncovered = cols[source][-1]
        if uncovered >= 0 and uncovered % 13 == 0:
            lists = [bytearray(col) for col in cols]
            waste = bytearray(order)
            mutable = bytearray(found)
            w = _settle(lists, mutable, waste, w)
            return NapoleonNode(tuple(bytes(col) for col in lists), bytes(mutable), bytes(waste), w)
        return NapoleonNode(tuple(cols), found, order, w)

    # -- steps ---------------------------------------------------------------------------------

    def _safe(self, node: NapoleonNode) -> tuple[int, int] | None:
        """A move to a foundation that no other step beats (docs/solving.md, rule 3): both
        cards one rank lower of its suit are on the foundations."""
        found = node.found
        tops = [(index, col[-1]) for index, col in enumerate(node.cols) if col]
        if node.w:
            tops.append((WASTE, node.order[node.w - 1]))
        for source, face in tops:
            index = _target(found, face)
            if index < 0:
                continue
            suit, rank = face // 13, face % 13 + 1
            heights = [
                (value - 1) % 13 + 1 for value in found if value and (value - 1) // 13 == suit
            ]
            if len(heights) == 2 and min(heights) >= rank - 1:
                return source, COLUMNS + index
        return None

    def safe_step(self, node: NapoleonNode) -> tuple[Step, NapoleonNode] | None:
        """The safe moves to a foundation of rule 3 (docs/solving.md), one after the other as
        long as there is one, as one step; None when there is none."""
        plays: list[tuple[int, int]] = []
        child = node
        while True:
            safe = self._safe(child)
            if safe is None:
                break
            plays.append(safe)
            child = self._move(child, *safe)
        if not plays:
            return None
        return (CHAIN, 0, 0, tuple(plays)), child

    def steps(self, node: NapoleonNode, dominance: bool) -> list[tuple[Step, NapoleonNode]]:
        if dominance:
            safe = self.safe_step(node)
            if safe is not None:
                return [safe]

        cols = node.cols
        found = node.found
        empty = next((index for index, col in enumerate(cols) if not col), -1)
        # Where each card may go onto a column: the columns whose top is one rank higher in suit.
        onto: dict[int, list[int]] = {}
        for index, col in enumerate(cols):
            if col and col[-1] % 13:
                onto.setdefault(col[-1] - 1, []).append(index)

        to_foundation: list[tuple[Step, NapoleonNode]] = []
        freeing: list[tuple[int, int, tuple[Step, NapoleonNode]]] = []
        building: list[tuple[Step, NapoleonNode]] = []
        from_stock: list[tuple[Step, NapoleonNode]] = []
        to_space: list[tuple[Step, NapoleonNode]] = []
        aces: list[tuple[Step, NapoleonNode]] = []

        def add(source: int, turns: int, base: NapoleonNode, face: int) -> None:
            index = _target(found if base is node else base.found, face)
            if index >= 0:
                step: Step = (source, COLUMNS + index, turns, ())
                to_foundation.append((step, self._move(base, source, COLUMNS + index)))
            for target in onto.get(face, ()):
                if target == source:
                    continue
                step = (source, target, turns, ())
                entry = (step, self._move(base, source, target))
                if source >= 0:
                    left = len(cols[source]) - 1
                    freeing.append((left, len(freeing), entry))
                elif turns:
                    from_stock.append(entry)
                else:
                    building.append(entry)
            if empty >= 0 and (source < 0 or len(cols[source]) > 1):
                step = (source, empty, turns, ())
                to_space.append((step, self._move(base, source, empty)))

        for index, col in enumerate(cols):
            if col:
                add(index, 0, node, col[-1])
        if node.w:
            add(WASTE, 0, node, node.order[node.w - 1])
        # Cards the stock can bring to the top of the waste (one pass: turning only goes on).
        turned = node
        turns = 0
        while turned.w < len(turned.order):
            turned = self._turn(turned)
            turns += 1
            face = node.order[node.w + turns - 1]
            if face % 13 == 0:
                aces.append(((TURN_ONLY, 0, turns, ()), turned))
            elif _target(turned.found, face) >= 0 or face in onto or empty >= 0:
                add(WASTE, turns, turned, face)

        freeing.sort(key=lambda entry: entry[:2])
        ordered = [
            *to_foundation,
            *(entry[2] for entry in freeing),
            *building,
            *aces,
            *from_stock,
            *to_space,
        ]
        scored = sorted(
            (-_promise(child), _lateral(node, step), index)
            for index, (step, child) in enumerate(ordered)
        )
        return [ordered[entry[2]] for entry in scored]


def _lateral(node: NapoleonNode, step: Step) -> bool:
    """True for a card moved from one copy of a card onto the other copy: the tops stay the
    same, only which copy lies free changes (rarely what is needed)."""
    source, target, _, _ = step
    if source < 0 or target >= COLUMNS:
        return False
    col = node.cols[source]
    onto = node.cols[target]
    return len(col) > 1 and bool(onto) and col[-2] == onto[-1]


# Cards buried in a column or in the waste (lying above a lower card of their own suit, which
# cannot go up before they move away) weigh too.
BURIED_WEIGHT = 1
WASTE_BURIED_WEIGHT = 2
#: Cards of the stock that make one stage of the staged search.
STAGE_CARDS = 4


@lru_cache(maxsize=1 << 16)
def _pile(pile: bytes) -> tuple[int, int]:
    """How many cards of ``pile`` lie on a card they do not build on, and how many lie above a
    lower card of their own suit (buried: that card cannot go up before they move away)."""
    breaks = 0
    buried = 0
    low = [13, 13, 13, 13]
    below = -1
    for face in pile:
        suit, rank = divmod(face, 13)
        if below >= 0 and (face + 1 != below or rank == 12):
            breaks += 1
        if low[suit] < rank:
            buried += 1
        else:
            low[suit] = rank
        below = face
    return breaks, buried


def _promise(node: NapoleonNode) -> int:
    """How promising a state looks (computed once per node): cards on the foundations, spaces,
    few cards lying on cards they do not build on and few buried cards, in the columns and
    the waste. The order of the steps and the staged search's score."""
    score = node._score
    if score is None:
        score = FOUND_WEIGHT * sum((value - 1) % 13 + 1 for value in node.found if value)
        for col in node.cols:
            if col:
                breaks, buried = _pile(col)
                score -= BREAK_WEIGHT * breaks + BURIED_WEIGHT * buried
            else:
                score += SPACE_WEIGHT
        breaks, buried = _pile(node.order[: node.w])
        score -= WASTE_WEIGHT * breaks + WASTE_BURIED_WEIGHT * buried
        node._score = score
    return score


def _name(index: int) -> str:
    if index == WASTE:
        return "waste"
    if index >= COLUMNS:
        return FOUNDATIONS[index - COLUMNS]
    return TABLEAU[index]
