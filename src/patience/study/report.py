"""Summing up studies: per game, options, engine and solver version, how many deals are won,
unwinnable and unknown, the win rate's interval, the CPU time spent and how it was spread; and
per game and options, whether the rows ever contradict each other (a deal won by one run and
proved unwinnable by another would be a solver bug) and how often the two engines agree.

A deal counts once, by its best row: a proof (``won`` or ``unwinnable``) if one was stored,
else its ``unknown`` with the largest budget. The win rate's 95% interval counts the unknown
deals both ways, as Blake and Gent do: its low end is the Wilson interval's low end with every
unknown deal lost, its high end the Wilson high end with every unknown deal won. CPU time
counts every run, retries too; runs stored before CPU time was measured (with wall-clock
budgets) count their wall-clock seconds instead, and the report says how many they are.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..games import get_rules
from ..solve.search import Verdict
from ..stats import Interval
from .db import ResultRow

__all__ = [
    "TIME_MARKS",
    "Agreement",
    "GroupReport",
    "agreements",
    "percentile",
    "plot_resolved",
    "plot_win_rates",
    "study_title",
    "summarise",
]

#: Seconds at which the report says what fraction of the deals was resolved.
TIME_MARKS = (0.1, 1.0, 10.0, 60.0)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank); 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1))
    return ordered[index]


@dataclass(frozen=True)
class GroupReport:
    """The summary of one game, options, engine and solver version."""

    game: str
    options: dict[str, Any]
    engine: str
    solver: int
    won: int
    unwinnable: int
    unknown: int
    #: CPU seconds of every run stored (retries too); for the ``cpu_unmeasured`` runs stored
    #: before CPU time was measured, their wall-clock seconds instead.
    cpu_seconds: float
    #: Per resolved deal: the seconds of the run that resolved it, in increasing order.
    resolve_seconds: tuple[float, ...]
    #: Per deal: the seconds of its best row.
    deal_seconds: tuple[float, ...]
    budgets: tuple[str, ...]
    #: Runs whose CPU time is unknown (older runs with wall-clock budgets).
    cpu_unmeasured: int = 0

    @property
    def deals(self) -> int:
        """Deals with at least one stored result."""
        return self.won + self.unwinnable + self.unknown

    @property
    def low(self) -> float:
        """The win rate's lower 95% bound, counting unknown deals as lost."""
        return Interval.wilson(self.won, self.deals).low

    @property
    def high(self) -> float:
        """The win rate's upper 95% bound, counting unknown deals as won."""
        return Interval.wilson(self.won + self.unknown, self.deals).high

    def resolved_within(self, seconds: float) -> float:
        """The fraction of the deals resolved by a run of at most ``seconds``."""
        if not self.deals:
            return 0.0
        return sum(1 for s in self.resolve_seconds if s <= seconds) / self.deals

    def title(self) -> str:
        """The game and its options, as a person reads them."""
        return study_title(self.game, self.options)

    def cpu_text(self) -> str:
        """``CPU 0.586 h``, saying when some of it is wall-clock time of older runs."""
        text = f"CPU {self.cpu_seconds / 3600:.3f} h"
        if self.cpu_unmeasured:
            runs = "run" if self.cpu_unmeasured == 1 else "runs"
            text += f" (wall-clock for {self.cpu_unmeasured} older {runs})"
        return text

    def label(self) -> str:
        """The game and options, solver version and budgets, as one line (no double spaces)."""
        return f"{self.title()}, {self.engine} solver {self.solver}, {', '.join(self.budgets)}"

    def heading(self) -> str:
        """``klondike draw=3 (core solver 4; budgets: 10 s)``: the report's heading of the
        group."""
        budgets = ", ".join(self.budgets)
        return f"{self.title()} ({self.engine} solver {self.solver}; budgets: {budgets})"

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON (docs/studies.md lists the fields)."""
        seconds = self.deal_seconds
        return {
            "game": self.game,
            "options": self.options,
            "engine": self.engine,
            "solver": self.solver,
            "deals": self.deals,
            "won": self.won,
            "unwinnable": self.unwinnable,
            "unknown": self.unknown,
            "win_rate": {
                "won_fraction": self.won / self.deals if self.deals else 0.0,
                "won_or_unknown_fraction": (
                    (self.won + self.unknown) / self.deals if self.deals else 0.0
                ),
                "low": self.low,
                "high": self.high,
            },
            "cpu_hours": self.cpu_seconds / 3600,
            "cpu_unmeasured_runs": self.cpu_unmeasured,
            "budgets": list(self.budgets),
            "seconds": {
                "mean": sum(seconds) / len(seconds) if seconds else 0.0,
                "median": percentile(seconds, 0.5),
                "p90": percentile(seconds, 0.9),
                "max": max(seconds, default=0.0),
            },
            "resolved_within": {f"{mark:g}": self.resolved_within(mark) for mark in TIME_MARKS},
        }


def study_title(game: str, options: dict[str, Any]) -> str:
    """``klondike draw=3,...``: the game and its options in the game's order (sorted if the
    game no longer takes them)."""
    try:
        text = get_rules(game, options).options_text()
    except ValueError:
        text = ",".join(f"{k}={_value_text(v)}" for k, v in sorted(options.items()))
    return f"{game} {text}".strip()


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


_RANK: dict[str, int] = {Verdict.WON: 0, Verdict.UNWINNABLE: 0, Verdict.UNKNOWN: 1}


def summarise(rows: Sequence[ResultRow]) -> list[GroupReport]:
    """One :class:`GroupReport` per (game, options, engine, solver version), in that order."""
    groups: dict[tuple[str, str, str, int], list[ResultRow]] = {}
    for row in rows:
        groups.setdefault((row.game, row.options, row.engine, row.solver), []).append(row)
    reports = []
    for (game, options, engine, solver), members in sorted(groups.items()):
        best = _best_rows(members)
        counts = dict.fromkeys(map(str, Verdict), 0)
        for row in best.values():
            counts[row.result] += 1
        reports.append(
            GroupReport(
                game=game,
                options=json.loads(options),
                engine=engine,
                solver=solver,
                won=counts["won"],
                unwinnable=counts["unwinnable"],
                unknown=counts["unknown"],
                cpu_seconds=sum(
                    row.seconds if row.cpu_seconds is None else row.cpu_seconds for row in members
                ),
                cpu_unmeasured=sum(1 for row in members if row.cpu_seconds is None),
                resolve_seconds=tuple(
                    sorted(row.seconds for row in best.values() if row.result != "unknown")
                ),
                deal_seconds=tuple(row.seconds for row in best.values()),
                budgets=tuple(sorted({row.budget.text() for row in members})),
            )
        )
    return reports


def _best_rows(rows: Sequence[ResultRow]) -> dict[int, ResultRow]:
    """Per deal, the row that says most about it (:func:`_better`)."""
    best: dict[int, ResultRow] = {}
    for row in rows:
        old = best.get(row.deal)
        if old is None or _better(row, old):
            best[row.deal] = row
    return best


def _better(row: ResultRow, old: ResultRow) -> bool:
    """Whether ``row`` says more about its deal than ``old``: a proof beats an unknown; among
    unknowns, the larger budget (seconds and nodes compared by the seconds spent)."""
    if _RANK[row.result] != _RANK[old.result]:
        return _RANK[row.result] < _RANK[old.result]
    if row.result != "unknown":
        return False  # two proofs agree (a disagreement would be a solver bug)
    if row.budget.kind == old.budget.kind:
        return row.budget.amount > old.budget.amount
    return row.seconds > old.seconds


@dataclass(frozen=True)
class Agreement:
    """Whether the runs of one game and options agree: every deal resolved by both engines,
    and every deal that some run won and another proved unwinnable (a solver bug if any)."""

    game: str
    options: dict[str, Any]
    #: Deals resolved (won or proved unwinnable) by the core and by the Python adapter.
    compared: int
    #: Deals won by one run and proved unwinnable by another (any engines and versions).
    contradictions: tuple[int, ...]

    def text(self) -> str:
        """One line: ``klondike draw=3,...: ...``."""
        title = study_title(self.game, self.options)
        both = (
            f"both engines resolved {self.compared} deals"
            if self.compared
            else "no deal resolved by both engines"
        )
        if not self.contradictions:
            return f"{title}: {both}; no deal won in one run and proved unwinnable in another"
        deals = ", ".join(map(str, self.contradictions))
        return f"{title}: {both}; CONTRADICTED (won and proved unwinnable): deals {deals}"

    def to_json(self) -> dict[str, Any]:
        """``{"game", "options", "compared", "contradictions"}``."""
        return {
            "game": self.game,
            "options": self.options,
            "compared": self.compared,
            "contradictions": list(self.contradictions),
        }


def agreements(rows: Sequence[ResultRow]) -> list[Agreement]:
    """One :class:`Agreement` per (game, options) of ``rows``, in that order."""
    groups: dict[tuple[str, str], list[ResultRow]] = {}
    for row in rows:
        groups.setdefault((row.game, row.options), []).append(row)
    found = []
    for (game, options), members in sorted(groups.items()):
        verdicts: dict[int, set[str]] = {}
        resolved_by: dict[str, set[int]] = {"core": set(), "python": set()}
        for row in members:
            if row.result != Verdict.UNKNOWN:
                verdicts.setdefault(row.deal, set()).add(row.result)
                resolved_by.setdefault(row.engine, set()).add(row.deal)
        found.append(
            Agreement(
                game=game,
                options=json.loads(options),
                compared=len(resolved_by["core"] & resolved_by["python"]),
                contradictions=tuple(
                    sorted(deal for deal, seen in verdicts.items() if len(seen) > 1)
                ),
            )
        )
    return found


def plot_win_rates(reports: Sequence[GroupReport], path: Path) -> None:
    """Write a PNG to ``path``: per group, its win rate's 95% interval (unknown deals counted
    both ways) as a bar, with the won fraction marked. Needs matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [report for report in reports if report.deals]
    figure, axes = plt.subplots(figsize=(9, 0.45 * len(shown) + 1.6))
    for index, report in enumerate(shown):
        axes.plot([report.low * 100, report.high * 100], [index, index], linewidth=6, alpha=0.5)
        axes.plot([report.won / report.deals * 100], [index], marker="|", markersize=14, color="k")
    axes.set_yticks(
        range(len(shown)),
        [f"{r.title()} ({r.engine} {r.solver}, n={r.deals})" for r in shown],
        fontsize="small",
    )
    axes.invert_yaxis()
    axes.set_xlabel("win rate, % (bar: 95% interval with unknown deals lost / won; mark: won)")
    axes.set_xlim(0, 100)
    axes.grid(True, axis="x", alpha=0.3)
    figure.savefig(path, dpi=100, format="png", bbox_inches="tight")
    plt.close(figure)


