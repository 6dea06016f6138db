"""Klondike, one test (or a few) per rule of RULES.md's "Klondike" and "End of a game".

Positions are made by hand with the ``make_klondike`` fixture (tests/conftest.py): the piles a
test cares about are written out, every other card goes to the bottom of the stock (or of the
pile named by ``rest``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import patience
from patience import IllegalMove, Move

Make = Callable[..., patience.Game]

CLUBS = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"
DIAMONDS = "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd"
HEARTS = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
SPADES = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"


def piles(game: patience.Game) -> dict[str, dict[str, list[str]]]:
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


def turn_all(game: patience.Game) -> None:
    """Turn the whole stock onto the waste."""
    while piles(game)["stock"]["down"]:
        game.push("stock")


# -- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize("deal", [0, 7, 12345, 2**53 - 1])
def test_deal_seven_piles_of_1_to_7_top_face_up_24_in_stock(deal: int) -> None:
    game = patience.new("klondike", deal=deal)
    layout = piles(game)
    for n in range(1, 8):
        assert len(layout[f"t{n}"]["down"]) == n - 1
        assert len(layout[f"t{n}"]["up"]) == 1
    assert len(layout["stock"]["down"]) == 24
    assert layout["stock"]["up"] == []
    for name in ("waste", "f1", "f2", "f3", "f4"):
        assert layout[name] == {"down": [], "up": []}
    cards = [card for pile in layout.values() for part in pile.values() for card in part]
    assert len(cards) == len(set(cards)) == 52
    assert game.outcome().result == "ongoing"


# -- the tableau -------------------------------------------------------------------------------


def test_tableau_builds_down_in_alternating_colours(make_klondike: Make) -> None:
    game = make_klondike(
        {"t1": "Kd | 6s", "t2": "Kh | 5h", "t3": "Ks | 5c", "t4": "Kc | 4h", "waste": "5d"}
    )
    moves = legal(game)
    assert "t2-t1" in moves  # red 5 on black 6
    assert "waste-t1" in moves  # the waste's card follows the same rule
    assert "t3-t1" not in moves
    assert "t4-t1" not in moves
    assert "t1-t2" not in moves
    refused(game, "t3-t1", r"alternat")  # black 5 on black 6
    refused(game, "t4-t1", r"5c|down|alternat")  # 4 on 6: not one rank lower
    refused(game, "t1-t2", r"down|alternat")  # 6 on 5: up, not down
    game.push("t2-t1")
    assert piles(game)["t1"] == {"down": ["Kd"], "up": ["6s", "5h"]}


def test_part_of_a_run_may_move(make_klondike: Make) -> None:
    game = make_klondike({"t1": "Kc | 9h 8s 7h", "t2": "9d", "t3": "Tc", "t4": "8c"})
    moves = legal(game)
    assert {"t1-t2:2", "t1-t3:3", "t1-t4"} <= moves
    refused(game, "t1-t2:1", r"7h")  # 7h on 9d
    refused(game, "t1-t2:3", r"9h")  # 9h on 9d
    refused(game, "t1-t2:4", r"face-up|face up")  # Kc is face down
    assert game.push("t1-t2:2") == []
    assert piles(game)["t1"] == {"down": ["Kc"], "up": ["9h"]}
    assert piles(game)["t2"] == {"down": [], "up": ["9d", "8s", "7h"]}


def test_only_a_king_with_its_run_fills_a_space(make_klondike: Make) -> None:
    game = make_klondike({"t2": "Qd", "t3": "3d | Ks Qh Jc", "waste": "Kd"})
    moves = legal(game)
    assert "t3-t1:3" in moves
    assert "waste-t1" in moves
    assert not any(m.startswith("t2-t1") for m in moves)
    refused(game, "t2-t1", r"king")
    refused(game, "t3-t1:2", r"king")
    refused(game, "t3-t1:1", r"king")
    assert game.push("t3-t1:3") == [Move.parse("flip(pile=t3,card=3d)")]
    assert piles(game)["t1"] == {"down": [], "up": ["Ks", "Qh", "Jc"]}


def test_a_king_may_move_from_one_space_to_another(make_klondike: Make) -> None:
    # Ruling 3 of docs/rules/klondike.md: the rules allow it and the position changes.
    game = make_klondike({"t1": "Ks"})
    assert "t1-t2" in legal(game)
    game.push("t1-t2")
    assert piles(game)["t2"]["up"] == ["Ks"]


def test_face_down_card_left_on_top_is_turned_up(make_klondike: Make) -> None:
    game = make_klondike({"t3": "Qs | 5h", "t4": "6c"})
    forced = game.push("t3-t4")
    assert forced == [Move.parse("flip(pile=t3,card=Qs)")]
    assert forced[0].text() == "flip(pile=t3,card=Qs)"
    assert piles(game)["t3"] == {"down": [], "up": ["Qs"]}
    assert game.move_stack == [Move.parse("t3-t4")]
    assert game.forced_stack == [forced]
    game.pop()
    assert piles(game)["t3"] == {"down": ["Qs"], "up": ["5h"]}
    assert piles(game)["t4"] == {"down": [], "up": ["6c"]}


def test_card_turned_up_after_a_move_to_a_foundation(make_klondike: Make) -> None:
    game = make_klondike({"t1": "Kd 9c | Ah"})
    assert game.push("t1-f1") == [Move.parse("flip(pile=t1,card=9c)")]
    assert piles(game)["t1"] == {"down": ["Kd"], "up": ["9c"]}


def test_no_turn_when_a_face_up_card_or_nothing_is_left(make_klondike: Make) -> None:
    game = make_klondike({"t1": "Kd | 6s 5h", "t2": "Ah", "t3": "6c"})
    assert game.push("t1-t3") == []
    assert game.push("t2-f1") == []
    assert piles(game)["t2"] == {"down": [], "up": []}


# -- the foundations ---------------------------------------------------------------------------


def test_foundation_starts_with_an_ace(make_klondike: Make) -> None:
    game = make_klondike({"t1": "2c", "t2": "Ac"})
    refused(game, "t1-f1", r"ace")
    game.push("t2-f1")
    game.push("t1-f1")
    assert piles(game)["f1"]["up"] == ["Ac", "2c"]


def test_foundation_builds_up_in_suit(make_klondike: Make) -> None:
    game = make_klondike({"f1": "Ac 2c", "t1": "3d", "t2": "4c", "t3": "3c"})
    refused(game, "t1-f1", r"3c|suit")  # wrong suit
    refused(game, "t2-f1", r"3c|suit")  # wrong rank
    assert "t3-f1" in legal(game)
    game.push("t3-f1")
    game.push("t2-f1")
    assert piles(game)["f1"]["up"] == ["Ac", "2c", "3c", "4c"]


def test_a_king_completes_a_foundation(make_klondike: Make) -> None:
    game = make_klondike({"f1": "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc", "t1": "Kc", "t2": "Ad"})
    game.push("t1-f1")
    refused(game, "t2-f1", r"complete|nothing|ace|K")


def test_an_ace_goes_to_any_empty_foundation(make_klondike: Make) -> None:
    game = make_klondike({"f1": "Ac", "t1": "Ah"})
    moves = legal(game)
    assert {"t1-f2", "t1-f3", "t1-f4"} <= moves
    assert "t1-f1" not in moves


def test_one_card_at_a_time_to_a_foundation(make_klondike: Make) -> None:
    game = make_klondike({"f1": "Ac 2c", "t1": "4d 3c", "waste": "2h"})
    refused(game, "t1-f1:2", r"one at a time|one card")
    assert "t1-f1" in legal(game)


def test_one_card_at_a_time_from_the_waste_to_a_foundation(make_klondike: Make) -> None:
    game = make_klondike({"f1": "Ac", "waste": "3c 2c"})
    refused(game, "waste-f1:2", r"top card|one at a time")
    game.push("waste-f1")
    game.push("waste-f1")
    assert piles(game)["f1"]["up"] == ["Ac", "2c", "3c"]


def test_cards_come_back_from_a_foundation_by_default(make_klondike: Make) -> None:
    game = make_klondike({"f1": "Ac 2c 3c 4c 5c", "t1": "6d"})
    assert game.options["from_foundation"] is True
    assert "f1-t1" in legal(game)
    game.push("f1-t1")
    assert piles(game)["f1"]["up"] == ["Ac", "2c", "3c", "4c"]
    assert piles(game)["t1"]["up"] == ["6d", "5c"]


def test_a_king_comes_back_from_a_foundation_only_to_a_space(make_klondike: Make) -> None:
    game = make_klondike({"f1": CLUBS, "t1": "Qh"})
    moves = legal(game)
    assert "f1-t2" in moves  # t2 is empty
    assert "f1-t1" not in moves


def test_from_foundation_off_keeps_cards_on_the_foundations(make_klondike: Make) -> None:
    game = make_klondike({"f1": "Ac 2c 3c 4c 5c", "t1": "6d"}, from_foundation="off")
    assert not any(m.startswith("f1-") for m in legal(game))
    refused(game, "f1-t1", r"foundation")


def test_a_foundation_card_does_not_move_to_another_foundation(make_klondike: Make) -> None:
    game = make_klondike({"f1": "Ac"})
    assert not any(m.startswith("f1-f") for m in legal(game))
    refused(game, "f1-f2", r"foundation")


# -- the stock and the waste -------------------------------------------------------------------


def test_draw_1_turns_the_top_card_of_the_stock(make_klondike: Make) -> None:
    game = make_klondike({"stock": "9s 5h Jd"}, draw=1)
    game.push("stock")
    assert piles(game)["waste"]["up"] == ["Jd"]
    assert piles(game)["stock"]["down"][-2:] == ["9s", "5h"]
    game.push("stock")
    assert piles(game)["waste"]["up"] == ["Jd", "5h"]


def test_draw_3_puts_the_third_card_turned_on_top(make_klondike: Make) -> None:
    game = make_klondike({"stock": "9s 5h Jd", "t1": "Th", "t2": "6s", "t3": "Qc"}, draw=3)
    assert game.options["draw"] == 3
    game.push("stock")
    assert piles(game)["waste"]["up"] == ["Jd", "5h", "9s"]
    moves = legal(game)
    assert "waste-t1" in moves  # 9s, the top card, is available
    assert "waste-t2" not in moves  # 5h lies under it
    assert "waste-t3" not in moves  # so does Jd
    refused(game, "waste-t2", r"9s")


def test_draw_3_last_packet_may_be_smaller(make_klondike: Make) -> None:
    game = make_klondike({"stock": "4h 9s"}, rest="waste", draw=3)
    game.push("stock")
    assert piles(game)["stock"]["down"] == []
    assert piles(game)["waste"]["up"][-2:] == ["9s", "4h"]
    game = make_klondike({"stock": "4h"}, rest="waste", draw=3)
    game.push("stock")
    assert piles(game)["stock"]["down"] == []
    assert piles(game)["waste"]["up"][-1] == "4h"


def test_an_empty_stock_is_not_turned(make_klondike: Make) -> None:
    game = make_klondike({}, rest="waste")
    refused(game, "stock", r"stock")


def test_recycle_only_when_the_stock_is_empty(make_klondike: Make) -> None:
    game = make_klondike({"stock": "4h 9s", "waste": "2d 3d", "t7": " | Kc"}, rest="t7", draw=3)
    assert "recycle" not in legal(game)
    refused(game, "recycle", r"stock")
    game.push("stock")
    assert piles(game)["waste"]["up"] == ["2d", "3d", "9s", "4h"]
    assert "recycle" in legal(game)
    assert "stock" not in legal(game)
    game.push("recycle")
    # Turned over: the card turned first (2d) is again the stock's top card, turned first.
    assert piles(game)["stock"] == {"down": ["4h", "9s", "3d", "2d"], "up": []}
    assert piles(game)["waste"] == {"down": [], "up": []}
    assert game.position()["redeals"] == 1
    game.push("stock")
    assert piles(game)["waste"]["up"] == ["2d", "3d", "9s"]


def test_recycle_needs_cards_in_the_waste(make_klondike: Make) -> None:
    game = make_klondike({"t7": " | Kc"}, rest="t7")
    refused(game, "recycle", r"waste")


def test_passes_1_forbids_recycling(make_klondike: Make) -> None:
    game = make_klondike({"t1": "2c", "f1": "Ac"}, rest="waste", passes=1)
    assert "recycle" not in legal(game)
    refused(game, "recycle", r"pass")


def test_passes_count_the_recycles_already_made(make_klondike: Make) -> None:
    # With passes=N the waste may be turned over N - 1 times; a position says how many so far.
    assert "recycle" in legal(make_klondike({}, rest="waste", passes=2, redeals=0))
    game = make_klondike({"t1": "Ks"}, rest="waste", passes=2, redeals=1)
    assert "recycle" not in legal(game)
    refused(game, "recycle", r"pass")
    assert "recycle" in legal(make_klondike({}, rest="waste", passes=3, redeals=1))


# The waste, bottom to top (turning order after a recycle with draw=1): the other cards, then
# 4c 9h 3c 9d 2c 9s, with Ac on f1. Each pass plays one club from the waste, each one turned two
# cards earlier than the last: so no position of a pass repeats one of an earlier pass, and
# only the option ``passes`` limits the recycling. (Ks on t1 can always move to a space, so the
# game is not over when the recycling is refused.)
CLUB_PASSES = {"waste": "4c 9h 3c 9d 2c 9s", "f1": "Ac", "t1": "Ks"}


def _passes(game: patience.Game, clubs: str) -> None:
    """For each club: recycle, turn until it is on top of the waste, play it, turn the rest."""
    for club in clubs.split():
        game.push("recycle")
        while piles(game)["waste"]["up"][-1:] != [club]:
            game.push("stock")
        game.push("waste-f1")
        turn_all(game)


def test_passes_2_allows_exactly_one_recycle(make_klondike: Make) -> None:
    game = make_klondike(CLUB_PASSES, rest="waste", draw=1, passes=2)
    _passes(game, "2c")
    assert game.position()["redeals"] == 1
    assert "recycle" not in legal(game)
    message = refused(game, "recycle", r"pass")
    assert "recreate" not in message


def test_passes_3_allows_two_recycles(make_klondike: Make) -> None:
    game = make_klondike(CLUB_PASSES, rest="waste", draw=1, passes=3)
    _passes(game, "2c 3c")
    assert game.position()["redeals"] == 2
    refused(game, "recycle", r"pass")


def test_passes_unlimited_allows_more(make_klondike: Make) -> None:
    game = make_klondike(CLUB_PASSES, rest="waste", draw=1)
    assert game.options["passes"] == "unlimited"
    _passes(game, "2c 3c 4c")
    assert game.position()["redeals"] == 3
    assert "recycle" in legal(game)


def test_only_the_top_card_of_the_waste_moves(make_klondike: Make) -> None:
    game = make_klondike({"waste": "5h 9s", "t1": "6s"})
    assert not any(m.startswith("waste-") for m in legal(game))
    refused(game, "waste-t1", r"9s")
    refused(game, "waste-t1:2", r"top card")


@pytest.mark.parametrize(
    "move", ["t1-waste", "t1-stock", "waste-stock", "f1-waste", "f1-stock", "t2-waste:2"]
)
def test_nothing_is_put_on_the_stock_or_the_waste(make_klondike: Make, move: str) -> None:
    game = make_klondike({"t1": "Kh", "t2": "Qs Jh", "waste": "Qc", "f1": "Ac"})
    refused(game, move, r"stock|waste")


@pytest.mark.parametrize("move", ["stock-t1", "stock-waste", "stock-f1", "stock-t2"])
def test_stock_cards_reach_play_only_through_the_waste(make_klondike: Make, move: str) -> None:
    game = make_klondike({"stock": "Ac Qd", "t1": "Kh"})
    refused(game, move, r"stock")


# -- the end of the game -----------------------------------------------------------------------


def test_won_when_all_52_cards_are_on_the_foundations(make_klondike: Make) -> None:
    game = make_klondike(
        {"f1": CLUBS, "f2": DIAMONDS, "f3": SPADES, "f4": HEARTS.rsplit(" ", 1)[0], "t1": "Kh"}
    )
    assert game.outcome().result == "ongoing"
    game.push("t1-f4")
    outcome = game.outcome()
    assert outcome.result == "won"
    assert outcome.is_over
    assert game.is_over()
    assert outcome.to_json()["result"] == "won"
    assert game.legal_moves() == []
    refused(game, "f4-t1", r"over")
    game.pop()
    assert game.outcome().result == "ongoing"


def test_a_won_position_loads_as_won(make_klondike: Make) -> None:
    game = make_klondike({"f1": CLUBS, "f2": DIAMONDS, "f3": HEARTS, "f4": SPADES})
    assert game.outcome().result == "won"
    assert game.legal_moves() == []


def test_lost_when_no_legal_move_is_left(make_klondike: Make) -> None:
    game = make_klondike(
        {
            "t1": "5c",
            "t2": "7c",
            "t3": "9c",
            "t4": "Jc",
            "t5": "5s",
            "t6": "7s",
            "t7": "9s",
            "waste": "3s",
        },
        rest="waste",
        passes=1,
    )
    assert game.legal_moves() == []
    outcome = game.outcome()
    assert outcome.result == "lost"
    assert "no legal move" in outcome.reason
    refused(game, "waste-t1", r"cannot go on 5c")  # a stuck game still says why


def test_lost_when_the_player_resigns(deal7: patience.Game) -> None:
    deal7.resign()
    assert deal7.outcome().result == "lost"
    assert "resign" in deal7.outcome().reason
    with pytest.raises(IllegalMove):
        deal7.push("stock")


# -- no position may be recreated --------------------------------------------------------------


def test_moving_a_card_back_is_refused_when_it_recreates_a_position(make_klondike: Make) -> None:
    game = make_klondike({"t1": "Qd | 6s 5h", "t2": "Kd | 6c"})
    game.push("t1-t2")
    # The rules of building allow 5h back onto 6s, but that recreates the start position.
    assert Move.parse("t2-t1") in game.rules.candidate_moves(game.state)
    assert "t2-t1" not in legal(game)
    refused(game, "t2-t1", r"position")
    assert not game.is_legal("t2-t1")
    # Once the stock has changed, the same card move makes a new position.
    game.push("stock")
    game.push("t2-t1")
    assert piles(game)["t1"]["up"] == ["6s", "5h"]


def test_after_undo_the_undone_position_may_be_reached_again(make_klondike: Make) -> None:
    game = make_klondike({"t1": "Qd | 6s 5h", "t2": "Kd | 6c"})
    game.push("t1-t2")
    game.pop()
    assert "t1-t2" in legal(game)
    game.push("t1-t2")
    assert piles(game)["t2"]["up"] == ["6c", "5h"]


def test_recycling_into_the_start_position_is_refused(make_klondike: Make) -> None:
    # Only the stock and 4h (onto 5c or 5s, never made) can move; after one pass through the
    # stock, turning the waste over would recreate the start position.
    game = make_klondike(
        {
            "t1": " | 5c",
            "t2": "7c",
            "t3": "9c",
            "t4": "Jc",
            "t5": "5s",
            "t6": "7s",
            "t7": "4h",
            "stock": "3h 3d",
        },
        rest="t1",
        draw=1,
    )
    assert legal(game) == {"stock", "t7-t1", "t7-t5"}
    game.push("stock")
    game.push("stock")
    assert legal(game) == {"t7-t1", "t7-t5"}
    refused(game, "recycle", r"position")


def test_endless_passes_end_in_a_loss(make_klondike: Make) -> None:
    # Nothing but the stock can move; after one pass, turning the waste over would recreate the
    # position of the start, so no legal move is left and the game is lost.
    game = make_klondike(
        {
            "t1": " | 5c",
            "t2": "7c",
            "t3": "9c",
            "t4": "Jc",
            "t5": "5s",
            "t6": "7s",
            "t7": "9s",
            "stock": "3h 3d",
        },
        rest="t1",
        draw=1,
    )
    assert legal(game) == {"stock"}
    game.push("stock")
    assert legal(game) == {"stock"}
    game.push("stock")
    assert legal(game) == set()
    assert game.outcome().result == "lost"
    refused(game, "recycle", r"recreate a position")
    game.pop()
    assert game.outcome().result == "ongoing"


def test_repetition_counts_every_pile_and_facing(make_klondike: Make) -> None:
    # A king moved between two spaces and back recreates the start position.
    game = make_klondike({"t1": "Ks"})
    game.push("t1-t2")
    refused(game, "t2-t1", r"position")
    assert "t2-t3" in legal(game)


# -- illegal moves, undo, redo -----------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        "t1-t2",
        "t7-f1:2",
        "t7-t7",
        "waste-t1",
        "f1-t1",
        "recycle",
        "t9-t1",
        "t1-x",
        "t1-f",
        "flip(pile=t3,card=Js)",
        "stock(n=3)",
        "resign",
        "nonsense",
        "t1-t2:0",
        "",
        {"from": "t7", "to": "f1", "count": 2},
        {"action": "recycle"},
    ],
)
def test_illegal_moves_raise_and_change_nothing(deal7: patience.Game, move: Any) -> None:
    message = refused(deal7, move)
    assert message  # says why
    assert issubclass(IllegalMove, ValueError)


def test_illegal_move_carries_its_reason(deal7: patience.Game) -> None:
    with pytest.raises(IllegalMove) as info:
        deal7.push("t1-t2")
    assert info.value.reason
    assert info.value.reason in str(info.value)


def test_undo_and_redo(deal7: patience.Game) -> None:
    start = deal7.position()
    deal7.push("t7-f1")  # Ac up, 6s turned
    after_one = deal7.position()
    deal7.push("t5-t1")  # 3c on 4d, 2s turned
    after_two = deal7.position()
    assert deal7.pop() == Move.parse("t5-t1")
    assert deal7.position() == after_one
    assert deal7.pop() == Move.parse("t7-f1")
    assert deal7.position() == start
    with pytest.raises(IllegalMove):
        deal7.pop()
    assert deal7.can_redo()
    assert deal7.redo() == Move.parse("t7-f1")
    assert deal7.position() == after_one
    assert deal7.redo() == Move.parse("t5-t1")
    assert deal7.position() == after_two
    assert not deal7.can_redo()
    with pytest.raises(IllegalMove):
        deal7.redo()
    deal7.pop()
    assert deal7.can_redo()
    deal7.push("stock")  # a new move clears what could be redone
    assert not deal7.can_redo()
    with pytest.raises(IllegalMove):
        deal7.redo()


# -- lenient input -----------------------------------------------------------------------------


def test_lenient_foundation_and_count(make_klondike: Make) -> None:
    game = make_klondike({"t1": "Kc | 9h 8s 7h", "t2": "9d", "f1": "Ac", "t3": "2c", "t4": "Ad"})
    game.push("t3-f")
    assert game.move_stack[-1] == Move.cards("t3", "f1")
    game.push("T4-F")
    assert game.move_stack[-1] == Move.cards("t4", "f2")  # f1 holds clubs
    refused(game, "t1-t2:1")  # an explicit count is taken as written
    game.push("t1-t2")
    assert game.move_stack[-1] == Move.cards("t1", "t2", 2)
    assert game.parse_move("t1-t3") == Move.cards("t1", "t3")  # nothing to infer: as written
    refused(game, "t1-f")


def test_push_accepts_json_form(deal7: patience.Game) -> None:
    deal7.push({"from": "t7", "to": "f1"})
    deal7.push('{"action": "stock"}')
    assert deal7.move_stack == [Move.cards("t7", "f1"), Move.act("stock")]


# -- what the player sees ----------------------------------------------------------------------


def test_view_hides_face_down_cards_and_shows_legal_moves(deal7: patience.Game) -> None:
    view = deal7.view()
    assert "deal" not in view
    assert view["seat"] == 0
    assert view["game"] == "klondike"
    assert view["piles"]["stock"] == {"down": [None] * 24, "up": []}
    assert view["piles"]["t7"] == {"down": [None] * 6, "up": ["Ac"]}
    assert view["piles"]["t1"] == {"down": [], "up": ["4d"]}
    assert {"from": "t7", "to": "f1", "count": 1} in view["legal_moves"]
    assert {"action": "stock"} in view["legal_moves"]
    assert view["legal_moves"] == [move.to_json() for move in deal7.legal_moves()]
    assert view["outcome"] == {"result": "ongoing"}
    text = json.dumps(view)
    position = deal7.position()
    hidden = [card for pile in position["piles"].values() for card in pile["down"]]
    assert len(hidden) == 24 + 21
    for card in hidden:
        assert f'"{card}"' not in text


def test_view_after_a_turn_shows_the_turned_card(deal7: patience.Game) -> None:
    deal7.push("t7-f1")
    assert deal7.view()["piles"]["t7"] == {"down": [None] * 5, "up": ["6s"]}


def test_an_empty_stock_points_to_recycle_only_when_the_game_allows_it() -> None:
    game = patience.Game.create(patience.games.get_rules("klondike", {"passes": "unlimited"}), 7)
    while game.state.piles["stock"]:
        game.push("stock")
    # Turning the waste over now would bring back the deal's own position.
    with pytest.raises(IllegalMove) as refused:
        game.push("stock")
    assert refused.value.reason == (
        "the stock is empty, and recycle is not allowed either: "
        "it would recreate a position already reached in this game"
    )
    # Once an ace went up, turning the waste over makes a new position: the message says so.
    game.push("t7-f1")
    with pytest.raises(IllegalMove) as refused:
        game.push("stock")
    assert refused.value.reason == "the stock is empty: turn the waste over with recycle"
    game.push("recycle")


def test_a_move_pushed_before_the_legal_moves_are_listed_is_refused_all_the_same(
    make_klondike: Make,
) -> None:
    # A fresh game has listed nothing: a Move pushed is checked alone (Rules.is_candidate),
    # as a replay of a solver's win does it (text is read against the listed moves; a move
    # refused lists them, so each move is tried on a fresh game).
    with pytest.raises(IllegalMove, match=r"pass"):
        make_klondike({"t1": "2c", "f1": "Ac"}, rest="waste", passes=1).push(Move.act("recycle"))
    piles = {"t1": "Qd | 6s 5h", "t2": "6c"}
    with pytest.raises(IllegalMove, match=r"6s cannot go on 6c"):
        make_klondike(piles, rest="stock").push(Move.cards("t1", "t2", 2))
    assert make_klondike(piles, rest="stock").push(Move.cards("t1", "t2")) == []
