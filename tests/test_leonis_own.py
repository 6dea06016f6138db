"""Leoni's Own, rule by rule, from RULES.md's "Leoni's Own" and the seed (002_*.txt).

Hand-made positions are written as the foundations of each suit (``found={"h": (4, 9)}``: the ace
foundation holds A..4, the king foundation K..9; suits not named are complete), the piles that
matter (bottom to top) and the exile pile (bottom to top). Every other card goes, in new-pack
order, to the bottom of the exile pile (or of the pile named by ``rest``), where the test never
reaches it. Weaving sequences below were worked out by hand from RULES.md's steps 1-4.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import patience
from patience import Game, IllegalMove, Move, OptionError, PositionError
from patience.cards import RANK_OF, pack
from patience.deals import Shuffler
from patience.games.leonis_own import SQUARED, pile_of_rank

SUITS = "cdhs"
RANKS = "A23456789TJQK"
PILES = [f"t{number}" for number in range(1, 14)]
FOUNDATIONS = [f"f{number}" for number in range(1, 9)]
ALL_PILES = [*FOUNDATIONS, *PILES, "exiles", "hand"]
ONE_PACK = [rank + suit for suit in SUITS for rank in RANKS]

#: Deal 1 (docs/deals.md): pile 1 and the exile pile, bottom to top.
DEAL_1_T1 = ["8h", "Qs", "2d", "Jh", "6c", "Jc", "Kc"]
DEAL_1_EXILES = ["5h", "6h", "2h", "8d", "5d", "Ts"]


def card(rank: int, suit: str) -> str:
    return RANKS[rank - 1] + suit


def position(
    piles: dict[str, str] | None = None,
    *,
    found: dict[str, tuple[int, int]] | None = None,
    exiles: str = "",
    hand: str = "",
    rest: str = "exiles",
    redeals: int = 0,
    standstill: bool = False,
    notes: tuple[str, ...] = (),
    **options: object,
) -> dict[str, Any]:
    """The position JSON of a hand-made Leoni's Own position (see the module docstring)."""
    up: dict[str, list[str]] = {name: [] for name in ALL_PILES}
    for index, suit in enumerate(SUITS):
        high, low = (found or {}).get(suit, (13, 1))
        up[f"f{index + 1}"] = [card(rank, suit) for rank in range(1, high + 1)]
        up[f"f{index + 5}"] = [card(rank, suit) for rank in range(13, low - 1, -1)]
    for name, text in (piles or {}).items():
        up[name] = text.split()
    up["hand"] = hand.split()
    exile_cards = exiles.split()
    counts = Counter(dict.fromkeys(ONE_PACK, 2))
    counts.subtract([text for name in ALL_PILES for text in up[name]] + exile_cards)
    assert all(count >= 0 for count in counts.values()), +counts - counts
    leftover = [text for text in ONE_PACK for _ in range(counts[text])]
    if rest == "exiles":
        exile_cards = leftover + exile_cards
    else:
        up[rest] = leftover + up[rest]
    data = {name: {"down": [], "up": up[name]} for name in ALL_PILES}
    data["exiles"] = {"down": exile_cards, "up": []}
    return {
        "version": 1,
        "game": "leonis-own",
        "options": dict(options),
        "deal": None,
        "piles": data,
        "redeals": redeals,
        "standstill": standstill,
        "notes": list(notes),
    }


def load(piles: dict[str, str] | None = None, **kwargs: Any) -> Game:
    """A game continued from :func:`position`."""
    return Game.from_position(position(piles, **kwargs))


def cards_of(game: Game, name: str) -> list[str]:
    return [str(item) for item in game.state.piles[name]]


def texts(moves: list[Move]) -> list[str]:
    return [move.text() for move in moves]


def refused(game: Game, move: str, *reason: str) -> None:
    """``move`` is refused with every part of ``reason`` in the message; nothing changes."""
    before = game.position()
    stack = game.move_stack
    with pytest.raises(IllegalMove) as error:
        game.push(move)
    for part in reason:
        assert part in str(error.value), str(error.value)
    assert game.position() == before
    assert game.move_stack == stack


