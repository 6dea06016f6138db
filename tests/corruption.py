"""Positions spoilt on purpose, for the tests that the compiled core refuses them by name."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st

#: Changes for :func:`corrupted`: (kind, a, b, c), one to three of them.
CHANGES = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=8),
        st.integers(min_value=0, max_value=1 << 30),
        st.integers(min_value=0, max_value=1 << 30),
        st.integers(min_value=0, max_value=1 << 30),
    ),
    min_size=1,
    max_size=3,
)


def corrupted(parts: Any, changes: list[tuple[int, int, int, int]]) -> Any:
    """``parts`` with each change made in turn: a card moved to another pile, copied over
    another, dropped or given a number past the pack; a face-down count past its pile; an extra
    number off; a pile, a count or an extra number too few or too many; a pile shuffled."""
    piles, down, extra = [list(pile) for pile in parts[0]], list(parts[1]), list(parts[2])
    for kind, a, b, c in changes:
        filled = [index for index, pile in enumerate(piles) if pile]
        if kind == 0 and filled:
            source = filled[a % len(filled)]
            piles[b % len(piles)].append(piles[source].pop())
        elif kind == 1 and filled:
            source, target = filled[a % len(filled)], filled[b % len(filled)]
            piles[target][c % len(piles[target])] = piles[source][c % len(piles[source])]
        elif kind == 2 and filled:
            pile = piles[filled[a % len(filled)]]
            pile.pop(b % len(pile))
        elif kind == 3 and filled:
            pile = piles[filled[a % len(filled)]]
            pile[b % len(pile)] = (52, 103, 104, 255, 256, -1)[c % 6]
        elif kind == 4 and down:
            index = a % len(down)
            size = len(piles[index]) if index < len(piles) else 0
            down[index] = (size, size + 1, size + 50, 255, -1, 2**32)[b % 6]
        elif kind == 5 and extra:
            extra[a % len(extra)] = (0, 1, 3, 255, 65_535, 2**31 - 1)[b % 6]
        elif kind == 6:
            piles, down, extra = (piles[:-1], down, extra) if a % 2 else (piles, down[:-1], extra)
        elif kind == 7:
            extra = [*extra, b % 5] if a % 2 else extra[:-1]
        elif kind == 8 and filled:
            random.Random(b).shuffle(piles[filled[a % len(filled)]])
    return piles, down, extra


def answered_or_refused(
    calls: Sequence[Callable[[], object]],
    legal: Callable[[], list[int]] | None = None,
    apply: Callable[[int], object] | None = None,
) -> None:
    """Make each call, then (given ``legal`` and ``apply``) apply the first legal actions: each
    answers or raises ``ValueError``. A ``RuntimeError`` (the core's "internal error" of a panic
    caught at its border) or any other exception fails the test."""
    for call in calls:
        with contextlib.suppress(ValueError):
            call()
    if legal is not None and apply is not None:
        with contextlib.suppress(ValueError):
            for action in legal()[:5]:
                apply(action)
