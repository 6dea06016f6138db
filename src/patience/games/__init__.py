"""The registry of games: names (as in RULES.md), their rules classes and options.

The eight games of RULES.md are registered here. A game defined elsewhere (a plug-in, a test's toy
game) joins them with :func:`register` and is then everywhere a game is listed or looked up: the
command line (``patience games``, ``play``, ``match``), records, bots, and the web app's
catalogues, one-player tables and shared tables. Nothing copies the list at import time, so a game
registered later is seen as soon as it is registered. docs/games.md says what a game defines.
"""

from __future__ import annotations

import contextlib
import inspect
import re
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from ..engine import Rules, install_rules_finder
from ..moves import PILE_PATTERN
from ..options import Option, OptionError
from .accordion import Accordion
from .canfield import Canfield
from .double_solitaire import DoubleSolitaire
from .klondike import Klondike
from .leonis_own import LeonisOwn
from .leopard import Leopard
from .napoleon import Napoleon
from .spider import Spider

__all__ = [
    "GAMES",
    "RegistrationError",
    "UnknownGame",
    "get_rules",
    "register",
    "registered",
    "resolve_name",
    "unregister",
]

#: Every game known, by name: the RULES.md games in the order RULES.md lists them, then those
#: added with :func:`register` (use it, not assignment: it checks the class).
GAMES: dict[str, type[Rules[Any]]] = {
    cls.name: cls
    for cls in (
        Klondike,
        DoubleSolitaire,
        Spider,
        Canfield,
        Accordion,
        Napoleon,
        LeonisOwn,
        Leopard,
    )
}


#: The games this package defines: :func:`unregister` leaves them alone.
BUILT_IN: frozenset[str] = frozenset(GAMES)

#: A game's name and aliases as :func:`resolve_name` reads them: lower case, words joined by "-".
NAME_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
#: An option's name as ``-o KEY=VALUE`` and the web forms write it.
OPTION_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
OPTION_KINDS = ("choice", "bool", "passes")

R = TypeVar("R", bound=type[Rules[Any]])


class UnknownGame(ValueError):
    """A game name that is not one of ours."""


class RegistrationError(ValueError):
    """A rules class that cannot be registered as a game; the message says what is wrong."""


def _check_options(where: str, specs: object) -> None:
    if not isinstance(specs, tuple) or not all(isinstance(spec, Option) for spec in specs):
        raise RegistrationError(f"{where}: option_specs must be a tuple of patience.options.Option")
    seen: set[str] = set()
    for spec in specs:
        if not OPTION_PATTERN.match(spec.name):
            raise RegistrationError(
                f"{where}: option name {spec.name!r} must be lower case letters, digits and "
                "underscores, starting with a letter (it is written -o NAME=VALUE)"
            )
        if spec.name in seen:
            raise RegistrationError(f"{where}: option {spec.name!r} is listed twice")
        seen.add(spec.name)
        # A subclass of Option that reads values its own way may have a kind of its own.
        if type(spec).parse is Option.parse and spec.kind not in OPTION_KINDS:
            raise RegistrationError(
                f"{where}: option {spec.name!r} has kind {spec.kind!r}: use one of "
                f"{', '.join(OPTION_KINDS)}"
            )
        if spec.kind == "choice" and not spec.choices:
            raise RegistrationError(f"{where}: choice option {spec.name!r} lists no choices")
        try:
            valid_default = spec.parse(spec.default) == spec.default
        except OptionError:
            valid_default = False
        if not valid_default:
            raise RegistrationError(
                f"{where}: option {spec.name!r} has default {spec.default!r}, which is not one "
                f"of its allowed values ({spec.allowed()})"
            )


