"""Moves: one value type for every game, with a compact text notation and a JSON form.

``docs/notation.md`` is the specification. In short:

* a card move takes ``count`` cards from the top of one pile to another: text ``t3-f1`` or
  ``t3-t5:3``, JSON ``{"from": "t3", "to": "t5", "count": 3}``;
* every other move is an action: text ``stock`` or ``flip(pile=t3,card=Qs)``, JSON
  ``{"action": "flip", "pile": "t3", "card": "Qs"}``.

>>> Move.parse("t3-t5:3")
Move.parse('t3-t5:3')
>>> Move.parse("stock").to_json()
{'action': 'stock'}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from . import jsontext

__all__ = ["ACTION_NAMES", "ArgValue", "Move", "MoveSyntaxError", "register_action"]

ArgValue = str | int | bool

PILE_PATTERN = r"[a-z]+[0-9]*"
_CARD_MOVE = re.compile(rf"^({PILE_PATTERN})-({PILE_PATTERN})(?::([0-9]+))?$")
_ACTION = re.compile(r"^([a-z][a-z0-9_]*(?:-[a-z0-9_]+)*)(?:\((.*)\))?$")
_ARG = re.compile(r"^([a-z][a-z0-9_]*)=([^,()=\s]+)$")

#: Action names of every game. A name listed here is read as an action even when it looks like
#: a card move (``let-pass`` is not a move from pile ``let`` to pile ``pass``).
ACTION_NAMES: set[str] = set()


def register_action(*names: str) -> None:
    """Declare action names so that the text parser never mistakes them for card moves."""
    ACTION_NAMES.update(names)


class MoveSyntaxError(ValueError):
    """Text or JSON that is not a move in any game's notation."""


def _arg_from_text(text: str) -> ArgValue:
    if text == "true":
        return True
    if text == "false":
        return False
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    return text


def _arg_to_text(value: ArgValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True, slots=True)
class Move:
    """A move: either ``count`` cards from pile ``source`` to pile ``target``, or an ``action``.

    Moves are small immutable values; equal moves compare and hash equal.
    """

    source: str | None = None
    target: str | None = None
    count: int = 1
    action: str | None = None
    args: tuple[tuple[str, ArgValue], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.action is None and (isinstance(self.count, bool) or self.count < 1):
            raise MoveSyntaxError(f"a card move takes 1 card or more, not {self.count}")

    @classmethod
    def cards(cls, source: str, target: str, count: int = 1) -> Move:
        """A card move of ``count`` cards from ``source`` to ``target``."""
        return cls(source=source, target=target, count=count)

    @classmethod
    def act(cls, action: str, **args: ArgValue) -> Move:
        """An action with keyword arguments, kept in the order given."""
        return cls(action=action, args=tuple(args.items()))

    @property
    def is_action(self) -> bool:
        """True for an action, False for a card move."""
        return self.action is not None

    def arg(self, name: str, default: ArgValue | None = None) -> ArgValue | None:
        """The value of an action's argument ``name``."""
        for key, value in self.args:
            if key == name:
                return value
        return default

    # -- text notation ---------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in text notation (or its JSON form); raise :class:`MoveSyntaxError`."""
        text = text.strip()
        if text.startswith("{"):
            try:
                data = jsontext.loads(text)
            except jsontext.JSONTextError as error:
                raise MoveSyntaxError(f"cannot read move {text!r}: bad JSON ({error})") from None
            return cls.from_json(data)
        lowered = text.lower()
        head = lowered.split("(", 1)[0]
        match = _CARD_MOVE.match(lowered)
        if match and head not in ACTION_NAMES:
            count = int(match.group(3)) if match.group(3) else 1
            if count < 1:
                raise MoveSyntaxError(f"cannot read move {text!r}: the count must be 1 or more")
            return cls(source=match.group(1), target=match.group(2), count=count)
        if "(" in text:
            # Names and keys are case-free; values keep their case (a card like Qs).
            name, _, rest = text.partition("(")
            text = (
                name.lower()
                + "("
                + re.sub(r"([A-Za-z][A-Za-z0-9_]*)=", lambda m: m.group(1).lower() + "=", rest)
            )
        match = _ACTION.match(text if "(" in text else lowered)
        if not match:
            raise MoveSyntaxError(
                f"cannot read move {text!r}: write a card move as FROM-TO or FROM-TO:COUNT "
                "(t3-f1, t3-t5:2) or an action as NAME or NAME(KEY=VALUE,...) (stock)"
            )
        args: list[tuple[str, ArgValue]] = []
        if match.group(2):
            for item in match.group(2).split(","):
                arg = _ARG.match(item.strip())
                if not arg:
                    raise MoveSyntaxError(
                        f"cannot read move {text!r}: argument {item.strip()!r} is not KEY=VALUE"
                    )
                args.append((arg.group(1), _arg_from_text(arg.group(2))))
        return cls(action=match.group(1), args=tuple(args))

    def text(self) -> str:
        """The canonical text notation: ``t3-f1``, ``t3-t5:3``, ``stock``, ``flip(pile=t3,...)``."""
        if self.action is not None:
            if not self.args:
                return self.action
            inner = ",".join(f"{key}={_arg_to_text(value)}" for key, value in self.args)
            return f"{self.action}({inner})"
        suffix = f":{self.count}" if self.count != 1 else ""
        return f"{self.source}-{self.target}{suffix}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.parse({self.text()!r})"

    # -- JSON form ------------------------------------------------------------------------

    def to_json(self) -> dict[str, ArgValue]:
        """The JSON form: ``{"from", "to", "count"}`` or ``{"action", ...arguments}``."""
        if self.action is not None:
            return {"action": self.action, **dict(self.args)}
        return {"from": str(self.source), "to": str(self.target), "count": self.count}

    @classmethod
    def from_json(cls, data: object) -> Move:
        """Read the JSON form (a dict); raise :class:`MoveSyntaxError` if it is not a move."""
        if not isinstance(data, Mapping):
            raise MoveSyntaxError(f"a move in JSON is an object, not {data!r}")
        if "action" in data:
            action = data["action"]
            if not isinstance(action, str) or not _ACTION.match(action) or "(" in action:
                raise MoveSyntaxError(f"bad action name {action!r} in move {dict(data)!r}")
            args: list[tuple[str, ArgValue]] = []
            for key, value in data.items():
                if key == "action":
                    continue
                if not isinstance(value, str | int | bool) or not _ARG.match(
                    f"{key}={_arg_to_text(value)}"
                ):
                    raise MoveSyntaxError(f"bad argument {key}={value!r} in move {dict(data)!r}")
                args.append((key, value))
            return cls(action=action, args=tuple(args))
        extra = set(data) - {"from", "to", "count"}
        if extra:
            raise MoveSyntaxError(
                f"unknown field {sorted(extra)[0]!r} in move {dict(data)!r}: a card move has "
                "from, to and count; any other move has action"
            )
        source, target, count = data.get("from"), data.get("to"), data.get("count", 1)
        pile = re.compile(PILE_PATTERN)
        if not isinstance(source, str) or not pile.fullmatch(source):
            raise MoveSyntaxError(f"bad or missing 'from' pile in move {dict(data)!r}")
        if not isinstance(target, str) or not pile.fullmatch(target):
            raise MoveSyntaxError(f"bad or missing 'to' pile in move {dict(data)!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise MoveSyntaxError(f"'count' must be a whole number of 1 or more in {dict(data)!r}")
        return cls(source=source, target=target, count=count)
