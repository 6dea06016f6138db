"""Small positions of the one-player games drawn at random, not reached by play: most cards on
the foundations, the rest scattered over the other piles in any way the game's invariants allow
(docs/formats.md, "Position JSON": loading refuses anything else). The differential tests of
the compiled core play and solve them beside the engine's own searches (tests/test_core.py).

Each drawer takes the game's options, a ``random.Random`` and how many cards to leave off the
foundations (a few more or fewer where the game needs it), and returns a position JSON.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import patience
from patience.cards import Card, Rank, Suit


def _empty(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Deal 1's position of ``game`` with every pile emptied (options and extra parts kept)."""
    position: dict[str, Any] = dict(patience.new(game, deal=1, **options).position())
    position["piles"] = {name: {"down": [], "up": []} for name in position["piles"]}
    position["deal"] = None
    return position


def _text(card: Card) -> str:
    return str(card)


def _take_off(rng: random.Random, heights: list[int], left: int) -> None:
    """Lower random foundations (``heights``, each the cards it holds) by ``left`` cards."""
    for _ in range(left):
        candidates = [index for index, height in enumerate(heights) if height > 0]
        if not candidates:
            return
        heights[rng.choice(candidates)] -= 1


def _alternating(lower: Card, upper: Card) -> bool:
    """``lower`` builds on ``upper`` down in alternating colours (ranks in a row)."""
    return lower.rank + 1 == upper.rank and lower.is_red() != upper.is_red()


def klondike(options: dict[str, Any], rng: random.Random, left: int) -> dict[str, Any]:
    """Foundations built up from the ace; the other cards in the piles, each pile's face-up
    cards a built run on top of any face-down ones, the stock face down, the waste face up."""
    position = _empty("klondike", options)
    piles = position["piles"]
    heights = [13] * 4
    _take_off(rng, heights, left)
    suits = list(Suit)
    rng.shuffle(suits)
    rest: list[Card] = []
    for index, (suit, height) in enumerate(zip(suits, heights, strict=True)):
        piles[f"f{index + 1}"]["up"] = [
            _text(Card.make(Rank(r), suit)) for r in range(1, height + 1)
        ]
        rest += [Card.make(Rank(r), suit) for r in range(height + 1, 14)]
    rng.shuffle(rest)
    places = ["stock", "waste", *(f"t{n}" for n in range(1, 8))]
    held: dict[str, list[Card]] = {name: [] for name in places}
    for card in rest:
        held[rng.choice(places)].append(card)
    piles["stock"]["down"] = [_text(card) for card in held["stock"]]
    piles["waste"]["up"] = [_text(card) for card in held["waste"]]
    for name in places[2:]:
        cards = held[name]
        run = 1
        while run < len(cards) and _alternating(cards[-run], cards[-run - 1]):
            run += 1
        up = rng.randint(1, run) if cards else 0
        piles[name] = {
            "down": [_text(c) for c in cards[: len(cards) - up]],
            "up": [_text(c) for c in cards[len(cards) - up :]],
        }
    passes = position["options"]["passes"]
    position["redeals"] = rng.randrange(3 if passes == "unlimited" else int(passes))
    return position


def napoleon(options: dict[str, Any], rng: random.Random, left: int) -> dict[str, Any]:
    """Eight foundations built up from the ace (the empty ones last); the other cards face up
    in the columns (an ace only among a column's four dealt cards, under another card) and the
    waste (no ace), or face down in the stock."""
    position = _empty("napoleon", options)
    piles = position["piles"]
    heights = [13] * 8
    _take_off(rng, heights, left)
    order = list(range(8))
    rng.shuffle(order)
    order.sort(key=lambda index: heights[index] == 0)
    rest: list[Card] = []
    for place, index in enumerate(order):
        suit = list(Suit)[index % 4]
        cards = [Card.make(Rank(r), suit) for r in range(1, heights[index] + 1)]
        piles[f"f{place + 1}"]["up"] = [_text(card) for card in cards]
        rest += [Card.make(Rank(r), suit) for r in range(heights[index] + 1, 14)]
    rng.shuffle(rest)
    columns: list[list[Card]] = [[] for _ in range(10)]
    stock: list[Card] = []
    waste: list[Card] = []
    aces = [card for card in rest if card.rank == Rank.ACE]
    # Some positions pile most cards on the waste, which gives them back only from its top
    # (with so few cards left they are still won: the walks from them are what they test).
    places: list[list[Card]] = [*columns, stock, *[waste] * rng.choice([1, 1, 12])]
    for card in rest:
        if card.rank != Rank.ACE:
            rng.choice(places).append(card)
    for ace in aces:
        # Under another card among a column's first four, or anywhere in the stock.
        deep = [column for column in columns if 1 <= len(column) <= 4]
        if deep and rng.random() < 0.5:
            column = rng.choice(deep)
            column.insert(rng.randrange(len(column)), ace)
        else:
            stock.insert(rng.randrange(len(stock) + 1), ace)
    piles["stock"]["down"] = [_text(card) for card in stock]
    piles["waste"]["up"] = [_text(card) for card in waste]
    for index, column in enumerate(columns):
        piles[f"t{index + 1}"]["up"] = [_text(card) for card in column]
    return position


