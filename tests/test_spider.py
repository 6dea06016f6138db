"""Spider, one test (or a few) per rule of RULES.md's "Spider" and "End of a game".

Positions are made by hand with :func:`spider_position`: the piles a test cares about are written
out, every other card goes to the bottom of the stock (up to the stock size asked for) and then to
the bottom of pile ``rest``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

import patience
from patience import Card, IllegalMove, Move, OptionError, PositionError, record
from patience.cards import packs
from patience.deals import Shuffler
from patience.games.spider import Spider, SpiderState

TABLEAU = [f"t{n}" for n in range(1, 11)]
FOUNDATIONS = [f"f{n}" for n in range(1, 9)]
PILES = ["stock", *FOUNDATIONS, *TABLEAU]
RANKS = "A23456789TJQK"


def suit_run(suit: str, high: str = "K", low: str = "A") -> str:
    """The cards of one suit from ``high`` down to ``low``, bottom to top: ``"Kh Qh ... Ah"``."""
    ranks = RANKS[RANKS.index(low) : RANKS.index(high) + 1]
    return " ".join(rank + suit for rank in reversed(ranks))


def deck_faces(suits: int) -> list[str]:
    """Every card of the game's 104 as text, in new-pack order within each copy."""
    letters = {4: "cdhs", 2: "hs", 1: "s"}[suits]
    copies = 8 // len(letters)
    return [rank + suit for _ in range(copies) for suit in letters for rank in RANKS]


def spider_position(
    piles: Mapping[str, str],
    *,
    stock: int = 54,
    rest: str = "t10",
    removed: str = "",
    **options: object,
) -> dict[str, Any]:
    """A Spider position JSON built from a few piles written by hand.

    ``piles`` maps tableau pile names to their cards, bottom to top: ``"DOWN | UP"`` or just the
    face-up cards; ``"stock"`` to cards on top of the stock (the last is dealt first).
    ``removed`` lists the suits already on the foundations (``"cd"``: f1 clubs, f2 diamonds).
    The other cards go, in new-pack order, to the bottom of the stock until it holds ``stock``
    cards, then face up to the bottom of pile ``rest``.
    """
    suits = int(str(options.get("suits", 4)))
    down: dict[str, list[str]] = {name: [] for name in PILES}
    up: dict[str, list[str]] = {name: [] for name in PILES}
    for name, text in piles.items():
        assert name in PILES, name
        if "|" in text:
            low, high = text.split("|")
            down[name], up[name] = low.split(), high.split()
        elif name == "stock":
            down[name] = text.split()
        else:
            up[name] = text.split()
    for foundation, suit in zip(FOUNDATIONS, removed, strict=False):
        up[foundation] = suit_run(suit).split()
    leftover = Counter(deck_faces(suits))
    leftover.subtract(card for name in PILES for card in down[name] + up[name])
    assert all(count >= 0 for count in leftover.values()), f"too many: {-leftover}"
    rest_cards = [
        card for card in deck_faces(suits) if leftover[card] > 0 and _take(leftover, card)
    ]
    into_stock = stock - len(down["stock"])
    assert 0 <= into_stock <= len(rest_cards), (stock, len(rest_cards))
    down["stock"] = rest_cards[:into_stock] + down["stock"]
    bottom = rest_cards[into_stock:]
    if bottom and up[rest] and _continues_run(bottom[-1], up[rest][0]):
        bottom[-2], bottom[-1] = bottom[-1], bottom[-2]
    up[rest] = bottom + up[rest]
    return {
        "version": 1,
        "game": "spider",
        "options": dict(options),
        "deal": None,
        "piles": {name: {"down": down[name], "up": up[name]} for name in PILES},
    }


def _take(counter: Counter[str], card: str) -> bool:
    counter[card] -= 1
    return True


def _continues_run(lower: str, upper: str) -> bool:
    """True if ``upper`` lying on ``lower`` would continue a one-suit run."""
    return lower[1] == upper[1] and RANKS.index(lower[0]) == RANKS.index(upper[0]) + 1


