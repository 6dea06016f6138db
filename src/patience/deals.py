"""Deal numbers: from an integer to the order of the cards, the same on every machine.

The algorithm is specified in ``docs/deals.md`` so that it can be reimplemented in any language:
SplitMix64 seeded with the deal number, and a Fisher-Yates shuffle whose random indices are drawn
by rejection sampling (no modulo bias). ``SHUFFLE_VERSION`` names this algorithm; it changes only
if the algorithm does, and records carry it.

>>> from patience.cards import packs
>>> [str(card) for card in shuffled(packs(1), 0)[:5]]
['8s', 'Jh', '9c', '2s', '2d']
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TypeVar

from .cards import packs

__all__ = [
    "MAX_DEAL",
    "SHUFFLE_VERSION",
    "DealError",
    "Shuffler",
    "check_deal",
    "first_cards",
    "random_deal",
    "shuffled",
]

SHUFFLE_VERSION = 1
MAX_DEAL = 2**53 - 1

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


class DealError(ValueError):
    """A deal number is not an integer from 0 to 2**53 - 1."""


def check_deal(deal: object) -> int:
    """Return ``deal`` as an int if it is a valid deal number, else raise :class:`DealError`."""
    if isinstance(deal, bool) or not isinstance(deal, int):
        try:
            deal = int(str(deal).strip())
        except ValueError:
            raise DealError(
                f"deal number {deal!r} is not an integer: use a whole number from 0 to {MAX_DEAL}"
            ) from None
    if not 0 <= deal <= MAX_DEAL:
        raise DealError(f"deal number {deal} is out of range: use 0 to {MAX_DEAL} (2**53 - 1)")
    return deal


def random_deal() -> int:
    """A deal number chosen at random (from the operating system's entropy)."""
    return secrets.randbelow(MAX_DEAL + 1)


class Shuffler:
    """The deal number's stream of random numbers, and the shuffles drawn from it.

    A game that needs several shuffles (two players' packs, the deals of a match) draws them one
    after another from one :class:`Shuffler`, in the order its rules document.
    """

    def __init__(self, deal: int) -> None:
        self.deal = check_deal(deal)
        self._state = self.deal

    def next64(self) -> int:
        """The next 64-bit output of SplitMix64."""
        self._state = (self._state + _GAMMA) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``0 .. bound - 1``, by rejection of the biased top range."""
        if not 0 < bound <= 1 << 64:
            raise ValueError(f"bound {bound} out of range 1..2**64")
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.next64()
            if value < limit:
                return value % bound

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items``: Fisher-Yates from the last position down to 1."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result


def shuffled(items: Sequence[T], deal: int) -> list[T]:
    """``items`` shuffled by the first shuffle of deal number ``deal``."""
    return Shuffler(deal).shuffle(items)


def first_cards(deal: int, count: int = 52, npacks: int = 1) -> list[str]:
    """The first cards of a deal's shuffled pack (or two), as strings: the test vectors."""
    return [str(card) for card in shuffled(packs(npacks), deal)[:count]]
