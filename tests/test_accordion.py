"""Accordion, rule by rule, from RULES.md's "Accordion" and the seed's example (004_*.txt).

Hand-made positions are written as the row's piles (each bottom to top) and the next cards the
stock deals; every card not mentioned goes to the bottom of the stock, or with ``rest="t1"`` under
the first pile of the row, in an order such a pile can have (so that a finished row can be written
with a few piles).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import patience
from patience import Game, IllegalMove, Move, OptionError, Outcome, PositionError

ONE_PACK = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]
ROW = tuple(f"t{number}" for number in range(1, 53))

#: The first ten cards of deal 1's shuffled pack, as docs/deals.md's test vectors give them.
DEAL_1_FIRST = ["7d", "9c", "4d", "8h", "8d", "5s", "Jd", "6d", "9s", "Jc"]

#: A winning line for deal 1 with dealing=all, found by a bounded depth-first search.
DEAL_1_WIN_TEXT = (
    "t49-t46 t48-t47 t49-t46 t49-t48 t47-t44:2 t45-t44 t46-t43:2 t42-t41 t41-t40:2 t41-t38:3 "
    "t42-t39:3 t36-t33 t38-t35:4 t36-t35 t36-t33:4 t37-t34:4 t34-t31:5 t33-t32:6 t31-t30:6 "
    "t31-t28:7 t30-t29:7 t28-t25:8 t30-t27:3 t26-t25 t24-t23 t24-t21:10 t26-t23:6 t25-t22:8 "
    "t22-t19:9 t23-t20:4 t19-t18:10 t17-t16 t14-t11 t16-t13:11 t18-t15:8 t17-t14:11 "
    "t13-t10:12 t15-t12:5 t12-t11:6 t12-t9:12 t9-t6:13 t7-t6 t9-t6:8 t7-t6 t6-t5:24 t7-t4:10 "
    "t5-t4:25 t5-t2:13 t4-t1:36 t3-t2 t2-t1:15"
)
DEAL_1_WIN = DEAL_1_WIN_TEXT.split()


def matches(card: str, other: str) -> bool:
    """Same rank or same suit (cards written like "Th")."""
    return card[0] == other[0] or card[1] == other[1]


def matching_chain(cards: Sequence[str], top: str) -> list[str]:
    """``cards`` and then ``top``, ordered so that each card matches the one under it: a pile
    that single cards put one by one on each other could have built."""
    chain = [top]
    left = list(cards)
    while left:
        # Going down from the top, take the matching card with the fewest matches left, so the
        # cards that are hardest to place are not stranded (Warnsdorff's rule).
        options = [card for card in left if matches(card, chain[-1])]
        assert options, f"no chain through {left} below {chain[-1]}"
        best = min(options, key=lambda card: sum(matches(card, other) for other in left))
        left.remove(best)
        chain.append(best)
    return chain[::-1]


def position(
    row: Sequence[str],
    deals_next: str = "",
    rest: str = "stock",
    dealing: str = "one",
) -> dict[str, Any]:
    """The position JSON of a hand-made Accordion position.

    ``row`` lists the piles left to right, each as its cards bottom to top separated by spaces;
    ``deals_next`` the cards the stock deals next, in the order they come. The other cards go
    to the bottom of the stock (``rest="stock"``) or under the row's first pile (``rest="t1"``).
    """
    piles = [text.split() for text in row]
    upcoming = deals_next.split()
    used = [card for pile in piles for card in pile] + upcoming
    assert len(used) == len(set(used)), f"a card is given twice: {sorted(used)}"
    leftover = [card for card in ONE_PACK if card not in used]
    stock = upcoming[::-1]
    if rest == "stock":
        stock = leftover + stock
    else:
        assert rest == "t1", rest
        assert len(piles[0]) == 1, "rest='t1' needs a first pile of one card"
        piles[0] = matching_chain(leftover, piles[0][0])
    data: dict[str, Any] = {name: {"down": [], "up": []} for name in ("stock", *ROW)}
    data["stock"] = {"down": stock, "up": []}
    for name, cards in zip(ROW, piles, strict=False):
        data[name] = {"down": [], "up": cards}
    return {
        "version": 1,
        "game": "accordion",
        "options": {"dealing": dealing},
        "deal": None,
        "piles": data,
    }


def load(row: Sequence[str], deals_next: str = "", rest: str = "stock", **options: str) -> Game:
    """A game continued from :func:`position`."""
    return Game.from_position(position(row, deals_next, rest, **options))


def tops(game: Game) -> list[str]:
    """The row's top cards, left to right."""
    return [str(game.state.piles[name][-1]) for name in ROW if game.state.piles[name]]


