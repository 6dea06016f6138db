"""Game options: their names, allowed values, defaults, and parsing from text.

Every option a game accepts is an :class:`Option`; a game's options are validated once, when the
game is created, and bad ones are refused with a message that lists what is allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["Option", "OptionError", "OptionValue", "format_options", "parse_option_pairs"]

OptionValue = int | bool | str

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}
UNLIMITED = "unlimited"


class OptionError(ValueError):
    """An option is unknown or its value is not allowed."""


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``kind`` is ``"choice"`` (one of ``choices``, ints or strings), ``"bool"`` (on/off) or
    ``"passes"`` (a positive number or ``"unlimited"``).
    """

    name: str
    kind: str
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] = ()

    def allowed(self) -> str:
        """The allowed values, as a person would write them."""
        if self.kind == "bool":
            return "on or off"
        if self.kind == "passes":
            return "a positive number or unlimited"
        return " or ".join(str(choice) for choice in self.choices)

    def parse(self, value: object) -> OptionValue:
        """The canonical value for ``value`` (text or Python value), or :class:`OptionError`."""
        problem = f"option {self.name}={value!r} is not allowed: use {self.allowed()}"
        text = str(value).strip().lower() if not isinstance(value, bool) else ""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise OptionError(problem)
        if isinstance(value, bool):
            raise OptionError(problem)
        if self.kind == "passes":
            if text == UNLIMITED:
                return UNLIMITED
            if text.isdigit() and int(text) >= 1:
                return int(text)
            raise OptionError(problem)
        for choice in self.choices:
            if text == str(choice).lower():
                return choice
        raise OptionError(problem)

    def format(self, value: OptionValue) -> str:
        """The value as written on a command line: ``on``/``off`` for booleans."""
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)


def validate(
    specs: Iterable[Option], given: Mapping[str, object], game: str
) -> dict[str, OptionValue]:
    """All options of a game with defaults filled in; unknown names are refused."""
    by_name = {spec.name: spec for spec in specs}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        allowed = ", ".join(f"{s.name} ({s.allowed()})" for s in by_name.values()) or "none"
        raise OptionError(f"{game} has no option {unknown[0]!r}; its options are: {allowed}")
    return {
        name: spec.parse(given[name]) if name in given else spec.default
        for name, spec in by_name.items()
    }


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``["draw=1", "passes=3"]`` -> ``{"draw": "1", "passes": "3"}``; also splits on commas."""
    result: dict[str, str] = {}
    for pair in pairs:
        for item in pair.split(","):
            if not item.strip():
                continue
            name, sep, value = item.partition("=")
            if not sep or not name.strip() or not value.strip():
                raise OptionError(f"cannot read option {item!r}: write KEY=VALUE, as in draw=1")
            result[name.strip().replace("-", "_")] = value.strip()
    return result


def format_options(specs: Iterable[Option], values: Mapping[str, OptionValue]) -> str:
    """Options as ``draw=3,passes=unlimited,from_foundation=on``, in the game's order."""
    return ",".join(f"{spec.name}={spec.format(values[spec.name])}" for spec in specs)
