"""A rated ladder: every bot against every other on paired deals, rated with openskill.

:func:`run_ladder` plays a round robin: for every set of as many distinct bots as the game has
sides (Leopard with four players has two sides, and a side's two seats get the same bot), and
for each of ``pairs`` deals, the deal is played once per rotation of the bots round the seats,
so that every bot holds every seat on the same cards (the luck of the deal cancels). After each
game the bots' ratings are updated with openskill's Plackett-Luce model, ranked by the sides'
scores (equal scores tie). Each bot's CPU time per move (``time.process_time``) is measured.

Bots are named as for ``patience match`` (``random``, ``greedy``, ``ismcts``, and
``openspiel-ismcts`` with the OpenSpiel extra), optionally with parameters:
``ismcts:iterations=500``, ``openspiel-ismcts:simulations=200``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .bots.base import Bot, BotError, get
from .engine import Game
from .games import get_rules

__all__ = ["BotSpec", "LadderEntry", "LadderResult", "parse_bot", "run_ladder"]


@dataclass(frozen=True)
class BotSpec:
    """A bot of the ladder: its label (as given), registry name and parameters."""

    label: str
    name: str
    params: tuple[tuple[str, int | float | str], ...] = ()

    def make(self, seed: str) -> Bot:
        """A fresh bot of this kind, seeded with ``seed``."""
        return get(self.name, seed=seed, **dict(self.params))


def _value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_bot(text: str) -> BotSpec:
    """``NAME`` or ``NAME:KEY=VALUE,...`` (``;`` also separates parameters)."""
    label = text.strip()
    name, _, rest = label.partition(":")
    params = []
    for item in filter(None, (part.strip() for part in rest.replace(";", ",").split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BotError(f"bot parameter {item!r} in {label!r} is not KEY=VALUE")
        params.append((key.strip(), _value(value.strip())))
    spec = BotSpec(label, name.strip().lower(), tuple(params))
    spec.make("check")  # an unknown name or parameter fails here, before any game
    return spec


@dataclass
class LadderEntry:
    """One bot's rating (openskill ``mu`` and ``sigma``), games, wins and CPU per move."""

    label: str
    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0
    moves: int = 0
    cpu_seconds: float = 0.0

    @property
    def ordinal(self) -> float:
        """A conservative rating: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    @property
    def cpu_per_move(self) -> float:
        """Mean CPU seconds per move asked of the bot."""
        return self.cpu_seconds / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, Any]:
        """The entry as JSON."""
        return {
            "bot": self.label,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 3),
            "games": self.games,
            "wins": self.wins,
            "moves": self.moves,
            "cpu_seconds_per_move": round(self.cpu_per_move, 5),
        }


@dataclass
class LadderResult:
    """The ladder's entries (best rated first) and every game played."""

    game: str
    options: dict[str, Any]
    pairs: int
    entries: list[LadderEntry]
    games: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON."""
        return {
            "game": self.game,
            "options": self.options,
            "pairs": self.pairs,
            "ratings": [entry.to_json() for entry in self.entries],
            "games": self.games,
        }


def _sides(game: Game) -> int:
    """How many sides play: Leopard's four players are two sides."""
    rules: Any = game.rules
    return int(getattr(rules, "sides", rules.players))


def _ladder_game(
    game_name: str,
    options: Mapping[str, Any],
    by_side: Sequence[BotSpec],
    deal: int,
    seed: str,
) -> dict[str, Any]:
    """One game of the ladder: side ``s`` played by ``by_side[s]`` (both partners of a side
    are the same bot), each seat's bot seeded ``{seed}:{seat}``. The sides' scores, the result,
    and per side the CPU seconds and moves its bots were asked for."""
    rules = get_rules(game_name, options)
    sides = len(by_side)
    players = [by_side[seat % sides].make(f"{seed}:{seat}") for seat in range(rules.players)]
    cpu = [0.0] * sides
    moves = [0] * sides
    game = Game.create(rules, deal=deal)
    while not game.is_over():
        seat = game.current_player()
        started = time.process_time()
        move = players[seat].choose(game.view(seat))
        cpu[seat % sides] += time.process_time() - started
        moves[seat % sides] += 1
        game.push(move)
    outcome = game.outcome()
    # Each side's score (the returns of seats 0..sides-1 if the outcome has none).
    scores = [float(value) for value in (outcome.scores or game.returns())][:sides]
    return {"scores": scores, "result": outcome.result.value, "cpu": cpu, "moves": moves}


def run_ladder(
    game_name: str,
    options: Mapping[str, Any],
    bots: Sequence[BotSpec],
    pairs: int,
    first_deal: int = 0,
    seed: int = 0,
    jobs: int = 1,
) -> LadderResult:
    """Play the round robin (the module says how) and rate every bot.

    ``jobs`` processes play the games; the ratings are updated afterwards in the games' order,
    so the result is the same for any number of jobs (bots with a time budget aside)."""
    from openskill.models import PlackettLuce

    rules = get_rules(game_name, options)
    sample = Game.create(rules, deal=first_deal)
    sides = _sides(sample)
    if len(bots) < sides:
        raise BotError(f"{rules.name} has {sides} sides: give at least {sides} bots")
    if len({spec.label for spec in bots}) != len(bots):
        raise BotError("each bot may be named once")
    schedule: list[tuple[int, list[BotSpec]]] = []
    for group in itertools.combinations(bots, sides):
        for pair in range(pairs):
            for turn in range(sides):
                # Side s is played by group[(s + turn) % sides]: every bot holds every seat.
                by_side = [group[(side + turn) % sides] for side in range(sides)]
                schedule.append((first_deal + pair, by_side))
    tasks = [
        (rules.name, dict(rules.options), by_side, deal, f"{seed}:{number}")
        for number, (deal, by_side) in enumerate(schedule, start=1)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_ladder_game, *zip(*tasks, strict=True)))
    else:
        results = [_ladder_game(*task) for task in tasks]
    model = PlackettLuce()
    ratings = {spec.label: model.rating(name=spec.label) for spec in bots}
    entries = {
        spec.label: LadderEntry(spec.label, ratings[spec.label].mu, ratings[spec.label].sigma)
        for spec in bots
    }
    played: list[dict[str, Any]] = []
    for (deal, by_side), result in zip(schedule, results, strict=True):
        scores = result["scores"]
        teams = [[ratings[spec.label]] for spec in by_side]
        rated = model.rate(teams, scores=scores)
        for side, (spec, (rating,)) in enumerate(zip(by_side, rated, strict=True)):
            ratings[spec.label] = rating
            entry = entries[spec.label]
            entry.games += 1
            entry.mu, entry.sigma = rating.mu, rating.sigma
            entry.cpu_seconds += result["cpu"][side]
            entry.moves += result["moves"][side]
        best = max(scores)
        winners = [spec.label for spec, score in zip(by_side, scores, strict=True) if score == best]
        for label in winners:
            entries[label].wins += 1.0 / len(winners)
        played.append(
            {
                "deal": deal,
                "sides": [spec.label for spec in by_side],
                "scores": scores,
                "result": result["result"],
            }
        )
    ranked = sorted(entries.values(), key=lambda entry: entry.ordinal, reverse=True)
    return LadderResult(rules.name, dict(rules.options), pairs, ranked, played)
