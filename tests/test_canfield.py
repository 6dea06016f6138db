"""Canfield, rule by rule, from RULES.md's "Canfield" section and docs/rules/canfield.md.

Hand-made positions are written pile by pile (cards bottom to top); every card not named goes to
the bottom of the stock (or of the pile named by ``rest``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import patience
from patience import Game, IllegalMove, Move, PositionError
from patience.cards import Card
from patience.deals import first_cards
from patience.games.canfield import Canfield
from patience.options import OptionError

PILES = ("stock", "waste", "reserve", "f1", "f2", "f3", "f4", "t1", "t2", "t3", "t4")
ONE_PACK = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]
RANKS = "A23456789TJQK"


def climb(start: str, count: int) -> str:
    """``count`` cards of one suit going up round the corner from ``start``: climb("Qs", 3) is
    "Qs Ks As"."""
    rank, suit = RANKS.index(start[0]), start[1]
    return " ".join(RANKS[(rank + step) % 13] + suit for step in range(count))


def position(
    piles: Mapping[str, str], rest: str = "stock", redeals: int = 0, **options: object
) -> dict[str, Any]:
    """A Canfield position JSON; cards not named go, in new-pack order, under pile ``rest``."""
    cards = {name: piles.get(name, "").split() for name in PILES}
    used = [card for name in PILES for card in cards[name]]
    assert len(used) == len(set(used)), f"a card is given twice: {sorted(used)}"
    assert all(card in ONE_PACK for card in used), used
    cards[rest] = [card for card in ONE_PACK if card not in used] + cards[rest]
    return {
        "version": 1,
        "game": "canfield",
        "options": dict(options),
        "deal": None,
        "piles": {
            name: {"down": cards[name], "up": []}
            if name == "stock"
            else {"down": [], "up": cards[name]}
            for name in PILES
        },
        "redeals": redeals,
    }


def load(piles: Mapping[str, str], rest: str = "stock", **options: object) -> Game:
    """A game continued from :func:`position`."""
    return Game.from_position(position(piles, rest, 0, **options))


def pile(game: Game, name: str) -> list[str]:
    """A pile's cards, bottom to top, as text."""
    return [str(card) for card in game.state.piles[name]]


def moves(game: Game) -> list[str]:
    """The legal moves as text."""
    return [move.text() for move in game.legal_moves()]


def refused(game: Game, move: str, reason: str) -> None:
    """``move`` is refused with a message containing ``reason`` and the game is unchanged."""
    before = game.position()
    with pytest.raises(IllegalMove) as error:
        game.push(move)
    assert reason in str(error.value)
    assert game.position() == before


#: Base Q. t1 holds a two-card pile; its top card 8h may go to f1 (hearts up to 7h).
MOVE_LAYOUT = {
    "f1": climb("Qh", 9),
    "f2": "Qs",
    "f3": "Qd",
    "f4": "Qc",
    "t1": "9c 8h",
    "t2": "Td",
    "t3": "9s",
    "t4": "5c",
    "reserve": "Ks 3c 4d",
}

#: MOVE_LAYOUT with f4 still empty and its base card Qs under the reserve's top card 4d.
RESERVE_BASE_LAYOUT = {**MOVE_LAYOUT, "f2": "Qd", "f3": "Qc", "f4": "", "reserve": "Ks Qs 4d"}

#: Base Q, the reserve empty, t1 a space; the waste's top card is 8d, the stock's top card 2c.
SPACE_LAYOUT = {
    "f1": climb("Qh", 13),
    "f2": climb("Qs", 9),
    "f3": "Qd",
    "f4": "Qc",
    "t2": "5c",
    "t3": "9s",
    "t4": "Jd",
    "waste": "3d 8d",
    "stock": "2c",
}


# -- the deal ----------------------------------------------------------------------------------


