"""How well a bot plays: the games of ``patience arena`` (same deals, seatings and seeds, so
the same games) with counts of the weak plays issue 23 names, for bot A's moves.

Run: ``.venv/bin/python benchmarks/bots.py GAME --seats A,B --pairs N [--deal D] [--seed S]
[-o KEY=VALUE ...] [--jobs J] [--out FILE] [--verify F]``, or ``--summary FILE`` to sum up
the lines of a run (finished or not).

Each game is one JSON line (as the arena's games, with ``counts``); the last line sums up: A's
win rate with its 95% Wilson interval, A's CPU seconds a move, moves a game, and over A's
decisions (moves with a choice), and B's CPU seconds a move (``b_cpu_per_move``, from the
games' ``b_cpu`` and ``b_decisions``):

- ``raise_rival``: Leopard plays that raise a rival's square's value (``raise_rival_own_gain``:
  those made while a play in its own square would have raised its own);
- ``declare``, ``declare_lost``: Leopard declarations, and those into a lost deal (the
  declarer's points no more than a rival's; ``declare_tie``: those of them into a tied deal,
  equal points, after which a match of one deal plays one more);
- ``shuffles``: Double Solitaire moves of cards between one's own tableau piles that turn up
  no card; ``idle``: those shuffles and the waste's card moved onto one's own tableau that open
  nothing (:func:`opens`) while a move of progress was legal (a card to a foundation, a move
  turning up a card, or turning a stock card), and the card just turned put on the waste when
  it could go to a foundation: the option-keeping moves issue 23 counts; ``hand_waste``: the
  card just turned put on the waste though it could be played.

With ``--verify F`` (default 8; 0: off) each weak play counted in ``raise_rival``,
``declare_lost`` and ``idle`` is checked by a search of F times the game's own budget
(``Rules.native_iterations``) from the mover's view, with its own random numbers (the games
stay the arena's): :func:`verify`. ``raise_rival_better``, ``declare_lost_better`` and
``idle_better`` count those for which it found a better move (its most visited move is another
one, whose mean reward beats the played move's by more than 2 standard errors); each game's
``weak`` lists the checked plays with the position (the moves before it) and the figures.

Double Solitaire games also give each seat's player moves by kind (``a_kinds``, ``b_kinds``:
:func:`move_kind`), so that moves a game can be compared kind by kind; the summary sums them
(``a_kinds_per_game``, ``b_kinds_per_game``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from patience.bots.match import make_bots, seatings, side_of
from patience.engine import Game, Rules
from patience.games import get_rules
from patience.moves import Move
from patience.options import parse_option_pairs
from patience.stats import Interval


def move_kind(rules: Rules[Any], game: Game, seat: int, move: Move) -> str:
    """A Double Solitaire player move's kind: ``stock``, ``recycle``, ``pass``, ``answer`` (stop
    or let-pass), ``foundation`` (any card to a foundation), ``turn-up`` (a tableau run moved so
    that a face-down card turns up), ``shuffle`` (a tableau run moved turning up nothing),
    ``waste-tableau``, ``hand-tableau`` (the card just turned, played to the tableau) or
    ``hand-waste`` (the card just turned, put on the waste though it could be played)."""
    if move.is_action:
        return str(move.action) if move.action in ("stock", "recycle", "pass") else "answer"
    target, source = str(move.target), str(move.source)
    if target.startswith("f"):
        return "foundation"
    if source.endswith("hand"):
        return "hand-waste" if target.endswith("waste") else "hand-tableau"
    if source.endswith("waste"):
        return "waste-tableau"
    _, forced = rules.apply(game.state, move)
    return "turn-up" if any(m.is_action and m.action == "flip" for m in forced) else "shuffle"


def opens(rules: Rules[Any], game: Game, seat: int, move: Move) -> bool:
    """True if ``move`` (a shuffle or the waste's card onto the tableau) opens something, as
    the core's search rule counts it (docs/bots.md): the card it leaves on top of its source
    goes to a foundation or (from the tableau) takes the waste's top card, or it lets a whole
    face-up run lying on face-down cards move (so that moving the run turns one up); for the
    waste's card also when the waste card it uncovers goes to a foundation or to the tableau."""
    from patience.games.common import alternating_run_length, fits_foundation_up, fitting_run_count
    from patience.games.double_solitaire import FOUNDATIONS, TABLEAUX, WASTES

    after, _ = rules.apply(game.state, move)
    piles = after.piles
    source, waste = str(move.source), WASTES[seat]
    exposed = piles[source][-1:]
    holder = source  # the pile whose top card is to take a run
    if exposed and any(fits_foundation_up(exposed[0], piles[f]) for f in FOUNDATIONS):
        return True
    if source == waste:
        if exposed and any(fitting_run_count(exposed, 1, piles[t]) for t in TABLEAUX[seat]):
            return True
        # The card put on the tableau may take a run that then turns a card up.
        holder = str(move.target)
        exposed = piles[holder][-1:]
    elif piles[waste] and fitting_run_count(piles[waste], 1, exposed):
        return True
    for other in TABLEAUX[seat]:
        hidden, up = after.down[other], len(piles[other]) - after.down[other]
        if (
            other != holder
            and hidden
            and up
            and alternating_run_length(piles[other][hidden:]) == up
            and fitting_run_count(piles[other], up, exposed) == up
        ):
            return True
    return False


def weak_plays(rules: Rules[Any], game: Game, seat: int, move: Move) -> Counter[str]:
    """The weak plays of issue 23 that ``move``, about to be made by ``seat``, is."""
    counts: Counter[str] = Counter()
    state = game.state
    if rules.name == "leopard":
        from patience.games.leopard import LeopardState, square_value

        sides = rules.sides  # type: ignore[attr-defined]
        own = seat % sides
        if move.action == "play" and int(str(move.arg("square"))) != own:
            square = int(str(move.arg("square")))
            after, _ = rules.apply(state, move)
            assert isinstance(state, LeopardState)
            assert isinstance(after, LeopardState)
            if square_value(after.squares[square]) > square_value(state.squares[square]):
                counts["raise_rival"] += 1
                before = square_value(state.squares[own])
                for other in game.legal_moves():
                    if (
                        other.action == "play"
                        and int(str(other.arg("square"))) == own
                        and square_value(rules.apply(state, other)[0].squares[own]) > before
                    ):
                        counts["raise_rival_own_gain"] += 1
                        break
        if move.action == "declare":
            counts["declare"] += 1
            points = rules.deal_points(state, seat)  # type: ignore[attr-defined]
            rival = max(p for side, p in enumerate(points) if side != own)
            if points[own] <= rival:
                counts["declare_lost"] += 1
                if points[own] == rival:
                    counts["declare_tie"] += 1  # a tied deal: not lost, as the match goes on
    elif rules.name == "double-solitaire" and not move.is_action:
        kind = move_kind(rules, game, seat, move)
        if kind == "shuffle":
            counts["shuffles"] += 1
        if kind in ("shuffle", "waste-tableau") and not opens(rules, game, seat, move):
            progress = any(
                move_kind(rules, game, seat, other) in ("foundation", "turn-up", "stock")
                for other in game.legal_moves()
            )
            if progress:
                counts["idle"] += 1
        if kind == "hand-waste":
            counts["hand_waste"] += 1
            if any(str(other.target).startswith("f") for other in game.legal_moves()):
                counts["idle"] += 1  # the card just turned could have gone up
    return counts


#: Counts of weak plays that :func:`verify` checks.
VERIFIED = ("raise_rival", "declare_lost", "idle")


def verify(
    rules: Rules[Any], game: Game, seat: int, move: Move, factor: int, seed: int
) -> dict[str, Any]:
    """Whether a better move than ``move`` (about to be made by ``seat``) was available, by a
    search of ``factor`` times the game's budget from the seat's view (the bot's defaults
    otherwise, with its own random numbers): ``better`` is True when its most visited move is
    another one whose mean reward lies more than 2 standard errors (each mean's variance taken
    as m(1 - m) / visits) above the played move's. Also given: each move's visits and mean
    reward, best first, the played one marked."""
    import math
    import random

    from patience.bots.ismcts import IsmctsBot

    bot = IsmctsBot()
    _, _, costs = bot.tuning(rules)
    found = rules.native_ismcts(
        game.view(seat),
        random.Random(seed),
        iterations=factor * rules.native_iterations,  # type: ignore[attr-defined]
        seconds=None,
        exploration=bot.exploration,
        bias=bot.bias,
        rollout_depth=bot.rollout_depth,
        costs=costs,
    )
    if found is None:
        raise SystemExit("--verify needs the compiled core (patience._core)")
    _, stats = found
    edges = sorted(
        ((visits, total / visits, str(m)) for m, visits, total, _ in stats if visits),
        reverse=True,
    )
    played = next(((v, m) for v, m, text in edges if text == str(move)), (0, 0.0))
    top_visits, top_mean, top = edges[0]

    def variance(mean: float, visits: int) -> float:
        return max(mean * (1 - mean), 0.01) / max(visits, 1)

    error = math.sqrt(variance(top_mean, top_visits) + variance(played[1], played[0]))
    better = top != str(move) and top_mean > played[1] + 2 * error
    return {
        "better": better,
        "played": [played[0], round(played[1], 4)],
        "searched": [[text, v, round(m, 4)] for v, m, text in edges[:6]],
    }


def play_pair(
    game_name: str,
    options: dict[str, Any],
    names: tuple[str, str],
    deal: int,
    seed: int,
    verify_factor: int = 0,
) -> list[dict[str, Any]]:
    """The games of one deal, as the arena plays them, with A's counts."""
    rules = get_rules(game_name, options)
    results = []
    for seating in seatings(rules.players):
        seats = [names[bot] for bot in seating]
        a_seats = {seat for seat, bot in enumerate(seating) if bot == 0}
        bots = make_bots(seats, seed)
        game = Game.create(rules, deal=deal)
        counts: Counter[str] = Counter()
        cpu = 0.0
        b_cpu, b_decisions = 0.0, 0
        kinds: list[Counter[str]] = [Counter(), Counter()]  # A's, B's player moves by kind
        weak: list[dict[str, Any]] = []  # the weak plays checked by verify()
        while not game.is_over():
            seat = game.current_player()
            view = game.view(seat)
            start = time.process_time()
            move = bots[seat].choose(view)
            if seat in a_seats and len(view["legal_moves"]) > 1:
                cpu += time.process_time() - start
                counts["decisions"] += 1
                found = weak_plays(rules, game, seat, move)
                # update, not +=: a Counter's + drops zero counts, and a weak play checked
                # and found not bettered must still show its `*_better` 0.
                counts.update(found)
                checked = [name for name in VERIFIED if found[name]]
                if checked and verify_factor:
                    check = verify(
                        rules, game, seat, move, verify_factor, seed * 1000 + len(game.move_stack)
                    )
                    for name in checked:
                        counts[f"{name}_better"] += check["better"]
                    weak.append(
                        {
                            "kinds": checked,
                            "seat": seat,
                            "move": str(move),
                            "before": [str(m) for m in game.move_stack],
                            **check,
                        }
                    )
            elif len(view["legal_moves"]) > 1:
                b_cpu += time.process_time() - start
                b_decisions += 1
            if rules.name == "double-solitaire":
                kinds[seat not in a_seats][move_kind(rules, game, seat, move)] += 1
            game.push(move)
        outcome = game.outcome()
        scores = list(outcome.scores or ())
        a_side = side_of(game, min(a_seats))
        rival = max(score for side, score in enumerate(scores) if side != a_side)
        won = 1.0 if outcome.winner == a_side else 0.5 if outcome.winner is None else 0.0
        results.append(
            {
                "deal": deal,
                "seats": seats,
                "scores": scores,
                "a_margin": scores[a_side] - rival,
                "a_won": won,
                "moves": len(game.move_stack),
                "a_cpu": round(cpu, 3),
                "b_cpu": round(b_cpu, 3),
                "b_decisions": b_decisions,
                "counts": dict(counts),
                **({"weak": weak} if weak else {}),
                **(
                    {"a_kinds": dict(kinds[0]), "b_kinds": dict(kinds[1])}
                    if rules.name == "double-solitaire"
                    else {}
                ),
            }
        )
    return results


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """A's win rate (Wilson interval), CPU a move, moves a game and the counts summed."""
    counts: Counter[str] = Counter()
    for game in games:
        counts.update(game["counts"])
    rate = Interval.wilson(sum(g["a_won"] for g in games), len(games))
    kinds: dict[str, Counter[str]] = {"a_kinds": Counter(), "b_kinds": Counter()}
    for game in games:
        for side, counter in kinds.items():
            counter.update(game.get(side, {}))
    per_game = {
        f"{side}_per_game": {k: round(v / len(games), 2) for k, v in sorted(counter.items())}
        for side, counter in kinds.items()
        if counter
    }
    return {
        "games": len(games),
        "deals": len({g["deal"] for g in games}),
        "a_win_rate": [round(rate.mean, 3), round(rate.low, 3), round(rate.high, 3)],
        "a_mean_margin": round(sum(g["a_margin"] for g in games) / len(games), 2),
        "a_cpu_per_move": round(sum(g["a_cpu"] for g in games) / max(counts["decisions"], 1), 3),
        "b_cpu_per_move": round(
            sum(g.get("b_cpu", 0.0) for g in games)
            / max(sum(g.get("b_decisions", 0) for g in games), 1),
            3,
        ),
        "moves_per_game": round(sum(g["moves"] for g in games) / len(games), 1),
        "counts": dict(counts),
        **per_game,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?")
    parser.add_argument("--seats", default="ismcts,greedy")
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--deal", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--option", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--verify",
        type=int,
        default=8,
        help="check each weak play by a search of this many times the game's budget (0: off)",
    )
    parser.add_argument("--summary", type=Path, help="sum up the game lines of FILE")
    args = parser.parse_args()
    if args.summary is not None:
        lines = args.summary.read_text(encoding="utf-8").splitlines()
        played = [json.loads(line) for line in lines if line.startswith('{"deal"')]
        print(json.dumps(summary(played)))
        return
    if args.game is None:
        parser.error("give GAME (or --summary FILE)")
    options: dict[str, Any] = dict(parse_option_pairs(args.option))
    if args.game == "leopard" and "deals" not in options and "target" not in options:
        options["deals"] = 1  # a single deal, as the arena plays
    a, b = (name.strip() for name in args.seats.split(","))
    out = args.out.open("a", encoding="utf-8") if args.out else sys.stdout
    games: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [
            pool.submit(
                play_pair, args.game, options, (a, b), args.deal + i, args.seed + i, args.verify
            )
            for i in range(args.pairs)
        ]
        for future in as_completed(futures):
            for game in future.result():
                games.append(game)
                print(json.dumps(game), file=out, flush=True)
    print(json.dumps(summary(games)), file=out, flush=True)


if __name__ == "__main__":
    main()