def make(piles: Mapping[str, str], **kwargs: Any) -> patience.Game:
    """A game continued from :func:`spider_position`."""
    return patience.Game.from_position(spider_position(piles, **kwargs))


def table(game: patience.Game) -> dict[str, dict[str, list[str]]]:
    return game.position()["piles"]  # type: ignore[no-any-return]


def legal(game: patience.Game) -> set[str]:
    return {move.text() for move in game.legal_moves()}


def refused(game: patience.Game, move: str | dict[str, Any], pattern: str = "") -> str:
    """Push ``move``, expect IllegalMove matching ``pattern``; check nothing changed."""
    before = game.position()
    stack = game.move_stack
    moves = game.legal_moves()
    with pytest.raises(IllegalMove, match=pattern or None) as info:
        game.push(move)
    assert game.position() == before
    assert game.move_stack == stack
    assert game.legal_moves() == moves
    return str(info.value)


#: Ten piles, none empty, tops chosen so that nothing fits anything: aces and kings only.
STILL = {
    "t1": "9c Ac",
    "t2": "9c Ac",
    "t3": "9d Ad",
    "t4": "9d Ad",
    "t5": "9h Ah",
    "t6": "9h Ah",
    "t7": "9s As",
    "t8": "9s As",
    "t9": "Kc",
    "t10": "Kd",
}


# -- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize("deal", [0, 1, 12345, 2**53 - 1])
def test_deal_ten_piles_of_five_four_down_and_a_stock_of_54(deal: int) -> None:
    game = patience.new("spider", deal=deal)
    layout = table(game)
    for name in TABLEAU:
        assert len(layout[name]["down"]) == 4
        assert len(layout[name]["up"]) == 1
    assert len(layout["stock"]["down"]) == 54
    assert layout["stock"]["up"] == []
    for name in FOUNDATIONS:
        assert layout[name] == {"down": [], "up": []}
    cards = Counter(card for pile in layout.values() for part in pile.values() for card in part)
    assert sum(cards.values()) == 104
    assert set(cards.values()) == {2}  # two packs: every card twice
    assert game.outcome().result == "ongoing"


def test_deal_is_row_by_row_left_to_right_and_the_stock_follows() -> None:
    game = patience.new("spider", deal=5)
    cards = [str(card) for card in Shuffler(5).shuffle(packs(2))]
    layout = table(game)
    for column, name in enumerate(TABLEAU):
        pile = layout[name]["down"] + layout[name]["up"]
        assert pile == [cards[row * 10 + column] for row in range(5)]
    # The 51st card is the stock's top card: the first deal puts it on t1.
    assert layout["stock"]["down"][::-1] == cards[50:]
    game.push("stock")
    after = table(game)
    assert [after[name]["up"][-1] for name in TABLEAU] == cards[50:60]


def test_layout_54_piles_one_to_four_get_a_sixth_card_and_the_stock_holds_50() -> None:
    game = patience.new("spider", deal=5, layout=54)
    cards = [str(card) for card in Shuffler(5).shuffle(packs(2))]
    layout = table(game)
    for column, name in enumerate(TABLEAU):
        pile = layout[name]["down"] + layout[name]["up"]
        expected = [cards[row * 10 + column] for row in range(5)]
        if column < 4:
            expected.append(cards[50 + column])
        assert pile == expected
        assert len(layout[name]["down"]) == (5 if column < 4 else 4)
        assert len(layout[name]["up"]) == 1
    assert len(layout["stock"]["down"]) == 50
    assert layout["stock"]["down"][::-1] == cards[54:]


def test_suits_1_is_104_spades_eight_of_each() -> None:
    rules = patience.get_rules("spider", {"suits": 1})
    deck = rules.deck()
    assert len(deck) == len(set(deck)) == 104
    assert [str(card) for card in deck] == deck_faces(1)
    # Starting order: copy 0 of the spades A..K, then copy 1, ... copy 7.
    assert [card.pack for card in deck[::13]] == list(range(8))
    game = patience.new("spider", deal=3, suits=1)
    cards = Counter(
        card for pile in table(game).values() for part in pile.values() for card in part
    )
    assert set(cards) == {rank + "s" for rank in RANKS}
    assert set(cards.values()) == {8}


