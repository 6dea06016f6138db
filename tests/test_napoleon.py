"""Napoleon at St Helena (Forty Thieves), one test (or a few) per rule of RULES.md's section and
its "End of a game", written from RULES.md and the seed (004_*.txt), not from the code.

Positions are made by hand with :func:`position`: the piles a test cares about are written out;
every other card (two packs) goes to the bottom of the stock, or of the waste when asked, except
that leftover aces always go to the bottom of the stock (an ace may not lie in the waste).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

import patience
from patience import IllegalMove, Move, PositionError
from patience.deals import first_cards
from patience.games.napoleon import Napoleon, NapoleonState
from patience.options import OptionError

FOUNDATIONS = tuple(f"f{n}" for n in range(1, 9))
TABLEAU = tuple(f"t{n}" for n in range(1, 11))
PILES = ("stock", "waste", *FOUNDATIONS, *TABLEAU)
TWO_PACKS = [rank + suit for _ in range(2) for suit in "cdhs" for rank in "A23456789TJQK"]


def suit_run(suit: str, up_to: str = "K") -> str:
    """The cards of ``suit`` from the ace up to rank ``up_to``, as a foundation holds them."""
    ranks = "A23456789TJQK"
    return " ".join(rank + suit for rank in ranks[: ranks.index(up_to) + 1])


def position(piles: Mapping[str, str], rest: str = "stock") -> dict[str, Any]:
    """A Napoleon position JSON: ``piles`` maps pile names to cards bottom to top (the stock's
    face down, every other pile's face up); the cards not given fill up the two packs."""
    up: dict[str, list[str]] = {name: [] for name in PILES}
    for name, text in piles.items():
        assert name in PILES, name
        up[name] = text.split()
    used = Counter(card for cards in up.values() for card in cards)
    leftover = Counter(TWO_PACKS) - used
    assert not used - Counter(TWO_PACKS), f"more than two copies: {used - Counter(TWO_PACKS)}"
    ordered = [card for card in dict.fromkeys(TWO_PACKS) for _ in range(leftover[card])]
    aces = [card for card in ordered if card[0] == "A"]
    others = [card for card in ordered if card[0] != "A"]
    if rest == "waste":
        up["waste"] = others + up["waste"]
        up["stock"] = aces + up["stock"]
    else:
        up["stock"] = aces + others + up["stock"]
    return {
        "version": 1,
        "game": "napoleon",
        "options": {},
        "deal": None,
        "piles": {
            name: {"down": up[name], "up": []} if name == "stock" else {"down": [], "up": up[name]}
            for name in PILES
        },
    }


def load(piles: Mapping[str, str], rest: str = "stock") -> patience.Game:
    """A game continued from a hand-made :func:`position`."""
    return patience.Game.from_position(position(piles, rest))


def pile(game: patience.Game, name: str) -> list[str]:
    """The cards of a pile, bottom to top (face-down and face-up parts together)."""
    data = game.position()["piles"][name]
    return [*data["down"], *data["up"]]


def legal(game: patience.Game) -> set[str]:
    return {move.text() for move in game.legal_moves()}


def refused(game: patience.Game, move: str | dict[str, Any], pattern: str) -> str:
    """Push ``move``, expect IllegalMove matching ``pattern``; check nothing changed."""
    before = game.position()
    stack = game.move_stack
    moves = game.legal_moves()
    with pytest.raises(IllegalMove, match=pattern) as info:
        game.push(move)
    assert game.position() == before
    assert game.move_stack == stack
    assert game.legal_moves() == moves
    return str(info.value)


#: Ten column tops of which none fits on another.
STUCK_TOPS = ["Kc", "Kd", "Kh", "Ks", "Jc", "Jd", "Jh", "Js", "9c", "9d"]

#: Every ace on the foundations, one each, so that no ace is left to go up.
ALL_ACES = dict(zip(FOUNDATIONS, ["Ac", "Ad", "Ah", "As"] * 2, strict=True))


# -- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize("deal", [4, 6, 7, 8])
def test_deal_ten_columns_of_four_face_up_row_by_row_and_64_in_the_stock(deal: int) -> None:
    # These deals leave no ace on top of a column, so nothing goes up after the deal.
    cards = first_cards(deal, 104, 2)
    game = patience.new("napoleon", deal=deal)
    layout = game.position()["piles"]
    for column in range(10):
        # Row by row, left to right: column k gets cards k, k + 10, k + 20, k + 30.
        assert layout[f"t{column + 1}"] == {"down": [], "up": cards[column:40:10]}
    assert layout["stock"]["up"] == []
    assert len(layout["stock"]["down"]) == 64
    # Card 41 is the stock's top card (the end of the bottom-to-top list), card 104 its bottom.
    assert layout["stock"]["down"][-1] == cards[40]
    assert layout["stock"]["down"] == cards[40:][::-1]
    for name in ("waste", *FOUNDATIONS):
        assert layout[name] == {"down": [], "up": []}
    assert game.outcome().result == "ongoing"


def test_the_first_card_turned_from_the_stock_is_card_41() -> None:
    game = patience.new("napoleon", deal=4)
    game.push("stock")
    assert pile(game, "waste") == [first_cards(4, 104, 2)[40]]
    assert len(pile(game, "stock")) == 63


@pytest.mark.parametrize("deal", [0, 1, 12345, 2**53 - 1])
def test_deal_uses_both_packs(deal: int) -> None:
    game = patience.new("napoleon", deal=deal)
    layout = game.position()["piles"]
    cards = [card for data in layout.values() for part in data.values() for card in part]
    assert Counter(cards) == Counter(TWO_PACKS)
    assert len(game.state.all_cards()) == len(set(game.state.all_cards())) == 104


def test_aces_on_top_of_a_column_go_up_right_after_the_deal() -> None:
    # Deal 1: aces lie on top of t7 and t9, and two on top of each other at the top of t8.
    cards = first_cards(1, 104, 2)
    game = patience.new("napoleon", deal=1)
    _, forced = Napoleon().start(1)
    assert [move.text() for move in forced] == ["t7-f1", "t8-f2", "t8-f3", "t9-f4"]
    assert game.opening == forced
    assert [pile(game, name) for name in FOUNDATIONS[:4]] == [
        [cards[36]],
        [cards[37]],
        [cards[27]],
        [cards[38]],
    ]
    assert all(card[0] == "A" for card in (cards[36], cards[37], cards[27], cards[38]))
    assert pile(game, "t7") == cards[6:36:10]
    assert pile(game, "t8") == cards[7:27:10]
    assert pile(game, "t9") == cards[8:38:10]
    assert all(pile(game, name) == [] for name in FOUNDATIONS[4:])
    assert game.move_stack == []


def test_aces_go_up_after_every_deal() -> None:
    for deal in range(30):
        game = patience.new("napoleon", deal=deal)
        for name in TABLEAU:
            assert not pile(game, name) or pile(game, name)[-1][0] != "A", (deal, name)


# -- aces go up as soon as they are available ---------------------------------------------------


def test_an_ace_uncovered_in_a_column_goes_to_the_first_empty_foundation() -> None:
    game = load({"f1": "Ac", "t1": "Ah 5c", "t2": "6c"})
    assert "t1-t2" in legal(game)
    forced = game.push("t1-t2")
    assert forced == [Move.parse("t1-f2")]
    assert pile(game, "t1") == []
    assert pile(game, "f2") == ["Ah"]
    assert game.move_stack == [Move.parse("t1-t2")]
    assert game.forced_stack == [[Move.parse("t1-f2")]]


def test_aces_uncovered_one_after_another_all_go_up() -> None:
    game = load({"t1": "9d Ah As 5c", "t2": "6c"})
    assert game.push("t1-t2") == [Move.parse("t1-f1"), Move.parse("t1-f2")]
    assert pile(game, "f1") == ["As"]
    assert pile(game, "f2") == ["Ah"]
    assert pile(game, "t1") == ["9d"]


def test_an_ace_uncovered_by_a_move_to_a_foundation_goes_up() -> None:
    game = load({"f1": "Ac", "t1": "Ad 2c"})
    assert game.push("t1-f1") == [Move.parse("t1-f2")]
    assert pile(game, "f1") == ["Ac", "2c"]
    assert pile(game, "f2") == ["Ad"]


def test_an_ace_uncovered_by_filling_a_space_goes_up() -> None:
    game = load({"t1": "As 5c"})
    assert game.push("t1-t10") == [Move.parse("t1-f1")]
    assert pile(game, "t10") == ["5c"]


def test_an_ace_turned_from_the_stock_goes_up() -> None:
    game = load({"f1": "Ac", "waste": "9h", "stock": "Ad"})
    forced = game.push("stock")
    assert forced == [Move.parse("waste-f2")]
    assert pile(game, "f2") == ["Ad"]
    assert pile(game, "waste") == ["9h"]
    assert game.move_stack == [Move.parse("stock")]


def test_deal_2_turns_an_ace_first() -> None:
    assert first_cards(2, 104, 2)[40] == "Ac"
    game = patience.new("napoleon", deal=2)
    assert game.push("stock") == [Move.parse("waste-f2")]  # f1 took the ace from t1
    assert pile(game, "f2") == ["Ac"]
    assert pile(game, "waste") == []


def test_undo_takes_the_forced_aces_back() -> None:
    game = load({"t1": "9d Ah As 5c", "t2": "6c", "stock": "Ad"})
    start = game.position()
    game.push("t1-t2")
    after_move = game.position()
    game.push("stock")
    assert pile(game, "f3") == ["Ad"]
    assert game.pop() == Move.parse("stock")
    assert game.position() == after_move
    assert game.pop() == Move.parse("t1-t2")
    assert game.position() == start
    assert game.redo() == Move.parse("t1-t2")
    assert game.position() == after_move


def test_aces_are_never_the_players_to_move() -> None:
    # An ace is never left available, so no legal move ever takes one.
    game = patience.new("napoleon", deal=1)
    for _ in range(60):
        for move in game.legal_moves():
            if not move.is_action:
                assert pile(game, str(move.source))[-1][0] != "A"
        game.push(game.legal_moves()[0])


# -- the columns --------------------------------------------------------------------------------


def test_seed_example_a_seven_goes_only_on_the_eight_of_its_suit() -> None:
    # The seed: "a 7 may be put only on the 8 of the same suit".
    game = load({"t1": "7h", "t2": "8h", "t3": "8d", "t4": "8s", "t5": "9h", "t6": "6h"})
    moves = legal(game)
    assert "t1-t2" in moves
    assert not {"t1-t3", "t1-t4", "t1-t5", "t1-t6"} & moves
    message = refused(game, "t1-t3", r"7h cannot go on 8d")
    assert "8h" in message
    assert "suit" in message
    refused(game, "t1-t4", r"7h cannot go on 8s")
    refused(game, "t1-t5", r"7h cannot go on 9h")  # two ranks down
    refused(game, "t1-t6", r"7h cannot go on 6h")  # building up is not allowed
    assert game.push("t1-t2") == []
    assert pile(game, "t2") == ["8h", "7h"]
    assert "t6-t2" in legal(game)


def test_either_copy_of_the_next_card_takes_a_card() -> None:
    game = load({"t1": "7h", "t2": "8h", "t3": "Kc 8h"})
    assert {"t1-t2", "t1-t3"} <= legal(game)


def test_no_king_on_an_ace() -> None:
    # An ace never stays on top of a column in play (it goes up at once), so the rule is checked
    # on a state built directly: the rules still refuse to put a king on it.
    rules = Napoleon()
    game = load({"t1": "Kh", "t2": "Qh 2h"})
    state: NapoleonState = game.state.copy()  # type: ignore[assignment]
    state.piles["t2"].append(state.piles["stock"].pop(0))  # an ace from the stock's bottom
    state.down["stock"] -= 1
    assert str(state.piles["t2"][-1])[0] == "A"
    assert Move.parse("t1-t2") not in rules.candidate_moves(state)
    with pytest.raises(IllegalMove, match=r"king may not go on an ace"):
        rules.apply(state, Move.parse("t1-t2"))


def test_a_king_goes_only_to_a_space_or_a_foundation() -> None:
    game = load({"t1": "Kh", "t2": "Qh", "t3": "Ah 2d", "f1": suit_run("d", "Q")})
    moves = legal(game)
    assert not {"t1-t2", "t1-t3"} & moves
    assert "t1-t4" in moves  # a space
    refused(game, "t1-t2", r"Kh cannot go on Qh: a king goes only to a space")
    refused(game, "t1-t3", r"Kh cannot go on 2d")


def test_only_the_top_card_of_a_column_moves() -> None:
    game = load({"t1": "9h 8h", "t2": "Th", "t3": "9d 4c", "t4": "Td", "t5": "9h"})
    moves = legal(game)
    assert all(":" not in move for move in moves)
    refused(game, "t1-t2:2", r"only the top card .*no groups")  # 9h 8h onto Th as a group
    refused(game, "t1-t2", r"8h cannot go on Th")
    refused(game, "t3-t4", r"4c cannot go on Td")  # the 9d under the top stays put
    refused(game, "waste-t1:2", r"only the top card")
    game.push("t1-t5")
    assert pile(game, "t5") == ["9h", "8h"]
    assert pile(game, "t1") == ["9h"]
    game.push("t1-t2")
    assert pile(game, "t2") == ["Th", "9h"]


def test_any_single_card_may_fill_a_space() -> None:
    game = load({"t1": "9c 5d", "t2": "Qh", "t3": "Ks", "waste": "7s"})
    moves = legal(game)
    for source in ("t1", "t2", "t3", "waste"):
        assert all(f"{source}-t{n}" in moves for n in range(4, 11)), source
    game.push("t2-t4")
    assert pile(game, "t4") == ["Qh"]
    game.push("waste-t5")
    assert pile(game, "t5") == ["7s"]
    game.push("t1-t6")
    assert pile(game, "t6") == ["5d"]
    assert pile(game, "t1") == ["9c"]


def test_a_lone_card_may_move_to_another_space_but_not_straight_back() -> None:
    # The move is allowed (any single card fills a space, and the position changes); moving the
    # card back would recreate the position before it ("End of a game").
    game = load({"t1": "5c", **{f"t{n}": "Kh" if n < 4 else "Kd" for n in range(2, 6)}})
    assert "t1-t6" in legal(game)
    game.push("t1-t6")
    assert "t6-t1" not in legal(game)
    refused(game, "t6-t1", r"recreate a position")
    game.push("t6-t7")
    assert pile(game, "t7") == ["5c"]


# -- the stock and the waste --------------------------------------------------------------------


def test_stock_turns_one_card_onto_the_waste_and_it_may_be_played() -> None:
    game = load({"t1": "8h", "f1": "Ac 2c 3c", "t2": "Kd", "stock": "4c 7h"})
    assert game.push("stock") == []
    assert pile(game, "waste") == ["7h"]
    assert pile(game, "stock")[-1] == "4c"
    assert "waste-t1" in legal(game)
    game.push("stock")
    assert pile(game, "waste") == ["7h", "4c"]
    moves = legal(game)
    assert "waste-f1" in moves
    assert "waste-t1" not in moves  # 7h is under 4c now: only the waste's top card moves
    refused(game, "waste-t1", r"4c cannot go on 8h")
    game.push("waste-f1")
    assert pile(game, "f1") == ["Ac", "2c", "3c", "4c"]
    game.push("waste-t1")
    assert pile(game, "t1") == ["8h", "7h"]
    assert pile(game, "waste") == []


def test_one_pass_only_no_redeal() -> None:
    game = load({**ALL_ACES, "t1": "Kd", "stock": "9s"}, rest="waste")
    game.push("stock")
    assert pile(game, "stock") == []
    moves = legal(game)
    assert "stock" not in moves
    assert "recycle" not in moves
    refused(game, "stock", r"stock is empty.*one pass")
    refused(game, "recycle", r"one pass .*no redeal")


def test_no_card_goes_onto_the_stock_or_the_waste() -> None:
    game = load({"t1": "8h", "waste": "9h", "stock": "Kc"})
    refused(game, "t1-waste", r"no card may be put on the waste")
    refused(game, "t1-stock", r"no card may be put on the stock")
    refused(game, "stock-t2", r"turned onto the waste with the move stock")


# -- the foundations ----------------------------------------------------------------------------


def test_foundations_build_up_in_suit() -> None:
    game = load({"f1": "Ac 2c", "t1": "3d", "t2": "4c", "t3": "3c"})
    refused(game, "t1-f1", r"3d cannot go on f1: it takes the 3c")
    refused(game, "t2-f1", r"4c cannot go on f1: it takes the 3c")
    refused(game, "t3-f2", r"it takes an ace")
    game.push("t3-f1")
    game.push("t2-f1")
    assert pile(game, "f1") == ["Ac", "2c", "3c", "4c"]


def test_a_card_two_foundations_take_may_go_to_either() -> None:
    game = load({"f1": "Ah", "f2": "Ac", "f3": "Ah", "t1": "2h"})
    moves = legal(game)
    assert {"t1-f1", "t1-f3"} <= moves
    assert "t1-f2" not in moves
    game.push("t1-f3")
    assert pile(game, "f3") == ["Ah", "2h"]
    game.pop()
    game.push("t1-f")  # lenient input: the first foundation that takes it
    assert pile(game, "f1") == ["Ah", "2h"]


def test_cards_do_not_come_back_from_the_foundations() -> None:
    game = load({"f1": "Ac 2c 3c", "f2": "Ad", "t1": "4c", "t3": "4d"})
    assert not any(move.startswith("f") for move in legal(game))
    refused(game, "f1-t1", r"do not come back from the foundations")
    refused(game, "f1-t2", r"do not come back from the foundations")  # not even to a space
    refused(game, "f1-f2", r"do not come back from the foundations")


# -- the end of a game --------------------------------------------------------------------------


def test_won_when_all_104_cards_are_on_the_foundations() -> None:
    full = {name: suit_run(suit) for name, suit in zip(FOUNDATIONS, "cdhscdhs", strict=True)}
    game = load({**full, "f8": suit_run("s", "Q"), "t4": "Ks"})
    assert game.outcome().result == "ongoing"
    assert "t4-f8" in legal(game)
    game.push("t4-f8")
    outcome = game.outcome()
    assert outcome.result == "won"
    assert outcome.reason == "all 104 cards are on the foundations"
    assert game.legal_moves() == []
    refused(game, "stock", r"game is over \(won")


def test_lost_when_no_legal_move_is_left() -> None:
    # No space, no top card fits a foundation or another column, the stock is empty, and the
    # waste's top card (7c) fits nowhere.
    tops = STUCK_TOPS
    game = load({**ALL_ACES, **dict(zip(TABLEAU, tops, strict=True)), "waste": "7c"}, "waste")
    assert game.legal_moves() == []
    outcome = game.outcome()
    assert (outcome.result, outcome.reason) == ("lost", "no legal move left")


def test_lost_once_the_single_pass_is_over_and_nothing_fits() -> None:
    tops = STUCK_TOPS
    game = load(
        {**ALL_ACES, **dict(zip(TABLEAU, tops, strict=True)), "waste": "7c", "stock": "5h"},
        "waste",
    )
    assert legal(game) == {"stock"}
    game.push("stock")
    assert pile(game, "waste")[-1] == "5h"
    assert game.outcome().result == "lost"
    game.pop()
    assert game.outcome().result == "ongoing"


def test_a_random_game_ends() -> None:
    # "End of a game": with one pass and no position repeated, every game ends.
    game = patience.new("napoleon", deal=3)
    for _ in range(2000):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[len(game.move_stack) * 7 % len(moves)])
    assert game.outcome().is_over