def test_deal_follows_the_dealing_order() -> None:
    # Deal 2 needs no forced move: cards 1-13 the reserve (card 1 on top), card 14 the first
    # foundation, 15-18 the tableau, 19-52 the stock with card 19 on top.
    cards = first_cards(2)
    game = patience.new("canfield", deal=2)
    assert pile(game, "reserve") == cards[:13][::-1]
    assert pile(game, "f1") == [cards[13]]
    assert [pile(game, name) for name in ("t1", "t2", "t3", "t4")] == [[c] for c in cards[14:18]]
    assert pile(game, "stock") == cards[18:][::-1]
    assert game.state.down["stock"] == 34
    assert game.state.down["reserve"] == 0
    assert pile(game, "waste") == []
    assert all(pile(game, f) == [] for f in ("f2", "f3", "f4"))


def test_base_rank_is_the_rank_of_the_fourteenth_card() -> None:
    state = Canfield().deal(2)
    assert Canfield.base_rank(state) == Card.parse(first_cards(2)[13]).rank


def test_deal_base_cards_go_up_before_spaces_are_filled_left_to_right_repeatedly() -> None:
    # Deal 2941: base 6 (6s); t2 = 6d and t4 = 6c are base cards; reserve: Ac on top, 6h next.
    cards = first_cards(2941)
    assert (cards[13], cards[15], cards[17], cards[0], cards[1]) == ("6s", "6d", "6c", "Ac", "6h")
    rules = Canfield()
    state, forced = rules.start(2941)
    assert [move.text() for move in forced] == [
        "t2-f2",  # base cards first, t1..t4 in order
        "t4-f3",
        "reserve-t2",  # then the leftmost space
        "reserve-f4",  # the uncovered 6h goes up before the next space is filled
        "reserve-t4",
    ]
    assert [str(c) for c in state.piles["t2"]] == ["Ac"]
    assert [str(c) for c in state.piles["t4"]] == [cards[2]]
    assert [str(state.piles[f][0]) for f in ("f1", "f2", "f3", "f4")] == ["6s", "6d", "6c", "6h"]
    game = patience.new("canfield", deal=2941)
    assert game.position()["piles"] == rules.position_json(state, 2941)["piles"]
    assert game.opening == forced


def test_forced_moves_of_the_deal_are_written_to_the_record_and_checked() -> None:
    from patience import record

    text = record.dumps(patience.new("canfield", deal=2941))
    assert "{t2-f2 t4-f3 reserve-t2 reserve-f4 reserve-t4}" in text
    assert record.loads(text).opening == patience.new("canfield", deal=2941).opening
    tampered = text.replace("{t2-f2 t4-f3", "{t4-f3 t2-f2")
    with pytest.raises(record.RecordError, match="forced moves of the deal do not match"):
        record.loads(tampered)


def test_deal_reserve_base_card_goes_up_before_a_tableau_one() -> None:
    # Deal 14: base 8 (8c); the reserve's top card 8s and t3 = 8d are both available at once.
    state, forced = Canfield().start(14)
    assert [move.text() for move in forced] == ["reserve-f2", "t3-f3", "reserve-t3"]
    assert [str(state.piles[f][0]) for f in ("f1", "f2", "f3")] == ["8c", "8s", "8d"]


def test_deal_three_base_cards_on_top_of_the_reserve() -> None:
    state, forced = Canfield().start(354)
    assert [move.text() for move in forced] == ["reserve-f2", "reserve-f3", "reserve-f4"]
    assert len(state.piles["reserve"]) == 10


# -- foundations -----------------------------------------------------------------------------


def test_queen_base_builds_q_k_a_2_to_j_round_the_corner() -> None:
    game = load(
        {
            "f1": "Qs",
            "f2": climb("Qh", 13),
            "f3": climb("Qd", 13),
            "f4": "Qc",
            # The waste holds the spades with Ks on top, then As, 2s, ... Js at the bottom.
            "waste": " ".join(reversed(climb("Ks", 12).split())),
        }
    )
    for _ in range(12):
        game.push("waste-f1")
    assert " ".join(pile(game, "f1")) == "Qs Ks As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js"