def test_suits_2_is_hearts_and_spades_four_of_each() -> None:
    rules = patience.get_rules("spider", {"suits": 2})
    deck = rules.deck()
    assert len(deck) == len(set(deck)) == 104
    # Starting order: copy 0 hearts A..K, copy 0 spades A..K, copy 1 hearts, ...
    assert [str(card) for card in deck[:27]] == deck_faces(2)[:27]
    assert [(card.pack, card.suit.letter) for card in deck[::13]] == [
        (copy, suit) for copy in range(4) for suit in "hs"
    ]
    game = patience.new("spider", deal=3, suits=2)
    cards = Counter(
        card for pile in table(game).values() for part in pile.values() for card in part
    )
    assert {card[1] for card in cards} == {"h", "s"}
    assert set(cards.values()) == {4}
    assert len(cards) == 26


def test_suits_4_is_two_plain_packs_and_the_default() -> None:
    assert patience.get_rules("spider").deck() == packs(2)
    assert patience.new("spider", deal=0).options == {
        "layout": 50,
        "auto_remove": True,
        "suits": 4,
    }


@pytest.mark.parametrize(
    ("option", "value"), [("suits", 3), ("layout", 52), ("auto_remove", "maybe")]
)
def test_option_values_outside_the_rules_are_refused(option: str, value: object) -> None:
    with pytest.raises(OptionError, match=option):
        patience.new("spider", deal=0, **{option: value})


def test_same_deal_same_layout_different_suits_different_cards() -> None:
    one = patience.new("spider", deal=9).position()
    assert patience.new("spider", deal=9).position() == one
    assert patience.new("spider", deal=9, suits=2).position()["piles"] != one["piles"]


# -- moving cards ------------------------------------------------------------------------------


def test_seed_example_one_two_or_three_cards_of_a_suit_move_seven_only_after() -> None:
    # The seed: on top 4♥ 5♥ 6♥, then 7♣ (the pile reads 7c 6h 5h 4h, 4h on top).
    position = {"t1": "7c 6h 5h 4h", "t2": "5s", "t3": "6d", "t4": "7s", "t5": "8d"}
    game = make(position)
    moves = legal(game)
    assert {"t1-t2", "t1-t3:2", "t1-t4:3"} <= moves
    assert {"t1-t6", "t1-t6:2", "t1-t6:3"} <= moves  # any group into a space
    assert not {"t1-t5:4", "t1-t6:4"} & moves
    refused(game, "t1-t5:4", r"only the top 3 card\(s\) of t1 form a run down in one suit")
    refused(game, "t1-t6:4", r"only the top 3")
    game.push("t1-t4:3")
    assert table(game)["t4"]["up"][-4:] == ["7s", "6h", "5h", "4h"]
    assert "t1-t5" in legal(game)
    game.push("t1-t5")
    assert table(game)["t5"]["up"][-2:] == ["8d", "7c"]


def test_a_card_goes_onto_a_card_one_rank_higher_of_any_suit() -> None:
    game = make({"t1": "5h", "t2": "6c", "t3": "6d", "t4": "6h", "t5": "6s", "t6": "7h"})
    moves = legal(game)
    assert {"t1-t2", "t1-t3", "t1-t4", "t1-t5"} <= moves
    assert "t1-t6" not in moves
    refused(game, "t1-t6", r"5h cannot go on 7h: a card or group goes onto a card one rank higher")


def test_a_group_goes_onto_any_suit_one_rank_above_its_bottom_card() -> None:
    game = make({"t1": "9d 8s 7s", "t2": "9c", "t3": "9h"})
    assert {"t1-t2:2", "t1-t3:2"} <= legal(game)
    refused(game, "t1-t2:1", r"7s cannot go on 9c")
    game.push("t1-t3:2")
    assert table(game)["t3"]["up"][-3:] == ["9h", "8s", "7s"]


