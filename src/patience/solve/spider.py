"""The Spider adapter: a compact state and moves ordered by promise, with no dominance at all.

Every rule is argued in docs/solving.md ("Spider"). In short:

* A node holds the ten piles as ``bytes`` of card faces (``suit * 13 + rank - 1``: the copies of
  a card are equal in play and in the engine's key) with each pile's face-down count, the stock
  in dealing order, and the suits removed so far, in order.
* The table's key names removed suits as a multiset, and sorts the piles once the stock is
  empty (before that, deals go to the piles by position, so piles are not interchangeable).
* Nothing is pruned but moves that lead to the same key. Rules such as "move only whole runs"
  are unsound with Spider's grouping rule (a part of a run may be what must move), so every
  group move is listed; the order puts building in suit and turning up cards first.
* Restarts change only the order, while the stock holds cards; proved losses stay in the table.
* After a first depth-first run, ``solve`` runs the staged beam (``search.staged_beam``) with
  this adapter's ``score``: it finds wins only, and every win is replayed by ``solve``.
"""

from __future__ import annotations

from collections.abc import Hashable

from ..games.spider import TABLEAU, Spider, SpiderState
from ..moves import Move
from .search import Adapter, one_of_the_first

__all__ = ["SpiderAdapter", "SpiderNode"]

PILES = 10
SUIT_LENGTH = 13
DEAL = -1
#: Where a deal comes in the order of steps (see :meth:`SpiderAdapter.steps`): after the other
#: steps of that rank (building off suit a whole run that turns up nothing).
DEAL_RANK = 4
#: Where part of a run moved in suit (from one copy of a card onto the other) comes: last.
LATERAL_RANK = 8

#: How :meth:`SpiderAdapter.score` weighs a position (docs/solving.md, Spider, "Score"): a suit
#: removed; for each pile a face-down card, a run in one suit (a segment: the face-up cards
#: fall into segments where a card does not continue the one under it in suit), a card lying
#: on one that is not one rank higher in any suit ("junk"); and a bonus growing as the square
#: of how far under ``CLOSE`` the pile's clearing cost (face-down cards plus segments, less
#: one for a king-based pile on nothing) is, a space getting the most. Segments weigh most:
#: building in suit is what four suits need (measured: weight 2 won no four-suit deal of
#: 1-4 at 150,000 nodes, 15 won all four).
SUIT_REMOVED_WEIGHT = 100
FACE_DOWN_WEIGHT = 5
SEGMENT_WEIGHT = 15
JUNK_WEIGHT = 1
CLOSE = 6
CLOSE_WEIGHT = 1

#: One byte per value: a pile's face-down count in front of its cards in the sorted key.
_BYTE = tuple(bytes((value,)) for value in range(256))

#: A step: (source pile, target pile, count), or (DEAL, 0, 0) for a deal from the stock.
Step = tuple[int, int, int]


class SpiderNode:
    """A Spider state as the solver holds it (see the module docstring)."""

    __slots__ = ("_path", "down", "found", "piles", "stock")

    def __init__(self, piles: tuple[bytes, ...], down: bytes, stock: bytes, found: bytes) -> None:
        self.piles = piles
        self.down = down
        self.stock = stock
        self.found = found
        self._path: bytes | None = None

    def path(self) -> bytes:
        """Equal exactly when the engine's keys are equal."""
        if self._path is None:
            self._path = (
                b"\xff".join(self.piles) + b"\xfe" + self.down + self.stock + b"\xfd" + self.found
            )
        return self._path


def _run(pile: bytes, up: int) -> int:
    """How many top cards of ``pile`` (at most ``up``, the face-up ones) form a run descending
    in one suit: the largest group that may move."""
    if not up:
        return 0
    length = 1
    index = len(pile) - 1
    while length < up:
        above = pile[index]
        # One rank lower in the same suit (a king continues no run).
        if above % 13 == 12 or pile[index - 1] != above + 1:
            break
        length += 1
        index -= 1
    return length


