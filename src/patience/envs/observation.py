"""Observations as fixed-shape numpy arrays, built from a seat's view only (never from the
position: a card the view hides cannot reach an agent).

The array is flat (``float32``) and has, in this order:

* for each pile of the game (``Rules.pile_names``): its face-down count, its face-up count,
  how many copies of each of the 52 faces lie face up on it (two-pack games can show two), and
  a one-hot of its top face-up card (all zero if the top card is face down or the pile empty);
* the game's numbers beside the piles, as the view writes them (Klondike's ``redeals``,
  Double Solitaire's ``turn``, Leopard's ``totals``, ...): every number, true/false or null
  (written -1) at the view's top level, and each list of numbers, in key order;
* for a game whose view shows hands (Leopard): how many copies of each face the observer holds;
* for a game whose view shows squares (Leopard): for each square and position, the number of
  layers, a one-hot of the top card if it lies face up, whether the top layer lies face down,
  whether the observer laid it, and a one-hot of that face-down card if the observer knows it.

:class:`ViewEncoder` fixes the layout from the rules (their options included), so every
observation of one game and option set has the same shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..engine import SPECTATOR, Observer, Rules

__all__ = ["FACES", "ViewEncoder"]

#: One feature per face of a pack (two-pack games count copies).
FACES = 52
PILE_WIDTH = 2 + FACES + FACES
#: A square's cell: layers, top face-up one-hot, top face down, laid by the observer, its card.
CELL_WIDTH = 3 + FACES + FACES
CELLS = 9
#: Keys of a view that are no features: fixed for a game, or said elsewhere (piles, cards).
_NOT_FEATURES = {"version", "game", "options", "piles", "hands", "squares", "seat"}

_FACE_CACHE: dict[str, int] = {}


def _face(text: str) -> int:
    """The face (0-51) of a card written as a view writes it."""
    face = _FACE_CACHE.get(text)
    if face is None:
        face = Card.parse(text).face
        _FACE_CACHE[text] = face
    return face


def _is_number(value: object) -> bool:
    return value is None or isinstance(value, bool | int | float)


class ViewEncoder:
    """Turns the view of a game (``Rules.view_json``) into a flat ``float32`` array whose
    layout depends only on the rules and their options (the module says what is where)."""

    def __init__(self, rules: Rules[Any]) -> None:
        self.rules = rules
        self.piles = tuple(rules.pile_names)
        # The keys and list lengths are those of a freshly dealt game's view: the same for every
        # deal of one game and option set.
        sample = rules.view_json(rules.start(0)[0], 0)
        self.scalars = sorted(
            key for key, value in sample.items() if key not in _NOT_FEATURES and _is_number(value)
        )
        self.lists = {
            key: len(value)
            for key, value in sorted(sample.items())
            if key not in _NOT_FEATURES
            and isinstance(value, list)
            and value
            and all(_is_number(item) for item in value)
        }
        self.hands = "hands" in sample
        self.squares = len(sample["squares"]) if "squares" in sample else 0
        self.size = (
            len(self.piles) * PILE_WIDTH
            + len(self.scalars)
            + sum(self.lists.values())
            + (FACES if self.hands else 0)
            + self.squares * CELLS * CELL_WIDTH
        )

    @property
    def shape(self) -> tuple[int]:
        """The shape of every observation."""
        return (self.size,)

    def encode_view(self, view: Mapping[str, Any], seat: int | None) -> npt.NDArray[np.float32]:
        """The observation of ``view`` (a view JSON of ``seat``, None for the spectator)."""
        out = np.zeros(self.size, dtype=np.float32)
        at = 0
        piles = view["piles"]
        for name in self.piles:
            pile = piles[name]
            down: Sequence[str | None] = pile.get("down", [])
            up: Sequence[str | None] = pile.get("up", [])
            out[at] = len(down)
            out[at + 1] = len(up)
            for card in up:
                if card is not None:
                    out[at + 2 + _face(card)] += 1
            if up and up[-1] is not None:
                out[at + 2 + FACES + _face(up[-1])] = 1
            at += PILE_WIDTH
        for key in self.scalars:
            value = view.get(key)
            out[at] = -1.0 if value is None else float(value)
            at += 1
        for key, length in self.lists.items():
            values = list(view.get(key) or [])[:length]
            for index, value in enumerate(values):
                out[at + index] = -1.0 if value is None else float(value)
            at += length
        if self.hands:
            hands = view.get("hands") or []
            hand = hands[seat] if seat is not None and seat < len(hands) else None
            for card in hand or []:
                out[at + _face(card)] += 1
            at += FACES
        for square in list(view.get("squares") or [])[: self.squares]:
            for cell in square:
                if cell:
                    out[at] = len(cell)
                    top = cell[-1]
                    if isinstance(top, str):
                        out[at + 3 + _face(top)] = 1
                    else:
                        out[at + 1] = 1
                        out[at + 2] = 1.0 if seat is not None and top.get("by") == seat else 0.0
                        if top.get("down") is not None:
                            out[at + 3 + FACES + _face(top["down"])] = 1
                at += CELL_WIDTH
        return out

    def encode(self, state: Any, observer: Observer) -> npt.NDArray[np.float32]:
        """The observation of ``state`` for ``observer`` (a seat or :data:`SPECTATOR`)."""
        view = self.rules.view_json(state, observer)
        return self.encode_view(view, None if observer is SPECTATOR else int(observer))
