"""Mechanics that several games share: building on the tableau and the foundations, piles named
by number, and turning a stock onto a waste. Written once here, used by every game that has them.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import TypeVar

from ..cards import IS_RED, RANK_OF, SUIT_OF, Card, Rank
from ..engine import IllegalMove, Rules, State
from ..moves import Move


def numbered(prefix: str, count: int) -> tuple[str, ...]:
    """Pile names ``prefix1`` .. ``prefixN``."""
    return tuple(f"{prefix}{number}" for number in range(1, count + 1))


def builds_down_alternating(card: Card, onto: Card) -> bool:
    """True if ``card`` may go on ``onto`` in a tableau built down in alternating colours."""
    return RANK_OF[card] == RANK_OF[onto] - 1 and IS_RED[card] != IS_RED[onto]


def alternating_run_length(cards: Sequence[Card]) -> int:
    """How many cards at the top of ``cards`` form a run down in alternating colours."""
    if not cards:
        return 0
    length = 1
    while length < len(cards) and builds_down_alternating(cards[-length], cards[-length - 1]):
        length += 1
    return length


def foundation_wants(pile: Sequence[Card]) -> str:
    """What a foundation built up in suit from the ace takes next, in words."""
    if not pile:
        return "an ace"
    top = pile[-1]
    if top.rank == Rank.KING:
        return "nothing (it is complete)"
    return f"the {Rank(top.rank + 1).letter}{top.suit.letter}"


def fits_foundation_up(card: Card, pile: Sequence[Card]) -> bool:
    """True if ``card`` goes on a foundation built up in suit from the ace."""
    if not pile:
        return RANK_OF[card] == 1
    top = pile[-1]
    return SUIT_OF[card] == SUIT_OF[top] and RANK_OF[card] == RANK_OF[top] + 1


def check_pile_name(name: str | None, names: Sequence[str], game: str) -> str:
    """``name`` if it is a pile of the game, else :class:`IllegalMove` listing the piles."""
    if name is None or name not in names:
        raise IllegalMove(None, f"{game} has no pile {name!r}; its piles are {', '.join(names)}")
    return name


def turn_stock(state: State, count: int, stock: str = "stock", waste: str = "waste") -> None:
    """Turn up to ``count`` cards one by one from the stock onto the waste, face up.

    Taking a packet of three and turning it over gives the same order as turning the cards
    one at a time, so that is how it is done.
    """
    for _ in range(min(count, len(state.piles[stock]))):
        card = state.piles[stock].pop()
        state.piles[waste].append(card)
    state.down[stock] = len(state.piles[stock])


def stock_move(state: State, passes_left: bool) -> Move | None:
    """The stock's move now, in a game whose waste may be turned over as a new stock:
    ``stock`` while the stock holds cards; once it is empty, ``recycle`` when the waste holds
    cards and a pass is left (``passes_left``); else None."""
    if state.piles["stock"]:
        return Move.act("stock")
    if state.piles["waste"] and passes_left:
        return Move.act("recycle")
    return None


def recycle_waste(state: State, stock: str = "stock", waste: str = "waste") -> None:
    """Turn the waste over, face down, as the new stock: the waste's bottom card becomes the
    stock's top card."""
    state.piles[stock] = state.piles[waste][::-1]
    state.piles[waste] = []
    state.down[stock] = len(state.piles[stock])
    state.down[waste] = 0


def unknown_action(game: str, move: Move, actions: Sequence[str]) -> IllegalMove:
    """The error for an action the game does not have."""
    return IllegalMove(
        move, f"{game} has no action {move.action!r}; its actions are " + ", ".join(actions)
    )


def fitting_run_count(source: Sequence[Card], run: int, target: Sequence[Card]) -> int:
    """How many of the top ``run`` cards of ``source`` move onto ``target`` in a tableau built
    down in alternating colours where only a king fills a space (0: none). Klondike's rule, and
    Double Solitaire's on each player's own tableau."""
    if not run:
        return 0
    # A run descends by one from its bottom card, so the one card that can fit is found by
    # rank arithmetic: the card of rank r lies r - top_rank cards deep.
    wanted = RANK_OF[target[-1]] - 1 if target else 13
    count = wanted - RANK_OF[source[-1]] + 1
    if not 1 <= count <= run:
        return 0
    if target and IS_RED[source[-count]] == IS_RED[target[-1]]:
        return 0
    return count


def check_klondike_target(
    move: Move, card: Card, target: str, onto: Sequence[Card], foundation: bool
) -> None:
    """Refuse with :class:`IllegalMove` the cards of ``move`` (``card`` the lowest of them)
    going on pile ``target`` holding ``onto``, under Klondike's building rules: a foundation
    (``foundation`` True) takes one card at a time, up in suit from the ace; the tableau builds
    down in alternating colours, and only a king fills a space."""
    if foundation:
        if move.count != 1:
            raise IllegalMove(move, "cards go to a foundation one at a time")
        if not fits_foundation_up(card, onto):
            raise IllegalMove(
                move,
                f"{card} cannot go on {target}: it takes {foundation_wants(onto)} "
                "(foundations build up in suit from the ace)",
            )
        return
    if not onto:
        if card.rank != Rank.KING:
            raise IllegalMove(move, f"{card} cannot fill the space {target}: only a king can")
        return
    if not builds_down_alternating(card, onto[-1]):
        raise IllegalMove(
            move,
            f"{card} cannot go on {onto[-1]}: the tableau builds down in alternating colours",
        )


def check_alternating_run(state: State, move: Move, source: str) -> None:
    """Refuse a card move that takes more cards from tableau pile ``source`` than lie face up
    on it in a run down in alternating colours (Klondike's rule, Double Solitaire's too)."""
    up = state.up_count(source)
    if move.count > up:
        raise IllegalMove(move, f"{source} has only {up} face-up card(s)")
    run = alternating_run_length(state.face_up(source))
    if move.count > run:
        raise IllegalMove(
            move, f"only the top {run} card(s) of {source} form a run in alternating colours"
        )


def check_recycle(state: State, move: Move, passes_left: bool, passes: object) -> None:
    """Refuse turning the waste over as the new stock unless the stock is empty, the waste is
    not, and a pass is left (Klondike's and Canfield's rule)."""
    if state.piles["stock"]:
        raise IllegalMove(move, "the waste is turned over only when the stock is empty")
    if not state.piles["waste"]:
        raise IllegalMove(move, "the waste is empty: there is nothing to turn over")
    if not passes_left:
        raise IllegalMove(move, f"no pass through the stock is left (passes={passes})")


S = TypeVar("S", bound=State)


class PileMoveRules(Rules[S]):
    """Rules whose moves are actions or card moves between named piles: :meth:`apply` checks
    the pile names, lets the game check the move, and makes it with :meth:`perform`."""

    def apply(self, state: S, move: Move) -> tuple[S, list[Move]]:
        if move.is_action:
            return self._apply_action(state, move)
        source = check_pile_name(move.source, self.pile_names, self.name)
        target = check_pile_name(move.target, self.pile_names, self.name)
        self._check_card_move(state, move, source, target)
        return self.perform(state, move)

    @abc.abstractmethod
    def _apply_action(self, state: S, move: Move) -> tuple[S, list[Move]]:
        """Check an action (IllegalMove saying why) and make it."""

    @abc.abstractmethod
    def _check_card_move(self, state: S, move: Move, source: str, target: str) -> None:
        """Raise IllegalMove, saying why, unless the card move is allowed."""
