"""The fixed action spaces of docs/notation.md ("Action numbers"): the sizes the document gives
are the rules' own, and the blocks it lists start where it says. The round trip over random play
is a property test (tests/test_properties.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import patience
from patience import IllegalMove, Move

NOTATION = Path(__file__).resolve().parent.parent / "docs" / "notation.md"
TITLES = {
    "Klondike": "klondike",
    "Canfield": "canfield",
    "Spider": "spider",
    "Accordion": "accordion",
    "Napoleon at St Helena": "napoleon",
    "Leoni's Own": "leonis-own",
    "Double Solitaire": "double-solitaire",
    "Leopard": "leopard",
}


def documented_sizes() -> dict[str, int]:
    text = NOTATION.read_text(encoding="utf-8").split("## Action numbers", 1)[1]
    found = re.findall(r"^### (.+?) \(`N` = (\d+)", text, flags=re.MULTILINE)
    return {TITLES[title]: int(size) for title, size in found}


def test_every_game_has_its_documented_action_space() -> None:
    sizes = documented_sizes()
    assert set(sizes) == set(patience.GAMES)
    for name, size in sizes.items():
        assert patience.get_rules(name).num_distinct_actions() == size, name


@pytest.mark.parametrize(
    ("name", "options", "size"),
    [
        ("klondike", {"from_foundation": False, "passes": 1}, 615 - 28 - 1),
        ("canfield", {"move": "top", "spaces": "waste"}, 24 + 12 + 8 + 2),
        ("spider", {"auto_remove": False}, 1251),
        ("leonis-own", {"exile": "choose"}, 977),
        ("leopard", {"players": 4}, 1461),
    ],
)
def test_the_space_follows_the_options(name: str, options: dict[str, object], size: int) -> None:
    assert patience.get_rules(name, options).num_distinct_actions() == size


def test_documented_numbers_name_the_documented_moves() -> None:
    klondike = patience.get_rules("klondike")
    state = klondike.start(1)[0]
    assert klondike.action_to_move(state, 0) == Move.parse("waste-f1")
    assert klondike.action_to_move(state, 613) == Move.parse("stock")
    assert klondike.move_to_action(state, Move.parse("t7-t6:13")) == 577
    leopard = patience.get_rules("leopard")
    assert leopard.move_to_action(leopard.start(1)[0], Move.parse("draw")) == 1460
    solitaire = patience.get_rules("double-solitaire")
    assert solitaire.move_to_action(solitaire.start(1)[0], Move.parse("a1-f1:1")) == (
        5 + (PILES.index("a1") * 28 + PILES.index("f1")) * 13
    )


PILES = [
    *(f"f{n}" for n in range(1, 9)),
    *(
        name
        for p in "ab"
        for name in (f"{p}stock", f"{p}hand", f"{p}waste", *(f"{p}{n}" for n in range(1, 8)))
    ),
]


def test_templates_take_their_part_from_the_state() -> None:
    game = patience.new("accordion", deal=3, dealing="all")
    legal = game.legal_moves()
    pile_move = next(move for move in legal if not move.is_action)
    action = game.rules.move_to_action(game.state, pile_move)
    assert game.rules.action_to_move(game.state, action) == pile_move
    wrong_count = Move.cards(str(pile_move.source), str(pile_move.target), pile_move.count + 1)
    with pytest.raises(IllegalMove, match="moves whole"):
        game.rules.move_to_action(game.state, wrong_count)


def test_a_game_without_an_action_space_says_so() -> None:
    # The engine's default, for a game added from outside that declares no action space.
    with pytest.raises(NotImplementedError, match="klondike has no fixed action space"):
        patience.Rules.action_moves(patience.get_rules("klondike"))
