"""Autoplay: the hint policy plays whole games from the player's view alone, resumably.

Each move is the one :func:`patience.solve.hint` recommends, with a node budget and no clock,
so that a deal is played the same way on every machine. The policy never sees a hidden card:
the hint reads the view only (tests/test_hint.py swaps the hidden cards under one view and
checks that the decision stays the same). Results go to a small SQLite file keyed by the game,
its options, the policy (worlds, nodes, version) and the deal, so that a run stopped part way
goes on where it stopped.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..engine import Game, Result
from ..stats import Interval
from .hint import Hint, hint, pile_counts

__all__ = [
    "AUTOPLAY_VERSION",
    "AUTOPLAY_VERSIONS",
    "CONCEDE_AFTER",
    "MAX_MOVES",
    "AutoplayDB",
    "PlayedGame",
    "Policy",
    "autoplay_version",
    "play_with_hints",
    "win_rate",
]

#: The hint policy's version: bumped whenever a change can alter a game it plays, so that rows
#: of different policies are never mixed. 8: the solver no longer calls a position proved lost
#: when only the positions already played cut every line its pruning rules keep, and searches on
#: (docs/solving.md, "History"): a world it then wins counts as won (lost before; a world with
#: no way round counts as lost, as before), and a position with nothing hidden is no longer
#: given up on such a false proof. 9: when the hidden cards can lie only one way (the last card
#: face down), the hint solves the game itself and follows the win, as when nothing is hidden;
#: and among equally good moves after which every world is won, the shortest wins come first
#: (before, progress chose, and the policy walked on with every move "won"). 10: the shortest
#: wins only when the worlds judged are every way the hidden cards can lie (with more ways
#: the lengths are noise, and policy 9 walked won Klondike games to the move limit).
AUTOPLAY_VERSION = 10
#: Games whose hints changed apart from the others, and their versions (the other games'
#: stored runs stay whole): Leoni's Own 9 (8: its worlds keep the deal's exile rule, no card of
#: a squared pile's own rank before a card is put under one); Spider 9 (8: a row dealt from the
#: stock no longer counts as progress and the close calls are searched again deeper); each 10
#: with policy 9's change. Leoni's Own 11: the hints remember every card, which the player saw
#: dealt face up (``Rules.player_sees_every_card``), and solve the position itself. Spider 11:
#: its building order comes before policy 9's shortest wins. Both 12 with policy 10's change.
#: Spider 13: after ``STUCK_AFTER`` moves without progress the shortest wins come first. Spider
#: 14 (tried on a branch): the deal after the plays that only move cards around. Spider 15:
#: that order, and a play whose search runs out of nodes in a world is searched again with the
#: stock dealt first, so that the deal no longer wins the vote only because a world knows its
#: stock.
AUTOPLAY_VERSIONS: dict[str, int] = {"leonis-own": 12, "spider": 15}
#: A game still going after this many moves counts as lost (the repetition rule ends every
#: game, but some only after a very long walk through the stock).
MAX_MOVES = 1000
#: The policy concedes (the game counts as lost) after this many hints in a row that found no
#: sampled world won after any move, while the game got no further than it had been (no more
#: cards on the foundations less cards face down than at its best so far). Such a game walks
#: without aim until the repetition rule or :data:`MAX_MOVES` ends it: deal 1002 of Klondike
#: draw 3 walked for hundreds of moves of a second's hint each. Conceding can only lose games,
#: so a win rate measured with it is a lower bound of the same policy's without it.
CONCEDE_AFTER = 50
#: Called with the game, the hint and its CPU seconds before the hint's move is played
#: (benchmarks/hints.py times the hints and checks them against the solver).
Observer = Callable[[Game, Hint, float], None]


@dataclass(frozen=True)
class Policy:
    """How the hints are worked out: worlds sampled and nodes per search."""

    samples: int
    nodes: int

    def key(self, game: str) -> str:
        """The policy as stored for ``game``: canonical JSON with the version
        (:func:`autoplay_version`)."""
        data = {"samples": self.samples, "nodes": self.nodes, "version": autoplay_version(game)}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


def autoplay_version(game: str) -> int:
    """The version of the hint policy for ``game``: :data:`AUTOPLAY_VERSIONS`, else
    :data:`AUTOPLAY_VERSION`."""
    return AUTOPLAY_VERSIONS.get(game, AUTOPLAY_VERSION)


@dataclass(frozen=True)
class PlayedGame:
    """One deal played by the hint policy: ``won`` or ``lost``, how many moves, how long."""

    deal: int
    result: Result
    moves: int
    seconds: float
    reason: str

    def to_json(self) -> dict[str, object]:
        """``{"deal", "result", "moves", "seconds", "reason"}``."""
        return {
            "deal": self.deal,
            "result": self.result,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
        }


def play_with_hints(game: Game, policy: Policy, observe: Observer | None = None) -> PlayedGame:
    """Play ``game`` to its end with the hint's move at every turn (``game`` is changed).

    The policy gives up (the game counts as lost) when no move is suggested, after
    :data:`CONCEDE_AFTER` hints in a row that saw no win and no progress, or after
    :data:`MAX_MOVES` moves. ``observe`` sees every hint before its move is played."""
    started = time.perf_counter()
    played = 0
    reason = ""
    best = _progress(game)
    hopeless = 0  # hints in a row with no world won and no progress beyond ``best``
    while not game.is_over():
        if played >= MAX_MOVES:
            reason = f"still going after {MAX_MOVES} moves"
            break
        if hopeless >= CONCEDE_AFTER:
            reason = (
                f"conceded: {CONCEDE_AFTER} hints in a row found no deal of the hidden cards "
                "won, and the game got no further"
            )
            break
        asked = time.process_time()
        answer = hint(game, samples=policy.samples, seconds=None, nodes=policy.nodes)
        if observe is not None:
            observe(game, answer, time.process_time() - asked)
        if answer.move is None:
            reason = f"no move suggested: {answer.reason}"
            break
        game.push(answer.move)
        played += 1
        now = _progress(game)
        if answer.wins or answer.exact or now > best:
            hopeless = 0
        else:
            hopeless += 1
        best = max(best, now)
    outcome = game.outcome()
    won = outcome.result == Result.WON
    if not reason:
        reason = outcome.reason or outcome.result
    deal = game.deal if game.deal is not None else -1
    result = Result.WON if won else Result.LOST
    return PlayedGame(deal, result, played, time.perf_counter() - started, reason)


def _progress(game: Game) -> int:
    """How far the game has got, as the player sees it: cards on the foundations (piles named
    ``f1``, ``f2``...) less cards face down outside the stock (turning the stock over is not
    progress)."""
    home, down, _ = pile_counts(game.view(0)["piles"])
    return home - down


class AutoplayDB:
    """The results of autoplay runs (SQLite), one row per game, options, policy and deal."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.connection = sqlite3.connect(str(path))
        self.connection.execute(
            "CREATE TABLE IF NOT EXISTS autoplay (game TEXT NOT NULL, options TEXT NOT NULL, "
            "policy TEXT NOT NULL, deal INTEGER NOT NULL, result TEXT NOT NULL, "
            "moves INTEGER NOT NULL, seconds REAL NOT NULL, reason TEXT NOT NULL, "
            "PRIMARY KEY (game, options, policy, deal))"
        )
        self.connection.commit()

    def close(self) -> None:
        """Close the file."""
        self.connection.close()

    def played(self, game: str, options: str, policy: Policy) -> dict[int, PlayedGame]:
        """The deals already played with these options and this policy."""
        rows = self.connection.execute(
            "SELECT deal, result, moves, seconds, reason FROM autoplay "
            "WHERE game = ? AND options = ? AND policy = ?",
            (game, options, policy.key(game)),
        )
        return {
            deal: PlayedGame(deal, Result(result), moves, seconds, reason)
            for deal, result, moves, seconds, reason in rows
        }

    def add(self, game: str, options: str, policy: Policy, played: PlayedGame) -> None:
        """Store one played deal (committed at once: a stopped run loses nothing)."""
        self.connection.execute(
            "INSERT OR REPLACE INTO autoplay VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game,
                options,
                policy.key(game),
                played.deal,
                played.result,
                played.moves,
                played.seconds,
                played.reason,
            ),
        )
        self.connection.commit()


def win_rate(games: Iterable[PlayedGame]) -> Interval:
    """The share of ``games`` won, with its 95% Wilson interval."""
    results = [game.result == Result.WON for game in games]
    return Interval.wilson(sum(results), len(results))
