"""The Leoni's Own adapter: a compact state, reversals folded into the steps that need them, safe
plays and a dead-end test for the last deal. Every rule is argued in docs/solving.md ("Leoni's
Own"). In short:

* A node holds the foundations as the rank on top of each (four ace foundations, then four king
  foundations, suits in order), the thirteen piles and the exiles as ``bytes`` of card faces
  (``suit * 13 + rank - 1``: the two copies of a card are equal in play and in the engine's
  key), the card in hand (or -1), the redeals made, the standstill flag and the deal's
  standstill notes (a frozenset of ``(card, piles 1-12)``).
* A suit whose foundations are **in sequence** (king top = ace top + 1) can have its meeting
  point moved anywhere by reversals, and back: such states are mutually reachable, so the table
  key leaves the meeting point out, and reversals are never steps of their own: they are the
  first moves of the step that needs them (a play that the new meeting point makes fit, or the
  exile or redeal that needs the player stuck).
* A card that fits, of a suit not in sequence, whose other copy cannot get to a foundation
  before it, is played as the only step (several such plays make one step).
* In the last deal with no exile left to turn, a cycle in the order that every win needs proves
  the position lost.
* The weave that follows a turned exile is computed here on the compact state, exactly as
  :mod:`patience.games.leonis_own` does it (tests/test_solve_leonis_own.py checks them against
  each other move by move).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from itertools import product

from ..cards import Card
from ..games.leonis_own import DEALS, EXILES, FOUNDATIONS, HAND, PILES, LeonisOwn, LeonisOwnState
from ..moves import Move
from .search import Adapter, one_of_the_first

__all__ = ["LeonisNode", "LeonisOwnAdapter"]

KING = 13
SQUARED_COUNT = 12
T13 = 12
LAST = DEALS - 1

_RANK = tuple(face % 13 + 1 for face in range(52))
_SUIT = tuple(face // 13 for face in range(52))

# Step kinds; a step is (kind, first, second, target, extra).
PLAY = 0  # (PLAY, pile index, place in the pile, foundation index, reversals before it)
EXILE = 1  # (EXILE, place from the bottom or -1 for the top, 0, 0, reversals before it)
HAND_TO = 2  # (HAND_TO, 0, 0, foundation index, ())
REDEAL = 3  # (REDEAL, 0, 0, 0, reversals before it)
CHAIN = 4  # (CHAIN, 0, 0, 0, safe plays one after the other: (pile index, place, foundation))

#: A reversal: (source foundation index, target foundation index).
Reversal = tuple[int, int]
Step = tuple[int, int, int, int, tuple[tuple[int, ...], ...]]
#: A standstill note: the number of cards in piles 1-12, the card about to go under a pile,
#: and piles 1-12 (the number is for :func:`_live`; it follows from the piles).
Note = tuple[int, int, tuple[bytes, ...]]


class LeonisNode:
    """A Leoni's Own state as the solver holds it (see the module docstring)."""

    __slots__ = (
        "_canon",
        "_erased",
        "_path",
        "exiles",
        "found",
        "hand",
        "notes",
        "ok_mask",
        "piles",
        "redeals",
        "still",
    )

    def __init__(
        self,
        found: tuple[int, ...],
        piles: tuple[bytes, ...],
        exiles: bytes,
        hand: int,
        redeals: int,
        still: bool,
        notes: frozenset[Note],
        ok_mask: int = -1,
    ) -> None:
        self.found = found
        self.piles = piles
        self.exiles = exiles
        self.hand = hand
        self.redeals = redeals
        self.still = still
        self.notes = notes
        #: In the last deal with no exile left: the suits with overlapping foundations when the
        #: dead-end test last passed on this node or an ancestor reached by plays only.
        self.ok_mask = ok_mask
        self._path: bytes | None = None
        self._erased: bytes | None = None
        self._canon: Hashable = None

    def path(self) -> bytes:
        """Equal exactly when the engine's keys are equal (every pile by face, in order)."""
        if self._path is None:
            body = b"\xff".join(self.piles) + b"\xfe" + self.exiles + bytes((self.hand + 1,))
            self._path = bytes(self.found) + body
        return self._path

    def erased(self) -> bytes:
        """The path key with the meeting point of every suit in sequence left out, and the
        standstill flag."""
        if self._erased is None:
            found = self.found
            path = self.path()
            if any(found[4 + suit] == found[suit] + 1 for suit in range(4)):
                wiped = list(found)
                for suit in range(4):
                    if found[4 + suit] == found[suit] + 1:
                        wiped[suit] = wiped[4 + suit] = 0
                path = bytes(wiped) + path[8:]
            self._erased = path + (b"\x01" if self.still else b"\x00")
        return self._erased


