"""The engine's public API: creating games, pushing and popping, outcomes, positions."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

import patience
from patience import Game, IllegalMove, Move, Outcome, PositionError
from patience.deals import MAX_DEAL

PositionMaker = Callable[..., dict[str, Any]]


# -- creating games ----------------------------------------------------------------------------


def test_new_without_deal_picks_a_random_deal_in_range() -> None:
    deals = {patience.new("klondike").deal for _ in range(5)}
    for deal in deals:
        assert isinstance(deal, int)
        assert 0 <= deal <= MAX_DEAL
    assert len(deals) > 1  # five equal random 53-bit numbers: never


def test_random_deal_is_reproducible_from_its_number() -> None:
    game = patience.new("klondike")
    assert patience.new("klondike", deal=game.deal).position() == game.position()


def test_new_with_deal() -> None:
    game = patience.new("klondike", deal=7, draw=1)
    assert game.deal == 7
    assert game.name == "klondike"
    assert game.options == {"draw": 1, "passes": "unlimited", "from_foundation": True}
    assert game.position()["deal"] == 7
    assert game.position()["options"] == game.options


def test_same_deal_same_game() -> None:
    assert (
        patience.new("klondike", deal=99).position() == patience.new("klondike", deal=99).position()
    )


def test_repr() -> None:
    game = patience.new("klondike", deal=7, draw=1)
    assert repr(game) == (
        "Game('klondike', deal=7, options={'draw': 1, 'passes': 'unlimited', "
        "'from_foundation': True})"
    )


def test_get_rules_and_rules_class() -> None:
    rules = patience.get_rules("klondike", {"draw": "1"})
    assert rules.options["draw"] == 1
    assert isinstance(rules, patience.GAMES["klondike"])
    assert rules.players == 1
    assert rules.all_cards_expected() == 52


# -- outcome -----------------------------------------------------------------------------------


def test_new_game_is_ongoing() -> None:
    game = patience.new("klondike", deal=7)
    outcome = game.outcome()
    assert outcome == Outcome("ongoing")
    assert outcome.result == "ongoing"
    assert not outcome.is_over
    assert not game.is_over()
    assert outcome.to_json() == {"result": "ongoing"}
    assert game.current_player() == 0


def test_outcome_json_round_trip() -> None:
    for outcome in (
        Outcome("ongoing"),
        Outcome("won", "all 52 cards are on the foundations"),
        Outcome("lost", "resigned", score=5),
        Outcome("won", "went out", winner=1, scores=(3, 4)),
    ):
        data = json.loads(json.dumps(outcome.to_json()))
        assert Outcome.from_json(data) == outcome


def test_an_outcome_names_its_seats_as_data() -> None:
    """Outcome.naming: the reason in the engine's words (seats from 0), and the template with
    the seats it names, in the JSON too, so that a page names them its own way."""
    outcome = Outcome.naming("won", "{0} beat {1} ({{2-1}})", [1, 0], winner=1, scores=(2, 1))
    assert outcome.reason == "seat 1 beat seat 0 ({2-1})"
    data = json.loads(json.dumps(outcome.to_json()))
    assert data["reason_template"] == "{0} beat {1} ({{2-1}})"
    assert data["reason_seats"] == [1, 0]
    again = Outcome.from_json(data)
    assert again == outcome
    assert (again.template, again.seats) == (outcome.template, outcome.seats)
    # The same reason given as text only is the same outcome (a record keeps the text).
    assert outcome == Outcome("won", "seat 1 beat seat 0 ({2-1})", winner=1, scores=(2, 1))
    assert "reason_template" not in Outcome("won", "went out", winner=1).to_json()


def test_resign_and_undo_of_resigning() -> None:
    game = patience.new("klondike", deal=7)
    game.push("stock")
    game.resign()
    assert game.resigned
    assert game.outcome() == Outcome("lost", "resigned")
    assert game.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        game.push("stock")
    with pytest.raises(IllegalMove, match="over"):
        game.resign()
    game.take_back_resignation()
    assert game.outcome().result == "ongoing"
    game.resign()
    game.pop()  # undoes the last move and the resignation with it
    assert not game.resigned
    assert game.move_stack == []


# -- push and pop ------------------------------------------------------------------------------


def test_push_text_move_and_json() -> None:
    game = patience.new("klondike", deal=7)
    assert game.push("t7-f1") == [Move.parse("flip(pile=t7,card=6s)")]
    assert game.push(Move.cards("t5", "t1")) == [Move.parse("flip(pile=t5,card=2s)")]
    assert game.push({"action": "stock"}) == []
    assert game.push('{"from": "t4", "to": "t6", "count": 1}') == [
        Move.parse("flip(pile=t4,card=Tc)")
    ]
    assert [m.text() for m in game.move_stack] == ["t7-f1", "t5-t1", "stock", "t4-t6"]
    assert len(game.forced_stack) == 4


def test_the_history_holds_each_move_its_forced_moves_and_the_state_before_it() -> None:
    game = patience.new("klondike", deal=7)
    states = [game.position()]
    for move in ("t7-f1", "stock", "t5-t1"):
        game.push(move)
        states.append(game.position())
    history = game.history
    assert [played.move.text() for played in history] == ["t7-f1", "stock", "t5-t1"]
    assert [list(played.forced) for played in history] == game.forced_stack
    assert [game.rules.position_json(played.before, 7) for played in history] == states[:-1]
    game.pop()
    assert len(game.history) == 2


def test_pop_on_an_empty_stack_raises() -> None:
    game = patience.new("klondike", deal=7)
    with pytest.raises(IllegalMove, match="undo"):
        game.pop()


def test_pop_returns_the_move() -> None:
    game = patience.new("klondike", deal=7)
    game.push("stock")
    assert game.pop() == Move.act("stock")
    assert game.move_stack == []


def test_is_legal() -> None:
    game = patience.new("klondike", deal=7)
    assert game.is_legal("t7-f1")
    assert game.is_legal(Move.act("stock"))
    assert not game.is_legal("t1-t2")
    assert not game.is_legal("garbage(")


def test_start_state_is_a_copy() -> None:
    game = patience.new("klondike", deal=7)
    start = game.start_state
    game.push("t7-f1")
    assert game.start_state.piles == start.piles
    start.piles["t1"].clear()
    assert game.start_state.piles["t1"]


def test_replay_moves() -> None:
    game = patience.new("klondike", deal=7)
    game.replay_moves(["t7-f1", "stock"])
    assert len(game.move_stack) == 2
    with pytest.raises(IllegalMove):
        game.replay_moves(["stock", "t1-t2"])
    assert len(game.move_stack) == 3


@pytest.mark.parametrize("count", [0, -1])
def test_game_refuses_a_move_of_no_cards(make_klondike: Callable[..., Game], count: int) -> None:
    game = make_klondike({"t2": "Qs | 5h", "t3": "Kh"})
    before = game.position()
    with pytest.raises(IllegalMove, match="1 or more"):
        game.push({"from": "t2", "to": "t3", "count": count})
    assert game.position() == before


@pytest.mark.parametrize("count", [0, -1, True])
def test_a_card_move_of_no_cards_cannot_be_built(count: int) -> None:
    # Search code calls Rules.apply directly with Move values, so the value type itself refuses
    # a count below 1 rather than letting a game move "all the cards".
    with pytest.raises(ValueError, match="1 card or more"):
        Move(source="t2", target="t3", count=count)


# -- positions ---------------------------------------------------------------------------------


def test_position_round_trip_of_a_deal() -> None:
    game = patience.new("klondike", deal=7)
    game.replay_moves(["t7-f1", "stock", "stock"])
    data = json.loads(json.dumps(game.position()))
    loaded = Game.from_position(data)
    assert loaded.position() == game.position()
    assert loaded.legal_moves() == game.legal_moves()
    assert loaded.deal == 7
    assert loaded.move_stack == []


def test_position_round_trip_keeps_options_and_redeals(klondike_json: PositionMaker) -> None:
    data = klondike_json({"t1": "Ks"}, rest="waste", passes=3, redeals=2, draw=1)
    loaded = Game.from_position(data)
    assert loaded.options == {"draw": 1, "passes": 3, "from_foundation": True}
    assert loaded.position()["redeals"] == 2
    assert loaded.position()["piles"] == data["piles"]


def _base(klondike_json: PositionMaker) -> dict[str, Any]:
    return klondike_json({"t1": "Kd | 6s", "t2": "5h", "f1": "Ac 2c", "waste": "9d"})


def test_the_base_position_loads(klondike_json: PositionMaker) -> None:
    Game.from_position(_base(klondike_json))


def _broken(klondike_json: PositionMaker, change: Callable[[dict[str, Any]], None]) -> Any:
    data = copy.deepcopy(_base(klondike_json))
    change(data)
    return data


BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("missing pile", lambda d: d["piles"].pop("t3"), r"t3"),
    ("unknown pile", lambda d: d["piles"].update(t8={"down": [], "up": []}), r"t8"),
    ("no piles", lambda d: d.pop("piles"), r"piles"),
    ("piles not an object", lambda d: d.update(piles=[]), r"piles"),
    ("card twice", lambda d: d["piles"]["t3"]["up"].append("Ac"), r"Ac"),
    ("card missing", lambda d: d["piles"]["waste"]["up"].clear(), r"52"),
    ("card not a card", lambda d: d["piles"]["waste"]["up"].append("Xy"), r"Xy"),
    ("card not a string", lambda d: d["piles"]["waste"]["up"].append(5), r"5"),
    ("pile not an object", lambda d: d["piles"].update(t3=["Qs"]), r"t3"),
    ("pile with other keys", lambda d: d["piles"]["t3"].update(side=[]), r"t3"),
    ("up not a list", lambda d: d["piles"]["t3"].update(up="Qs"), r"t3"),
    ("face-down waste", lambda d: d["piles"]["waste"].update(down=["9d"], up=[]), r"waste"),
    (
        "face-down foundation",
        lambda d: d["piles"]["f1"].update(down=["Ac"], up=["2c"]),
        r"f1",
    ),
    ("face-up stock", lambda d: _stock_up(d), r"stock"),
    ("foundation out of suit", lambda d: _swap(d, "f1", "2c", "t2", "5h"), r"f1"),
    ("foundation without ace", lambda d: _swap(d, "f1", "Ac", "t2", "5h"), r"f1"),
    ("tableau top face down", lambda d: d["piles"]["t1"].update(down=["Kd", "6s"], up=[]), r"t1"),
    ("tableau not a run", lambda d: d["piles"]["t1"].update(down=[], up=["Kd", "6s"]), r"t1"),
    ("bad version", lambda d: d.update(version=2), r"version"),
    ("no game", lambda d: d.pop("game"), r"game"),
    ("options not an object", lambda d: d.update(options=[1]), r"options"),
    ("negative redeals", lambda d: d.update(redeals=-1), r"redeals"),
    ("redeals not a number", lambda d: d.update(redeals="1"), r"redeals"),
    (
        "more redeals than passes allow",
        lambda d: d.update(redeals=2, options={"passes": 2}),
        r"redeals|passes",
    ),
]


def _stock_up(data: dict[str, Any]) -> None:
    stock = data["piles"]["stock"]
    stock["up"], stock["down"] = stock["down"], []


def _swap(data: dict[str, Any], a: str, card_a: str, b: str, card_b: str) -> None:
    piles = data["piles"]
    for name, old, new in ((a, card_a, card_b), (b, card_b, card_a)):
        for part in ("down", "up"):
            piles[name][part] = [new if card == old else card for card in piles[name][part]]


@pytest.mark.parametrize(("case", "change", "pattern"), BROKEN, ids=[b[0] for b in BROKEN])
def test_malformed_positions_are_refused(
    klondike_json: PositionMaker,
    case: str,
    change: Callable[[dict[str, Any]], None],
    pattern: str,
) -> None:
    data = _broken(klondike_json, change)
    with pytest.raises(PositionError, match=pattern):
        Game.from_position(data)


def test_position_must_be_an_object() -> None:
    with pytest.raises(PositionError):
        Game.from_position([])  # type: ignore[arg-type]


def test_position_error_is_a_value_error() -> None:
    assert issubclass(PositionError, ValueError)


def test_position_with_a_bad_option_raises_position_error(klondike_json: PositionMaker) -> None:
    data = klondike_json({}, draw=2)
    with pytest.raises(PositionError, match="draw"):
        Game.from_position(data)


def test_position_with_a_bad_option_or_game_or_deal_is_refused(
    klondike_json: PositionMaker,
) -> None:
    for change in (
        {"options": {"draw": 2}},
        {"options": {"colour": "red"}},
        {"game": "chess"},
        {"deal": -1},
        {"deal": "x"},
    ):
        data = {**klondike_json({}), **change}
        with pytest.raises(ValueError):  # noqa: PT011 (several error types are acceptable here)
            Game.from_position(data)


def test_two_copies_of_a_card_never_fit_a_one_pack_game(klondike_json: PositionMaker) -> None:
    data = klondike_json({"t1": "Kd"})
    data["piles"]["t2"]["up"] = ["Kd"]
    data["piles"]["stock"]["down"].remove("Ac")
    with pytest.raises(PositionError, match="Kd"):
        Game.from_position(data)


# -- the same move in every form -------------------------------------------------------------


def test_json_dict_and_json_text_are_read_alike(make_klondike: Callable[..., Game]) -> None:
    game = make_klondike({"t1": "Kc | 9h 8s 7h", "t2": "9d"})
    data = {"from": "t1", "to": "t2"}
    assert game.parse_move(json.dumps(data)) == game.parse_move(data)


def test_is_legal_accepts_the_json_form() -> None:
    game = patience.new("klondike", deal=7)
    assert game.is_legal({"from": "t7", "to": "f1"})
    assert not game.is_legal({"from": "t1", "to": "t2"})


# -- types that say what they mean (issue 17) --------------------------------------------------


def test_results_are_an_enum_that_reads_and_writes_as_text() -> None:
    from patience.engine import Result

    outcome = Outcome("won", "all 52 cards are on the foundations")
    assert outcome.result is Result.WON
    assert outcome.result == "won"
    assert json.dumps(outcome.to_json()) == (
        '{"result": "won", "reason": "all 52 cards are on the foundations"}'
    )
    assert Outcome.from_json({"result": "draw"}).result is Result.DRAW
    with pytest.raises(ValueError, match="ongoing, won, lost, draw, not 'tied'"):
        Outcome("tied")  # type: ignore[arg-type]
    game = patience.new("klondike", deal=7)
    game.resign()
    assert game.outcome().result is Result.LOST
    assert json.dumps(game.view()["outcome"]) == '{"result": "lost", "reason": "resigned"}'


def test_games_are_equal_by_value() -> None:
    first = patience.new("klondike", deal=7, draw=1)
    second = patience.new("klondike", deal=7, draw=1)
    assert first == second
    assert first != patience.new("klondike", deal=8, draw=1)
    assert first != patience.new("klondike", deal=7, draw=3)
    assert first != patience.new("spider", deal=7)
    assert first != "klondike"
    first.push("stock")
    assert first != second
    second.push("stock")
    assert first == second
    # A redo left after an undo is not part of the value; a resignation is.
    first.pop()
    second.pop()
    assert first.can_redo()
    assert first == patience.new("klondike", deal=7, draw=1)
    first.resign()
    assert first != second
    first.take_back_resignation()
    assert first == second
    # The same position reached from a position JSON is another game: no deal, no history.
    loaded = Game.from_position({**second.position(), "deal": None})
    assert loaded != second
    assert loaded == Game.from_position({**second.position(), "deal": None})
    with pytest.raises(TypeError, match="unhashable"):
        hash(first)


def test_games_of_two_packs_and_several_seats_compare_by_value() -> None:
    first = patience.new("leopard", deal=5, deals=1)
    second = patience.new("leopard", deal=5, deals=1)
    assert first == second
    first.push("play(card=Jh,square=0,position=5)")
    assert first != second
    second.push("play(card=Jh,square=0,position=5)")
    assert first == second