def test_a_group_must_be_one_suit() -> None:
    # 8h 7s 6s: 7s 6s run in one suit, the 8h is of another suit, so 8h 7s 6s is no group.
    game = make({"t1": "8h 7s 6s", "t2": "9c"})
    refused(game, "t1-t2:3", r"only the top 2 card\(s\) of t1")
    assert not any(move.startswith("t1-t2") for move in legal(game))


def test_a_group_descends_by_one() -> None:
    game = make({"t1": "9s 7s 6s", "t2": "Ts"})
    refused(game, "t1-t2:3", r"only the top 2")


def test_a_king_goes_only_into_a_space() -> None:
    game = make({"t1": "Kh", "t2": "Ac", "t3": "Qs", "t4": "Kc"})
    moves = legal(game)
    assert {"t1-t5", "t1-t6"} <= moves
    assert not {"t1-t2", "t1-t3", "t1-t4"} & moves
    refused(game, "t1-t2", r"a king goes only into a space")
    refused(game, "t1-t4", r"a king goes only into a space")


def test_nothing_goes_onto_an_ace_and_there_is_no_wrap_around() -> None:
    game = make({"t1": "Ac", "t2": "Kd", "t3": "2h", "t4": "Qs", "t5": "Ad"})
    moves = legal(game)
    assert "t2-t1" not in moves  # no K on A
    assert "t1-t2" not in moves  # no A on K
    assert "t3-t1" not in moves
    assert "t1-t3" in moves  # an ace on a two is fine
    refused(game, "t4-t1", r"nothing goes onto an ace")
    refused(game, "t3-t1", r"nothing goes onto an ace")
    refused(game, "t2-t1", r"king|ace")
    refused(game, "t1-t2", r"Ac cannot go on Kd")
    refused(game, "t5-t1", r"nothing goes onto an ace")


def test_any_card_or_group_goes_into_a_space() -> None:
    game = make({"t1": "Kh | 3d", "t2": "9h 5s 4s 3s 2s", "t3": "5c"})
    moves = legal(game)
    for count in range(1, 5):
        suffix = f":{count}" if count > 1 else ""
        assert f"t2-t4{suffix}" in moves
    assert "t2-t4:5" not in moves
    assert "t1-t4" in moves


def test_face_down_cards_never_move() -> None:
    game = make({"t1": "Qd 7s | 6s", "t2": "8c"})
    refused(game, "t1-t2:2", r"t1 has only 1 face-up card")


def test_a_face_down_card_left_on_top_is_turned_up_and_undo_turns_it_back() -> None:
    game = make({"t1": "Qd 7s | 6s 5h", "t2": "6c"})
    forced = game.push("t1-t2")
    assert forced == []
    forced = game.push("t1-t3")  # 6s into a space
    assert forced == [Move.parse("flip(pile=t1,card=7s)")]
    assert table(game)["t1"] == {"down": ["Qd"], "up": ["7s"]}
    assert game.forced_stack == [[], forced]
    game.pop()
    assert table(game)["t1"] == {"down": ["Qd", "7s"], "up": ["6s"]}


# -- the stock ---------------------------------------------------------------------------------


def test_stock_deals_one_card_face_up_onto_each_pile_left_to_right() -> None:
    game = patience.new("spider", deal=1)
    before = table(game)
    stock = before["stock"]["down"]
    assert game.push("stock") == []
    after = table(game)
    for index, name in enumerate(TABLEAU):
        assert after[name]["down"] == before[name]["down"]
        assert after[name]["up"] == [*before[name]["up"], stock[-1 - index]]
    assert after["stock"]["down"] == stock[:-10]