def _wanted(found: tuple[int, ...] | list[int]) -> list[int]:
    """Per face, which foundations take it now: 0 none, 1 the ace foundation, 2 the king
    foundation, 3 both."""
    wanted = [0] * 52
    for suit in range(4):
        ace, king = found[suit], found[4 + suit]
        if ace < KING:
            wanted[suit * 13 + ace] |= 1
        if king > 1:
            wanted[suit * 13 + king - 2] |= 2
    return wanted


def _targets(want: int, suit: int) -> list[int]:
    """The foundation indices of a ``_wanted`` entry, ace foundation first."""
    return [target for bit, target in ((1, suit), (2, 4 + suit)) if want & bit]


def _available(piles: tuple[bytes, ...]) -> list[tuple[int, int, int]]:
    """(pile index, place in the pile, face) of every card that may go to a foundation: the top
    of each of piles 1-12, every card of pile 13."""
    found = [(index, len(pile) - 1, pile[-1]) for index, pile in enumerate(piles[:T13]) if pile]
    found.extend((T13, place, face) for place, face in enumerate(piles[T13]))
    return found


def _reversals(suit: int, meeting: int, wanted: int) -> tuple[Reversal, ...]:
    """The reversals that move an in-sequence suit's meeting point (the ace foundation's top)
    from ``meeting`` to ``wanted``."""
    if wanted < meeting:
        return ((suit, 4 + suit),) * (meeting - wanted)
    return ((4 + suit, suit),) * (wanted - meeting)


def _after(found: tuple[int, ...], reversals: Iterable[tuple[int, ...]]) -> list[int]:
    """The foundation tops after ``reversals``."""
    moved = list(found)
    for source, _ in reversals:
        suit = source % 4
        # Either way the suit's meeting point moves by one: both tops move together.
        delta = -1 if source < 4 else 1
        moved[suit] += delta
        moved[4 + suit] += delta
    return moved


#: With ``exile=choose``, the exiles the first narrowed game offers (the top ones).
NARROWED_EXILES = 2