def accordion(options: dict[str, Any], rng: random.Random, left: int) -> dict[str, Any]:
    """Up to ``left`` cards in the stock (none with ``dealing=all``) and a row of ``left`` piles
    or so, each pile a card with the cards put under it by the piles that went onto it (built:
    each card matches the one above it)."""
    position = _empty("accordion", options)
    piles = position["piles"]
    deck = [Card.make(rank, suit) for suit in Suit for rank in Rank]
    rng.shuffle(deck)
    stock_size = 0 if position["options"]["dealing"] == "all" else rng.randint(0, left)
    stock, row_cards = deck[:stock_size], deck[stock_size:]
    count = max(1, min(len(row_cards), left))
    row: list[list[Card]] = [[card] for card in row_cards[:count]]
    for card in row_cards[count:]:
        # Under a pile whose bottom card it matches (a pile put onto it), else a new pile.
        fits = [pile for pile in row if pile[0].rank == card.rank or pile[0].suit == card.suit]
        if fits:
            rng.choice(fits).insert(0, card)
        else:
            row.append([card])
    piles["stock"]["down"] = [_text(card) for card in stock]
    for index, pile in enumerate(row):
        piles[f"t{index + 1}"]["up"] = [_text(card) for card in pile]
    return position


def spider(options: dict[str, Any], rng: random.Random, left: int) -> dict[str, Any]:
    """Removed suits on the foundations from f1; the cards of one or two other suits in the
    tableau (face-down cards under a face-up top, no more than the deal gives) and the stock (a
    size a deal can leave)."""
    position = _empty("spider", options)
    piles = position["piles"]
    game_options = position["options"]
    suits = [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS][: game_options["suits"]]
    sets = [suits[index % len(suits)] for index in range(8)]
    rng.shuffle(sets)
    kept = 1 if left <= 15 else 2
    removed, rest_sets = sets[kept:], sets[:kept]
    for index, suit in enumerate(removed):
        cards = [Card.make(Rank(r), suit) for r in range(13, 0, -1)]
        piles[f"f{index + 1}"]["up"] = [_text(card) for card in cards]
    rest = [Card.make(Rank(r), suit) for suit in rest_sets for r in range(1, 14)]
    rng.shuffle(rest)
    layout = game_options["layout"]
    sizes = [size for size in range(104 - layout, -1, -10) if size <= len(rest)] + [0]
    stock_size = rng.choice(sizes)
    stock, tableau = rest[:stock_size], rest[stock_size:]
    columns: list[list[Card]] = [[] for _ in range(10)]
    for card in tableau:
        columns[rng.randrange(10)].append(card)
    piles["stock"]["down"] = [_text(card) for card in stock]
    for index, column in enumerate(columns):
        most = 5 if layout == 54 and index < 4 else 4
        down = rng.randint(0, min(most, max(0, len(column) - 1)))
        if game_options["auto_remove"]:
            while _complete_suit_on_top(column, down):
                rng.shuffle(column)
        piles[f"t{index + 1}"] = {
            "down": [_text(card) for card in column[:down]],
            "up": [_text(card) for card in column[down:]],
        }
    return position


def _complete_suit_on_top(column: list[Card], down: int) -> bool:
    """The face-up cards of ``column`` end in K..A of one suit."""
    up = column[down:]
    if len(up) < 13:
        return False
    top = up[-13:]
    return all(
        card.suit == top[0].suit and card.rank == 13 - index for index, card in enumerate(top)
    )