def sizes(game: Game) -> list[int]:
    """The row's pile sizes, left to right."""
    return [len(game.state.piles[name]) for name in ROW if game.state.piles[name]]


def refused(game: Game, move: str, *reason: str) -> None:
    """``move`` is refused with every part of ``reason`` in the message; nothing changes."""
    before = game.position()
    stack = game.move_stack
    with pytest.raises(IllegalMove) as error:
        game.push(move)
    for part in reason:
        assert part in str(error.value)
    assert game.position() == before
    assert game.move_stack == stack


# -- options and the deal -------------------------------------------------------------------------


def test_option_dealing_defaults_to_one() -> None:
    game = patience.new("accordion", deal=1)
    assert game.options == {"dealing": "one"}
    assert patience.new("accordion", deal=1, dealing="all").options == {"dealing": "all"}


def test_option_dealing_refuses_other_values() -> None:
    with pytest.raises(OptionError, match="one or all"):
        patience.new("accordion", deal=1, dealing="two")


def test_dealing_one_starts_with_the_first_card_dealt_at_the_left() -> None:
    game = patience.new("accordion", deal=1)
    data = game.position()
    assert data["piles"]["t1"] == {"down": [], "up": [DEAL_1_FIRST[0]]}
    assert all(data["piles"][name] == {"down": [], "up": []} for name in ROW[1:])
    stock = data["piles"]["stock"]
    assert stock["up"] == []
    assert len(stock["down"]) == 51
    # The stock's top card (the last listed, bottom to top) is card 2 of the shuffled pack.
    assert stock["down"][::-1][:9] == DEAL_1_FIRST[1:]


def test_deal_puts_the_next_cards_one_at_a_time_at_the_right_end() -> None:
    game = patience.new("accordion", deal=1)
    game.replay_moves(["deal"] * 9)
    # No pile was moved, so the row holds the first ten cards in the order dealt.
    assert tops(game) == DEAL_1_FIRST
    assert len(game.state.piles["stock"]) == 42


def test_dealing_all_deals_the_52_cards_at_the_start() -> None:
    game = patience.new("accordion", deal=1, dealing="all")
    assert tops(game)[:10] == DEAL_1_FIRST
    assert sizes(game) == [1] * 52
    assert game.state.piles["stock"] == []
    assert Move.parse("deal") not in game.legal_moves()
    refused(game, "deal", "all 52 cards were dealt at the start (dealing=all)")


def test_both_dealings_lay_out_the_same_pack_in_the_same_order() -> None:
    one = patience.new("accordion", deal=42)
    while one.is_legal("deal"):
        one.push("deal")
    assert one.state.piles == patience.new("accordion", deal=42, dealing="all").state.piles


def test_the_view_hides_the_stock_but_shows_the_row() -> None:
    game = patience.new("accordion", deal=1)
    view = game.view()
    assert view["piles"]["stock"] == {"down": [None] * 51, "up": []}
    assert view["piles"]["t1"] == {"down": [], "up": [DEAL_1_FIRST[0]]}
    assert "deal" not in view


# -- moves: the seed's example --------------------------------------------------------------------


def test_seed_example_nine_of_hearts_goes_on_the_nine_of_clubs_or_the_six_of_hearts() -> None:
    # 004_*.txt: "6♥, J♥, 9♣, 9♥ ... the nine of hearts may go either on 9♣ or on 6♥."
    game = load(["6h", "Jh", "9c", "9h"])
    moves_of_nine = [move.text() for move in game.legal_moves() if move.source == "t4"]
    assert moves_of_nine == ["t4-t3", "t4-t1"]
    # Not on J♥, though it matches in suit: it is the second pile to the left.
    refused(game, "t4-t2", "immediately to its left or the third pile", "t4 may go onto t3 or t1")