class LeonisOwnAdapter(Adapter[LeonisNode, Step]):
    """Leoni's Own with either ``exile`` option."""

    def __init__(self, rules: LeonisOwn, offered: int = 0) -> None:
        self.rules = rules
        self.choose = rules.choose
        #: With ``choose``: offer only this many exiles, the top ones (0: all), in the games of
        #: :meth:`narrowed`.
        self.offered = offered

    def narrowed(self) -> LeonisOwnAdapter | None:
        # With exile=choose, turning one of the top two exiles each time is a game inside the
        # game, and inside that one, turning the top exile (the game of exile=top, its turns one
        # at a time): their much smaller trees are searched first (docs/solving.md, Leoni's Own,
        # "Choosing the exile").
        if not self.choose or self.offered == 1:
            return None
        return LeonisOwnAdapter(self.rules, offered=1 if self.offered else NARROWED_EXILES)

    # -- conversion ----------------------------------------------------------------------------

    def node(self, state: LeonisOwnState) -> LeonisNode:
        """The solver's node for an engine state."""
        piles = state.piles
        return LeonisNode(
            found=tuple(int(piles[name][-1]) % 13 + 1 for name in FOUNDATIONS),
            piles=tuple(bytes(int(card) % 52 for card in piles[name]) for name in PILES),
            exiles=bytes(int(card) % 52 for card in piles[EXILES]),
            hand=int(piles[HAND][-1]) % 52 if piles[HAND] else -1,
            redeals=state.redeals,
            still=state.standstill,
            notes=frozenset(_parse_note(text) for text in state.notes),
        )

    # -- what the search asks ------------------------------------------------------------------

    def canonical(self, node: LeonisNode) -> Hashable:
        if node._canon is None:
            node._canon = (node.erased(), _live(node))
        return node._canon

    #: The first run, in the order of promise, is 50,000 nodes long, then restarts come after
    #: 20,000, 40,000, ... nodes (docs/solving.md, Leoni's Own, "Restarts").
    restart_nodes: int | None = 10_000
    first_run_nodes: int | None = 50_000

    def reorder(
        self,
        node: LeonisNode,
        canon: Hashable,
        steps: list[tuple[Step, LeonisNode]],
        restart: int,
    ) -> list[tuple[Step, LeonisNode]]:
        # One of the restart + 1 most promising steps, chosen by a checksum of the node's key and
        # the run number, goes first: the early runs stay close to the order of promise, the
        # later ones stray further. Only the bytes part of the key is used: the notes are a
        # frozenset, whose order depends on string hashing.
        return one_of_the_first(steps, node.erased(), restart, restart + 1)

    def worse(self, node: LeonisNode) -> int:
        # More redeals used never helps: the count only limits the redeal move.
        return node.redeals

    def path_key(self, node: LeonisNode) -> Hashable:
        return node.path()

    def layout_key(self, node: LeonisNode) -> Hashable:
        return node.erased()

    def inner_keys(self, node: LeonisNode, step: Step) -> Iterable[Hashable]:
        keys = []
        if step[0] == CHAIN:
            for pile, place, target in step[4][:-1]:
                node = self._play(node, pile, place, target, ())[1]
                keys.append(node.path())
            return keys
        body = node.path()[8:]
        found = node.found
        for reversal in step[4]:
            found = tuple(_after(found, (reversal,)))
            keys.append(bytes(found) + body)
        return keys

    def won(self, node: LeonisNode) -> bool:
        found = node.found
        return found[:4] == (13, 13, 13, 13) and found[4:] == (1, 1, 1, 1)

    def moves(self, node: LeonisNode, step: Step) -> list[Move]:
        kind, first, second, target, extra = step
        if kind == CHAIN:
            moves = []
            for pile, place, to in extra:
                moves.extend(self.moves(node, (PLAY, pile, place, to, ())))
                node = self._play(node, pile, place, to, ())[1]
            return moves
        moves = [Move.cards(FOUNDATIONS[source], FOUNDATIONS[to]) for source, to in extra]
        if kind == PLAY:
            if first == T13:
                face = node.piles[T13][second]
                moves.append(
                    Move.act("play", card=str(Card(face)), at=second + 1, to=FOUNDATIONS[target])
                )
            else:
                moves.append(Move.cards(PILES[first], FOUNDATIONS[target]))
        elif kind == EXILE:
            moves.append(Move.act("exile") if first < 0 else Move.act("exile", at=first + 1))
        elif kind == HAND_TO:
            moves.append(Move.cards(HAND, FOUNDATIONS[target]))
        else:
            moves.append(Move.act("redeal"))
        return moves

    # -- the rules on nodes ------------------------------------------------------------------

    def finished(self, node: LeonisNode, available: list[tuple[int, int, int]]) -> bool:
        """Won, or lost because the third deal has ended (docs/rules/leonis-own.md)."""
        if self.won(node):
            return True
        if node.redeals < LAST or node.hand >= 0:
            return False
        found = node.found
        wanted = _wanted(found)
        if not node.still and (node.exiles or any(wanted[face] for _, _, face in available)):
            return False
        for _, _, face in available:
            suit = _SUIT[face]
            if wanted[face] or found[4 + suit] == found[suit] + 1:
                return False
        return True

    @staticmethod
    def _settings(
        found: tuple[int, ...], available: list[tuple[int, int, int]]
    ) -> list[tuple[Reversal, ...]] | None:
        """Every way to make the player stuck by reversals alone, as the reversals that do it
        (the current meeting points first); None if he cannot be made stuck."""
        wanted = _wanted(found)
        ranks: list[set[int]] = [set(), set(), set(), set()]
        for _, _, face in available:
            suit = _SUIT[face]
            if found[4 + suit] == found[suit] + 1:
                ranks[suit].add(_RANK[face])
            elif wanted[face]:
                return None
        choices: list[list[tuple[Reversal, ...]]] = []
        for suit in range(4):
            meeting = found[suit]
            if found[4 + suit] != meeting + 1:
                continue
            taken = ranks[suit]
            values = [m for m in range(1, 13) if m not in taken and m + 1 not in taken]
            if not values:
                return None
            values.sort(key=lambda m: (abs(m - meeting), m))
            choices.append([_reversals(suit, meeting, m) for m in values])
        return [tuple(r for part in combo for r in part) for combo in product(*choices)]

    # -- steps ---------------------------------------------------------------------------------

    def steps(self, node: LeonisNode, dominance: bool) -> list[tuple[Step, LeonisNode]]:
        available = _available(node.piles)
        if self.finished(node, available):
            return []
        found = node.found
        if node.hand >= 0:
            targets = _targets(_wanted(found)[node.hand], _SUIT[node.hand])
            return [
                ((HAND_TO, 0, 0, target, ()), self._hand_child(node, target)) for target in targets
            ]
        last = node.redeals == LAST
        if dominance:
            if last:
                if node.still and node.exiles:
                    # Exiles left after a standstill in the last deal never come out.
                    return []
                if _blocked(node):
                    return []
            if not node.still or last:
                chain = self._safe_chain(node, available)
                if chain is not None:
                    return [chain]

        wanted = _wanted(found)
        plays: list[tuple[int, int, tuple[Step, LeonisNode]]] = []
        for pile, place, face in available:
            suit, rank = _SUIT[face], _RANK[face]
            meeting = found[suit]
            if found[4 + suit] == meeting + 1:
                # In sequence: move the meeting point so that the card fits. To the ace
                # foundation (meeting point rank - 1) or the king foundation (meeting point
                # rank) gives the same piles by face, so one of them is enough.
                options = []
                if rank >= 2:
                    options.append((abs(rank - 1 - meeting), suit, rank - 1))
                if rank <= 12:
                    options.append((abs(rank - meeting), 4 + suit, rank))
                _, target, point = min(options)
                moved = self._play(node, pile, place, target, _reversals(suit, meeting, point))
                plays.append((1, len(plays), moved))
                continue
            for target in _targets(wanted[face], suit):
                # Cards from squared piles uncover a card; pile 13's only leave.
                entry = self._play(node, pile, place, target, ())
                plays.append((0 if pile < T13 else 1, len(plays), entry))
        plays.sort(key=lambda entry: entry[:2])
        result = [entry[2] for entry in plays]

        if not node.still and node.exiles:
            settings = self._settings(found, available)
            if settings is not None:
                places: Iterable[int] = (-1,)
                if self.choose:
                    # The narrowed games offer the top exiles only, named by their places as
                    # chosen ones are.
                    every = range(len(node.exiles))
                    places = every[-self.offered :] if self.offered else every
                seen: set[Hashable] = set()
                for place in places:
                    # (meeting points, suits whose cards the weave looked at) of each setting
                    # tried: a setting that agrees with one of them on those suits weaves alike.
                    tried: list[tuple[list[int], int]] = []
                    for reversals in settings:
                        points = _after(found, reversals)
                        if any(
                            all(points[s] == other[s] for s in range(4) if looked >> s & 1)
                            for other, looked in tried
                        ):
                            continue
                        step: Step = (EXILE, place, 0, 0, reversals)
                        child, looked = self._exile_child(node, place, reversals)
                        tried.append((points, looked))
                        key = self.canonical(child)
                        if key not in seen:
                            seen.add(key)
                            result.append((step, child))
        if not last:
            if node.still:
                result.append(((REDEAL, 0, 0, 0, ()), self._redeal_child(node, ())))
            elif not node.exiles:
                settings = self._settings(found, available)
                if settings is not None:
                    child = self._redeal_child(node, settings[0])
                    result.append(((REDEAL, 0, 0, 0, settings[0]), child))
        return result

    def _safe_chain(
        self, node: LeonisNode, available: list[tuple[int, int, int]]
    ) -> tuple[Step, LeonisNode] | None:
        """Safe plays (:meth:`_safe_play`) one after the other as long as there is one, as one
        step (each is the only step of the node before it)."""
        plays: list[tuple[int, ...]] = []
        while True:
            safe = self._safe_play(node, available)
            if safe is None:
                break
            step, node = safe
            plays.append((step[1], step[2], step[3]))
            available = _available(node.piles)
        if not plays:
            return None
        return (CHAIN, 0, 0, 0, tuple(plays)), node

    def _safe_play(
        self, node: LeonisNode, available: list[tuple[int, int, int]]
    ) -> tuple[Step, LeonisNode] | None:
        """A play that is never worse than any other step (docs/solving.md, rule 3): a card
        that fits, of a suit not in sequence, whose other copy cannot get to a foundation before
        it: that copy is on a foundation already (the suit's foundations overlap), among the
        exiles, or under it in its own squared pile."""
        found = node.found
        wanted = _wanted(found)
        for pile, place, face in available:
            want = wanted[face]
            if not want:
                continue
            suit = _SUIT[face]
            king = found[4 + suit]
            if king == found[suit] + 1:
                continue
            if (
                king <= found[suit]
                or face in node.exiles
                or (pile < T13 and face in node.piles[pile][:place])
            ):
                target = suit if want & 1 else 4 + suit
                return self._play(node, pile, place, target, ())
        return None

    # -- children ------------------------------------------------------------------------------

    @staticmethod
    def _play(
        node: LeonisNode, pile: int, place: int, target: int, reversals: tuple[Reversal, ...]
    ) -> tuple[Step, LeonisNode]:
        found = _after(node.found, reversals) if reversals else list(node.found)
        piles = list(node.piles)
        cards = piles[pile]
        found[target] = _RANK[cards[place]]
        piles[pile] = cards[:place] + cards[place + 1 :]
        child = LeonisNode(
            tuple(found),
            tuple(piles),
            node.exiles,
            -1,
            node.redeals,
            node.still,
            node.notes,
            node.ok_mask,
        )
        return (PLAY, pile, place, target, reversals), child

    @staticmethod
    def _hand_child(node: LeonisNode, target: int) -> LeonisNode:
        found = list(node.found)
        found[target] = _RANK[node.hand]
        return LeonisNode(
            tuple(found), node.piles, node.exiles, -1, node.redeals, node.still, node.notes
        )

    def _exile_child(
        self, node: LeonisNode, place: int, reversals: tuple[Reversal, ...]
    ) -> tuple[LeonisNode, int]:
        """What ``exile`` (or ``exile(at=place+1)``) does after ``reversals``: the engine's
        :meth:`LeonisOwn.perform`, on the compact state; and the suits (a bit mask) of the
        cards whose fit to a foundation it looked at."""
        found = _after(node.found, reversals) if reversals else list(node.found)
        piles = [bytearray(pile) for pile in node.piles]
        exiles = bytearray(node.exiles)
        weave = _Weave(found, piles, set(node.notes))
        card = exiles.pop(place)
        while weave.follow(card) and not self.choose:
            if weave.hand >= 0 or weave.still or not exiles:
                break
            wanted = _wanted(found)
            tops = [pile[-1] for pile in piles[:T13] if pile]
            tops.extend(piles[T13])
            for face in tops:
                weave.looked |= 1 << _SUIT[face]
            if any(wanted[face] for face in tops):
                break
            card = exiles.pop()
        child = LeonisNode(
            tuple(found),
            tuple(bytes(pile) for pile in piles),
            bytes(exiles),
            weave.hand,
            node.redeals,
            weave.still,
            frozenset(weave.notes),
        )
        return child, weave.looked

    @staticmethod
    def _redeal_child(node: LeonisNode, reversals: tuple[Reversal, ...]) -> LeonisNode:
        stock = b"".join(reversed(node.piles)) + node.exiles[::-1]
        piles: list[bytearray] = [bytearray() for _ in range(13)]
        exiles = bytearray()
        number = 1
        for face in stock:
            if _RANK[face] == number:
                exiles.append(face)
                continue
            piles[number - 1].append(face)
            number = number % 13 + 1
        # The foundations stay as the reversals that made the player stuck left them.
        return LeonisNode(
            tuple(_after(node.found, reversals)),
            tuple(bytes(pile) for pile in piles),
            bytes(exiles),
            -1,
            node.redeals + 1,
            False,
            frozenset(),
        )