def canfield(options: dict[str, Any], rng: random.Random, left: int) -> dict[str, Any]:
    """Foundations built up in suit round the corner from a base rank (f1 never empty, the
    empty ones last); a card or none on each tableau pile (none only with the reserve empty),
    the reserve and the waste with no base-rank card on top, the rest in the stock."""
    position = _empty("canfield", options)
    piles = position["piles"]
    base = rng.randint(1, 13)
    heights = [13] * 4
    _take_off(rng, heights, left)
    if max(heights) == 0:
        heights[0] = 1
    order = list(range(4))
    rng.shuffle(order)
    order.sort(key=lambda index: heights[index] == 0)
    rest: list[Card] = []
    for place, index in enumerate(order):
        suit = list(Suit)[index]
        ranks = [(base - 1 + step) % 13 + 1 for step in range(13)]
        piles[f"f{place + 1}"]["up"] = [
            _text(Card.make(Rank(r), suit)) for r in ranks[: heights[index]]
        ]
        rest += [Card.make(Rank(r), suit) for r in ranks[heights[index] :]]
    rng.shuffle(rest)
    bases = [card for card in rest if card.rank == base]
    others = [card for card in rest if card.rank != base]
    reserve = others[: rng.randint(0, min(13, len(others)))]
    others = others[len(reserve) :]
    tableau: list[list[Card]] = [[] for _ in range(4)]
    for column in tableau:
        if others and (reserve or rng.random() < 0.7):
            column.append(others.pop())
    for column in tableau:
        # (The reserve fills a space at once.)
        if not column and reserve:
            column.append(reserve.pop())
    waste = others[: rng.randint(0, len(others))]
    stock = others[len(waste) :] + bases
    rng.shuffle(stock)
    for pile in (reserve, waste):
        # Base-rank cards go up at once from the top; none lies there (they are in the stock).
        assert not pile or pile[-1].rank != base
    piles["reserve"]["up"] = [_text(card) for card in reserve]
    piles["waste"]["up"] = [_text(card) for card in waste]
    piles["stock"]["down"] = [_text(card) for card in stock]
    for index, column in enumerate(tableau):
        piles[f"t{index + 1}"]["up"] = [_text(card) for card in column]
    passes = position["options"]["passes"]
    position["redeals"] = rng.randrange(3 if passes == "unlimited" else int(passes))
    return position


def leonis_own(options: dict[str, Any], rng: random.Random, left: int) -> dict[str, Any]:
    """Each suit's ace foundation built up from the ace and its king foundation down from the
    king (each holding at least its base card); the other cards in piles 1-12 in any order,
    in pile 13 with its kings on top, or face down among the exiles; the hand empty, a redeal
    count drawn at random."""
    position = _empty("leonis-own", options)
    piles = position["piles"]
    heights = [13] * 8
    for _ in range(left):
        # (Each foundation keeps its base card.)
        candidates = [index for index, height in enumerate(heights) if height > 1]
        if not candidates:
            break
        heights[rng.choice(candidates)] -= 1
    rest: list[Card] = []
    for index, suit in enumerate(Suit):
        up = [Card.make(Rank(r), suit) for r in range(1, heights[index] + 1)]
        down = [Card.make(Rank(r), suit) for r in range(13, 13 - heights[index + 4], -1)]
        piles[f"f{index + 1}"]["up"] = [_text(card) for card in up]
        piles[f"f{index + 5}"]["up"] = [_text(card) for card in down]
        # The two packs' cards of the suit, less those on its two foundations.
        counts = dict.fromkeys(range(1, 14), 2)
        for card in up + down:
            counts[card.rank] -= 1
        rest += [Card.make(Rank(r), suit) for r, count in counts.items() for _ in range(count)]
    rng.shuffle(rest)
    places: dict[str, list[Card]] = {f"t{n}": [] for n in range(1, 14)}
    places["exiles"] = []
    for card in rest:
        places[rng.choice(list(places))].append(card)
    spread = places["t13"]
    spread.sort(key=lambda card: card.rank == Rank.KING)
    for name, cards in places.items():
        part = "down" if name == "exiles" else "up"
        piles[name][part] = [_text(card) for card in cards]
    position["redeals"] = rng.randrange(3)
    return position


#: The drawer of each game that has one.
DRAWERS: dict[str, Callable[[dict[str, Any], random.Random, int], dict[str, Any]]] = {
    "klondike": klondike,
    "napoleon": napoleon,
    "accordion": accordion,
    "spider": spider,
    "canfield": canfield,
    "leonis-own": leonis_own,
}
