"""Mechanics that several games share: building on the tableau and the foundations, piles named
by number, and turning a stock onto a waste. Written once here, used by every game that has them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import IS_RED, RANK_OF, SUIT_OF, Card, Rank
from ..engine import IllegalMove, State
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