class _Weave:
    """A turned exile and what follows it, on mutable piles (the engine's ``_follow_exile``,
    ``_weave`` and ``_put_under``)."""

    def __init__(self, found: list[int], piles: list[bytearray], notes: set[Note]) -> None:
        self.found = found
        self.piles = piles
        self.notes = notes
        self.hand = -1
        self.still = False
        #: The suits (bits) of the cards whose fit to a foundation was looked at.
        self.looked = 0

    def fits(self, card: int) -> list[int]:
        self.looked |= 1 << _SUIT[card]
        return _targets(_wanted(self.found)[card], _SUIT[card])

    def follow(self, card: int) -> bool:
        """True when RULES.md turns the next exile if still stuck."""
        fits = self.fits(card)
        if len(fits) == 2:
            self.hand = card
            return False
        if fits:
            self.found[fits[0]] = _RANK[card]
            return False
        if _RANK[card] == KING:
            self.piles[T13].append(card)
            return True
        return self.weave(card)

    def weave(self, carried: int) -> bool:
        piles = self.piles
        while True:
            index = _RANK[carried] - 1
            if self.put_under(carried):
                return True
            taken = piles[index].pop()
            if self.fits(piles[index][-1]):
                if _RANK[taken] == KING:
                    piles[T13].append(taken)
                else:
                    self.put_under(taken)
                return False
            if _RANK[taken] == KING:
                piles[T13].append(taken)
                return True
            carried = taken

    def put_under(self, card: int) -> bool:
        """Note, then put ``card`` under its pile; True at a standstill or an empty pile."""
        piles = self.piles
        squared = tuple(bytes(pile) for pile in piles[:SQUARED_COUNT])
        written = (sum(map(len, squared)), card, squared)
        repeated = written in self.notes
        self.notes.add(written)
        pile = piles[_RANK[card] - 1]
        was_empty = not pile
        pile.insert(0, card)
        if repeated:
            self.still = True
            return True
        return was_empty