def test_seed_example_the_pile_moves_on_with_its_top_card() -> None:
    # 004_*.txt: "when 9♥ is put on 9♣, both cards may be put on J♥, and then the whole pile
    # on 6♥."
    game = load(["6h", "Jh", "9c", "9h"])
    game.push("t4-t3")
    assert sizes(game) == [1, 1, 2]
    assert tops(game) == ["6h", "Jh", "9h"]
    game.push("t3-t2")  # the count (2: the whole pile) is filled in
    assert game.move_stack[-1] == Move.parse("t3-t2:2")
    assert [str(card) for card in game.state.piles["t2"]] == ["Jh", "9c", "9h"]
    game.push("t2-t1:3")
    assert [str(card) for card in game.state.piles["t1"]] == ["6h", "Jh", "9c", "9h"]
    assert sizes(game) == [4]


# -- moves: where a pile may go -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "move"),
    [
        (["Kc", "Qd", "5s", "5h"], "t4-t3"),  # neighbour, same rank
        (["Kc", "Qd", "2h", "7h"], "t4-t3"),  # neighbour, same suit
        (["5c", "Qd", "Kh", "5h"], "t4-t1"),  # third to the left, same rank
        (["8h", "Qd", "Kc", "2h"], "t4-t1"),  # third to the left, same suit
    ],
)
def test_a_pile_goes_on_its_neighbour_or_the_third_to_its_left_by_rank_or_suit(
    row: list[str], move: str
) -> None:
    game = load(row)
    assert Move.parse(move) in game.legal_moves()
    moving = game.state.piles[str(Move.parse(move).source)][-1]
    game.push(move)
    assert game.state.piles[str(Move.parse(move).target)][-1] == moving
    assert len(tops(game)) == 3


def test_no_move_onto_the_second_pile_to_the_left() -> None:
    game = load(["Kc", "5h", "Qd", "5s"])
    assert [move.text() for move in game.legal_moves()] == ["deal"]
    refused(game, "t4-t2", "t4 may go onto t3 or t1")


def test_no_move_onto_a_pile_further_left_or_to_the_right() -> None:
    game = load(["5h", "Kc", "Qd", "2s", "5s"])
    refused(game, "t5-t1", "t5 may go onto t4 or t2")
    refused(game, "t1-t2", "t1 may go onto nowhere")
    refused(game, "t2-t3", "t2 may go onto t1")
    refused(game, "t2-t2", "t2 may go onto t1")


def test_the_top_cards_must_match_in_rank_or_suit() -> None:
    game = load(["5h", "Kc"])
    refused(game, "t2-t1", "Kc cannot go on 5h", "match in rank or in suit")


def test_only_the_top_card_counts_for_a_match() -> None:
    # t2's bottom card 5h matches t1's 5c, its top card 9h does not: no move.
    game = load(["5c", "5h 9h"])
    refused(game, "t2-t1:2", "9h cannot go on 5c")
    # Onto a pile, the pile's top card counts: 9c under 2h does not help 9s.
    game = load(["9c 9h 2h", "9s"])
    refused(game, "t2-t1", "9s cannot go on 2h")


def test_the_whole_pile_moves_and_its_count_is_written() -> None:
    game = load(["5c", "Qh 2h 5h"])
    assert game.legal_moves()[0] == Move.parse("t2-t1:3")
    refused(game, "t2-t1:1", "the whole pile moves: t2 holds 3 card(s), so write t2-t1:3")
    refused(game, "t2-t1:2", "so write t2-t1:3")
    with pytest.raises(IllegalMove, match="the whole pile moves"):
        game.rules.apply(game.state, Move("t2", "t1", 4))
    for count in (0, -1):
        with pytest.raises(ValueError, match="1 card or more"):
            Move("t2", "t1", count)
    game.push("t2-t1")  # lenient input: the one legal count
    assert [str(card) for card in game.state.piles["t1"]] == ["5c", "Qh", "2h", "5h"]


def test_moves_are_listed_left_to_right_neighbour_first_deal_last() -> None:
    game = load(["9h", "3c", "4c", "9c", "9s"])
    texts = [move.text() for move in game.legal_moves()]
    assert texts == ["t3-t2", "t4-t3", "t4-t1", "t5-t4", "deal"]


def test_pile_names_that_do_not_exist_or_are_empty_are_refused() -> None:
    game = load(["5c", "5h"])
    refused(game, "t3-t2", "t3 is empty: the row holds 2 piles")
    refused(game, "x1-t1", "accordion has no pile 'x1'")
    refused(game, "t53-t52", "no pile 't53'")


