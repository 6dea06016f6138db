"""Game records (patience.record): both forms round-trip, metadata survives, and every kind of
bad record is refused with a message naming the line and/or move number."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import patience
from patience import Game, Move, record
from patience.record import RECORD_VERSION, Record, RecordError

# Deal 7 with draw=1 (as in the README): t7-f1 turns up 6s; t5's top card is 3c.
HEAD = """\
[Game "klondike"]
[Options "draw=1,passes=unlimited,from_foundation=on"]
[Deal "7"]
[Shuffle "1"]
[Version "1"]
[Result "ongoing"]
"""
GOOD = HEAD + "\n1. t7-f1 {flip(pile=t7,card=6s)} 2. stock *\n"


def random_game(
    deal: int, moves: int = 200, seed: int = 0, options: dict[str, object] | None = None
) -> Game:
    """A Klondike game after up to ``moves`` random legal moves (fewer if it ends)."""
    game = patience.new("klondike", deal=deal, **(options or {}))
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    return game


def refusal(text: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        record.loads(text)
    return caught.value


def json_record(**changes: Any) -> str:
    data = json.loads(record.dumps(record.loads(GOOD), "json"))
    data.update(changes)
    return json.dumps(data)


# -- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "options"),
    [(1, {}), (7, {"draw": 1}), (42, {"passes": 2}), (2**53 - 1, {"from_foundation": False})],
)
@pytest.mark.parametrize("form", ["text", "json"])
def test_round_trip_after_random_play(deal: int, options: dict[str, object], form: str) -> None:
    game = random_game(deal, seed=deal, options=options)
    text = record.dumps(game, form)
    again = record.loads(text)
    assert record.dumps(again, form) == text
    assert again.position() == game.position()
    assert again.outcome() == game.outcome()
    assert again.move_stack == game.move_stack
    assert again.forced_stack == game.forced_stack
    # Both forms carry the same facts.
    other = "json" if form == "text" else "text"
    assert record.read_record(text) == record.read_record(record.dumps(game, other))


def test_text_form_layout() -> None:
    game = random_game(3, moves=150, seed=1)
    text = record.dumps(game)
    head, moves = text.split("\n\n")
    assert [line.split()[0] for line in head.splitlines()] == [
        "[Game",
        "[Options",
        "[Deal",
        "[Shuffle",
        "[Version",
        "[Result",
    ]
    assert all(len(line) <= 80 for line in moves.splitlines())
    assert moves.split()[:2] == ["1.", game.move_stack[0].text()]
    assert moves.rstrip().endswith(" *")
    assert text.endswith("\n")


def test_good_record_reads() -> None:
    rec = record.read_record(GOOD)
    assert rec.game == "klondike"
    assert rec.options == {"draw": 1, "passes": "unlimited", "from_foundation": True}
    assert rec.deal == 7
    assert rec.position is None
    assert rec.moves == [Move.parse("t7-f1"), Move.parse("stock")]
    assert rec.forced == [[Move.parse("flip(pile=t7,card=6s)")], []]
    assert (rec.result, rec.reason, rec.version) == ("ongoing", "", RECORD_VERSION)
    game = rec.replay()
    assert game.move_stack == rec.moves
    assert record.dumps(game) == GOOD


def test_empty_game() -> None:
    game = patience.new("klondike", deal=5)
    text = record.dumps(game)
    assert text.endswith('[Result "ongoing"]\n\n*\n')
    assert record.loads(text).position() == game.position()
    assert json.loads(record.dumps(game, "json"))["moves"] == []


def test_game_from_a_position_writes_a_position_tag() -> None:
    earlier = random_game(11, moves=30, seed=3)
    game = Game.from_position({**earlier.position(), "deal": None})
    for move in game.legal_moves()[:1]:
        game.push(move)
    text = record.dumps(game)
    assert "[Deal " not in text
    position_line = next(line for line in text.splitlines() if line.startswith("[Position "))
    assert '\\"piles\\":' in position_line  # compact JSON, its quotes escaped
    again = record.loads(text)
    assert again.position() == game.position()
    assert again.deal is None
    assert record.dumps(again) == text
    data = json.loads(record.dumps(game, "json"))
    assert "deal" not in data
    assert data["position"]["piles"] == earlier.position()["piles"]
    assert record.loads(record.dumps(game, "json")).position() == game.position()


def test_position_that_is_the_deal_itself_writes_a_deal_tag() -> None:
    game = Game.from_position(patience.new("klondike", deal=9).position())
    assert '[Deal "9"]' in record.dumps(game)


def test_resigned_game() -> None:
    game = random_game(4, moves=20, seed=2)
    game.resign()
    text = record.dumps(game)
    assert '[Result "lost"]\n[Reason "resigned"]' in text
    assert text.split()[-1] == "lost"
    again = record.loads(text)
    assert again.resigned
    assert again.outcome() == patience.Outcome("lost", "resigned")
    assert record.dumps(again) == text
    assert record.loads(record.dumps(game, "json")).resigned


def test_resigning_a_finished_game_is_refused() -> None:
    # A game already lost by being stuck keeps its reason; resigning it is refused.
    golden = Path(__file__).resolve().parent / "golden" / "klondike-lost-stuck.rec"
    game = record.loads(golden.read_text(encoding="utf-8"))
    assert game.outcome().reason == "no legal move left"
    with pytest.raises(patience.IllegalMove, match="already over"):
        game.resign()
    assert game.outcome().reason == "no legal move left"
    assert '[Reason "no legal move left"]' in record.dumps(game)


def test_players_and_seed_survive() -> None:
    game = random_game(6, moves=10)
    players = ['Ann "the Ace"', "back\\slash"]
    for form in ("text", "json"):
        text = record.dumps(game, form, players=players, seed=123456789)
        rec, again = record.load_record(text)
        assert rec.players == players
        assert rec.seed == 123456789
        assert again.position() == game.position()
        assert record.dumps(again, form, players=rec.players, seed=rec.seed) == text
    text = record.dumps(game, players=players, seed=5)
    assert '[Players "Ann \\"the Ace\\",back\\\\slash"]' in text
    assert text.index("[Seed ") < text.index("[Players ") < text.index("[Result ")


@pytest.mark.parametrize("name", ["", "   ", "two\nlines", "a\tb"])
def test_player_names_that_cannot_be_written_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="cannot go in a record"):
        record.dumps(patience.new("klondike", deal=1), players=[name])


def _json_text_json(players: list[str]) -> list[str] | None:
    """``players`` in a JSON record, converted to the text form and back to JSON."""
    data = json.loads(record.dumps(record.loads(GOOD), "json"))
    data["players"] = players
    text = record.read_record(json.dumps(data)).dumps("text")
    again = record.read_record(record.read_record(text).dumps("json"))
    return again.players


@pytest.mark.parametrize(
    "players",
    [
        ["Smith, J", "ann"],
        [" padded ", "x"],
        ['"quoted"', 'Ann "the Ace"'],
        ["a,b,c", ",", '","', "back\\slash, too"],
        ["Ёлка, ёж", "  ,  "],
    ],
)
def test_player_names_survive_json_to_text_to_json(players: list[str]) -> None:
    assert _json_text_json(players) == players


@given(
    st.lists(
        st.text(min_size=1).filter(lambda name: name.strip() and name.isprintable()),
        min_size=1,
        max_size=4,
    )
)
def test_any_valid_player_name_survives_the_text_form(players: list[str]) -> None:
    assert _json_text_json(players) == players


def test_names_with_commas_are_quoted_and_old_players_tags_read_as_before() -> None:
    game = random_game(6, moves=3)
    text = record.dumps(game, players=["Smith, J", "ann"])
    assert '[Players "\\"Smith, J\\",ann"]' in text
    old = GOOD.replace('[Result "ongoing"]', '[Players "ann , bob,c\\\\d"]\n[Result "ongoing"]')
    assert record.read_record(old).players == ["ann", "bob", "c\\d"]


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("ann,", "a name is empty"),
        ('"unclosed', "is not a JSON string"),
        ('"a" b', "a comma must follow the quoted name"),
        ('"two\\nlines"', "cannot go in a record"),
    ],
)
def test_bad_players_tags_are_refused(value: str, reason: str) -> None:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    text = GOOD.replace('[Result "ongoing"]', f'[Players "{escaped}"]\n[Result "ongoing"]')
    with pytest.raises(RecordError, match=reason) as error:
        record.read_record(text)
    assert error.value.line == 6


def test_json_player_names_that_the_text_form_cannot_hold_are_refused() -> None:
    data = json.loads(record.dumps(record.loads(GOOD), "json"))
    data["players"] = ["two\nlines"]
    with pytest.raises(RecordError, match='"players": player name'):
        record.read_record(json.dumps(data))


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="use text or json"):
        record.dumps(patience.new("klondike", deal=1), "pgn")


def test_comments_unknown_tags_and_lenient_spacing() -> None:
    text = (
        "; saved by a test\n"
        + HEAD.replace('[Version "1"]', '[Version "1"]\n[Event "club night"]')
        + "\n; the moves\n1. t7-f1 {\n  flip(pile=t7,card=6s)\n}\n2.   stock\n*\n"
    )
    rec, game = record.load_record(text)
    assert rec.extra == {"Event": "club night"}
    assert game.move_stack == [Move.parse("t7-f1"), Move.parse("stock")]
    assert "Event" not in record.dumps(game)


def test_json_moves_may_be_objects() -> None:
    data = json.loads(json_record())
    data["moves"] = [
        {
            "move": {"from": "t7", "to": "f1"},
            "forced": [{"action": "flip", "pile": "t7", "card": "6s"}],
        },
        {"move": {"action": "stock"}},
    ]
    game = record.loads(json.dumps(data))
    assert game.move_stack == [Move.parse("t7-f1"), Move.parse("stock")]


def test_json_form_keys() -> None:
    data = json.loads(record.dumps(record.loads(GOOD), "json", seed=3, players=["p"]))
    assert list(data) == [
        "format",
        "version",
        "shuffle",
        "game",
        "options",
        "deal",
        "seed",
        "players",
        "moves",
        "result",
    ]
    assert data["format"] == "patience-record"
    assert data["options"] == {"draw": 1, "passes": "unlimited", "from_foundation": True}
    assert data["moves"][0] == {"move": "t7-f1", "forced": ["flip(pile=t7,card=6s)"]}
    assert data["result"] == {"result": "ongoing"}


def test_dump_and_load_files(tmp_path: Path) -> None:
    game = random_game(8, moves=40)
    for name in ("game.rec", "game.json", "game.txt"):
        path = tmp_path / name
        record.dump(game, path)
        text = path.read_text(encoding="utf-8")
        assert text.startswith("{") == name.endswith(".json")
        assert record.load(path).position() == game.position()
    record.dump(game, tmp_path / "forced.rec", format="json")
    assert (tmp_path / "forced.rec").read_text().startswith("{")


def test_record_replay_equals_loads() -> None:
    rec = record.read_record(GOOD)
    assert isinstance(rec, Record)
    assert rec.replay().position() == record.loads(GOOD).position()


# -- refusals: the text form -------------------------------------------------------------------


def test_malformed_tag_line() -> None:
    error = refusal(HEAD.replace('[Deal "7"]', "[Deal 7]") + "\n*\n")
    assert error.line == 3
    assert error.move_number is None
    assert str(error).startswith("line 3: malformed tag pair '[Deal 7]'")
    assert '[Name "value"]' in str(error)


def test_bad_escape_in_tag() -> None:
    error = refusal(HEAD.replace('[Deal "7"]', '[Deal "7\\n"]') + "\n*\n")
    assert error.line == 3
    assert "unknown escape" in str(error)


def test_duplicate_tag() -> None:
    error = refusal(HEAD + '[Deal "8"]\n\n*\n')
    assert error.line == 7
    assert "tag Deal is given twice (first on line 3)" in str(error)


def test_unknown_game() -> None:
    error = refusal(HEAD.replace("klondike", "chess") + "\n*\n")
    assert error.line == 1
    assert "unknown game 'chess'" in str(error)
    assert "klondike" in error.reason


def test_bad_option() -> None:
    error = refusal(HEAD.replace("draw=1", "draw=2") + "\n*\n")
    assert error.line == 2
    assert str(error).startswith("line 2: option draw='2' is not allowed: use 1 or 3")


def test_unknown_option() -> None:
    error = refusal(HEAD.replace("draw=1", "colour=red") + "\n*\n")
    assert error.line == 2
    assert "klondike has no option 'colour'" in str(error)


def test_bad_deal_number() -> None:
    error = refusal(HEAD.replace('"7"', '"seven"') + "\n*\n")
    assert error.line == 3
    assert "deal number 'seven' is not an integer" in str(error)


def test_missing_tags() -> None:
    assert "no Game tag" in str(refusal(HEAD.replace('[Game "klondike"]\n', "") + "\n*\n"))
    error = refusal(HEAD.replace('[Deal "7"]\n', "") + "\n*\n")
    assert "no Deal tag" in str(error)
    assert "no Result tag" in str(refusal(HEAD.replace('[Result "ongoing"]\n', "") + "\n*\n"))
    assert "not a record" in str(refusal("1. stock *\n"))


def test_illegal_move() -> None:
    text = HEAD + "\n1. t7-f1 {flip(pile=t7,card=6s)} 2. stock\n3. t5-f2 *\n"
    error = refusal(text)
    assert (error.line, error.move_number) == (9, 3)
    assert str(error) == (
        "line 9, move 3: illegal move t5-f2: 3c cannot go on f2: it takes an ace "
        "(foundations build up in suit from the ace)"
    )


def test_unknown_pile_names_the_move() -> None:
    error = refusal(HEAD + "\n1. t9-f1 *\n")
    assert (error.line, error.move_number) == (8, 1)
    assert "illegal move t9-f1: klondike has no pile 't9'" in str(error)


def test_move_that_is_not_notation() -> None:
    error = refusal(HEAD + "\n1. t7-f1 {flip(pile=t7,card=6s)} 2. stock(x) *\n")
    assert (error.line, error.move_number) == (8, 2)
    assert "cannot read move 'stock(x)'" in str(error)


def test_tampered_forced_annotation() -> None:
    error = refusal(GOOD.replace("card=6s", "card=6h"))
    assert (error.line, error.move_number) == (8, 1)
    assert "forced moves after t7-f1 do not match" in str(error)
    assert "the record says the forced moves were flip(pile=t7,card=6h)" in str(error)
    assert "but they were flip(pile=t7,card=6s)" in str(error)


def test_missing_forced_annotation() -> None:
    error = refusal(GOOD.replace(" {flip(pile=t7,card=6s)}", ""))
    assert error.move_number == 1
    assert "the forced moves were none, but they were flip(pile=t7,card=6s)" in str(error)


def test_wrong_result_tag() -> None:
    text = GOOD.replace('[Result "ongoing"]', '[Result "won"]').replace(" *", " won")
    error = refusal(text)
    assert error.line == 6
    assert str(error) == "line 6: the record's result is won, but its moves give ongoing"


def test_wrong_reason_tag() -> None:
    game = random_game(4, moves=5)
    game.resign()
    text = record.dumps(game).replace('"resigned"', '"no legal move left"')
    error = refusal(text)
    assert "the record's result is lost (no legal move left)" in str(error)
    assert "give ongoing" in str(error)


def test_result_marker_must_match_result_tag() -> None:
    error = refusal(GOOD.replace(" *", " won"))
    assert error.line == 8
    assert "result marker won does not match the Result tag 'ongoing'" in str(error)


def test_result_marker_missing_or_followed_by_moves() -> None:
    assert "ends without a result marker" in str(refusal(GOOD.replace(" *", "")))
    error = refusal(GOOD.replace(" *", " * 3. stock"))
    assert "'3.' after the result marker" in str(error)


def test_move_numbers_in_sequence() -> None:
    error = refusal(GOOD.replace("2. stock", "3. stock"))
    assert (error.line, error.move_number) == (8, 2)
    assert "move number 3. is out of sequence: the next move is number 2" in str(error)
    error = refusal(GOOD.replace("2. stock", "stock"))
    assert "expected the move number 2. or a result marker" in str(error)


def test_unbalanced_braces() -> None:
    assert "never closed" in str(refusal(GOOD.replace("6s)}", "6s)")))
    assert "without a '{'" in str(refusal(GOOD.replace("{flip", "flip")))


def test_wrong_shuffle_version() -> None:
    error = refusal(GOOD.replace('[Shuffle "1"]', '[Shuffle "2"]'))
    assert error.line == 4
    assert "this record needs shuffle version 2" in str(error)
    assert "this program deals with shuffle version 1" in str(error)


def test_unsupported_record_version() -> None:
    error = refusal(GOOD.replace('[Version "1"]', '[Version "9"]'))
    assert error.line == 5
    assert "record version 9 is not supported: this program reads version 1" in str(error)


def test_deal_and_position_together() -> None:
    position = json.dumps(patience.new("klondike", deal=7).position(), separators=(",", ":"))
    escaped = position.replace('"', '\\"')
    error = refusal(GOOD.replace('[Deal "7"]', f'[Deal "7"]\n[Position "{escaped}"]'))
    assert "both a Deal and a Position tag" in str(error)


def test_bad_position() -> None:
    text = HEAD.replace('[Deal "7"]', '[Position "{\\"game\\":\\"klondike\\"}"]') + "\n*\n"
    error = refusal(text)
    assert error.line == 3
    assert "bad start position: a position needs 'piles'" in str(error)
    assert "not JSON" in str(refusal(HEAD.replace('[Deal "7"]', '[Position "{"]') + "\n*\n"))


def test_position_of_other_options() -> None:
    position = patience.new("klondike", deal=7, draw=3).position()
    escaped = json.dumps(position, separators=(",", ":")).replace('"', '\\"')
    error = refusal(HEAD.replace('[Deal "7"]', f'[Position "{escaped}"]') + "\n*\n")
    assert error.line == 3
    assert "options draw=3,passes=unlimited,from_foundation=on" in str(error)


def test_moves_after_the_end() -> None:
    golden = Path(__file__).resolve().parent / "golden" / "klondike-lost-stuck.rec"
    text = golden.read_text(encoding="utf-8")
    moves = len(record.loads(text).move_stack)
    error = refusal(text.replace(" lost\n", f" {moves + 1}. stock lost\n"))
    assert error.move_number == moves + 1
    assert "illegal move stock: the stock is empty: no pass through it is left" in str(error)


# -- refusals: the JSON form -------------------------------------------------------------------


def test_bad_json() -> None:
    error = refusal('{\n  "format": "patience-record",\n  "version": 1,,\n}')
    assert error.line == 3
    assert str(error).startswith("line 3: bad JSON: Expecting property name")


def test_json_nested_too_deeply() -> None:
    # A few kilobytes of brackets make Python's JSON reader raise RecursionError.
    deep = '{"format": "patience-record", "moves": ' + "[" * 3000 + "]" * 3000 + "}"
    assert "nested too deeply" in str(refusal(deep))
    position = HEAD.replace('[Deal "7"]', '[Position "' + "[" * 3000 + "]" * 3000 + '"]')
    error = refusal(position + "\n*\n")
    assert error.line == 3
    assert "nested too deeply" in str(error)


def test_json_that_is_not_a_record() -> None:
    assert 'needs "format": "patience-record"' in str(refusal('{"game": "klondike"}'))


def test_json_malformed_move() -> None:
    data = json.loads(json_record())
    data["moves"][1] = {"move": {"from": "t3"}}
    error = refusal(json.dumps(data))
    assert (error.line, error.move_number) == (None, 2)
    assert str(error).startswith("move 2: bad or missing 'to' pile")
    data["moves"][1] = {"move": 7}
    assert "move 2: a move is text like" in str(refusal(json.dumps(data)))
    data["moves"][1] = {"move": "stock", "forcd": []}
    assert "move 2: unknown key 'forcd' in a move" in str(refusal(json.dumps(data)))
    data["moves"][1] = "stock"
    assert "move 2: each move is an object" in str(refusal(json.dumps(data)))


def test_json_illegal_move_and_forced() -> None:
    data = json.loads(json_record())
    data["moves"][1] = {"move": "t5-f2"}
    error = refusal(json.dumps(data))
    assert str(error).startswith("move 2: illegal move t5-f2: 3c cannot go on f2")
    data = json.loads(json_record())
    data["moves"][0]["forced"] = []
    assert "move 1: forced moves after t7-f1 do not match" in str(refusal(json.dumps(data)))


def test_json_header_refusals() -> None:
    assert "this record needs shuffle version 5" in str(refusal(json_record(shuffle=5)))
    assert "unknown game 'chess'" in str(refusal(json_record(game="chess")))
    assert "option draw=2 is not allowed" in str(refusal(json_record(options={"draw": 2})))
    assert "record version 2 is not supported" in str(refusal(json_record(version=2)))
    assert '"deal" must be a whole number' in str(refusal(json_record(deal="7")))
    error = refusal(json_record(result={"result": "won", "reason": "all done"}))
    assert "the record's result is won (all done), but its moves give ongoing" in str(error)
    assert '"result" must be an outcome' in str(refusal(json_record(result="won")))


def test_module_doctest() -> None:
    import doctest

    result = doctest.testmod(record)
    assert result.attempted > 0
    assert result.failed == 0