def test_stock_sizes_54_and_50_and_the_final_deal_of_four() -> None:
    game = patience.new("spider", deal=2)
    sizes = [len(table(game)["stock"]["down"])]
    for _ in range(6):
        lengths = [len(table(game)[name]["up"]) for name in TABLEAU]
        game.push("stock")
        sizes.append(len(table(game)["stock"]["down"]))
    assert sizes == [54, 44, 34, 24, 14, 4, 0]
    # The last deal went onto piles 1-4 only.
    assert [len(table(game)[name]["up"]) for name in TABLEAU] == [
        count + (1 if index < 4 else 0) for index, count in enumerate(lengths)
    ]
    assert "stock" not in legal(game)
    refused(game, "stock", r"the stock is empty")

    game = patience.new("spider", deal=2, layout=54)
    sizes = [len(table(game)["stock"]["down"])]
    for _ in range(5):
        game.push("stock")
        sizes.append(len(table(game)["stock"]["down"]))
        assert all(len(table(game)[name]["up"]) >= 1 for name in TABLEAU)
    assert sizes == [50, 40, 30, 20, 10, 0]


def test_no_deal_while_a_pile_is_empty() -> None:
    game = make({"t1": "7c 6h 5h 4h", "t2": "5s"})
    refused(game, "stock", r"allowed only when no pile is empty: fill t3, t4, t5, t6, t7, t8, t9")
    assert "stock" not in legal(game)


def test_deal_allowed_when_no_pile_is_empty() -> None:
    game = make(STILL, stock=44)
    assert legal(game) == {"stock"}


def test_deal_allowed_with_fewer_than_ten_cards_in_the_tableau_then_the_final_four() -> None:
    # Seven suits are off, four cards are in the stock: nine cards are left for the ten piles.
    game = make(
        {"stock": "Qs Js Ts 9s", "t1": "Ks", "t2": "8s 7s", "t3": "6s 5s 4s", "t4": "3s 2s As"},
        removed="cdhscdh",
        stock=4,
    )
    assert "stock" in legal(game)
    game.push("stock")
    layout = table(game)
    assert layout["t1"]["up"] == ["Ks", "9s"]
    assert layout["t2"]["up"] == ["8s", "7s", "Ts"]
    assert layout["t3"]["up"] == ["6s", "5s", "4s", "Js"]
    assert layout["t4"]["up"] == ["3s", "2s", "As", "Qs"]
    assert all(layout[name] == {"down": [], "up": []} for name in TABLEAU[4:])
    assert layout["stock"]["down"] == []


def test_with_ten_or_more_cards_in_the_tableau_the_spaces_must_be_filled_first() -> None:
    # Six suits are off and 14 cards are in the stock: twelve cards for the ten piles.
    game = make(
        {"t1": "Kh Qh Jh", "t2": "Th 9h 8h", "t3": "7h 6h", "t4": "Ks Qs Js Ts"},
        removed="cdhscd",
        stock=14,
    )
    assert sum(len(table(game)[name]["up"]) for name in TABLEAU) == 12
    assert "stock" not in legal(game)
    refused(game, "stock", r"no pile is empty: fill t5, t6, t7, t8, t9, t10 first")


# -- removing complete suits -------------------------------------------------------------------


def test_a_completed_suit_is_removed_by_itself_then_the_card_under_it_turned_up() -> None:
    game = make({"t1": f"9c 4d | {suit_run('h', 'K', '2')}", "t2": "Qs | Ah", "t3": "Ks"})
    forced = game.push("t2-t1")
    assert forced == [
        Move.parse("flip(pile=t2,card=Qs)"),
        Move.parse("t1-f1:13"),
        Move.parse("flip(pile=t1,card=4d)"),
    ]
    layout = table(game)
    assert layout["f1"]["up"] == suit_run("h").split()
    assert layout["t1"] == {"down": ["9c"], "up": ["4d"]}
    game.pop()
    assert table(game)["f1"]["up"] == []
    assert table(game)["t1"]["up"] == suit_run("h", "K", "2").split()


def test_a_group_completing_a_suit_removes_it_to_the_next_foundation() -> None:
    game = make(
        {"t1": f"5c | {suit_run('d', 'K', '6')}", "t2": "9h 5d 4d 3d 2d Ad"},
        removed="s",
    )
    assert game.push("t2-t1:5") == [Move.parse("t1-f2:13"), Move.parse("flip(pile=t1,card=5c)")]
    assert table(game)["f2"]["up"] == suit_run("d").split()
    assert table(game)["f1"]["up"] == suit_run("s").split()