def test_the_stock_is_dealt_only_with_deal() -> None:
    game = load(["5c", "5h"])
    refused(game, "stock-t3", "only one at a time, with the action deal")
    refused(game, "t2-stock", "no card may be put back on the stock")
    refused(game, "stock", "accordion has no action 'stock'; its actions are deal")
    refused(game, "deal(count=2)", "deal takes no arguments")


# -- gaps close at once ---------------------------------------------------------------------------


def test_a_gap_closes_at_once_and_the_piles_to_its_right_move_left() -> None:
    game = load(["Ac", "2d", "3h", "3s", "5c", "6d"])
    game.push("t4-t3")
    assert tops(game) == ["Ac", "2d", "3s", "5c", "6d"]
    assert [name for name in ROW if game.state.piles[name]] == ["t1", "t2", "t3", "t4", "t5"]
    refused(game, "t6-t5", "t6 is empty")


def test_third_to_the_left_counts_piles_after_closing() -> None:
    # Before: Kd (t5) has 3h (t2) as its third pile to the left; no match. Once 4s (t4) goes on
    # 4c (t3), the gap closes, Kd becomes t4, and its third pile to the left is Kc (t1).
    game = load(["Kc", "3h", "4c", "4s", "Kd"])
    assert Move.parse("t5-t2") not in game.legal_moves()
    game.push("t4-t3")
    assert tops(game) == ["Kc", "3h", "4s", "Kd"]
    assert Move.parse("t4-t1") in game.legal_moves()
    game.push("t4-t1")
    assert tops(game) == ["Kd", "3h", "4s"]


def test_deal_after_a_gap_closed_goes_to_the_new_right_end() -> None:
    game = load(["Ac", "2d", "2h"], deals_next="Ks Qs")
    game.push("t3-t2")
    game.push("deal")
    assert tops(game) == ["Ac", "2h", "Ks"]
    game.push("deal")
    assert tops(game) == ["Ac", "2h", "Ks", "Qs"]


# -- moves between deals (dealing=one) ------------------------------------------------------------


def test_with_dealing_one_the_player_deals_when_he_wishes() -> None:
    game = load(["5c", "5h"], deals_next="Kd")
    # Both a move and a deal are legal: the player chooses; moving first is allowed.
    assert [move.text() for move in game.legal_moves()] == ["t2-t1", "deal"]
    game.push("deal")
    assert tops(game) == ["5c", "5h", "Kd"]
    # The earlier move may still be made after a deal.
    assert Move.parse("t2-t1") in game.legal_moves()


def test_deal_is_refused_when_the_stock_is_empty() -> None:
    game = load(["5c", "5h"], rest="t1")
    refused(game, "deal", "the stock is empty: every card has been dealt")


def test_undo_takes_back_a_deal_and_a_move() -> None:
    game = load(["Ac", "2d", "2h"], deals_next="Ks")
    start = game.position()
    game.push("t3-t2")
    after_move = game.position()
    game.push("deal")
    assert game.pop() == Move.parse("deal")
    assert game.position() == after_move
    assert game.pop() == Move.parse("t3-t2")
    assert game.position() == start


def test_there_are_no_forced_moves() -> None:
    game = load(["Ac", "2d", "2h"], deals_next="Ks")
    assert game.push("t3-t2") == []
    assert game.push("deal") == []


# -- the end --------------------------------------------------------------------------------------


def test_won_when_all_52_cards_form_one_pile() -> None:
    game = load(["5c", "5h"], rest="t1")
    game.push("t2-t1")
    assert game.outcome() == Outcome("won", "all 52 cards form one pile", score=1)
    assert game.legal_moves() == []


def test_one_pile_is_no_win_while_cards_are_left_to_deal() -> None:
    game = load(["5c", "5h"], deals_next="Kd")
    game.push("t2-t1")
    assert not game.is_over()
    assert [move.text() for move in game.legal_moves()] == ["deal"]


def test_no_move_but_a_deal_is_not_the_end() -> None:
    game = load(["Ac", "2d"], deals_next="Kh")
    assert not game.is_over()
    assert [move.text() for move in game.legal_moves()] == ["deal"]


def test_the_end_when_the_stock_is_empty_and_no_move_is_left_scores_the_piles() -> None:
    game = load(["Ac", "2d", "3h", "4s", "5c", "6d"], rest="t1")
    assert game.outcome() == Outcome("lost", "no move left with 6 piles", score=6)
    assert game.outcome().to_json() == {
        "result": "lost",
        "reason": "no move left with 6 piles",
        "score": 6,
    }


