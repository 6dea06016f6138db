"""Shared test setup: hypothesis profiles and builders of hand-made positions.

Hypothesis profiles (choose with the environment variable ``HYPOTHESIS_PROFILE``):

* ``ci`` (the default): few examples, derandomized, no deadline, so the property suite is quick
  and gives the same result on every run;
* ``dev``: many more examples, random, for hunting bugs locally
  (``HYPOTHESIS_PROFILE=dev .venv/bin/pytest tests/test_properties.py``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import patience

settings.register_profile(
    "ci",
    max_examples=20,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    max_examples=400,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: The 52 card strings in new-pack order: A♣..K♣, A♦..K♦, A♥..K♥, A♠..K♠.
ONE_PACK = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]

KLONDIKE_PILES = ("stock", "waste", "f1", "f2", "f3", "f4", *(f"t{n}" for n in range(1, 8)))


def klondike_position(
    piles: Mapping[str, str],
    rest: str = "stock",
    redeals: int = 0,
    **options: object,
) -> dict[str, Any]:
    """A legal Klondike position JSON built from a few piles written by hand.

    ``piles`` maps pile names to their cards, bottom to top, separated by spaces. A tableau pile
    may be written ``"DOWN | UP"`` (face-down cards, then face-up cards); without ``|`` all its
    cards are face up. The stock's cards are all face down; the waste's and the foundations' all
    face up. Every card not mentioned goes, in new-pack order, to the **bottom** of pile ``rest``
    (face down in the stock or under a tableau pile's face-down cards, face up in the waste).
    """
    down: dict[str, list[str]] = {name: [] for name in KLONDIKE_PILES}
    up: dict[str, list[str]] = {name: [] for name in KLONDIKE_PILES}
    for name, text in piles.items():
        assert name in KLONDIKE_PILES, name
        if "|" in text:
            assert name.startswith("t"), (
                f"only tableau piles have face-down and face-up parts: {name}"
            )
            low, high = text.split("|")
            down[name], up[name] = low.split(), high.split()
        elif name == "stock":
            down[name] = text.split()
        else:
            up[name] = text.split()
    used = [card for name in KLONDIKE_PILES for card in down[name] + up[name]]
    assert len(used) == len(set(used)), f"a card is given twice: {sorted(used)}"
    assert all(card in ONE_PACK for card in used), used
    leftover = [card for card in ONE_PACK if card not in used]
    if rest == "waste":
        up[rest] = leftover + up[rest]
    else:
        down[rest] = leftover + down[rest]
    return {
        "version": 1,
        "game": "klondike",
        "options": dict(options),
        "deal": None,
        "piles": {name: {"down": down[name], "up": up[name]} for name in KLONDIKE_PILES},
        "redeals": redeals,
    }


def load_klondike(
    piles: Mapping[str, str], rest: str = "stock", redeals: int = 0, **options: object
) -> patience.Game:
    """A game continued from :func:`klondike_position`."""
    return patience.Game.from_position(klondike_position(piles, rest, redeals, **options))


@pytest.fixture
def make_klondike() -> Callable[..., patience.Game]:
    """``make_klondike({"t1": "Qd | 6s 5h", ...}, rest="stock", draw=1)``: a hand-made game."""
    return load_klondike


@pytest.fixture
def klondike_json() -> Callable[..., dict[str, Any]]:
    """``klondike_json({...})``: the position JSON of a hand-made Klondike position."""
    return klondike_position


@pytest.fixture
def deal7() -> patience.Game:
    """Klondike deal 7 with the default options (its layout is spelled out in test_deals.py)."""
    return patience.new("klondike", deal=7)