def test_a_suit_completed_by_the_stock_deal_is_removed() -> None:
    others = ("5h", "5d", "5s", "6h", "6d", "6s", "7h", "7d", "7s")
    position = dict(zip(TABLEAU[1:], others, strict=True))
    # The stock's top card goes onto t1 and completes its clubs.
    game = make({"stock": "Ac", "t1": f"Kd | {suit_run('c', 'K', '2')}", **position}, stock=44)
    forced = game.push("stock")
    assert forced == [Move.parse("t1-f1:13"), Move.parse("flip(pile=t1,card=Kd)")]
    assert table(game)["f1"]["up"] == suit_run("c").split()


def test_a_run_king_to_ace_of_two_suits_is_not_removed() -> None:
    game = make({"t1": f"4d | {suit_run('h', 'K', '2')}", "t2": "5c As"})
    assert game.push("t2-t1") == []
    assert table(game)["t1"]["up"][-13:] == [*suit_run("h", "K", "2").split(), "As"]
    assert table(game)["f1"]["up"] == []


def test_removal_is_a_player_move_with_auto_remove_off() -> None:
    position = {"t1": f"9c 4d | {suit_run('h')}", "t2": "Qs 5s"}
    game = make(position, auto_remove=False, removed="c")
    assert "t1-f2:13" in legal(game)
    refused(game, "t1-f3:13", r"in order: the next one is f2")
    refused(game, "t1-f2:12", r"complete suit")
    refused(game, "t2-f2", r"complete suit")
    # The engine's "any foundation" leniency looks for one card, not a suit of 13.
    refused(game, "t1-f", r"no foundation takes the top card of t1")
    assert game.push("t1-f2") == [Move.parse("flip(pile=t1,card=4d)")]  # count filled in
    assert game.move_stack == [Move.parse("t1-f2:13")]
    assert table(game)["f2"]["up"] == suit_run("h").split()


def test_with_auto_remove_off_a_completed_suit_stays_until_the_player_removes_it() -> None:
    game = make({"t1": f"9c 4d | {suit_run('h', 'K', '2')}", "t2": "Qs | Ah"}, auto_remove=False)
    assert game.push("t2-t1") == [Move.parse("flip(pile=t2,card=Qs)")]
    assert table(game)["t1"]["up"][-13:] == suit_run("h").split()
    assert "t1-f1:13" in legal(game)
    assert "t1-t3:13" in legal(game)  # the player may keep building with it instead


def test_with_auto_remove_on_nothing_is_moved_to_a_foundation_by_the_player() -> None:
    game = make({"t1": "5c"})
    refused(game, "t1-f1", r"removed by themselves \(auto_remove=on\)")
    refused(game, "t1-f1:13", r"removed by themselves \(auto_remove=on\)")


def test_foundations_are_out_of_play() -> None:
    game = make({"t1": "5c"}, removed="h")
    refused(game, "f1-t2:13", r"removed from play")
    refused(game, "f1-t2", r"removed from play")


# -- the end -----------------------------------------------------------------------------------


def test_won_when_all_eight_suits_are_removed() -> None:
    game = make(
        {"t1": f"{suit_run('s', 'K', '2')}", "t2": "As"},
        removed="cdhcdhs",
        stock=0,
    )
    assert game.outcome().result == "ongoing"
    forced = game.push("t2-t1")
    assert forced == [Move.parse("t1-f8:13")]
    outcome = game.outcome()
    assert (outcome.result, outcome.reason) == ("won", "all eight suits are removed")
    assert game.legal_moves() == []
    refused(game, "stock", r"the game is over")


def test_won_with_auto_remove_off_by_the_players_last_removal() -> None:
    game = make({"t1": suit_run("s")}, removed="cdhcdhs", stock=0, auto_remove=False)
    assert legal(game) >= {"t1-f8:13"}
    game.push("t1-f8:13")
    assert game.outcome().result == "won"