def deal_by_hand(stock: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """RULES.md's deal with exiles, written out again: piles 1..13 in turn, a card meeting its
    own pile exiled and the next card tried on the same pile."""
    piles: dict[str, list[str]] = {name: [] for name in PILES}
    exiled: list[str] = []
    number = 1
    for text in stock:
        if RANKS.index(text[0]) + 1 == number:
            exiled.append(text)
        else:
            piles[f"t{number}"].append(text)
            number = number % 13 + 1
    return piles, exiled


def check_deal_facts(game: Game) -> None:
    """After a deal no card lies on its own pile, so pile 13 holds no king."""
    for number, name in enumerate(PILES, start=1):
        assert all(item.rank != number for item in game.state.piles[name]), (name, number)
    assert all(item.rank != 13 for item in game.state.piles["t13"])
    assert sum(len(game.state.piles[name]) for name in (*PILES, "exiles")) == 104 - sum(
        len(game.state.piles[name]) for name in FOUNDATIONS
    )


# -- options, cards and the deal ------------------------------------------------------------------


def test_option_exile_defaults_to_top_and_allows_choose() -> None:
    assert patience.new("leonis-own", deal=1).options == {"exile": "top"}
    assert patience.new("leonis-own", deal=1, exile="choose").options == {"exile": "choose"}
    with pytest.raises(OptionError, match="top or choose"):
        patience.new("leonis-own", deal=1, exile="any")


def test_registered_between_napoleon_and_leopard_order() -> None:
    names = list(patience.GAMES)
    assert "leonis-own" in names
    assert names.index("leonis-own") > names.index("klondike")
    if "napoleon" in names:
        assert names.index("leonis-own") > names.index("napoleon")
    if "leopard" in names:
        assert names.index("leonis-own") < names.index("leopard")


def test_deck_takes_one_ace_and_one_king_of_each_suit_out_of_pack_0() -> None:
    deck = patience.get_rules("leonis-own").deck()
    assert len(deck) == 104
    assert [str(item) for item in deck[:8]] == ["Ac", "Ad", "Ah", "As", "Kc", "Kd", "Kh", "Ks"]
    assert all(item.pack == 0 for item in deck[:8])
    assert deck[8:] == [item for item in pack(0) if item not in deck[:8]] + pack(1)


def test_the_exiles_of_the_deal_are_reported_before_the_first_move() -> None:
    game = patience.new("leonis-own", deal=1)
    assert texts(game.opening) == [f"exiled(card={text})" for text in DEAL_1_EXILES]


def test_deal_puts_the_eight_foundation_cards_out_and_deals_the_other_96() -> None:
    game = patience.new("leonis-own", deal=1)
    assert [cards_of(game, name) for name in FOUNDATIONS] == [
        ["Ac"], ["Ad"], ["Ah"], ["As"], ["Kc"], ["Kd"], ["Kh"], ["Ks"]
    ]  # fmt: skip
    assert all(game.state.piles[name][0].pack == 0 for name in FOUNDATIONS)
    assert sum(len(game.state.piles[name]) for name in (*PILES, "exiles")) == 96
    assert cards_of(game, "t1") == DEAL_1_T1
    assert game.position()["piles"]["exiles"] == {"down": DEAL_1_EXILES, "up": []}
    assert game.state.piles["hand"] == []


@pytest.mark.parametrize("deal", [0, 1, 2, 7, 12345, 2**53 - 1])
def test_deal_follows_the_shuffle_one_card_at_a_time_with_exiles(deal: int) -> None:
    rules = patience.get_rules("leonis-own")
    stock = [str(item) for item in Shuffler(deal).shuffle(rules.deck()[8:])]
    piles, exiled = deal_by_hand(stock)
    game = patience.new("leonis-own", deal=deal)
    assert {name: cards_of(game, name) for name in PILES} == piles
    assert cards_of(game, "exiles") == exiled
    assert game.state.down["exiles"] == len(exiled)


def test_after_a_deal_no_card_lies_on_its_own_pile_and_pile_13_holds_no_king() -> None:
    for deal in range(400):
        check_deal_facts(patience.new("leonis-own", deal=deal))


def test_after_every_redeal_too_no_card_lies_on_its_own_pile() -> None:
    redeals = 0
    for deal in range(40):
        game = patience.new("leonis-own", deal=deal)
        rng = random.Random(deal)
        for _ in range(400):
            moves = game.legal_moves()
            if not moves:
                break
            move = Move.act("redeal") if Move.act("redeal") in moves else rng.choice(moves)
            game.push(move)
            if move.action == "redeal":
                redeals += 1
                check_deal_facts(game)
    assert redeals >= 40


# -- the piles and the view ----------------------------------------------------------------------


def test_only_the_top_card_of_piles_1_to_12_is_available() -> None:
    game = load({"t1": "5h 9h"}, found={"h": (4, 1)}, exiles="7h")
    assert game.legal_moves() == [Move.act("exile")]
    refused(game, "t1-f3", "9h cannot go on f3", "5h")


def test_every_card_of_pile_13_is_available() -> None:
    game = load({"t13": "9h 5h Th"}, found={"h": (4, 1)})
    assert texts(game.legal_moves()) == ["play(card=5h,at=2,to=f3)"]
    refused(game, "t13-f3", "play(card=C,at=N,to=fK)", "play(card=5h,at=2,to=f3)")
    refused(game, "play(card=5h,at=1,to=f3)", "5h is card 2 of t13")
    refused(game, "play(card=9h,at=1,to=f3)", "9h cannot go on f3")
    refused(game, "play(at=2,card=5h,to=f3)", "write it as play(card=5h,at=2,to=f3)")
    game.push("play(card=5h,at=2,to=f3)")
    assert cards_of(game, "t13") == ["9h", "Th"]
    assert cards_of(game, "f3")[-1] == "5h"


def test_cards_go_only_to_the_foundations() -> None:
    game = load({"t1": "9h", "t2": "Th"}, found={"h": (4, 1)})
    refused(game, "t1-t2", "only to the foundations")
    refused(game, "t1-exiles", "only to the foundations")
    refused(game, "t1-f3:2", "one at a time")
    refused(game, "exiles-f3", "exile")


def test_foundations_build_up_from_the_ace_and_down_from_the_king_in_suit() -> None:
    game = load({"t1": "5h", "t2": "8h", "t3": "6h", "t4": "5d"}, found={"h": (4, 9), "d": (3, 1)})
    assert texts(game.legal_moves()) == ["t1-f3", "t2-f7"]
    refused(game, "t1-f7", "5h cannot go on f7", "the 8h", "down in suit from the king")
    refused(game, "t3-f3", "6h cannot go on f3", "the 5h", "up in suit from the ace")
    refused(game, "t4-f3", "5d cannot go on f3")
    refused(game, "t4-f2", "the 4d")


def test_view_shows_the_top_card_of_squared_piles_all_of_pile_13_and_hides_exiles() -> None:
    game = load({"t1": "5h 9h", "t13": "9c 6h"}, found={"h": (4, 1), "c": (8, 1)}, exiles="7h")
    view = game.view()
    assert view["piles"]["t1"] == {"down": [], "up": [None, "9h"]}
    assert view["piles"]["t2"] == {"down": [], "up": []}
    assert view["piles"]["t13"] == {"down": [], "up": ["9c", "6h"]}
    assert view["piles"]["exiles"]["up"] == []
    assert set(view["piles"]["exiles"]["down"]) == {None}
    assert view["piles"]["f3"]["up"][-1] == "4h"


def test_view_keeps_the_standstill_notes_to_itself() -> None:
    # A note names every card of piles 1-12, the squared ones' hidden cards too.
    game = load({"t1": "5h 9h"}, found={"h": (4, 1)}, notes=("6h|5h9h///////////",))
    view = game.view()
    assert "notes" not in view
    assert view["notes_made"] == 1
    assert view["piles"]["t1"]["up"] == [None, "9h"]
    assert "5h" not in json.dumps({key: value for key, value in view.items() if key != "piles"})
    assert game.position()["notes"] == ["6h|5h9h///////////"]


# -- reversals ---------------------------------------------------------------------------------


def test_reversal_moves_cards_either_way_when_the_tops_are_in_sequence() -> None:
    game = load(found={"h": (5, 6)})
    assert texts(game.legal_moves()) == ["f3-f7", "f7-f3", "exile"]
    game.push("f7-f3")
    assert cards_of(game, "f3")[-1] == "6h"
    assert cards_of(game, "f7")[-1] == "7h"
    game.push("f7-f3")
    assert cards_of(game, "f3")[-1] == "7h"
    # Moving 7h back would recreate a position already reached (RULES.md, "End of a game").
    refused(game, "f3-f7", "recreate a position")
    game = load(found={"h": (5, 6)})
    game.push("f3-f7")
    assert cards_of(game, "f3")[-1] == "4h"
    assert cards_of(game, "f7")[-1] == "5h"


def test_reversal_never_moves_the_base_ace_or_king() -> None:
    game = load(found={"h": (1, 2)})
    assert texts(game.legal_moves())[:1] == ["f7-f3"]
    refused(game, "f3-f7", "the base ace of f3 never moves")
    game = load(found={"h": (12, 13)})
    assert texts(game.legal_moves())[:1] == ["f3-f7"]
    refused(game, "f7-f3", "the base king of f7 never moves")


def test_reversal_needs_the_tops_in_sequence_and_the_same_suit() -> None:
    game = load(found={"h": (5, 8)})
    refused(game, "f3-f7", "in sequence", "the 7h")
    refused(game, "f7-f3", "in sequence")
    refused(game, "f3-f8", "other foundation of its suit", "f3-f7")
    refused(game, "f3-t1", "only to the foundations")


# -- stuck and turning an exile -----------------------------------------------------------------


def test_an_exile_is_turned_only_when_stuck() -> None:
    game = load({"t1": "5h"}, found={"h": (4, 1)}, exiles="9h")
    assert texts(game.legal_moves()) == ["t1-f3"]
    refused(game, "exile", "only when stuck", "5h on t1")
    game.push("t1-f3")
    assert texts(game.legal_moves()) == ["exile"]


def test_stuck_ignores_what_reversals_could_make_playable() -> None:
    # 9h would fit the ace foundation after three reversals, but stuck counts the foundations as
    # they stand: the exile may be turned.
    game = load({"t1": "9h"}, found={"h": (5, 6)})
    assert texts(game.legal_moves()) == ["f3-f7", "f7-f3", "exile"]


def test_turned_exile_that_fits_is_played() -> None:
    game = load(found={"h": (4, 1)}, exiles="5h")
    assert game.push("exile") == [Move.parse("turn(card=5h)"), Move.parse("hand-f3")]
    assert cards_of(game, "f3")[-1] == "5h"
    assert cards_of(game, "hand") == []


def test_turned_exile_that_fits_both_foundations_waits_for_the_players_choice() -> None:
    game = load(found={"h": (5, 7)}, exiles="6h")
    assert game.push("exile") == [Move.parse("turn(card=6h)")]
    assert cards_of(game, "hand") == ["6h"]
    assert game.view()["piles"]["hand"] == {"down": [], "up": ["6h"]}
    assert texts(game.legal_moves()) == ["hand-f3", "hand-f7"]
    refused(game, "exile", "fits both", "hand-f3 or hand-f7")
    refused(game, "hand-f1", "hand-f3 or hand-f7")
    refused(game, "redeal", "hand-f3 or hand-f7")
    assert game.push("hand-f7") == []
    assert cards_of(game, "f7")[-1] == "6h"
    assert cards_of(game, "hand") == []
    game.pop()
    game.push("hand-f3")
    assert cards_of(game, "f3")[-1] == "6h"


def test_turned_exile_king_joins_pile_13_and_the_next_exile_is_turned_at_once() -> None:
    game = load(found={"h": (4, 1)}, exiles="9h Kh")
    forced = game.push("exile")
    # Still stuck after the king joins pile 13: the next exile (9h) is turned (RULES.md).
    assert forced[:3] == [
        Move.parse("turn(card=Kh)"),
        Move.parse("hand-t13"),
        Move.parse("turn(card=9h)"),
    ]
    assert cards_of(game, "t13")[0] == "Kh"


def test_turned_exile_king_that_fits_the_ace_foundation_is_played_and_wins() -> None:
    game = load(found={"h": (12, 1)}, exiles="Kh")
    assert game.push("exile") == [Move.parse("turn(card=Kh)"), Move.parse("hand-f3")]
    assert game.outcome().to_json() == {
        "result": "won",
        "reason": "all 104 cards are on the foundations",
    }


def test_exile_top_takes_no_arguments() -> None:
    game = load(found={"h": (4, 1)}, exiles="9h")
    refused(game, "exile(card=9h,at=9)", "exile=top", "no arguments")


def test_exile_choose_lets_the_player_pick_any_exile_by_its_place() -> None:
    game = load(found={"h": (4, 1)}, exiles="9h 6h Th", rest="t12", exile="choose")
    assert cards_of(game, "t12") == ["5h", "7h", "8h", "Jh", "Qh", "Kh"]
    assert texts(game.legal_moves()) == ["exile(at=1)", "exile(at=2)", "exile(at=3)"]
    refused(game, "exile", "exile=choose", "exile(at=N)", "1 (the bottom", "to 3")
    refused(game, "exile(at=4)", "at= is 1 to 3")
    refused(game, "exile(card=6h,at=2)", "exile(at=N)")
    forced = game.push("exile(at=2)")
    assert texts(forced) == ["turn(card=6h)", "under(card=6h,pile=t6)"]
    assert cards_of(game, "exiles") == ["9h", "Th"]
    assert cards_of(game, "t6") == ["6h"]


def test_exile_choose_names_the_face_down_exiles_in_the_view() -> None:
    # Ruling 8: the player chooses knowing the exiles (he saw them all while dealing); they
    # still lie face down; with exile=top they stay hidden (test_view_shows_the_top_card_...).
    game = load(found={"h": (4, 1)}, exiles="9h 6h Th", rest="t12", exile="choose")
    view = game.view()
    assert view["piles"]["exiles"] == {"down": ["9h", "6h", "Th"], "up": []}
    assert game.position()["piles"]["exiles"] == {"down": ["9h", "6h", "Th"], "up": []}


# -- weaving -------------------------------------------------------------------------------------

#: Hearts A..4 and K..A, spades A..7 and K..A, diamonds A..9 and K..A: they want 5h, 8s, Td.
WEAVE_FOUND = {"h": (4, 1), "s": (7, 1), "d": (9, 1)}


def test_weave_plain_chain_until_an_uncovered_card_fits() -> None:
    game = load(
        {"t6": "Qd 9s", "t9": "Jd Ts", "t10": "8s Jh", "t11": "7h"},
        found=WEAVE_FOUND,
        exiles="6h",
    )
    assert texts(game.legal_moves()) == ["exile"]
    forced = game.push("exile")
    # 6h goes under t6 and 9s is taken (Qd uncovered: no fit); 9s under t9, Ts taken (Jd: no);
    # Ts under t10, Jh taken: 8s is uncovered and fits f4, so Jh goes under t11 and play resumes.
    assert texts(forced) == [
        "turn(card=6h)",
        "under(card=6h,pile=t6)",
        "take(pile=t6,card=9s)",
        "under(card=9s,pile=t9)",
        "take(pile=t9,card=Ts)",
        "under(card=Ts,pile=t10)",
        "take(pile=t10,card=Jh)",
        "under(card=Jh,pile=t11)",
    ]
    assert cards_of(game, "t6") == ["6h", "Qd"]
    assert cards_of(game, "t9") == ["9s", "Jd"]
    assert cards_of(game, "t10") == ["Ts", "8s"]
    assert cards_of(game, "t11") == ["Jh", "7h"]
    assert texts(game.legal_moves()) == ["t10-f4"]
    assert game.state.notes == (
        "6h|/////Qd9s///JdTs/8sJh/7h/",
        "9s|/////6hQd///JdTs/8sJh/7h/",
        "Ts|/////6hQd///9sJd/8sJh/7h/",
        "Jh|/////6hQd///9sJd/Ts8s/7h/",
    )
    assert game.state.standstill is False


def test_weave_king_taken_in_the_chain_joins_pile_13_and_ends_it() -> None:
    game = load({"t6": "Qd 9s", "t9": "Jd Ks"}, found=WEAVE_FOUND, exiles="6h")
    forced = game.push("exile")
    assert texts(forced)[:6] == [
        "turn(card=6h)",
        "under(card=6h,pile=t6)",
        "take(pile=t6,card=9s)",
        "under(card=9s,pile=t9)",
        "take(pile=t9,card=Ks)",
        "hand-t13",
    ]
    # Still stuck: RULES.md turns the next exile at once, as part of what follows.
    assert texts(forced)[6].startswith("turn(card=")
    assert cards_of(game, "t13")[0] == "Ks"
    assert cards_of(game, "t9")[:2] == ["9s", "Jd"]


def test_after_a_king_the_player_picks_the_next_exile_with_exile_choose() -> None:
    game = load({"t6": "Qd 9s", "t9": "Jd Ks"}, found=WEAVE_FOUND, exiles="Td 6h", exile="choose")
    top = len(game.state.piles["exiles"])
    forced = game.push(f"exile(at={top})")
    assert texts(forced)[-1] == "hand-t13"
    assert cards_of(game, "t13") == ["Ks"]
    # With exile=choose the player picks the next exile himself.
    assert f"exile(at={top - 1})" in texts(game.legal_moves())


def test_weave_king_taken_when_a_card_is_uncovered_that_fits_joins_pile_13() -> None:
    game = load({"t6": "Qd 9s", "t9": "8s Kh"}, found=WEAVE_FOUND, exiles="6h")
    forced = game.push("exile")
    assert texts(forced)[-2:] == ["take(pile=t9,card=Kh)", "hand-t13"]
    assert cards_of(game, "t13") == ["Kh"]
    assert cards_of(game, "t9") == ["9s", "8s"]
    assert texts(game.legal_moves()) == ["t9-f4"]


def test_weave_chain_reaching_an_empty_pile_stops_there() -> None:
    game = load({"t6": "Qd 9s"}, found=WEAVE_FOUND, exiles="Td 6h")
    forced = game.push("exile")
    # The chain stops at the empty t9; still stuck, so the next exile, Td, is turned at once
    # (RULES.md) and fits f2.
    assert texts(forced) == [
        "turn(card=6h)",
        "under(card=6h,pile=t6)",
        "take(pile=t6,card=9s)",
        "under(card=9s,pile=t9)",
        "turn(card=Td)",
        "hand-f2",
    ]
    assert cards_of(game, "t9") == ["9s"]


def test_exile_going_under_an_empty_pile_becomes_its_only_card() -> None:
    game = load(found=WEAVE_FOUND, exiles="6h")
    assert texts(game.push("exile"))[:2] == ["turn(card=6h)", "under(card=6h,pile=t6)"]
    assert cards_of(game, "t6") == ["6h"]
    assert game.state.notes[0] == "6h|///////////"


def test_standstill_ends_the_deal_when_a_note_repeats() -> None:
    game = load({"t6": "6d"}, found={"h": (4, 1), "d": (4, 1)}, exiles="6h")
    forced = game.push("exile")
    # 6h under t6, 6d taken (6h uncovered: no fit); 6d under t6, 6h taken (6d: no fit); 6h is
    # about to go under t6 with piles 1-12 as they were the first time: a standstill.
    assert texts(forced) == [
        "turn(card=6h)",
        "under(card=6h,pile=t6)",
        "take(pile=t6,card=6d)",
        "under(card=6d,pile=t6)",
        "take(pile=t6,card=6h)",
        "under(card=6h,pile=t6)",
        "standstill",
    ]
    assert cards_of(game, "t6") == ["6h", "6d"]
    assert game.state.standstill is True
    assert game.state.notes == ("6h|/////6d//////", "6d|/////6h//////")
    # The deal has ended: no more exiles, but a redeal, although exiles remain.
    assert game.state.piles["exiles"]
    assert texts(game.legal_moves()) == ["redeal"]
    refused(game, "exile", "standstill")
    game.push("redeal")
    assert game.state.standstill is False
    assert game.state.notes == ()


def test_standstill_over_two_piles() -> None:
    game = load({"t6": "7c", "t7": "6c"}, found={"h": (4, 1), "c": (4, 1)}, exiles="6h")
    forced = game.push("exile")
    assert texts(forced) == [
        "turn(card=6h)",
        "under(card=6h,pile=t6)",
        "take(pile=t6,card=7c)",
        "under(card=7c,pile=t7)",
        "take(pile=t7,card=6c)",
        "under(card=6c,pile=t6)",
        "take(pile=t6,card=6h)",
        "under(card=6h,pile=t6)",
        "take(pile=t6,card=6c)",
        "under(card=6c,pile=t6)",
        "standstill",
    ]
    assert cards_of(game, "t6") == ["6c", "6h"]
    assert cards_of(game, "t7") == ["7c"]


def test_standstill_notes_last_the_whole_deal() -> None:
    earlier = "6h|/////Qd9s///JdTs/8sJh/7h/"
    game = load(
        {"t6": "Qd 9s", "t9": "Jd Ts", "t10": "8s Jh", "t11": "7h"},
        found=WEAVE_FOUND,
        exiles="6h",
        notes=(earlier,),
    )
    assert texts(game.push("exile")) == ["turn(card=6h)", "under(card=6h,pile=t6)", "standstill"]
    assert cards_of(game, "t6") == ["6h", "Qd", "9s"]
    assert game.state.notes == (earlier,)


def test_undo_takes_back_the_weave() -> None:
    game = load({"t6": "Qd 9s", "t9": "Jd Ts", "t10": "8s Jh"}, found=WEAVE_FOUND, exiles="6h")
    before = game.position()
    game.push("exile")
    assert game.position() != before
    assert game.pop() == Move.act("exile")
    assert game.position() == before
    assert game.forced_stack == []


def test_forced_move_names_are_not_player_moves() -> None:
    game = load(found=WEAVE_FOUND, exiles="6h")
    for move in ("turn(card=6h)", "under(card=6h,pile=t6)", "take(pile=t6,card=9s)", "standstill"):
        refused(game, move, "forced move")
    refused(game, "exiled(card=6h)", "forced move")
    refused(game, "stock", "no action 'stock'")


# -- the end of a deal and redeals ------------------------------------------------------------

#: Stuck with no exiles: hearts want Jh and 3h, spades Ts; none is available.
END_OF_DEAL = {"t1": "Jh 2h", "t2": "Qs", "t3": "3h Qh", "t5": "Ts Js", "t12": "Kh", "t13": "Ah Ks"}
END_FOUND = {"h": (10, 4), "s": (9, 1)}


def test_redeal_only_at_the_end_of_a_deal() -> None:
    game = load({"t1": "5h"}, found={"h": (4, 1)})
    refused(game, "redeal", "only at the end of a deal")
    game = load(found={"h": (4, 1)}, exiles="9h")
    refused(game, "redeal", "only at the end of a deal")
    game = load(END_OF_DEAL, found=END_FOUND)
    assert texts(game.legal_moves()) == ["redeal"]
    refused(game, "redeal(now=true)", "no arguments")


def test_redeal_stacks_pile_1_on_2_and_so_on_to_13_and_turns_them_over() -> None:
    game = load(END_OF_DEAL, found=END_FOUND)
    # Stacked and turned over, the new stock reads from the top: pile 13 bottom to top (Ah Ks),
    # pile 12 (Kh), pile 5 (Ts Js), pile 3 (3h Qh), pile 2 (Qs), pile 1 (Jh 2h). Ah meets pile 1
    # and is exiled; Ks is tried on pile 1 instead.
    assert game.push("redeal") == [Move.parse("exiled(card=Ah)")]
    layout = {name: cards_of(game, name) for name in PILES if game.state.piles[name]}
    assert layout == {
        "t1": ["Ks"],
        "t2": ["Kh"],
        "t3": ["Ts"],
        "t4": ["Js"],
        "t5": ["3h"],
        "t6": ["Qh"],
        "t7": ["Qs"],
        "t8": ["Jh"],
        "t9": ["2h"],
    }
    assert game.position()["piles"]["exiles"] == {"down": ["Ah"], "up": []}
    assert game.state.redeals == 1
    assert [cards_of(game, name)[-1] for name in FOUNDATIONS] == [
        "Kc", "Kd", "Th", "9s", "Ac", "Ad", "4h", "As"
    ]  # fmt: skip


def test_redeal_after_a_standstill_puts_the_exiles_under_the_new_stock() -> None:
    game = load(
        {
            "t13": "Js Qs",
            "t12": "2h Ks",
            "t11": "Qh Kh",
            "t9": "7c Kc",
            "t8": "8c Qc Tc",
            "t5": "3h Jh Ts Ah",
        },
        found={"h": (10, 4), "s": (9, 1), "c": (6, 1)},
        exiles="9c Jc",
        standstill=True,
        notes=("6h|///////////",),
    )
    assert texts(game.legal_moves()) == ["redeal"]
    # New stock from the top: Js Qs | 2h Ks | Qh Kh | 7c Kc | 8c Qc Tc | 3h Jh Ts Ah, then the
    # exile pile as it lies, face down: Jc (its top) and 9c. The seed's examples: the seven
    # meeting pile 7 and the jack meeting pile 11 are exiled, and the next card goes there.
    assert texts(game.push("redeal")) == ["exiled(card=7c)", "exiled(card=8c)", "exiled(card=Jh)"]
    layout = {name: cards_of(game, name) for name in PILES}
    assert layout == {
        "t1": ["Js", "9c"],
        "t2": ["Qs"],
        "t3": ["2h"],
        "t4": ["Ks"],
        "t5": ["Qh"],
        "t6": ["Kh"],
        "t7": ["Kc"],
        "t8": ["Qc"],
        "t9": ["Tc"],
        "t10": ["3h"],
        "t11": ["Ts"],
        "t12": ["Ah"],
        "t13": ["Jc"],
    }
    assert cards_of(game, "exiles") == ["7c", "8c", "Jh"]
    assert game.state.down["exiles"] == 3
    assert game.state.standstill is False
    assert game.state.notes == ()


def test_two_redeals_then_the_third_deal_ends_the_game() -> None:
    game = load(END_OF_DEAL, found=END_FOUND, redeals=1)
    assert texts(game.legal_moves()) == ["redeal"]
    game = load(END_OF_DEAL, found=END_FOUND, redeals=2)
    assert game.outcome().to_json() == {"result": "lost", "reason": "the third deal has ended"}
    assert game.legal_moves() == []
    refused(game, "redeal", "game is over")


def test_third_deal_redeal_is_refused_with_the_reason() -> None:
    rules = patience.get_rules("leonis-own")
    state = load(END_OF_DEAL, found=END_FOUND, redeals=2).state
    with pytest.raises(IllegalMove, match="both redeals have been made"):
        rules.apply(state, Move.act("redeal"))


def test_at_the_end_of_the_third_deal_reversals_may_still_make_cards_playable() -> None:
    game = load({"t1": " ".join(card(rank, "h") for rank in range(1, 14))}, found={"h": (5, 6)})
    game = Game.from_position({**game.position(), "redeals": 2})
    assert game.outcome().result == "ongoing"
    assert texts(game.legal_moves()) == ["f3-f7", "f7-f3"]
    for _ in range(7):
        game.push("f7-f3")
    assert cards_of(game, "f3")[-1] == "Qh"
    assert cards_of(game, "f7") == ["Kh"]
    game.push("t1-f3")
    for _ in range(12):
        game.push("t1-f7")
    assert game.outcome().to_json() == {
        "result": "won",
        "reason": "all 104 cards are on the foundations",
    }


def test_games_end_within_three_deals() -> None:
    for deal in range(12):
        game = patience.new("leonis-own", deal=deal)
        redeals = 0
        for _ in range(2000):
            moves = game.legal_moves()
            if not moves:
                break
            redeals += moves[0].action == "redeal"
            game.push(moves[0])
        outcome = game.outcome()
        assert outcome.is_over
        assert redeals <= 2
        if outcome.result == "lost":
            assert game.state.redeals == 2
            assert outcome.reason in ("the third deal has ended", "no legal move left")


# -- positions -------------------------------------------------------------------------------------


def test_position_round_trip_keeps_the_deal_the_standstill_the_notes_and_the_hand() -> None:
    game = load(found={"h": (5, 7)}, exiles="6h", redeals=1, notes=("6h|///////////",))
    game.push("exile")
    data = game.position()
    assert data["redeals"] == 1
    assert data["standstill"] is False
    assert data["notes"] == ["6h|///////////"]
    assert data["piles"]["hand"] == {"down": [], "up": ["6h"]}
    again = Game.from_position(data)
    assert again.position() == data
    assert again.legal_moves() == game.legal_moves()
    standstill = load({"t6": "6d"}, found={"h": (4, 1), "d": (4, 1)}, exiles="6h")
    standstill.push("exile")
    assert Game.from_position(standstill.position()).position() == standstill.position()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"redeals": 3}, "'redeals' must be 0, 1 or 2"),
        ({"redeals": True}, "'redeals'"),
        ({"standstill": "yes"}, "'standstill' must be true or false"),
        ({"notes": ["6h|"]}, "'notes'"),
        ({"notes": "6h"}, "'notes'"),
        ({"notes": ["6h|///////////", "6h|///////////"]}, "twice"),
    ],
)
def test_impossible_extra_parts_are_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Game.from_position({**position(found={"h": (4, 1)}), **change})