def test_five_piles_or_fewer_is_a_moral_win_shown_in_the_reason() -> None:
    game = load(["Ac", "2d", "3h", "4s", "5c"], rest="t1")
    assert game.outcome() == Outcome(
        "lost", "no move left with 5 piles (5 or fewer: a moral win)", score=5
    )
    game = load(["Ac", "2d"], rest="t1")
    assert game.outcome().score == 2
    assert "moral win" in game.outcome().reason


def test_the_score_comes_at_the_end_of_a_played_deal() -> None:
    # Always the first legal move: pile moves before dealing, leftmost first.
    game = patience.new("accordion", deal=2)
    for _ in range(200):
        if game.is_over():
            break
        game.push(game.legal_moves()[0])
    outcome = game.outcome()
    assert outcome.is_over
    assert game.state.piles["stock"] == []
    assert outcome.score == len(tops(game)) > 1
    assert outcome.result == "lost"
    assert game.rules.candidate_moves(game.state) == []


def test_a_resigned_game_is_lost_without_a_score() -> None:
    game = patience.new("accordion", deal=1)
    game.resign()
    assert game.outcome() == Outcome("lost", "resigned")


def test_deal_1_is_won_with_all_cards_dealt() -> None:
    game = patience.new("accordion", deal=1, dealing="all")
    game.replay_moves(DEAL_1_WIN)
    assert game.outcome() == Outcome("won", "all 52 cards form one pile", score=1)
    assert sizes(game) == [52]


def test_deal_1_is_won_the_same_way_dealing_one_at_a_time() -> None:
    game = patience.new("accordion", deal=1)
    game.replay_moves(["deal"] * 51)
    game.replay_moves(DEAL_1_WIN[:-1])
    assert not game.is_over()
    game.push(DEAL_1_WIN[-1])
    assert game.outcome().result == "won"


# -- positions ------------------------------------------------------------------------------------


def test_position_json_round_trip_continues_the_same_game() -> None:
    game = patience.new("accordion", deal=7)
    game.replay_moves(["deal"] * 12)
    game.push(game.legal_moves()[0])
    again = Game.from_position(game.position())
    assert again.position() == game.position()
    assert again.legal_moves() == game.legal_moves()
    assert set(game.position()) == {"version", "game", "options", "deal", "piles"}


def put_kd_under_t2s_top(data: dict[str, Any]) -> None:
    """Make t2 the pile 5h Kd, which no move builds: Kd matches 5h in neither rank nor suit."""
    data["piles"]["stock"]["down"].remove("Kd")
    data["piles"]["t2"]["up"].append("Kd")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda data: data["piles"]["t5"]["up"].append(data["piles"]["stock"]["down"].pop()),
            "t4 is empty but t5 is not",
        ),
        (
            lambda data: data["piles"].update(
                stock={"down": ONE_PACK, "up": []},
                t1={"down": [], "up": []},
                t2={"down": [], "up": []},
                t3={"down": [], "up": []},
            ),
            "the row is never empty",
        ),
        (
            lambda data: data["piles"].update(
                stock={"down": [], "up": data["piles"]["stock"]["down"]}
            ),
            "the stock lies face down",
        ),
        (
            lambda data: data["piles"].update(t2={"down": ["5h"], "up": []}),
            "the row's cards lie face up",
        ),
        (lambda data: data["piles"]["stock"]["down"].pop(), "all 52 cards once, not 51"),
        (lambda data: data["piles"]["t1"]["up"].append("5h"), "appears more often"),
        (lambda data: data["options"].update(dealing="all"), "with dealing=all"),
        (put_kd_under_t2s_top, "t2 \\(5h Kd\\) cannot have been built"),
    ],
)
def test_impossible_positions_are_refused(change: Any, message: str) -> None:
    data = position(["5c", "5h", "Ks"])
    Game.from_position(data)  # possible as it stands
    change(data)
    with pytest.raises(PositionError, match=message):
        Game.from_position(data)


def test_a_pile_built_from_piles_loads_even_when_neighbouring_cards_do_not_match() -> None:
    # The seed's final pile: 9c lies on Jh without matching it, because 9c 9h moved as one pile
    # onto Jh (9h matching Jh in suit).
    game = load(["6h Jh 9c 9h"])
    assert sizes(game) == [4]