def test_foundation_refuses_a_card_out_of_turn() -> None:
    layout = {
        "f1": "Qs",
        "f2": climb("Qd", 13),
        "f3": climb("Qc", 13),
        "f4": "Qh",
        "t1": "As",
        "t2": "Ks",
        "t3": "Kh",
        "t4": "2s",
        "reserve": "5h",
    }
    game = load(layout)
    refused(game, "t1-f1", "As cannot go on f1: it takes the Ks")
    refused(game, "t3-f1", "Kh cannot go on f1: it takes the Ks")
    assert [move.text() for move in game.push("t2-f1")] == ["reserve-t2"]
    game.push("t1-f1")  # round the corner: A after K
    assert pile(game, "f1") == ["Qs", "Ks", "As"]


def test_a_complete_foundation_takes_nothing() -> None:
    game = load(
        {
            "f1": climb("Qs", 13),
            "f2": "Qh",
            "t1": "Kh",
            "t2": "3c",
            "t3": "3d",
            "t4": "3h",
            "reserve": "5c",
        },
        rest="waste",
    )
    assert "t1-f1" not in moves(game)
    game.push("t1-f2")
    assert pile(game, "f2") == ["Qh", "Kh"]


def test_base_cards_go_up_to_the_first_empty_foundation_from_the_reserve() -> None:
    # Playing the reserve's 4d uncovers the base card Qs: it goes up at once, to f2.
    game = load(
        {
            "f1": climb("Qh", 13),
            "t1": "5c",
            "t2": "Td",
            "t3": "9s",
            "t4": "8d",
            "reserve": "3c Qs 4d",
        }
    )
    forced = game.push("reserve-t1")
    assert [move.text() for move in forced] == ["reserve-f2"]
    assert pile(game, "f2") == ["Qs"]
    assert pile(game, "reserve") == ["3c"]


def test_base_card_turned_onto_the_waste_goes_up() -> None:
    # Deal 1 (base 2): the stock's top card is 2c.
    game = patience.new("canfield", deal=1, draw=1)
    assert first_cards(1)[18] == "2c"
    assert [move.text() for move in game.push("stock")] == ["waste-f2"]
    assert pile(game, "f2") == ["2c"]
    assert pile(game, "waste") == []


def test_each_uncovered_base_card_of_the_waste_goes_up_in_turn() -> None:
    game = load(
        {
            "f1": climb("Qh", 13),
            "t1": "5c",
            "t2": "Td",
            "t3": "9s",
            "t4": "8d",
            "reserve": "3c 4d",
            "stock": "Qc Qs 7s",
        },
        draw=3,
    )
    # Turned one by one: 7s, Qs, Qc, so Qc lies on top with Qs under it.
    assert [move.text() for move in game.push("stock")] == ["waste-f2", "waste-f3"]
    assert pile(game, "f2") == ["Qc"]
    assert pile(game, "f3") == ["Qs"]
    assert pile(game, "waste")[-1] == "7s"


def test_cards_do_not_come_back_from_a_foundation() -> None:
    game = load(MOVE_LAYOUT)
    assert not any(move.startswith("f") for move in moves(game))
    refused(game, "f1-t2", "cards do not come back from a foundation")


# -- the tableau -------------------------------------------------------------------------------


def test_tableau_builds_down_in_alternating_colours_8h_on_9c_or_9s() -> None:
    layout = {
        "f1": climb("Kc", 8),
        "f2": climb("Kd", 8),
        "f3": climb("Kh", 7),
        "f4": climb("Ks", 8),
        "t1": "9c",
        "t2": "9s",
        "t3": "9d",
        "t4": "9h",
        "waste": "8h",
    }
    game = load(layout)
    legal = moves(game)
    assert "waste-t1" in legal
    assert "waste-t2" in legal
    assert "waste-t3" not in legal
    assert "waste-t4" not in legal
    refused(game, "waste-t3", "8h cannot go on 9d: the tableau builds down in alternating colours")
    refused(game, "waste-t4", "8h cannot go on 9h")
    game.push("waste-t2")
    assert pile(game, "t2") == ["9s", "8h"]
    game.pop()
    game.push("waste-t1")
    assert pile(game, "t1") == ["9c", "8h"]