def test_impossible_piles_are_refused() -> None:
    def refuse(data: dict[str, Any], message: str) -> None:
        with pytest.raises(PositionError, match=message):
            Game.from_position(data)

    data = position(found={"h": (4, 1)})
    data["piles"]["exiles"] = {"down": [], "up": data["piles"]["exiles"]["down"]}
    refuse(data, "exiles lie face down")
    data = position({"t1": "5h"}, found={"h": (4, 1)})
    data["piles"]["t1"] = {"down": ["5h"], "up": []}
    refuse(data, "t1 pile lies face up")
    data = position(found={"h": (4, 1)})
    data["piles"]["f3"]["up"] = ["Ah", "2h", "4h", "3h"]
    refuse(data, "f3 must be built up from the ace of hearts")
    data = position(found={"h": (4, 1)})
    data["piles"]["f7"]["up"] = data["piles"]["f7"]["up"][::-1]
    refuse(data, "f7 must be built down from the king of hearts")
    data = position(found={"h": (4, 1)})
    data["piles"]["exiles"]["down"].pop()
    refuse(data, "all 104 cards")
    refuse(position({"t13": "Kh 9h"}, found={"h": (4, 1)}), "no other card lies above a king")
    refuse(position(found={"h": (4, 1)}, hand="9h"), "does not")
    refuse(position(found={"h": (5, 7)}, hand="6h 6h"), "at most one card")
    refuse(position(found={"h": (5, 7)}, hand="6h", standstill=True), "after a standstill")


