"""Move notation (text and JSON, docs/notation.md), game options and game names."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import patience
from patience import Move, MoveSyntaxError, OptionError, UnknownGame
from patience.options import Option, format_options, parse_option_pairs, validate

# -- text notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("t3-f1", Move.cards("t3", "f1")),
        ("t3-t5:3", Move.cards("t3", "t5", 3)),
        ("waste-t2", Move.cards("waste", "t2")),
        ("f1-t4", Move.cards("f1", "t4")),
        ("stock", Move.act("stock")),
        ("recycle", Move.act("recycle")),
        ("flip(pile=t3,card=Qs)", Move.act("flip", pile="t3", card="Qs")),
    ],
)
def test_canonical_text_round_trip(text: str, move: Move) -> None:
    assert Move.parse(text) == move
    assert move.text() == text
    assert str(move) == text
    assert Move.parse(move.text()) == move


def test_card_move_parts() -> None:
    move = Move.parse("t3-t5:3")
    assert (move.source, move.target, move.count) == ("t3", "t5", 3)
    assert not move.is_action
    assert move.action is None


def test_action_parts() -> None:
    move = Move.parse("flip(pile=t3,card=Qs)")
    assert move.is_action
    assert move.action == "flip"
    assert move.arg("pile") == "t3"
    assert move.arg("card") == "Qs"
    assert move.arg("nothing") is None
    assert move.arg("nothing", "x") == "x"


def test_count_one_is_left_out_of_the_canonical_form() -> None:
    assert Move.parse("t3-f1:1") == Move.parse("t3-f1")
    assert Move.parse("t3-f1:1").text() == "t3-f1"


def test_upper_case_and_spaces_are_read() -> None:
    assert Move.parse("T3-F1") == Move.cards("t3", "f1")
    assert Move.parse("  Stock ") == Move.act("stock")
    assert Move.parse("WASTE-T2") == Move.cards("waste", "t2")


def test_argument_values_are_typed() -> None:
    move = Move.parse("x(n=5,b=true,c=false,s=Qs,m=-2)")
    assert move.args == (("n", 5), ("b", True), ("c", False), ("s", "Qs"), ("m", -2))
    assert move.text() == "x(n=5,b=true,c=false,s=Qs,m=-2)"


def test_repr_evaluates_back() -> None:
    for text in ("t3-t5:3", "stock", "flip(pile=t3,card=Qs)"):
        move = Move.parse(text)
        assert eval(repr(move), {"Move": Move}) == move


def test_moves_are_hashable_values() -> None:
    assert len({Move.parse("t3-f1"), Move.cards("t3", "f1"), Move.parse("t3-f2")}) == 2
    assert Move.act("flip", pile="t3", card="Qs") == Move.parse("flip(pile=t3,card=Qs)")


@pytest.mark.parametrize(
    "text",
    [
        "-f1",
        "t3-t5:0",
        "t3-t5:x",
        "t3-t5:",
        "t3-t5:-1",
        "",
        "3-f1",
        "t3 - f1",
        "flip(pile=t3",
        "flip(pile)",
        "flip(=t3)",
        "flip(pile=t3,,card=Qs)",
        "{not json",
        "[1, 2]",
    ],
)
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(MoveSyntaxError) as info:
        Move.parse(text)
    assert text.strip()[:3] in str(info.value) or "move" in str(info.value)


def test_json_move_nested_too_deeply_is_refused() -> None:
    deep = '{"from": ' + "[" * 3000 + "]" * 3000 + "}"
    with pytest.raises(MoveSyntaxError, match="nested too deeply"):
        Move.parse(deep)
    with pytest.raises(patience.IllegalMove, match="nested too deeply"):
        patience.new("klondike", deal=7).push(deep)


@pytest.mark.parametrize("text", ["t3-", "t3--f1", "stock-", "-"])
def test_card_move_without_target_is_refused(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        Move.parse(text)


def test_card_move_without_target_is_not_a_legal_move() -> None:
    game = patience.new("klondike", deal=7)
    with pytest.raises(patience.IllegalMove):
        game.push("t3-")


def test_messages_show_how_to_write_a_move() -> None:
    with pytest.raises(MoveSyntaxError, match=r"t3-f1"):
        Move.parse("-f1")
    with pytest.raises(MoveSyntaxError, match=r"1 or more"):
        Move.parse("t3-t5:0")


def test_move_syntax_error_is_a_value_error() -> None:
    assert issubclass(MoveSyntaxError, ValueError)


# -- JSON form ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "data"),
    [
        (Move.cards("t3", "f1"), {"from": "t3", "to": "f1", "count": 1}),
        (Move.cards("t3", "t5", 3), {"from": "t3", "to": "t5", "count": 3}),
        (Move.act("stock"), {"action": "stock"}),
        (
            Move.act("flip", pile="t3", card="Qs"),
            {"action": "flip", "pile": "t3", "card": "Qs"},
        ),
    ],
)
def test_json_form_round_trip(move: Move, data: dict[str, object]) -> None:
    assert move.to_json() == data
    assert Move.from_json(data) == move
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move
    assert Move.parse(json.dumps(data)) == move


def test_json_count_defaults_to_one() -> None:
    assert Move.from_json({"from": "t3", "to": "f1"}) == Move.cards("t3", "f1")


@pytest.mark.parametrize(
    ("data", "pattern"),
    [
        ({"from": 3}, r"from"),
        ({"from": "t3"}, r"to"),
        ({"to": "f1"}, r"from"),
        ({"from": "t3", "to": "f1", "count": 0}, r"count"),
        ({"from": "t3", "to": "f1", "count": "2"}, r"count"),
        ({"from": "t3", "to": "f1", "count": True}, r"count"),
        ({"from": "t3", "to": "f1", "extra": 1}, r"extra"),
        ({"from": "T 3", "to": "f1"}, r"from"),
        ({"action": 5}, r"action"),
        ({"action": "flip(x=1)"}, r"action"),
        ({"action": "flip", "pile": [1]}, r"pile"),
        ({"action": "flip", "pile": None}, r"pile"),
        ({}, r"from"),
        ([], r"object"),
        ("t3-f1", r"object"),
    ],
)
def test_malformed_json_is_refused(data: object, pattern: str) -> None:
    with pytest.raises(MoveSyntaxError, match=pattern):
        Move.from_json(data)


# -- round trips over generated moves ----------------------------------------------------------

PILES = st.from_regex(re.compile(r"(t|f)[1-9][0-9]?|stock|waste|reserve|exiles"), fullmatch=True)
NAMES = st.from_regex(re.compile(r"[a-z][a-z0-9_]{0,8}"), fullmatch=True).filter(
    lambda name: name not in ("true", "false")
)
TEXT_VALUES = st.from_regex(re.compile(r"[A-Za-z][A-Za-z0-9]{0,5}"), fullmatch=True).filter(
    lambda value: value not in ("true", "false")
)
VALUES = st.one_of(st.integers(-(10**6), 10**6), st.booleans(), TEXT_VALUES)
CARD_MOVES = st.builds(Move.cards, PILES, PILES, st.integers(1, 104))
ACTIONS = st.builds(
    lambda name, args: Move(action=name, args=tuple(args.items())),
    st.from_regex(re.compile(r"[a-z][a-z0-9_]{0,10}"), fullmatch=True),
    st.dictionaries(NAMES, VALUES, max_size=4),
)


@given(st.one_of(CARD_MOVES, ACTIONS))
def test_generated_moves_round_trip(move: Move) -> None:
    assert Move.parse(move.text()) == move
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move
    assert Move.parse(json.dumps(move.to_json())) == move


# -- options -----------------------------------------------------------------------------------


def test_klondike_default_options() -> None:
    game = patience.new("klondike", deal=1)
    assert game.options == {"draw": 3, "passes": "unlimited", "from_foundation": True}


@pytest.mark.parametrize("draw", [2, 0, 4, "x", True])
def test_draw_must_be_1_or_3(draw: object) -> None:
    with pytest.raises(OptionError, match=r"1 or 3"):
        patience.new("klondike", draw=draw)


@pytest.mark.parametrize(("given_value", "value"), [(1, 1), (3, 3), ("1", 1), ("3", 3)])
def test_draw_accepted(given_value: object, value: int) -> None:
    assert patience.new("klondike", deal=0, draw=given_value).options["draw"] == value


@pytest.mark.parametrize(
    ("given_value", "value"),
    [("unlimited", "unlimited"), ("UNLIMITED", "unlimited"), (2, 2), ("2", 2), (1, 1), (17, 17)],
)
def test_passes_accepted(given_value: object, value: object) -> None:
    assert patience.new("klondike", deal=0, passes=given_value).options["passes"] == value


@pytest.mark.parametrize("passes", [0, "0", -1, "many", 1.5, True, ""])
def test_passes_refused(passes: object) -> None:
    with pytest.raises(OptionError, match=r"positive number or unlimited"):
        patience.new("klondike", passes=passes)


@pytest.mark.parametrize(
    ("given_value", "value"),
    [("off", False), ("on", True), (False, False), (True, True), ("no", False), ("yes", True)],
)
def test_from_foundation_accepted(given_value: object, value: bool) -> None:
    game = patience.new("klondike", deal=0, from_foundation=given_value)
    assert game.options["from_foundation"] is value


def test_from_foundation_refused() -> None:
    with pytest.raises(OptionError, match=r"on or off"):
        patience.new("klondike", from_foundation="maybe")


def test_unknown_option_lists_the_games_options() -> None:
    with pytest.raises(OptionError) as info:
        patience.new("klondike", colour="red")
    message = str(info.value)
    assert "colour" in message
    for name in ("draw", "passes", "from_foundation"):
        assert name in message


def test_option_error_is_a_value_error() -> None:
    assert issubclass(OptionError, ValueError)


def test_options_module_directly() -> None:
    spec = Option("draw", "choice", 3, "cards turned", (1, 3))
    assert spec.parse("1") == 1
    assert spec.allowed() == "1 or 3"
    with pytest.raises(OptionError, match="1 or 3"):
        spec.parse("2")
    passes = Option("passes", "passes", "unlimited", "passes")
    assert passes.parse("unlimited") == "unlimited"
    assert passes.parse(3) == 3
    with pytest.raises(OptionError):
        passes.parse(0)
    flag = Option("from_foundation", "bool", True, "back from foundations")
    assert flag.parse("off") is False
    assert flag.format(False) == "off"
    specs = (spec, passes, flag)
    values = validate(specs, {"draw": "1"}, "klondike")
    assert values == {"draw": 1, "passes": "unlimited", "from_foundation": True}
    assert format_options(specs, values) == "draw=1,passes=unlimited,from_foundation=on"
    with pytest.raises(OptionError, match=r"draw \(1 or 3\)"):
        validate(specs, {"colour": 1}, "klondike")


def test_parse_option_pairs() -> None:
    assert parse_option_pairs(["draw=1", "passes=3"]) == {"draw": "1", "passes": "3"}
    assert parse_option_pairs(["draw=1,from-foundation=off"]) == {
        "draw": "1",
        "from_foundation": "off",
    }
    for bad in ("draw", "=1", "draw="):
        with pytest.raises(OptionError, match="KEY=VALUE"):
            parse_option_pairs([bad])


def test_options_text() -> None:
    game = patience.new("klondike", deal=0, draw=1, passes=3, from_foundation="off")
    assert game.rules.options_text() == "draw=1,passes=3,from_foundation=off"


# -- games -------------------------------------------------------------------------------------


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(UnknownGame) as info:
        patience.new("chess")
    message = str(info.value)
    assert "chess" in message
    for name in patience.GAMES:
        assert name in message


def test_unknown_game_is_a_value_error() -> None:
    assert issubclass(UnknownGame, ValueError)


def test_game_names_are_case_insensitive() -> None:
    assert patience.new("Klondike", deal=0).name == "klondike"
    assert patience.new(" KLONDIKE ", deal=0).name == "klondike"


def test_registered_games_are_named_as_in_rules() -> None:
    rules_names = {
        "klondike",
        "double-solitaire",
        "spider",
        "canfield",
        "accordion",
        "napoleon",
        "leonis-own",
        "leopard",
    }
    assert "klondike" in patience.GAMES
    assert set(patience.GAMES) <= rules_names
    for name, cls in patience.GAMES.items():
        assert cls.name == name