def test_resigning_loses() -> None:
    game = patience.new("napoleon", deal=5)
    game.resign()
    assert game.outcome() == patience.Outcome("lost", "resigned")


# -- names, options, positions and views ---------------------------------------------------------


def test_the_alias_forty_thieves() -> None:
    game = patience.new("forty-thieves", deal=3)
    assert game.name == "napoleon"
    assert game.position() == patience.new("napoleon", deal=3).position()
    assert patience.new("Forty_Thieves", deal=3).name == "napoleon"
    assert patience.GAMES["napoleon"].aliases == ("forty-thieves",)
    data = game.position()
    data["game"] = "forty-thieves"
    assert patience.Game.from_position(data).name == "napoleon"


def test_napoleon_has_no_options() -> None:
    assert patience.new("napoleon", deal=1).options == {}
    with pytest.raises(OptionError, match="napoleon has no option 'passes'"):
        patience.new("napoleon", deal=1, passes=2)


def test_only_napoleons_piles_and_actions() -> None:
    game = load({"t1": "8h"})
    refused(game, "t1-t11", r"no pile 't11'")
    refused(game, "t1-f9", r"no pile 'f9'")
    refused(game, "flip(pile=t1,card=8h)", r"no action 'flip'.*stock")
    refused(game, "stock(count=3)", r"takes no arguments")
    refused(game, "t1-t1", r"two different piles")
    refused(game, "t2-t1", r"t2 is empty")