def test_tableau_refuses_a_wrong_rank() -> None:
    game = load(
        {
            "f1": climb("Kc", 8),
            "f2": climb("Kd", 8),
            "f3": climb("Kh", 7),
            "f4": climb("Ks", 8),
            "t1": "Tc",
            "t2": "9s",
            "t3": "9d",
            "t4": "9h",
            "waste": "8h",
        }
    )
    refused(game, "waste-t1", "8h cannot go on Tc")


def test_king_goes_on_ace_round_the_corner() -> None:
    game = load(
        {
            "f1": climb("7c", 6),
            "f2": climb("7d", 6),
            "f3": "7h",
            "f4": "7s",
            "t1": "Ac",
            "t2": "Ah",
            "t3": "5s",
            "t4": "5d",
            "waste": "Kh Ks",
        }
    )
    assert "waste-t2" in moves(game)
    assert "waste-t1" not in moves(game)
    refused(game, "waste-t1", "Ks cannot go on Ac")
    game.push("waste-t2")
    assert pile(game, "t2") == ["Ah", "Ks"]


def test_move_pile_moves_only_whole_piles() -> None:
    game = load(MOVE_LAYOUT)  # move=pile is the default
    legal = moves(game)
    assert "t1-t2:2" in legal  # 9c 8h onto Td
    assert "t1-t3" not in legal  # 8h alone onto 9s
    assert "t3-t2" in legal  # a one-card pile is a whole pile
    refused(game, "t1-t3", "only a whole pile moves onto another pile (move=pile)")
    assert game.parse_move("t1-t2") == Move.parse("t1-t2:2")


def test_move_pile_still_sends_a_top_card_to_a_foundation() -> None:
    game = load(MOVE_LAYOUT)
    assert "t1-f1" in moves(game)
    game.push("t1-f1")
    assert pile(game, "t1") == ["9c"]
    assert pile(game, "f1")[-1] == "8h"


def test_move_top_moves_only_the_top_card() -> None:
    game = load(MOVE_LAYOUT, move="top")
    legal = moves(game)
    assert "t1-t3" in legal
    assert "t1-t2:2" not in legal
    refused(game, "t1-t2:2", "only the top card moves onto another pile (move=top)")
    game.push("t1-t3")
    assert pile(game, "t1") == ["9c"]
    assert pile(game, "t3") == ["9s", "8h"]


def test_move_both_moves_a_whole_pile_or_the_top_card() -> None:
    game = load(MOVE_LAYOUT, move="both")
    legal = moves(game)
    assert "t1-t3" in legal
    assert "t1-t2:2" in legal
    # A part of a pile that is neither the whole pile nor the top card never moves.
    game3 = load({**MOVE_LAYOUT, "t1": "Jc Th 9c 8h", "t2": "Tc"}, move="both")
    refused(game3, "t1-t2:2", "a whole pile (4 card(s)) or the top card moves onto another pile")


def test_whole_pile_move_leaves_a_space_the_reserve_fills_then_a_base_card_goes_up() -> None:
    game = load(RESERVE_BASE_LAYOUT)
    forced = game.push("t1-t2:2")
    assert [move.text() for move in forced] == ["reserve-t1", "reserve-f4"]
    assert pile(game, "t1") == ["4d"]
    assert pile(game, "t2") == ["Td", "9c", "8h"]
    assert pile(game, "f4") == ["Qs"]
    assert pile(game, "reserve") == ["Ks"]


def test_undo_takes_back_the_forced_moves() -> None:
    game = load(RESERVE_BASE_LAYOUT)
    before = game.position()
    game.push("t1-t2:2")
    assert game.pop() == Move.parse("t1-t2:2")
    assert game.position() == before
    assert game.forced_stack == []


