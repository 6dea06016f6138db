"""Cards, ranks, suits and colours, and the packs they come in.

A :class:`Card` is a small integer, so piles of cards are cheap to copy and hash. Its value is
its *identity*: ``pack * 52 + suit * 13 + (rank - 1)``. In a two-pack game the two copies of a
card are equal in play (same rank and suit) but are different objects with different values, so
a record or an animation can follow each physical card.

Notation (RULES.md, "Cards and notation"): rank then suit, ``Th``, ``As``, ``10c``. Ranks are
``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is accepted for ``T``); suits are ``c d h s``, and the
symbols ``♣ ♦ ♥ ♠`` are accepted too. :meth:`Card.symbol` gives the display form ``T♥``.

>>> Card.parse("10h")
Card.parse('Th')
>>> Card.parse("Qs").symbol()
'Q♠'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator

__all__ = [
    "CARDS_PER_PACK",
    "IS_RED",
    "MAX_COPIES",
    "RANK_OF",
    "SUIT_OF",
    "Card",
    "CardError",
    "Colour",
    "Rank",
    "Suit",
    "format_cards",
    "pack",
    "packs",
    "parse_cards",
]

CARDS_PER_PACK = 52
#: Copies of one card a game may hold: two packs, or eight in one-suit Spider's 104 spades.
MAX_COPIES = 8


class CardError(ValueError):
    """A card could not be parsed or does not exist."""


class Colour(enum.Enum):
    """The colour of a suit."""

    RED = "red"
    BLACK = "black"


class Suit(enum.IntEnum):
    """A suit; the order (clubs, diamonds, hearts, spades) is the order of a new pack."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The suit letter used in notation: ``c d h s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol used for display: ``♣ ♦ ♥ ♠``."""
        return "♣♦♥♠"[self]

    @property
    def colour(self) -> Colour:
        """Red for diamonds and hearts, black for clubs and spades."""
        return Colour.RED if self in (Suit.DIAMONDS, Suit.HEARTS) else Colour.BLACK

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter (``c d h s``, any case) or symbol (``♣ ♦ ♥ ♠``)."""
        if len(text) == 1:
            index = "cdhs".find(text.lower())
            if index < 0:
                index = "♣♦♥♠".find(text)
            if index >= 0:
                return cls(index)
        raise CardError(f"unknown suit {text!r}: use one of c d h s (or ♣ ♦ ♥ ♠)")


class Rank(enum.IntEnum):
    """A rank, ace low (1) to king (13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The rank letter used in notation: ``A 2 ... 9 T J Q K``."""
        return "A23456789TJQK"[self - 1]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank: ``A 2 ... 9 T J Q K`` (any case) or ``10``."""
        if text == "10":
            return cls.TEN
        if len(text) == 1:
            index = "A23456789TJQK".find(text.upper())
            if index >= 0:
                return cls(index + 1)
        raise CardError(f"unknown rank {text!r}: use one of A 2 3 4 5 6 7 8 9 T J Q K (or 10)")


# Lookup tables: properties of a card value are table reads, not arithmetic, on hot paths.
_RANKS = tuple(Rank(v % CARDS_PER_PACK % 13 + 1) for v in range(MAX_COPIES * CARDS_PER_PACK))
_SUITS = tuple(Suit(v % CARDS_PER_PACK // 13) for v in range(MAX_COPIES * CARDS_PER_PACK))


class Card(int):
    """One physical card: an ``int`` whose value is ``pack * 52 + suit * 13 + rank - 1``.

    ``pack`` is 0 or 1 in two-pack games; it counts the copies of a card (up to 8, for one-suit
    Spider) where a game holds more.

    Two cards compare equal only if they are the same physical card; use :meth:`same_face`
    to compare rank and suit.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < MAX_COPIES * CARDS_PER_PACK:
            raise CardError(f"card value {value} out of range 0..{MAX_COPIES * CARDS_PER_PACK - 1}")
        return _CARDS[value] if _CARDS else int.__new__(cls, value)

    @classmethod
    def make(cls, rank: Rank | int, suit: Suit | int, pack: int = 0) -> Card:
        """The card of that rank and suit from pack 0 (or the given pack)."""
        return cls(pack * CARDS_PER_PACK + int(suit) * 13 + int(rank) - 1)

    @classmethod
    def parse(cls, text: str, pack: int = 0) -> Card:
        """Parse ``Th``, ``10h``, ``T♥``; the card comes from pack 0 unless told otherwise."""
        text = text.strip()
        if len(text) < 2:
            raise CardError(f"cannot read card {text!r}: write rank then suit, as in Th or 10h")
        try:
            return cls.make(Rank.parse(text[:-1]), Suit.parse(text[-1]), pack)
        except CardError as error:
            raise CardError(f"cannot read card {text!r}: {error}") from None

    @property
    def rank(self) -> Rank:
        """The rank, ace (1) to king (13)."""
        return _RANKS[self]

    @property
    def suit(self) -> Suit:
        """The suit."""
        return _SUITS[self]

    @property
    def colour(self) -> Colour:
        """The colour of the suit."""
        return _SUITS[self].colour

    @property
    def pack(self) -> int:
        """Which pack (copy number, 0 first) this physical card belongs to."""
        return int(self) // CARDS_PER_PACK

    @property
    def face(self) -> int:
        """The card's value within its pack (0..51): equal for the two copies of a card."""
        return int(self) % CARDS_PER_PACK

    def same_face(self, other: Card) -> bool:
        """True when both cards have the same rank and suit (they may be different copies)."""
        return self.face == other.face

    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return _SUITS[self] in (Suit.DIAMONDS, Suit.HEARTS)

    def symbol(self) -> str:
        """The display form with a suit symbol, e.g. ``T♥``."""
        return self.rank.letter + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        suffix = f", pack={self.pack}" if self.pack else ""
        return f"Card.parse({str(self)!r}{suffix})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card(v) for v in range(MAX_COPIES * CARDS_PER_PACK))

#: ``RANK_OF[card]``: the rank as a plain int; ``SUIT_OF[card]``, ``IS_RED[card]``: for hot paths
#: (solvers, move generation) where enum properties cost too much.
RANK_OF: tuple[int, ...] = tuple(int(rank) for rank in _RANKS)
SUIT_OF: tuple[int, ...] = tuple(int(suit) for suit in _SUITS)
IS_RED: tuple[bool, ...] = tuple(suit in (Suit.DIAMONDS, Suit.HEARTS) for suit in _SUITS)


def pack(number: int = 0) -> list[Card]:
    """One pack of 52 cards in new-pack order: A♣..K♣, A♦..K♦, A♥..K♥, A♠..K♠."""
    start = number * CARDS_PER_PACK
    return list(_CARDS[start : start + CARDS_PER_PACK])


def packs(count: int) -> list[Card]:
    """``count`` packs (1 or 2) one after the other, each in new-pack order."""
    if count not in (1, 2):
        raise CardError(f"a game uses one or two packs, not {count}")
    return [card for number in range(count) for card in pack(number)]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas (or an iterable of card strings)."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Cards joined by spaces, in notation (``Th``) or display form (``T♥``)."""
    parts: Iterator[str] = (card.symbol() if symbols else str(card) for card in cards)
    return " ".join(parts)