#: Per face, its rank as a bit (none for kings: a weave never carries a king).
_RANK_BIT = tuple(0 if _RANK[face] == KING else 1 << _RANK[face] for face in range(52))
#: Bits 1-12: every rank a weave can carry.
_ALL_RANKS = sum(1 << rank for rank in range(1, KING))


def _blocked(node: LeonisNode) -> bool:
    """True if the piles can no longer be played out in the last deal once no exile is left to
    turn (docs/solving.md, rule 5): an order that every win needs goes round in a circle.

    Cards leave the piles only to the foundations then, so in any win a squared pile is played
    from its top down; and in a suit whose foundations overlap every card outside has one place
    only: above the ace foundation's top, the one copy outside goes there, after the card one
    rank lower; below the king foundation's top, likewise on the king foundation."""
    found = node.found
    mask = sum(1 << suit for suit in range(4) if found[4 + suit] <= found[suit])
    static = not node.exiles
    if static and node.ok_mask == mask:
        # Plays since the test passed only took cards away: no new order, no new circle.
        return False
    if not mask:
        # Without an overlapping suit the only orders are the piles', which are chains.
        if static:
            node.ok_mask = mask
        return False
    piles = node.piles
    # The ranks that a weave may still carry: the exiles', then those of any card in the pile
    # of a rank carried (it may be taken). Piles of other ranks are never woven through.
    carried = 0
    for face in node.exiles:
        carried |= _RANK_BIT[face]
    if carried:
        holds = [0] * 13
        for index in range(SQUARED_COUNT):
            bits = 0
            for face in piles[index]:
                bits |= _RANK_BIT[face]
            holds[index + 1] = bits
        while True:
            grown = carried
            for rank in range(1, KING):
                if carried >> rank & 1:
                    grown |= holds[rank]
            if grown == carried:
                break
            carried = grown
    if carried == _ALL_RANKS:
        # No pile keeps its order, and the foundations' orders alone are chains.
        return False
    where: dict[int, int] = {}
    edges: dict[int, list[int]] = {}
    # Only the overlapping suits' cards get edges of their suit, so only they need a place.
    wanted_suits = tuple(bool(mask >> suit & 1) for suit in range(4))
    for index, pile in enumerate(piles):
        fixed = index < T13 and not carried & (1 << (index + 1))
        for place, face in enumerate(pile):
            if wanted_suits[_SUIT[face]]:
                where[face] = index * 128 + place
            if place and fixed:
                edges[index * 128 + place] = [index * 128 + place - 1]
    for place, face in enumerate(node.exiles):
        where[face] = 13 * 128 + place
    if node.hand >= 0:
        where[node.hand] = 14 * 128
    for suit in range(4):
        ace, king = found[suit], found[4 + suit]
        if not mask & (1 << suit):
            # Foundations that have not met may still come to be in sequence, and then
            # reversals can send a card to either of them.
            continue
        base = suit * 13 - 1
        for rank in range(ace + 2, 14):
            edges.setdefault(where[base + rank - 1], []).append(where[base + rank])
        for rank in range(king - 2, 0, -1):
            edges.setdefault(where[base + rank + 1], []).append(where[base + rank])
    incoming: dict[int, int] = {}
    for targets in edges.values():
        for target in targets:
            incoming[target] = incoming.get(target, 0) + 1
    ready = [source for source in edges if source not in incoming]
    left = len(incoming)
    while ready:
        source = ready.pop()
        for target in edges.get(source, ()):
            count = incoming[target] - 1
            incoming[target] = count
            if not count:
                left -= 1
                ready.append(target)
    if left:
        return True
    if static:
        node.ok_mask = mask
    return False


