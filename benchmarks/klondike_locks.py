"""Which Klondike deals rule 12 (the core's stronger test) settles at the root, and which it
would settle if kings could never go into a space: a diagnostic for docs/solving.md
("Klondike", rule 12, and "Not done yet").

Run: ``.venv/bin/python benchmarks/klondike_locks.py --deals A-B [--kings-barred] [--show]
[-o KEY=VALUE ...]``. Prints the deals whose root has a non-empty set U of cards that can never
move (``--kings-barred``: with a king's way into a space counted as never open, the one way
the core's test treats as open as soon as some pile holds no card of U). ``--show`` prints
each such deal's tableau with the cards of U and V starred.

The test is the core's (``core/src/klondike.rs``, ``deadlocked``) written again in Python, card
for card; tests/test_solve.py checks that the two agree on the roots of deals.
"""

from __future__ import annotations

import argparse
from typing import Any

import patience
from patience.options import parse_option_pairs
from patience.solve.core import encode

KING = 13
STOCK, WASTE, FIRST_FOUNDATION, FIRST_PILE = 0, 1, 2, 6
#: For each suit: the two suits of the other colour.
OPPOSITE = ((1, 2), (0, 3), (0, 3), (1, 2))


def deal_range(text: str) -> range:
    """``A-B`` (both included) or a single deal number."""
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def card_name(card: int) -> str:
    """A card as rank and suit letter (suits in the core's order)."""
    return "A23456789TJQK"[card % 13] + "CDHS"[card // 13]


def stuck_cards(
    piles: list[list[int]], down: list[int], from_foundation: bool, kings_barred: bool
) -> set[int]:
    """The largest sets U (tableau) and V (stock and waste) of rule 12 as the core has it
    (docs/solving.md), as one set; with ``kings_barred`` a king's way into a space is never
    open. ``piles`` and ``down`` are in the engine's pile order (``encode``)."""
    tableau = piles[FIRST_PILE:]
    hidden = down[FIRST_PILE:]
    in_stock = set(piles[STOCK]) | set(piles[WASTE])
    in_tableau = {card for pile in tableau for card in pile}
    space = any(not pile for pile in tableau)
    over: dict[int, set[int]] = {}
    covered: dict[int, set[int]] = {}
    under: dict[int, set[int]] = {}
    face_down: set[int] = set()
    for pile, count in zip(tableau, hidden, strict=True):
        above: set[int] = set()
        for card in reversed(pile):
            over[card] = set(above)
            above.add(card)
            covered[card] = set(above)
        face_down.update(pile[:count])
        up: set[int] = set()
        for card in pile[count:]:
            under[card] = set(up)
            up.add(card)
    # Each card's ways: a way is open while it holds no stuck card; None: never open.
    ways: dict[int, list[set[int] | None]] = {}
    for card in in_tableau | in_stock:
        rank, suit = card % 13 + 1, card // 13
        card_ways: list[set[int] | None] = []
        if rank == KING:
            card_ways.append(set() if space and not kings_barred else None)
        else:
            for other in OPPOSITE[suit]:
                onto = other * 13 + rank  # the card of rank + 1 in the other colour
                if onto in in_tableau:
                    card_ways.append(over[onto])
                elif onto in in_stock:
                    card_ways.append({onto})
                else:
                    card_ways.append(set() if from_foundation else None)
        if card in in_tableau:
            lower: set[int] = set()
            for low in range(suit * 13, card):
                lower |= covered.get(low, set())
            card_ways.append(lower)
        ways[card] = card_ways
    stuck = in_tableau | in_stock
    while stuck & in_tableau:
        spaces_shut = not space and all(set(pile) & stuck for pile in tableau)
        freed = set()
        for card in stuck:
            if card in face_down and over[card] & stuck:
                continue  # face down under a stuck card
            if (
                under.get(card, set()) - stuck
                or any(way is not None and not way & stuck for way in ways[card])
                or (card % 13 + 1 == KING and not kings_barred and not spaces_shut)
            ):
                freed.add(card)
        if not freed:
            break
        stuck -= freed
    return stuck if stuck & in_tableau else set()


def show(piles: list[list[int]], down: list[int], stuck: set[int]) -> str:
    """The tableau (face-down cards in brackets, stuck cards starred) and the stuck stock."""
    lines = []
    for index, pile in enumerate(piles[FIRST_PILE:]):
        cells = []
        for at, card in enumerate(pile):
            text = card_name(card) + ("*" if card in stuck else "")
            cells.append(f"[{text}]" if at < down[FIRST_PILE + index] else text)
        lines.append(f"  t{index + 1}: " + " ".join(cells))
    stock = piles[STOCK] + piles[WASTE]
    lines.append("  stock and waste, stuck: " + " ".join(card_name(c) for c in stock if c in stuck))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Print the deals of a range that have a lock at the root."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-50", help="A-B, both included")
    parser.add_argument("--kings-barred", action="store_true", help="kings never go to a space")
    parser.add_argument("--show", action="store_true", help="print each locked tableau")
    parser.add_argument("-o", dest="options", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {"draw": 3, **parse_option_pairs(args.options)}
    locked = []
    deals = deal_range(args.deals)
    for deal in deals:
        game = patience.new("klondike", deal=deal, **options)
        piles, down, _ = encode(game.rules, game.state)
        from_foundation = bool(game.rules.options["from_foundation"])
        stuck = stuck_cards(piles, down, from_foundation, args.kings_barred)
        if stuck:
            locked.append(deal)
            if args.show:
                print(f"deal {deal}:\n{show(piles, down, stuck)}")
    print(f"{len(locked)} of {len(deals)} deals locked at the root: {locked}")


if __name__ == "__main__":
    main()