def test_the_position_json_round_trips() -> None:
    game = patience.new("napoleon", deal=1)
    for _ in range(40):
        game.push(game.legal_moves()[-1])
    data = game.position()
    assert set(data) == {"version", "game", "options", "deal", "piles"}
    again = patience.Game.from_position(data)
    assert again.position() == data
    assert again.legal_moves() == game.legal_moves()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"t1": "Kc Ah"}, r"ace on top of t1 would already have gone"),
        ({"waste": "Ah 9c"}, r"ace in the waste"),
        ({"t1": "2c 3c 4c 5c Ah 9c"}, r"above its four dealt cards"),
        ({"f2": "Ac"}, r"f1 is empty but f2 is not"),
        ({"f1": "Ac 3c"}, r"f1 is not built up in suit"),
        ({"f1": "2c"}, r"f1 is not built up in suit"),
    ],
)
def test_impossible_positions_are_refused(change: dict[str, str], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        load(change)


def test_positions_must_hold_two_packs_and_lie_face_up() -> None:
    data = position({"t1": "8h"})
    data["piles"]["t2"] = {"down": ["9h"], "up": []}
    data["piles"]["stock"]["down"].remove("9h")
    with pytest.raises(PositionError, match=r"t2 lies face up"):
        patience.Game.from_position(data)
    data = position({"t1": "8h"})
    data["piles"]["stock"]["down"].pop()
    with pytest.raises(PositionError, match=r"all 104 cards"):
        patience.Game.from_position(data)
    data = position({"waste": "8h"})
    data["piles"]["stock"] = {"down": [], "up": data["piles"]["stock"]["down"]}
    with pytest.raises(PositionError, match=r"stock lies face down"):
        patience.Game.from_position(data)
    data = position({"t1": "8h 8h"})
    data["piles"]["t2"]["up"] = ["8h"]
    with pytest.raises(PositionError, match=r"8h appears more often"):
        patience.Game.from_position(data)


def test_the_view_hides_only_the_stock() -> None:
    game = load({"t1": "8h", "waste": "3d 9h", "stock": "Kc 5s"})
    view = game.view()
    assert view["piles"]["stock"]["down"] == [None] * len(pile(game, "stock"))
    assert view["piles"]["waste"]["up"] == ["3d", "9h"]  # the waste is spread: all visible
    assert view["piles"]["t1"]["up"] == ["8h"]
    assert "deal" not in view
    assert {"action": "stock"} in view["legal_moves"]
    assert view["outcome"] == {"result": "ongoing"}


def test_move_order_is_fixed() -> None:
    game = load({"f1": "Ac 2c", "t1": "3c", "t2": "9h", "t3": "Th", "waste": "8h", "stock": "Kc"})
    moves = [move.text() for move in game.legal_moves()]
    # Foundations first, then onto the columns (columns first, the waste last), then the stock.
    assert moves[0] == "t1-f1"
    assert moves[-1] == "stock"
    assert moves.index("t2-t3") < moves.index("waste-t2")
    assert moves == [move.text() for move in load_again(game).legal_moves()]


def load_again(game: patience.Game) -> patience.Game:
    return patience.Game.from_position(game.position())