def plot_resolved(reports: Sequence[GroupReport], path: Path) -> None:
    """Write a PNG to ``path`` (whatever its suffix): per group, the fraction of deals resolved
    against the seconds spent on a deal (log scale). Groups with nothing resolved have no curve
    and are named in the legend as such. Needs matplotlib (``pip install 'patience[plot]'``)."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    drawn = [report for report in reports if report.resolve_seconds]
    flat = [report for report in reports if report.deals and not report.resolve_seconds]
    figure, axes = plt.subplots(figsize=(9, 5.5))
    for report in drawn:
        xs = [max(s, 1e-4) for s in report.resolve_seconds]
        ys = [(i + 1) / report.deals for i in range(len(xs))]
        # Start each curve at zero resolved; end it at the longest run (nothing resolved later).
        end = max(xs[-1], *report.deal_seconds)
        xs, ys = [xs[0], *xs, end], [0.0, *ys, ys[-1]]
        axes.step(xs, ys, where="post", label=f"{report.label()} (n={report.deals})")
    axes.set_xscale("log")
    axes.set_xlabel("seconds spent on a deal (as its budget counts them: wall-clock or CPU)")
    axes.set_ylabel("fraction of deals resolved")
    axes.set_title("Deals resolved (won or proved unwinnable) against the time spent on each")
    axes.set_ylim(0, 1.02)
    axes.grid(True, which="both", alpha=0.3)
    for report in flat:  # listed, as having no curve, so that no group goes unmentioned
        label = f"{report.label()} (n={report.deals}): nothing resolved, no curve"
        axes.plot([], [], linestyle="none", label=label)
    if drawn or flat:
        # Below the axes, not over the curves (which rise toward the upper left and right).
        axes.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.14))
    # bbox_inches="tight" grows the image to hold the legend below the axes; format="png":
    # the suffix of the name does not choose the format (plot.txt or a name without one).
    figure.savefig(path, dpi=100, format="png", bbox_inches="tight")
    plt.close(figure)
