"""Deal numbers and the shuffle (RULES.md "Cards and notation", docs/deals.md).

The expected values here do not come from the package: they were computed once with the
independent re-implementation below (written from the published SplitMix64 algorithm and the
Fisher-Yates shuffle of docs/deals.md) and are hard-coded, so any change to the algorithm fails.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import patience
from patience import DealError
from patience.cards import packs
from patience.deals import MAX_DEAL, Shuffler, check_deal, first_cards, shuffled

TEST_VECTORS = (
    (0, "8s Jh 9c 2s 2d Qd 6s Tc 3d Ac", "3d 8s Jc 6c 4d 2h Tc 7d Ah 8d"),
    (1, "7d 9c 4d 8h 8d 5s Jd 6d 9s Jc", "6h 7h Jc 8c Ks 7d 6s 8c 6c 9c"),
    (2, "Qh 3s 4c 5h 7h 2d Kh Td Ac 6c", "Td Ah 6h Js 2d Qs 5h 3d 7c Ac"),
    (42, "7c 3h Kc As 2s Ac Ah Kd Td 5c", "Qd 6c 9c 5h Ad Td 8s 4h 5c 8h"),
    (1000000, "3d 3h 6h Ks Qc Tc Js Jd 3c 5h", "8c 3d 9c 8s Qs Ah 9d Qs 6s 8d"),
    (9007199254740991, "4h 5h 3c 2s 9c 6d 5d 8c 6c 7s", "2h Qd Td Jc 5s Kh Qd 7c 9h 5d"),
)

# -- an independent re-implementation, from the published algorithms -----------------------------

_MASK = 2**64 - 1


def reference_outputs(seed: int, count: int) -> list[int]:
    """SplitMix64 (Steele, Lea, Flood 2014; Vigna's splitmix64.c) seeded with ``seed``."""
    state, outputs = seed, []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        outputs.append(z ^ (z >> 31))
    return outputs


def reference_shuffle(deal: int, npacks: int) -> list[str]:
    """Fisher-Yates from the last index down to 1, j drawn below i + 1 by rejection sampling."""
    cards = [rank + suit for _ in range(npacks) for suit in "cdhs" for rank in "A23456789TJQK"]
    state = deal

    def draw() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        limit = 2**64 - 2**64 % bound
        value = draw()
        while value >= limit:
            value = draw()
        j = value % bound
        cards[i], cards[j] = cards[j], cards[i]
    return cards


# -- deal numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("deal", [0, 1, 2**32, 2**53 - 1])
def test_deal_numbers_in_range_are_accepted(deal: int) -> None:
    assert check_deal(deal) == deal
    assert Shuffler(deal).deal == deal
    assert patience.new("klondike", deal=deal).deal == deal


def test_max_deal_is_two_to_the_53_minus_one() -> None:
    assert MAX_DEAL == 2**53 - 1


@pytest.mark.parametrize("deal", [-1, 2**53, 2**64, "x", 1.5, "", None, True, [1]])
def test_bad_deal_numbers_are_refused_naming_the_range(deal: object) -> None:
    with pytest.raises(DealError) as info:
        check_deal(deal)
    message = str(info.value)
    assert "0" in message
    assert str(2**53 - 1) in message
    if deal is not None:  # patience.new(deal=None) asks for a random deal
        with pytest.raises(DealError):
            patience.new("klondike", deal=deal)  # type: ignore[arg-type]


def test_deal_error_is_a_value_error() -> None:
    assert issubclass(DealError, ValueError)


def test_shuffler_refuses_bad_deal() -> None:
    with pytest.raises(DealError):
        Shuffler(-1)
    with pytest.raises(DealError):
        Shuffler(2**53)


# -- SplitMix64 ----------------------------------------------------------------------------------


def test_splitmix64_reference_values() -> None:
    # Published: the first outputs from seed 0, and from seed 1234567.
    assert reference_outputs(0, 3) == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    assert reference_outputs(1234567, 5) == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_shuffler_is_splitmix64() -> None:
    shuffler = Shuffler(0)
    assert shuffler.next64() == 0xE220A8397B1DCDAF
    assert shuffler.next64() == 0x6E789E6AA1B965F4
    assert shuffler.next64() == 0x06C45D188009454F
    shuffler = Shuffler(1234567)
    assert [shuffler.next64() for _ in range(5)] == reference_outputs(1234567, 5)


@given(st.integers(0, MAX_DEAL))
def test_shuffler_matches_reference_stream(deal: int) -> None:
    shuffler = Shuffler(deal)
    assert [shuffler.next64() for _ in range(20)] == reference_outputs(deal, 20)


@given(st.integers(0, MAX_DEAL), st.integers(1, 2**64))
def test_below_is_in_range(deal: int, bound: int) -> None:
    shuffler = Shuffler(deal)
    for _ in range(5):
        assert 0 <= shuffler.below(bound) < bound


def test_below_rejects_the_biased_top_range() -> None:
    # bound 3 * 2**62: limit = 2**64 - 2**62, so outputs at or above 3 * 2**62 are redrawn.
    bound = 3 * 2**62
    outputs = reference_outputs(5, 50)
    expected = next(value % bound for value in outputs if value < 2**64 - 2**64 % bound)
    assert Shuffler(5).below(bound) == expected


# -- the shuffle ---------------------------------------------------------------------------------


@given(st.integers(0, MAX_DEAL), st.sampled_from([1, 2]))
def test_shuffle_is_a_permutation(deal: int, npacks: int) -> None:
    cards = packs(npacks)
    result = shuffled(cards, deal)
    assert len(result) == len(cards)
    assert sorted(result) == sorted(cards)
    assert cards == packs(npacks)  # the argument is not changed


@given(st.integers(0, MAX_DEAL), st.sampled_from([1, 2]))
def test_shuffle_matches_reference_implementation(deal: int, npacks: int) -> None:
    assert [str(card) for card in shuffled(packs(npacks), deal)] == reference_shuffle(deal, npacks)


def test_same_deal_same_shuffle_different_deals_differ() -> None:
    assert shuffled(packs(1), 99) == shuffled(packs(1), 99)
    assert shuffled(packs(1), 99) != shuffled(packs(1), 100)


@pytest.mark.parametrize(("deal", "one_pack", "two_packs"), TEST_VECTORS)
def test_vectors_hard_coded(deal: int, one_pack: str, two_packs: str) -> None:
    assert " ".join(first_cards(deal, 10, 1)) == one_pack
    assert " ".join(first_cards(deal, 10, 2)) == two_packs
    assert " ".join(str(c) for c in Shuffler(deal).shuffle(packs(1))[:10]) == one_pack


@pytest.mark.parametrize(("deal", "one_pack", "two_packs"), TEST_VECTORS)
def test_vectors_agree_with_reference_implementation(
    deal: int, one_pack: str, two_packs: str
) -> None:
    assert " ".join(reference_shuffle(deal, 1)[:10]) == one_pack
    assert " ".join(reference_shuffle(deal, 2)[:10]) == two_packs


def test_two_packs_keep_each_physical_card() -> None:
    result = shuffled(packs(2), 42)
    assert len(set(result)) == 104
    assert sorted(card.pack for card in result) == [0] * 52 + [1] * 52


# -- the Klondike deal ---------------------------------------------------------------------------

# Deal 7, shuffled pack top first (reference_shuffle(7, 1)):
# 4d 5c Jh 3s 4h Th Ks | 6d 4s 7h 9d 2c Kd | Js Tc 2h 7c 4c | 7s 2s Ts 9s | 3c Qh 2d | 8d 6s | Ac
# then the stock, top first: 9c Jd 6h 3d 3h 8h Ah Kh 6c As 7d 5h 9h 5s Qs Ad Kc Td 8c Jc 5d 8s Qd Qc
DEAL_7 = {
    "stock": {
        "down": [
            *("Qc", "Qd", "8s", "5d", "Jc", "8c", "Td", "Kc", "Ad", "Qs", "5s", "9h"),
            *("5h", "7d", "As", "6c", "Kh", "Ah", "8h", "3h", "3d", "6h", "Jd", "9c"),
        ],
        "up": [],
    },
    "waste": {"down": [], "up": []},
    "f1": {"down": [], "up": []},
    "f2": {"down": [], "up": []},
    "f3": {"down": [], "up": []},
    "f4": {"down": [], "up": []},
    "t1": {"down": [], "up": ["4d"]},
    "t2": {"down": ["5c"], "up": ["6d"]},
    "t3": {"down": ["Jh", "4s"], "up": ["Js"]},
    "t4": {"down": ["3s", "7h", "Tc"], "up": ["7s"]},
    "t5": {"down": ["4h", "9d", "2h", "2s"], "up": ["3c"]},
    "t6": {"down": ["Th", "2c", "7c", "Ts", "Qh"], "up": ["8d"]},
    "t7": {"down": ["Ks", "Kd", "4c", "9s", "2d", "6s"], "up": ["Ac"]},
}


def test_klondike_deal_7_exact_piles() -> None:
    game = patience.new("klondike", deal=7)
    position = game.position()
    assert position["deal"] == 7
    assert position["piles"] == DEAL_7
    assert position["redeals"] == 0


def test_klondike_deal_7_first_turn_is_card_29() -> None:
    game = patience.new("klondike", deal=7, draw=1)
    game.push("stock")
    assert game.position()["piles"]["waste"]["up"] == ["9c"]
    game = patience.new("klondike", deal=7, draw=3)
    game.push("stock")
    assert game.position()["piles"]["waste"]["up"] == ["9c", "Jd", "6h"]


def reference_klondike(deal: int) -> dict[str, dict[str, list[str]]]:
    """Klondike's dealing order (RULES.md) applied to the reference shuffle."""
    cards = reference_shuffle(deal, 1)
    tableau: list[list[str]] = [[] for _ in range(7)]
    position = 0
    for row in range(7):
        for column in range(row, 7):
            tableau[column].append(cards[position])
            position += 1
    piles = {
        "stock": {"down": cards[28:][::-1], "up": []},
        "waste": {"down": [], "up": []},
        **{f"f{n}": {"down": [], "up": []} for n in range(1, 5)},
    }
    for column, pile in enumerate(tableau):
        piles[f"t{column + 1}"] = {"down": pile[:-1], "up": pile[-1:]}
    return piles


def test_reference_klondike_reproduces_deal_7() -> None:
    assert reference_klondike(7) == DEAL_7


@given(st.integers(0, MAX_DEAL))
def test_klondike_deal_follows_dealing_order(deal: int) -> None:
    assert patience.new("klondike", deal=deal).position()["piles"] == reference_klondike(deal)


def test_docs_list_the_same_test_vectors() -> None:
    # docs/deals.md is the specification others reimplement from; its table must be these.
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "deals.md").read_text()
    for deal, one_pack, two_packs in TEST_VECTORS:
        assert f"| {deal} | {one_pack} | {two_packs} |" in doc
