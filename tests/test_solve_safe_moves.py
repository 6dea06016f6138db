"""The solver's safe moves to the foundations as a public function (issue 21: a web page's
automatic moves): the same rule the search applies (docs/solving.md), only in the games whose
rule reads what the player sees."""

from __future__ import annotations

import patience
from patience.solve import SAFE_MOVE_GAMES, safe_moves


def klondike(foundations: dict[str, list[str]], top: str) -> patience.Game:
    """A Klondike position: the foundations as given, ``top`` alone face up on pile 1, and
    every other card face down on pile 7 under one face-up card."""
    start = patience.new("klondike", deal=1).position()
    piles: dict[str, dict[str, list[str]]] = {
        name: {"down": [], "up": []} for name in start["piles"]
    }
    for name, cards in foundations.items():
        piles[name]["up"] = cards
    piles["t1"]["up"] = [top]
    used = {top, *(card for cards in foundations.values() for card in cards)}
    rest = [f"{r}{s}" for s in "cdhs" for r in "A23456789TJQK" if f"{r}{s}" not in used]
    piles["t7"]["down"], piles["t7"]["up"] = rest[:-1], rest[-1:]
    return patience.Game.from_position({**start, "deal": None, "piles": piles})


def texts(game: patience.Game) -> list[str]:
    return [move.text() for move in safe_moves(game)]


def test_an_ace_is_safe_and_the_list_ends_when_it_is_up() -> None:
    game = patience.new("klondike", deal=7)
    assert texts(game) == ["t7-f1"]
    game.push("t7-f1")
    assert texts(game) == []


def test_a_three_waits_for_the_other_colour_and_its_partner() -> None:
    # Only one red two is up: a red two might still want the three of clubs to go on.
    low = klondike({"f1": ["Ac", "2c"], "f2": ["Ah", "2h"], "f3": ["Ad"]}, "3c")
    assert texts(low) == []
    # Both red twos up, but with cards back from the foundations (the default) the spades'
    # foundation must hold the ace too.
    partner = klondike({"f1": ["Ac", "2c"], "f2": ["Ah", "2h"], "f3": ["Ad", "2d"]}, "3c")
    assert texts(partner) == []
    ready = klondike(
        {"f1": ["Ac", "2c"], "f2": ["Ah", "2h"], "f3": ["Ad", "2d"], "f4": ["As"]}, "3c"
    )
    assert texts(ready) == ["t1-f1"]


def test_only_games_whose_rule_reads_what_the_player_sees() -> None:
    assert SAFE_MOVE_GAMES == ("klondike", "canfield", "napoleon")
    assert texts(patience.new("canfield", deal=5)) == ["t1-f1"]
    for name in ("spider", "accordion", "leonis-own"):
        assert texts(patience.new(name, deal=3)) == [], name
    over = patience.new("klondike", deal=7)
    over.resign()
    assert texts(over) == []