def test_lost_when_no_legal_move_is_left() -> None:
    game = make(STILL, stock=0)
    assert game.legal_moves() == []
    outcome = game.outcome()
    assert (outcome.result, outcome.reason) == ("lost", "no legal move left")


def test_no_position_may_be_repeated() -> None:
    game = make({"t1": "Kc", "t2": "Qd", "t3": "Kh"})
    game.push("t2-t1")
    # The queen back into the space t2 would recreate the starting position.
    assert "t1-t2" not in legal(game)
    refused(game, "t1-t2", r"recreate a position")
    assert "t1-t3" in legal(game)


def test_two_copies_of_a_card_are_the_same_card_for_repetition() -> None:
    rules = Spider()
    state = rules.deal(0)
    swapped = state.copy()
    pile = swapped.piles["t1"]
    first = pile[-1]
    other = Card(first % 52 + 52 if first < 52 else first - 52)
    where = next(name for name in PILES if other in swapped.piles[name])
    spot = swapped.piles[where].index(other)
    pile[-1], swapped.piles[where][spot] = other, first
    swapped.refresh()
    assert swapped.piles != state.piles
    assert rules.key(swapped) == rules.key(state)


# -- wrong moves -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "pattern"),
    [
        ("t1-t11", r"spider has no pile 't11'"),
        ("waste-t1", r"spider has no pile 'waste'"),
        ("t1-t1", r"two different piles"),
        ("stock-t1", r"dealt onto the piles with the move stock"),
        ("t1-stock", r"no card may be put on the stock"),
        ("t5-t1", r"t5 is empty"),
        ("recycle", r"spider has no action 'recycle'; its actions are stock"),
        ("stock(count=2)", r"stock takes no arguments"),
    ],
)
def test_illegal_moves_are_refused_with_the_reason(move: str, pattern: str) -> None:
    game = make({"t1": "5c", "t2": "6d"})
    refused(game, move, pattern)


# -- positions and views -----------------------------------------------------------------------


def test_position_json_round_trip_continues_the_game() -> None:
    game = patience.new("spider", deal=11, suits=2, layout=54)
    for move in ("stock", "stock"):
        game.push(move)
    data = json.loads(json.dumps(game.position()))
    again = patience.Game.from_position(data)
    assert again.position() == game.position()
    assert again.legal_moves() == game.legal_moves()


def test_view_hides_the_stock_and_face_down_cards() -> None:
    game = patience.new("spider", deal=4)
    view = game.view()
    assert view["piles"]["stock"] == {"down": [None] * 54, "up": []}
    for name in TABLEAU:
        assert view["piles"][name]["down"] == [None] * 4
        assert view["piles"][name]["up"] == table(game)[name]["up"]
    assert "deal" not in view
    assert {"action": "stock"} in view["legal_moves"]


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        (lambda d: d["piles"]["t1"]["up"].pop(), r"all 104 cards, not 103"),
        (lambda d: d["piles"]["stock"].update(up=[d["piles"]["stock"]["down"].pop()]), r"face d"),
        (lambda d: _move_card(d, "stock", "t1"), r"a stock of 53 cards cannot happen"),
        (lambda d: d["piles"]["f1"].update(down=d["piles"]["f1"].pop("up")), r"f1 pile lies"),
        (lambda d: d["piles"]["f1"]["up"].reverse(), r"f1 must hold one complete suit"),
        (lambda d: d["piles"].update(f2=d["piles"]["f1"], f1=d["piles"]["f2"]), r"in order"),
        (lambda d: d["piles"]["t2"].update(down=["Qs", "5s"], up=[]), r"top card of t2"),
        (lambda d: _bury(d, "t1", 5), r"t1 has 5 face-down cards; with layout=50 it starts"),
    ],
)
def test_impossible_positions_are_refused(change: Any, pattern: str) -> None:
    data = spider_position({"t1": "Qd | 5c", "t2": "Qs 5s"}, removed="h")
    patience.Game.from_position(data)  # the unchanged position is fine
    change(data)
    with pytest.raises(PositionError, match=pattern):
        patience.Game.from_position(data)