#: The live notes (:func:`_live`) per set of notes and number of cards that may lie in piles
#: 1-12 (the sets are shared by every node of a phase).
_LIVE: dict[tuple[frozenset[Note], int], frozenset[Note]] = {}


def _live(node: LeonisNode) -> frozenset[Note]:
    """The standstill notes that may still repeat (docs/solving.md, rule 6). Within a deal,
    cards come into piles 1-12 only from the exiles (and the hand), and what leaves them for pile
    13 or a foundation never comes back; so a note whose piles hold more cards than piles 1-12,
    the exiles and the hand hold together can never repeat, and changes nothing."""
    notes = node.notes
    if not notes:
        return notes
    total = sum(map(len, node.piles[:SQUARED_COUNT])) + len(node.exiles) + (node.hand >= 0)
    key = (notes, total)
    live = _LIVE.get(key)
    if live is None:
        if len(_LIVE) > 200_000:
            _LIVE.clear()
        live = frozenset(written for written in notes if written[0] <= total)
        if len(live) == len(notes):
            live = notes
        _LIVE[key] = live
    return live


def _parse_note(text: str) -> Note:
    card, _, rest = text.partition("|")
    piles = tuple(
        bytes(int(Card.parse(part[i : i + 2])) % 52 for i in range(0, len(part), 2))
        for part in rest.split("/")
    )
    return sum(map(len, piles)), int(Card.parse(card)) % 52, piles
