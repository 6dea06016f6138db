"""The compiled search core (``patience._core``, the Rust crate in ``core/``) as the solvers use
it: engine states cross as ``(piles, down, extra)`` in the game's pile order, options as
``KEY=VALUE`` text, moves as text in the engine's notation (docs/solving.md, "The compiled
core").

The core plays the same game as the Python rules; tests/test_core.py proves it move by move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ..cards import Card
from ..engine import Rules, State
from ..moves import Move

__all__ = [
    "CORE_MAX_STATES",
    "ENGINES",
    "CoreUnavailable",
    "apply",
    "available",
    "candidate_moves",
    "encode",
    "keys",
    "options_pairs",
    "solve",
    "steps",
]

#: The solvers' engines: the compiled core, or the Python adapters (the reference).
ENGINES = ("core", "python")

#: The core's default bound on its table of seen states (slots of 16 bytes, at most three
#: quarters full: 14 million states take a table of 2^25 slots, 512 MiB, which would hold up
#: to 25 million; the bound stays where the studies' rows were measured).
CORE_MAX_STATES = 14_000_000

Parts = tuple[list[list[int]], list[int], list[int]]

_core: Any
try:
    from .. import _core
except ImportError:  # pragma: no cover - a source tree whose extension was never built
    _core = None


class CoreUnavailable(RuntimeError):
    """The compiled core is not built here, or does not know the game."""


def _redeals(rules: Rules[Any], state: State) -> list[int]:
    """The passes used beyond the first (Klondike, Canfield)."""
    return [int(getattr(state, "redeals", 0))]


#: Card texts by face (``Th`` -> 35) for the standstill notes.
_FACES = {str(Card(face)): face for face in range(52)}


@lru_cache(maxsize=1 << 14)
def _note_ints(note: str) -> tuple[int, ...]:
    """A standstill note (``card|pile1/.../pile12``) as ints: its card, then for each of piles
    1-12 its length and its cards bottom first, all as faces (0-51)."""
    card, _, rest = note.partition("|")
    ints = [_FACES[card]]
    for pile in rest.split("/"):
        ints.append(len(pile) // 2)
        ints.extend(_FACES[pile[i : i + 2]] for i in range(0, len(pile), 2))
    return tuple(ints)


def _leonis_own_extra(rules: Rules[Any], state: State) -> list[int]:
    """Redeals made, the standstill flag (0 or 1), the number of standstill notes, then each
    note oldest first (:func:`_note_ints`): notes compare by rank and suit, so cards are
    faces."""
    notes: tuple[str, ...] = getattr(state, "notes", ())
    extra = [int(getattr(state, "redeals", 0)), int(bool(getattr(state, "standstill", False)))]
    extra.append(len(notes))
    for note in notes:
        extra.extend(_note_ints(note))
    return extra


def _no_extra(rules: Rules[Any], state: State) -> list[int]:
    # The piles say everything.
    return []


#: Per game the core knows: the numbers of a state beside its piles, in the core's order.
_EXTRAS: dict[str, Callable[[Rules[Any], State], list[int]]] = {
    "klondike": _redeals,
    "canfield": _redeals,
    "leonis-own": _leonis_own_extra,
    "accordion": _no_extra,
    "napoleon": _no_extra,
    "spider": _no_extra,
}

#: Games whose cards cross as faces (0-51, ``card % 52``): their copies are equal in play and
#: in the engine's key, and one-suit Spider's 104 spades number up to 415, more than the byte
#: a card crosses as.
_AS_FACES = frozenset({"spider"})


def available(game: str) -> bool:
    """Whether the compiled core is built and solves ``game``."""
    return _core is not None and game in _EXTRAS and game in _core.games()


def _require(game: str) -> Any:
    if _core is None:
        raise CoreUnavailable(
            "the compiled search core (patience._core) is not built: reinstall the package "
            "with a Rust toolchain (pip install -e .), or use the engine 'python'"
        )
    if not available(game):
        raise CoreUnavailable(
            f"the compiled search core does not solve {game} yet; use the engine 'python'"
        )
    return _core


def options_pairs(rules: Rules[Any]) -> list[tuple[str, str]]:
    """The game's options as text pairs for the core (on/off as 1/0)."""
    pairs = []
    for name, value in rules.options.items():
        text = ("1" if value else "0") if isinstance(value, bool) else str(value)
        pairs.append((name, text))
    return pairs


def encode(rules: Rules[Any], state: State) -> Parts:
    """A state as the core reads it: piles in ``rules.pile_names`` order (card numbers, bottom
    first; faces for the games of ``_AS_FACES``), face-down counts, and the game's other
    numbers."""
    names = rules.pile_names
    if rules.name in _AS_FACES:
        piles = [[int(card) % 52 for card in state.piles[name]] for name in names]
    else:
        piles = [[int(card) for card in state.piles[name]] for name in names]
    down = [state.down[name] for name in names]
    return piles, down, _EXTRAS[rules.name](rules, state)


def _parts(raw: Any) -> Parts:
    """Parts from the core (whose piles arrive as bytes) as lists of ints."""
    piles, down, extra = raw
    return [list(pile) for pile in piles], list(down), list(extra)


#: The core's moves, read once per text: the same few hundred texts come back from every search
#: (a hint's searches return some 30,000 moves), and moves are immutable values.
_move = lru_cache(maxsize=4096)(Move.parse)


def solve(
    rules: Rules[Any],
    root: State,
    history: Sequence[State],
    *,
    seconds: float | None,
    nodes: int | None,
    max_states: int,
    cpu_time: bool,
    dominance: bool = True,
    table: bool = True,
) -> tuple[str, list[Move], int, float, str, int]:
    """Search from ``root`` in the core: (result, moves, nodes, seconds, why, table size).

    Raises ValueError for a position the core cannot hold, KeyboardInterrupt on Ctrl-C."""
    core = _require(rules.name)
    result, moves, expanded, spent, why, states = core.solve(
        rules.name,
        options_pairs(rules),
        encode(rules, root),
        [encode(rules, state) for state in history],
        seconds,
        nodes,
        max_states,
        cpu_time,
        dominance,
        table,
    )
    return result, [_move(text) for text in moves], expanded, spent, why, states


def candidate_moves(rules: Rules[Any], state: State) -> list[Move]:
    """The moves the core lists for ``state`` (the engine's ``candidate_moves``)."""
    core = _require(rules.name)
    texts = core.candidate_moves(rules.name, options_pairs(rules), encode(rules, state))
    return [_move(text) for text in texts]


def apply(rules: Rules[Any], state: State, index: int) -> tuple[Parts, list[Move]]:
    """The core's state after candidate move ``index``, and the forced moves it made."""
    core = _require(rules.name)
    after, forced = core.apply(rules.name, options_pairs(rules), encode(rules, state), index)
    return _parts(after), [_move(text) for text in forced]


def steps(rules: Rules[Any], state: State, dominance: bool) -> list[tuple[list[Move], Parts]]:
    """The solver's steps from ``state`` in the core: each step's moves and the state after."""
    core = _require(rules.name)
    found = core.steps(rules.name, options_pairs(rules), encode(rules, state), dominance)
    return [([_move(text) for text in moves], _parts(after)) for moves, after in found]


def keys(rules: Rules[Any], state: State) -> tuple[int, int, bool]:
    """The core's canonical and path fingerprints of ``state``, and whether it is won."""
    core = _require(rules.name)
    canonical, path, won = core.keys(rules.name, options_pairs(rules), encode(rules, state))
    return int(canonical), int(path), bool(won)