def _check(cls: object) -> None:
    """Raise :class:`RegistrationError` unless ``cls`` can join the registry."""
    if not (inspect.isclass(cls) and issubclass(cls, Rules)):
        raise RegistrationError(f"{cls!r} is not a subclass of patience.Rules")
    where = f"game class {cls.__name__}"
    if inspect.isabstract(cls):
        missing = ", ".join(sorted(getattr(cls, "__abstractmethods__", ())))
        raise RegistrationError(f"{where} does not define {missing}")
    for attribute in ("name", "title", "summary"):
        value = getattr(cls, attribute, None)
        if not isinstance(value, str) or not value.strip():
            raise RegistrationError(f"{where} needs a {attribute}: a non-empty string")
    name = cls.name
    where = f"game {name!r} ({cls.__name__})"
    aliases = cls.aliases
    if not isinstance(aliases, tuple) or not all(isinstance(alias, str) for alias in aliases):
        raise RegistrationError(f"{where}: aliases must be a tuple of strings")
    for word in (name, *aliases):
        if not NAME_PATTERN.match(word):
            raise RegistrationError(
                f"{where}: {word!r} is not a game name: use lower case letters and digits, "
                "words joined by '-' (as in 'double-solitaire')"
            )
    if name in aliases or len(set(aliases)) != len(aliases):
        raise RegistrationError(f"{where}: an alias repeats the name or another alias")
    taken = {key: other for other in GAMES.values() for key in (other.name, *other.aliases)}
    for word in (name, *aliases):
        other = taken.get(word)
        if other is not None:
            what = "the name" if word == other.name else "an alias"
            raise RegistrationError(
                f"{where}: {word!r} is already {what} of the game {other.name!r}; "
                "choose another name, or unregister that game first"
            )
    piles = cls.pile_names
    if not isinstance(piles, tuple) or not all(isinstance(pile, str) for pile in piles):
        raise RegistrationError(f"{where}: pile_names must be a tuple of strings")
    for pile in piles:
        if not re.fullmatch(PILE_PATTERN, pile):
            raise RegistrationError(
                f"{where}: pile name {pile!r} cannot be written in a move: use lower case "
                "letters, then digits if any (stock, t1, ahand)"
            )
    if len(set(piles)) != len(piles):
        raise RegistrationError(f"{where}: a pile name is listed twice in pile_names")
    _check_options(where, cls.option_specs)
    try:
        rules = cls()
    except Exception as error:
        raise RegistrationError(
            f"{where} cannot be made with its default options: {error}"
        ) from error
    players = rules.players
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise RegistrationError(
            f"{where}: players must be a whole number of at least 1, not {players!r}"
        )


def register(cls: R) -> R:
    """Make the game ``cls`` (a :class:`~patience.engine.Rules` subclass) known by its ``name``
    and ``aliases`` everywhere a game is looked up or listed, after the games already known.

    The class is checked first, and refused with a :class:`RegistrationError` saying why (the
    registry unchanged): it must define every abstract method of ``Rules``; ``name``,
    ``title`` and ``summary`` are non-empty; the name and aliases are lower case words joined by
    ``-`` and clash with no game's name or alias; ``pile_names`` are distinct; ``option_specs``
    are :class:`~patience.options.Option` objects with distinct names, a known kind and a
    default among their allowed values; and the rules made with the default options have at
    least one player. Returns ``cls``, so it can decorate the class::

        @patience.games.register
        class MyGame(patience.Rules[MyState]):
            ...
    """
    _check(cls)
    GAMES[cls.name] = cls
    return cls


def unregister(name: str) -> type[Rules[Any]]:
    """Forget a game added with :func:`register` (by its name or an alias); return its class.
    The games of this package cannot be unregistered."""
    key = resolve_name(name)
    if key in BUILT_IN:
        raise RegistrationError(f"{key} is one of patience's own games: it cannot be unregistered")
    return GAMES.pop(key)


@contextlib.contextmanager
def registered(cls: R) -> Iterator[R]:
    """Register ``cls`` for the duration of a ``with`` block (tests, a plug-in tried out)."""
    register(cls)
    try:
        yield cls
    finally:
        if GAMES.get(cls.name) is cls:
            del GAMES[cls.name]


def resolve_name(name: str) -> str:
    """The RULES.md name of a game, given its name or an alias (``forty-thieves``)."""
    key = name.strip().lower().replace("_", "-")
    if key in GAMES:
        return key
    for cls in GAMES.values():
        if key in cls.aliases:
            return cls.name
    raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")


def get_rules(name: str, options: Mapping[str, object] | None = None) -> Rules[Any]:
    """The rules of game ``name`` with ``options`` (validated; defaults filled in)."""
    return GAMES[resolve_name(name)](options)


# Positions name their game: the engine finds it through this registry (the engine imports no
# game, so games can be added above it).
install_rules_finder(get_rules)