def test_reserve_and_waste_top_cards_go_onto_the_tableau() -> None:
    game = load({**MOVE_LAYOUT, "waste": "7c"})
    assert "reserve-t4" in moves(game)  # 4d on 5c
    assert "waste-t1" in moves(game)  # 7c on 8h
    refused(game, "reserve-t4:2", "only the top card of the reserve can move")
    game.push("reserve-t4")
    assert pile(game, "t4") == ["5c", "4d"]
    assert pile(game, "reserve") == ["Ks", "3c"]


# -- spaces ----------------------------------------------------------------------------------


def test_spaces_stay_empty_without_reserve_and_take_waste_or_stock() -> None:
    game = load(SPACE_LAYOUT)
    legal = moves(game)
    assert "waste-t1" in legal
    assert "stock-t1" in legal
    refused(game, "t2-t1", "tableau cards do not move into spaces")
    game.push("waste-t1")
    assert pile(game, "t1") == ["8d"]


def test_stock_top_card_fills_a_space_face_up() -> None:
    game = load({**SPACE_LAYOUT, "stock": "2c 9c"})
    stock = len(game.state.piles["stock"])
    assert game.push("stock-t1") == []
    assert pile(game, "t1") == ["9c"]
    assert game.state.down["t1"] == 0
    assert game.state.down["stock"] == len(game.state.piles["stock"]) == stock - 1


def test_stock_base_card_filling_a_space_goes_up() -> None:
    game = load({**SPACE_LAYOUT, "f3": "", "f4": "", "stock": "Qc Qd"}, rest="waste")
    assert [move.text() for move in game.push("stock-t1")] == ["t1-f3"]
    assert pile(game, "t1") == []
    assert pile(game, "f3") == ["Qd"]


def test_spaces_waste_fills_spaces_from_the_waste_only() -> None:
    game = load(SPACE_LAYOUT, spaces="waste")
    legal = moves(game)
    assert "waste-t1" in legal
    assert "stock-t1" not in legal
    refused(game, "stock-t1", "only the waste's top card may fill a space (spaces=waste)")
    refused(game, "t2-t1", "tableau cards do not move into spaces")


def test_stock_cards_reach_the_tableau_only_through_a_space() -> None:
    game = load({**SPACE_LAYOUT, "stock": "4c"})
    refused(game, "stock-t2", "the stock's top card may only fill a space")
    refused(game, "stock-f1", "stock cards are turned onto the waste")


# -- stock and waste -----------------------------------------------------------------------------


@pytest.mark.parametrize("draw", [1, 3])
def test_stock_turns_draw_cards_onto_the_waste(draw: int) -> None:
    cards = first_cards(2)  # base 7; cards 19-24 hold no 7
    game = patience.new("canfield", deal=2, draw=draw)
    game.push("stock")
    assert pile(game, "waste") == cards[18 : 18 + draw]
    assert len(game.state.piles["stock"]) == 34 - draw


def test_draw_three_last_packet_may_be_short() -> None:
    game = load({**SPACE_LAYOUT, "stock": "7c 6c 2c 9c"}, rest="waste")
    game.push("stock")
    game.push("stock")
    assert pile(game, "waste")[-1] == "7c"
    assert pile(game, "stock") == []


def test_draw_is_1_or_3() -> None:
    with pytest.raises(OptionError):
        patience.new("canfield", deal=1, draw=2)


def test_recycle_turns_the_waste_over_face_down() -> None:
    game = load({**SPACE_LAYOUT, "stock": ""}, rest="waste")
    waste = pile(game, "waste")
    refused(game, "stock", "the stock is empty: turn the waste over with recycle")
    game.push("recycle")
    assert pile(game, "stock") == waste[::-1]
    assert pile(game, "waste") == []
    assert game.state.down["stock"] == len(waste)
    assert game.position()["redeals"] == 1


