"""Matches and arenas between bots, generic over games whose seats are filled by bots.

A match is one :class:`~patience.Game` (for Leopard a whole match of deals); each bot is asked
for a move with its seat's view only. An arena plays pairs of games on the same deal with the
seats swapped (with three players, thrice: each bot in each seat), so that the luck of the
cards cancels, and reports win rates and mean score margins with 95% confidence intervals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..engine import Game
from ..games import get_rules
from ..moves import Move
from ..stats import Interval
from .base import Bot, BotError, get

__all__ = [
    "ArenaResult",
    "Interval",
    "deal_scores",
    "make_bot",
    "make_bots",
    "play_game",
    "run_arena",
    "seatings",
    "side_of",
]


def make_bot(text: str, seed: int | str | None) -> Bot:
    """A bot named ``NAME`` or ``NAME:KEY=VALUE;...`` (parameters as the ladder takes them:
    ``ismcts:iterations=500``, ``openspiel-ismcts:simulations=200``); ``openspiel-ismcts`` is
    registered on demand (the OpenSpiel extra)."""
    from ..ladder import parse_bot  # the ladder imports the bots: imported when needed

    if text.partition(":")[0].strip().lower() == "openspiel-ismcts":
        try:
            import patience.envs.openspiel  # noqa: F401  (registers the bot)
        except ImportError as error:
            raise BotError(f"openspiel-ismcts needs the OpenSpiel extra: {error}") from None
    spec = parse_bot(text)
    return get(spec.name, seed=seed, **dict(spec.params))


def make_bots(names: Sequence[str], seed: int) -> list[Bot]:
    """One bot per seat (a name, with parameters if any: :func:`make_bot`); seat ``i``'s
    randomness is seeded with ``"SEED:i"``."""
    return [make_bot(name, seed=f"{seed}:{seat}") for seat, name in enumerate(names)]


def play_game(
    game: Game,
    bots: Sequence[Bot],
    on_move: Callable[[Game, int, Move, list[Move]], None] | None = None,
    cpu: list[list[float]] | None = None,
) -> Game:
    """Let the bots play ``game`` to its end, each from its own seat's view; return it.

    ``cpu``, if given (one ``[seconds, moves]`` per seat), adds up each seat's CPU time (this
    process's) and its moves with a choice (more than one legal move)."""
    if len(bots) != game.rules.players:
        raise BotError(f"{game.name} has {game.rules.players} seats, not {len(bots)} bots")
    while not game.is_over():
        seat = game.current_player()
        view = game.view(seat)
        start = time.process_time()
        move = bots[seat].choose(view)
        if cpu is not None and len(view["legal_moves"]) > 1:
            cpu[seat][0] += time.process_time() - start
            cpu[seat][1] += 1
        forced = game.push(move)
        if on_move is not None:
            on_move(game, seat, move, forced)
    return game


def deal_scores(forced: Sequence[Move]) -> list[list[int]]:
    """The points of each deal scored among ``forced`` moves (``score(deal=N,points=A/B)``)."""
    result = []
    for move in forced:
        if move.action == "score":
            result.append([int(part) for part in str(move.arg("points")).split("/")])
    return result


def side_of(game: Game, seat: int) -> int:
    """The side (index of ``outcome.scores``) that ``seat`` plays for."""
    sides = len(game.outcome().scores or ()) or game.rules.players
    return seat % sides


@dataclass(frozen=True)
class ArenaResult:
    """Per bot (A, B): win rate (a draw counts half) and mean margin over the pairs."""

    names: tuple[str, str]
    pairs: int
    win_rate: tuple[Interval, Interval]
    margin: tuple[Interval, Interval]
    games: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """The result as JSON."""
        return {
            "seats": list(self.names),
            "pairs": self.pairs,
            "bots": [
                {"name": name, "win_rate": rate.to_json(), "margin": margin.to_json()}
                for name, rate, margin in zip(self.names, self.win_rate, self.margin, strict=True)
            ],
            "games": self.games,
        }


def seatings(players: int) -> list[list[int]]:
    """The seatings of one deal in an arena, as the bot (0: A, 1: B) in each seat: A in every
    seat in turn with two or three players (B in the others), and with four (two sides of
    partners) A's side first, then B's."""
    if players == 4:
        return [[seat % 2 for seat in range(4)], [1 - seat % 2 for seat in range(4)]]
    return [[0 if seat == a_seat else 1 for seat in range(players)] for a_seat in range(players)]


def _arena_pair(
    game_name: str, options: Mapping[str, Any], names: tuple[str, str], deal: int, seed: int
) -> list[dict[str, Any]]:
    """The games of one deal: one per seating (:func:`seatings`)."""
    rules = get_rules(game_name, options)
    results = []
    for seating in seatings(rules.players):
        seats = [names[bot] for bot in seating]
        a_seat = seating.index(0)
        cpu = [[0.0, 0.0] for _ in seats]
        game = play_game(Game.create(rules, deal=deal), make_bots(seats, seed), cpu=cpu)
        outcome = game.outcome()
        scores = list(outcome.scores or ())
        a_side = side_of(game, a_seat)
        best_rival = max(score for side, score in enumerate(scores) if side != a_side)
        results.append(
            {
                "deal": deal,
                "seats": seats,
                "scores": scores,
                "a_margin": scores[a_side] - best_rival,
                "moves": len(game.move_stack),
                # Per bot: CPU seconds and moves with a choice, over its seats.
                "cpu": {
                    name: [
                        round(sum(cpu[i][0] for i, n in enumerate(seats) if n == name), 3),
                        int(sum(cpu[i][1] for i, n in enumerate(seats) if n == name)),
                    ]
                    for name in dict.fromkeys(seats)
                },
                "winner": outcome.winner,
                "a_won": 1.0
                if outcome.winner == a_side
                else 0.5
                if outcome.winner is None
                else 0.0,
            }
        )
    return results


def run_arena(
    game_name: str,
    options: Mapping[str, Any],
    names: tuple[str, str],
    pairs: int,
    first_deal: int = 0,
    seed: int = 0,
    jobs: int = 1,
) -> ArenaResult:
    """Play ``pairs`` pairs on deals ``first_deal``, ``first_deal + 1``, ...; in each pair the
    same deal is played once per seating (:func:`seatings`: twice with the seats swapped, three
    times with three players, A in each seat). ``jobs`` processes share the pairs.

    A's win rate counts the games A's side won (a draw half); B's the others. With three
    players a fair share is 1/3 for A. A's margin is its score minus the best rival's."""
    for name in names:
        make_bot(name, None)  # an unknown name or parameter fails here, before any game
    args = [(game_name, dict(options), names, first_deal + i, seed + i) for i in range(pairs)]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            per_pair = list(pool.map(_arena_pair, *zip(*args, strict=True)))
    else:
        per_pair = [_arena_pair(*arg) for arg in args]
    games = sum(len(pair) for pair in per_pair)
    wins_a = sum(g["a_won"] for pair in per_pair for g in pair)
    margins_a = [sum(g["a_margin"] for g in pair) / len(pair) for pair in per_pair]
    return ArenaResult(
        names=names,
        pairs=pairs,
        # Each game counts as a trial: the Wilson interval of the win rate.
        win_rate=(Interval.wilson(wins_a, games), Interval.wilson(games - wins_a, games)),
        margin=(Interval.of(margins_a), Interval.of([-m for m in margins_a])),
        games=[game for pair in per_pair for game in pair],
    )
