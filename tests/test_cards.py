"""Cards and notation (RULES.md, "Cards and notation")."""

from __future__ import annotations

import pytest

from patience import Card, CardError, Colour, Rank, Suit
from patience.cards import MAX_COPIES, format_cards, pack, packs, parse_cards

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SYMBOLS = "♣♦♥♠"


# -- parsing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Th", "10h", "T♥", "th", "TH", "tH", "10H", "t♥", " Th "])
def test_ten_of_hearts_in_every_accepted_spelling(text: str) -> None:
    card = Card.parse(text)
    assert card.rank == Rank.TEN
    assert card.suit == Suit.HEARTS
    assert str(card) == "Th"


@pytest.mark.parametrize("rank", list(RANKS))
@pytest.mark.parametrize("suit", list(SUITS))
def test_every_rank_and_suit_letter(rank: str, suit: str) -> None:
    card = Card.parse(rank + suit)
    assert card.rank == RANKS.index(rank) + 1
    assert card.suit == SUITS.index(suit)
    assert Card.parse(rank + SYMBOLS[SUITS.index(suit)]) == card
    assert Card.parse(rank.lower() + suit.upper()) == card


def test_ranks_run_ace_low_to_king_high() -> None:
    ranks = [Card.parse(r + "s").rank for r in RANKS]
    assert ranks == sorted(ranks)
    assert Card.parse("As").rank == 1
    assert Card.parse("Ks").rank == 13


@pytest.mark.parametrize("text", ["Xh", "1h", "0h", "11h", "Bh", "1Th", "ah3"])
def test_bad_rank_is_refused_naming_the_ranks(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    message = str(info.value)
    assert "A 2 3 4 5 6 7 8 9 T J Q K" in message or "rank" in message


@pytest.mark.parametrize("text", ["Tx", "Tz", "T♡", "Ab"])
def test_bad_suit_is_refused_naming_the_suits(text: str) -> None:
    with pytest.raises(CardError, match=r"c d h s"):
        Card.parse(text)


@pytest.mark.parametrize("text", ["", " ", "T", "h", "10"])
def test_empty_or_too_short_card_is_refused(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    # The message says how a card is written.
    assert "rank" in str(info.value) or "Th" in str(info.value)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


def test_card_values_out_of_range_are_refused() -> None:
    with pytest.raises(CardError, match="out of range"):
        Card(MAX_COPIES * 52)
    with pytest.raises(CardError, match="out of range"):
        Card(-1)


# -- writing ------------------------------------------------------------------------------------


def test_str_is_notation_and_symbol_is_display() -> None:
    card = Card.parse("10h")
    assert str(card) == "Th"
    assert card.symbol() == "T♥"
    assert Card.parse("Qs").symbol() == "Q♠"
    assert Card.parse("Ac").symbol() == "A♣"
    assert Card.parse("9d").symbol() == "9♦"
    assert f"{card:>4}" == "  Th"


@pytest.mark.parametrize("card", packs(2), ids=repr)
def test_repr_evaluates_back_to_the_same_physical_card(card: Card) -> None:
    again = eval(repr(card), {"Card": Card})
    assert again == card
    assert again.pack == card.pack
    assert Card.parse(str(card), pack=card.pack) == card


def test_make_and_properties() -> None:
    card = Card.make(Rank.QUEEN, Suit.SPADES)
    assert str(card) == "Qs"
    assert card.pack == 0
    copy = Card.make(12, 3, pack=1)
    assert copy.pack == 1
    assert copy.same_face(card)
    assert copy != card
    assert copy.face == card.face


# -- colours ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("suit", "colour"), [("c", "black"), ("d", "red"), ("h", "red"), ("s", "black")]
)
def test_colours_of_the_suits(suit: str, colour: str) -> None:
    for rank in RANKS:
        card = Card.parse(rank + suit)
        assert card.colour == Colour(colour)
        assert card.is_red() == (colour == "red")
        assert card.suit.colour == Colour(colour)


def test_suit_letters_and_symbols() -> None:
    assert [s.letter for s in Suit] == list(SUITS)
    assert [s.symbol for s in Suit] == list(SYMBOLS)
    assert [r.letter for r in Rank] == list(RANKS)


# -- packs --------------------------------------------------------------------------------------


def test_one_pack_holds_52_distinct_cards_in_new_pack_order() -> None:
    cards = pack()
    assert len(cards) == 52
    assert len(set(cards)) == 52
    assert [str(c) for c in cards] == [r + s for s in SUITS for r in RANKS]
    assert packs(1) == cards


def test_two_packs_hold_104_cards_copies_equal_in_face_but_distinct() -> None:
    cards = packs(2)
    assert len(cards) == 104
    assert len(set(cards)) == 104
    first, second = cards[:52], cards[52:]
    for a, b in zip(first, second, strict=True):
        assert str(a) == str(b)
        assert a.rank == b.rank
        assert a.suit == b.suit
        assert a.same_face(b)
        assert a != b
        assert hash(a) != hash(b)
        assert (a.pack, b.pack) == (0, 1)
    assert {str(c) for c in cards} == {str(c) for c in first}


def test_packs_only_one_or_two() -> None:
    for count in (0, 3):
        with pytest.raises(CardError):
            packs(count)


# -- lists of cards -----------------------------------------------------------------------------


def test_parse_cards_spaces_commas_and_iterables() -> None:
    expected = [Card.parse("Th"), Card.parse("As"), Card.parse("9c")]
    assert parse_cards("Th As 9c") == expected
    assert parse_cards("10h, As,9c") == expected
    assert parse_cards(["T♥", "as", "9C"]) == expected
    assert parse_cards("") == []


def test_parse_cards_refuses_a_bad_card() -> None:
    with pytest.raises(CardError, match="Xx"):
        parse_cards("Th Xx As")


def test_format_cards() -> None:
    cards = parse_cards("Th As 9c")
    assert format_cards(cards) == "Th As 9c"
    assert format_cards(cards, symbols=True) == "T♥ A♠ 9♣"
    assert format_cards([]) == ""
    assert parse_cards(format_cards(packs(1))) == packs(1)