def _pile_value(pile: bytes, down: int) -> int:
    """One pile's part of :meth:`SpiderAdapter.score` (docs/solving.md, Spider, "Score")."""
    if not pile:
        return CLOSE_WEIGHT * CLOSE * CLOSE
    segments = 1
    junk = 0
    below = pile[down]
    for card in pile[down + 1 :]:
        if card + 1 != below or card % SUIT_LENGTH == SUIT_LENGTH - 1:
            segments += 1
            if below % SUIT_LENGTH != card % SUIT_LENGTH + 1:
                junk += 1
        below = card
    value = -(FACE_DOWN_WEIGHT * down + SEGMENT_WEIGHT * segments + JUNK_WEIGHT * junk)
    cost = down + segments
    if not down and pile[0] % SUIT_LENGTH == SUIT_LENGTH - 1:
        # A pile on a king with nothing under it need not move to be as good as a space.
        cost -= 1
    if cost < CLOSE:
        value += CLOSE_WEIGHT * (CLOSE - cost) ** 2
    return value


#: Values of piles already scored (a pile with its face-down count in front), a pure function's
#: cache: cleared when full, which changes no score.
_PILE_VALUES: dict[bytes, int] = {}
PILE_VALUES_KEPT = 250_000


class SpiderAdapter(Adapter[SpiderNode, Step]):
    """Spider with ``auto_remove=on`` (every ``layout`` and ``suits``)."""

    #: The first run, in the order of promise, is 20,000 nodes long, then restarts come after
    #: 10,000, 20,000, ... nodes (docs/solving.md, Spider, "Restarts").
    restart_nodes: int | None = 5_000
    first_run_nodes: int | None = 20_000
    #: The solver's first depth-first part is that first run only (Python solver version 6,
    #: core 7): what it wins it wins at once, and its sixth of a minute was most of the time
    #: of a four-suit deal (docs/solving.md, Spider, "In the core").
    first_nodes: int | None = 20_000

    #: The staged search's tries (width, expansions per start of a stage): see
    #: docs/solving.md, Spider, "Staged search".
    staged_tries: tuple[tuple[int, int], ...] = ((4, 1_000), (16, 2_000), (64, 4_000), (256, 8_000))
    #: The tries of the staged beam (width, beam, depth), which :func:`solver_search` runs
    #: instead of the staged search: docs/solving.md, Spider, "Staged beam".
    beam_tries: tuple[tuple[int, int, int], ...] = (
        (8, 50, 80),
        (16, 200, 100),
        (64, 400, 120),
        (256, 800, 150),
        (1024, 1600, 200),
    )
    beam_patience = 10

    def __init__(self, rules: Spider) -> None:
        self.rules = rules

    def stage(self, node: SpiderNode) -> int:
        # Only a deal changes the stock: the staged search chooses the positions to deal from.
        return len(node.stock)

    def score(self, node: SpiderNode) -> float:
        score = SUIT_REMOVED_WEIGHT * len(node.found)
        values = _PILE_VALUES
        for pile, down in zip(node.piles, node.down, strict=True):
            key = _BYTE[down] + pile
            value = values.get(key)
            if value is None:
                if len(values) >= PILE_VALUES_KEPT:
                    values.clear()
                value = values[key] = _pile_value(pile, down)
            score += value
        return score

    def reorder(
        self, node: SpiderNode, canon: Hashable, steps: list[tuple[Step, SpiderNode]], restart: int
    ) -> list[tuple[Step, SpiderNode]]:
        # While the stock holds cards, one of the restart + 1 first steps, chosen by a checksum
        # of the node's key and the run number (the same on every run and machine), goes
        # first; once it is empty, the order of promise stays. The runs differ in what was
        # built before each deal, where a bad choice costs most.
        if not node.stock:
            return steps
        return one_of_the_first(steps, node.path(), restart, restart + 1)

    # -- conversion ----------------------------------------------------------------------------

    def node(self, state: SpiderState) -> SpiderNode:
        """The solver's node for an engine state."""
        piles = state.piles
        found = bytes(
            int(piles[name][0]) % 52 // 13
            for name in self.rules.pile_names
            if name.startswith("f") and piles[name]
        )
        return SpiderNode(
            tuple(bytes(int(card) % 52 for card in piles[name]) for name in TABLEAU),
            bytes(state.down[name] for name in TABLEAU),
            bytes(int(card) % 52 for card in reversed(piles["stock"])),
            found,
        )

    # -- what the search asks ------------------------------------------------------------------

    def canonical(self, node: SpiderNode) -> Hashable:
        found = bytes(sorted(node.found))
        if node.stock:
            return node.path()[: -len(node.found) or None] + found
        piles = [_BYTE[down] + pile for down, pile in zip(node.down, node.piles, strict=True)]
        piles.sort()
        return b"\xff".join(piles) + b"\xfd" + found

    def path_key(self, node: SpiderNode) -> Hashable:
        return node.path()

    def won(self, node: SpiderNode) -> bool:
        return len(node.found) == 8

    def moves(self, node: SpiderNode, step: Step) -> list[Move]:
        source, target, count = step
        if source == DEAL:
            return [Move.act("stock")]
        return [Move.cards(TABLEAU[source], TABLEAU[target], count)]

    # -- children ------------------------------------------------------------------------------

    @staticmethod
    def _settle(piles: list[bytes], down: bytearray, found: bytes, names: tuple[int, ...]) -> bytes:
        """Remove every complete suit on top of the piles ``names`` (in order), turning up the
        card each uncovers; return the foundations."""
        for index in names:
            pile = piles[index]
            up = len(pile) - down[index]
            if up >= SUIT_LENGTH and pile[-1] % 13 == 0 and _run(pile, up) >= SUIT_LENGTH:
                found += bytes((pile[-1] // 13,))
                pile = piles[index] = pile[:-SUIT_LENGTH]
                if pile and down[index] == len(pile):
                    down[index] -= 1
        return found

    def _move(self, node: SpiderNode, source: int, target: int, count: int) -> SpiderNode:
        piles = list(node.piles)
        down = bytearray(node.down)
        group = piles[source][-count:]
        rest = piles[source] = piles[source][:-count]
        if rest and down[source] == len(rest):
            down[source] -= 1
        piles[target] = piles[target] + group
        found = node.found
        if len(piles[target]) >= SUIT_LENGTH and group[-1] % 13 == 0:
            found = self._settle(piles, down, found, (target,))
        return SpiderNode(tuple(piles), bytes(down), node.stock, found)

    def _deal(self, node: SpiderNode) -> SpiderNode:
        piles = list(node.piles)
        down = bytearray(node.down)
        dealt = min(PILES, len(node.stock))
        for index in range(dealt):
            piles[index] = piles[index] + node.stock[index : index + 1]
        found = self._settle(piles, down, node.found, tuple(range(dealt)))
        return SpiderNode(tuple(piles), bytes(down), node.stock[dealt:], found)

    # -- steps ---------------------------------------------------------------------------------

    def steps(self, node: SpiderNode, dominance: bool) -> list[tuple[Step, SpiderNode]]:
        piles, down = node.piles, node.down
        interchangeable = not node.stock
        spaces = [index for index, pile in enumerate(piles) if not pile]
        if interchangeable:
            spaces = spaces[:1]
        ranked: list[tuple[int, int, int, Step]] = []
        for source, pile in enumerate(piles):
            up = len(pile) - down[source]
            run = _run(pile, up)
            if not run:
                continue
            top = pile[-1]
            for target, onto in enumerate(piles):
                if target == source or not onto:
                    continue
                count = onto[-1] % 13 - top % 13
                if not 1 <= count <= run:
                    continue
                base = pile[-count]
                uncovers = count == up and down[source] > 0
                empties = count == len(pile)
                if onto[-1] == base + 1:
                    # Building in suit a part of a run moves it from one copy of a card onto
                    # the other (the card under the group continues it): the tops stay the
                    # same.
                    rank = 0 if uncovers or empties else 1 if count == run else LATERAL_RANK
                else:
                    rank = 2 if uncovers or empties else 4 if count == run else 5
                ranked.append((rank, -down[source], len(ranked), (source, target, count)))
            for target in spaces:
                for count in range(1, run + 1):
                    if interchangeable and count == len(pile):
                        # A whole pile into a space: the same piles, sorted.
                        continue
                    uncovers = count == up and down[source] > 0
                    rank = 6 if uncovers else 7
                    ranked.append((rank, -count, len(ranked), (source, target, count)))
        if node.stock and (not spaces or sum(len(pile) for pile in piles) < PILES):
            # Dealing comes after building off suit a whole run (the ties of its rank sort
            # before it), before the moves that build nothing and turn up nothing: tried last,
            # the deal would wait for every shuffle of the tableau to fail first.
            ranked.append((DEAL_RANK, 0, len(ranked), (DEAL, 0, 0)))
        ranked.sort()
        return [
            (step, self._deal(node) if step[0] == DEAL else self._move(node, *step))
            for _, _, _, step in ranked
        ]