def test_recycle_only_when_the_stock_is_empty() -> None:
    game = load(SPACE_LAYOUT)
    refused(game, "recycle", "the waste is turned over only when the stock is empty")


def test_passes_limits_recycling() -> None:
    game = load({**SPACE_LAYOUT, "stock": ""}, rest="waste", passes=2)
    game.push("recycle")
    game.push("stock-t1")  # so that the pass does not merely recreate the starting position
    while game.state.piles["stock"]:
        game.push("stock")
    assert "recycle" not in moves(game)
    refused(game, "recycle", "no pass through the stock is left (passes=2)")
    once = load({**SPACE_LAYOUT, "stock": ""}, rest="waste", passes=1)
    refused(once, "recycle", "no pass through the stock is left (passes=1)")


def test_passes_unlimited_by_default() -> None:
    game = Game.from_position(position({**SPACE_LAYOUT, "stock": ""}, rest="waste", redeals=40))
    assert game.options["passes"] == "unlimited"
    assert "recycle" in moves(game)


def test_default_options() -> None:
    assert patience.new("canfield", deal=0).options == {
        "draw": 3,
        "passes": "unlimited",
        "move": "pile",
        "spaces": "stock-or-waste",
    }
    with pytest.raises(OptionError):
        patience.new("canfield", deal=0, move="run")
    with pytest.raises(OptionError):
        patience.new("canfield", deal=0, spaces="tableau")


# -- illegal moves --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("t1-waste", "no card may be put on the waste"),
        ("t1-reserve", "no card may be put on the reserve"),
        ("t1-t1", "two different piles"),
        ("t9-t1", "canfield has no pile 't9'"),
        ("t1-f2", "8h cannot go on f2: it takes the Ks"),
        ("t1-f1:2", "one at a time"),
        ("reserve-f1", "4d cannot go on f1"),
        ("stock-t1", "the stock's top card may only fill a space"),
        ("deal", "canfield has no action 'deal'"),
        ("recycle", "only when the stock is empty"),
        ("stock(count=2)", "stock takes no arguments"),
    ],
)
def test_illegal_moves_are_refused_with_a_reason(move: str, reason: str) -> None:
    refused(load(MOVE_LAYOUT), move, reason)


def test_empty_foundation_refuses_a_player_move() -> None:
    game = load(
        {"f1": climb("Qh", 13), "t1": "5c", "t2": "Td", "t3": "9s", "t4": "8d", "reserve": "3c 4d"}
    )
    refused(game, "reserve-f2", "f2 is empty: it takes only a base-rank card (Q)")


# -- the view --------------------------------------------------------------------------------


def test_view_shows_only_the_reserve_top_card_and_its_count() -> None:
    game = patience.new("canfield", deal=2)
    view = game.view()
    reserve = view["piles"]["reserve"]
    assert reserve == {"down": [], "up": [None] * 12 + [first_cards(2)[0]]}
    assert view["piles"]["stock"] == {"down": [None] * 34, "up": []}
    assert view["piles"]["t1"] == {"down": [], "up": [first_cards(2)[14]]}
    assert "deal" not in view
    # The position (not a view) holds every card.
    assert game.position()["piles"]["reserve"]["up"] == first_cards(2)[:13][::-1]


def test_view_of_an_empty_reserve() -> None:
    assert load(SPACE_LAYOUT).view()["piles"]["reserve"] == {"down": [], "up": []}


# -- the end ---------------------------------------------------------------------------------


def test_won_when_all_cards_are_on_the_foundations() -> None:
    game = load(
        {
            "f1": climb("Qs", 13),
            "f2": climb("Qh", 13),
            "f3": climb("Qd", 13),
            "f4": climb("Qc", 12),
            "waste": "Jc",
        }
    )
    assert game.outcome().result == "ongoing"
    game.push("waste-f4")
    assert game.outcome().to_json() == {
        "result": "won",
        "reason": "all 52 cards are on the foundations",
    }
    assert game.legal_moves() == []