def _move_card(data: dict[str, Any], source: str, target: str) -> None:
    card = data["piles"][source]["down"].pop()
    data["piles"][target]["up"].append(card)


def _bury(data: dict[str, Any], pile: str, count: int) -> None:
    cards = data["piles"][pile]["down"] + data["piles"][pile]["up"]
    rest = data["piles"]["t10"]["up"]
    while len(cards) < count + 1:
        cards.insert(0, rest.pop(0))
    data["piles"][pile] = {"down": cards[:count], "up": cards[count:]}


def test_layout_54_allows_five_face_down_cards_on_piles_one_to_four() -> None:
    data = spider_position({"t1": "Qd 4c 7h 8h 9h | 5c", "t5": "Qs 4c 7h 8h 9h | 5c"}, stock=50)
    data["options"] = {"layout": 54}
    with pytest.raises(PositionError, match=r"t5 has 5 face-down cards; with layout=54"):
        patience.Game.from_position(data)
    data["piles"]["t5"] = {"down": ["Qs", "4c", "7h", "8h"], "up": ["9h", "5c"]}
    patience.Game.from_position(data)


def test_a_complete_suit_on_top_is_impossible_with_auto_remove_on() -> None:
    data = spider_position({"t1": suit_run("h")}, auto_remove=False)
    patience.Game.from_position(data)
    data["options"] = {}
    with pytest.raises(PositionError, match=r"auto_remove=on would have removed"):
        patience.Game.from_position(data)


def test_suits_1_positions_hold_eight_copies_of_each_spade() -> None:
    game = make({"t1": "Ks Qs", "t2": "Ks Qs", "t3": "Ks"}, suits=1)
    assert "t2-t3" in legal(game)
    data = game.position()
    data["piles"]["t4"] = {"down": [], "up": ["Ah"]}
    with pytest.raises(PositionError, match=r"Ah appears more often"):
        patience.Game.from_position(data)


# -- records and random play -------------------------------------------------------------------


def test_a_record_replays_with_the_forced_moves() -> None:
    game = make({"t1": f"9c 4d | {suit_run('h', 'K', '2')}", "t2": "Qs | Ah", "t3": "Ks"})
    game.push("t2-t1")
    text = record.dumps(game)
    assert "{flip(pile=t2,card=Qs) t1-f1:13 flip(pile=t1,card=4d)}" in text
    assert record.loads(text).position() == game.position()


@pytest.mark.parametrize(
    "options", [{}, {"suits": 1}, {"suits": 2, "layout": 54, "auto_remove": False}]
)
def test_random_play_keeps_every_card_and_the_cached_faces(options: dict[str, object]) -> None:
    rng = random.Random(7)
    rules = patience.get_rules("spider", options)
    deck = Counter(card.face for card in rules.deck())
    for deal in range(3):
        game = patience.new("spider", deal=deal, **options)
        for _ in range(150):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
            state = game.state
            assert isinstance(state, SpiderState)
            assert Counter(card.face for card in state.all_cards()) == deck
            assert len(set(state.all_cards())) == 104
            fresh = state.copy()
            fresh.refresh()
            assert fresh.faces == state.faces
            for name in TABLEAU:
                cards = state.piles[name]
                assert not cards or state.down[name] < len(cards)


def test_a_move_pushed_before_the_legal_moves_are_listed_is_refused_all_the_same() -> None:
    # A fresh game has listed nothing: a Move pushed is checked alone (Rules.is_candidate),
    # as a replay of a solver's win does it (text is read against the listed moves; a move
    # refused lists them, so each move is tried on a fresh game).
    piles = {"t1": "Kc 8h 7c 6h 5h 4h", "t2": "5s", "t3": "9d"}
    refused: dict[Move, str | None] = {
        Move.act("stock"): r"no pile is empty",
        Move.cards("t1", "t2", 2): None,
        Move.cards("t1", "t3", 5): None,  # the 8h that 9d takes lies under the 7c
    }
    for move, reason in refused.items():
        with pytest.raises(IllegalMove, match=reason):
            make(piles).push(move)
    assert make(piles).push(Move.cards("t1", "t2")) == []