def test_candidate_moves_are_exactly_the_moves_apply_accepts() -> None:
    rules = patience.get_rules("leonis-own")
    choose = patience.get_rules("leonis-own", {"exile": "choose"})
    for deal, chosen in ((3, rules), (4, choose), (5, rules)):
        game = Game.create(chosen, deal=deal)
        rng = random.Random(deal)
        for _ in range(60):
            state = game.state
            legal = chosen.candidate_moves(state)
            tries = [Move.cards(a, b) for a in ALL_PILES for b in (*FOUNDATIONS, "t1", "t13")]
            tries += [
                Move.act("play", card=str(item), at=index + 1, to=target)
                for index, item in enumerate(state.piles["t13"])
                for target in FOUNDATIONS
            ]
            tries += [
                Move.act("exile", at=index) for index in range(len(state.piles["exiles"]) + 2)
            ]
            tries += [Move.act("exile"), Move.act("exile", card="6h", at=1), Move.act("redeal")]
            for move in tries:
                try:
                    chosen.apply(state, move)
                except IllegalMove:
                    assert move not in legal, move
                else:
                    assert move in legal, move
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))


@pytest.mark.parametrize("exile", ["top", "choose"])
def test_a_sampled_world_keeps_the_deal_s_exile_rule(exile: str) -> None:
    """Until a card is put under a pile in a deal, no squared pile holds a card of its own
    rank (the deal exiles such a card), and the worlds a hint plays in keep to it while
    showing exactly the player's view; a uniform deal put some five cards there."""
    game = patience.new("leonis-own", deal=1001, exile=exile)
    view = game.view(0)
    assert view["notes_made"] == 0
    rng = random.Random(5)
    for _ in range(30):
        world = game.rules.sample_state(view, rng)
        assert game.rules.view_json(world, 0)["piles"] == view["piles"]
        for name in SQUARED:
            assert all(pile_of_rank(RANK_OF[card]) != name for card in world.piles[name])
        assert Counter(str(card) for pile in world.piles.values() for card in pile) == Counter(
            str(card) for pile in game.state.piles.values() for card in pile
        )