def test_lost_when_no_legal_move_is_left() -> None:
    # Base Q; foundations want Js, Kh, Kd, Kc; four red piles; the waste's red Jd fits nowhere.
    layout = {
        "f1": climb("Qs", 12),
        "f2": "Qh",
        "f3": "Qd",
        "f4": "Qc",
        "t1": "5h",
        "t2": "5d",
        "t3": "9h",
        "t4": "9d",
        "waste": "Jd",
    }
    game = Game.from_position(position(layout, rest="waste", passes=1))
    assert game.legal_moves() == []
    assert game.outcome().to_json() == {"result": "lost", "reason": "no legal move left"}
    # With passes left, the same layout can go on.
    assert moves(load(layout, rest="waste")) == ["recycle"]


def test_no_position_may_be_repeated() -> None:
    game = load({**SPACE_LAYOUT, "stock": ""}, rest="waste", passes="unlimited")
    game.push("recycle")
    while len(game.state.piles["stock"]) > 3:
        game.push("stock")
    # Turning the last card would bring back the starting position: stock empty, same waste.
    assert "stock" not in moves(game)
    refused(game, "stock", "recreate a position already reached")


# -- positions -------------------------------------------------------------------------------


def test_position_round_trip() -> None:
    game = patience.new("canfield", deal=2941, draw=1, move="both")
    game.push("stock")
    again = Game.from_position(game.position())
    assert again.position() == game.position()
    assert again.legal_moves() == game.legal_moves()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"t1": "9c 7h"}, "t1 is not built down in alternating colours"),
        ({"f4": "", "t4": "Qc"}, "Qc is in t4, but base-rank cards go up"),
        ({"t4": ""}, "t4 is empty while the reserve has cards"),
        ({"f4": "", "reserve": "Ks 3c Qc"}, "Qc is on top of the reserve"),
        ({"f4": "", "waste": "Qc"}, "Qc is on top of the waste"),
        ({"f2": "", "f3": "Qd"}, "f3 is used while a foundation left of it is empty"),
        ({"f2": "Qs As"}, "f2 is not built up in suit round the corner"),
        ({"reserve": "Ks 3c 4d 2c 5d 6c 7c 8c Tc Jc Kc Ac 2d 3d"}, "at most 13 cards"),
    ],
)
def test_impossible_positions_are_refused(change: dict[str, str], message: str) -> None:
    layout = {**MOVE_LAYOUT, "f1": climb("Qh", 8), **change}
    with pytest.raises(PositionError) as error:
        Game.from_position(position(layout))
    assert message in str(error.value)


def test_position_needs_the_base_card_on_f1() -> None:
    data = position(
        {
            "f2": climb("Qh", 13),
            "f3": climb("Qs", 13),
            "t1": "5c",
            "t2": "Td",
            "t3": "9c",
            "t4": "8d",
            "reserve": "3c 4d",
        }
    )
    with pytest.raises(PositionError, match="f1 holds the dealt base card"):
        Game.from_position(data)


def test_position_stock_and_waste_hold_at_most_34_cards() -> None:
    with pytest.raises(PositionError, match="at most 34 cards"):
        Game.from_position(position({"f1": "Qh", "f2": "Qs", "f3": "Qd", "f4": "Qc"}, rest="waste"))


def test_position_stock_lies_face_down_and_redeals_fit_passes() -> None:
    data = position(MOVE_LAYOUT)
    data["piles"]["stock"] = {"down": [], "up": data["piles"]["stock"]["down"]}
    with pytest.raises(PositionError, match="stock lies face down"):
        Game.from_position(data)
    with pytest.raises(PositionError, match="redeals=2 is more than passes=2 allow"):
        Game.from_position(position(MOVE_LAYOUT, redeals=2, passes=2))


def test_registered_in_rules_order() -> None:
    names = list(patience.GAMES)
    assert "canfield" in names
    assert names.index("canfield") > names.index("klondike")
    assert patience.GAMES["canfield"] is Canfield
