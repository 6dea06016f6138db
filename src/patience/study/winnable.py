"""Proved-winnable deals: the lists shipped with the package, and the web app's deal picker.

``src/patience/data/winnable/<game>.json`` holds, per set of options, deals that a study proved
winnable (``patience study export-winnable`` writes it):

    {"game": "klondike",
     "lists": [{"options": {...every option...}, "solver": 1, "studied": 100,
                "deals": [1, 3, ...],
                "grades": {"easy": [...], "medium": [...], "hard": [...]},
                "graded_by": {"engine": "core", "solver": 4}}]}

``grades`` (when the study has rows of the compiled core) splits the deals the core won at its
newest solver version into thirds by the nodes its search took to find the win.

:class:`WinnableDealPicker` deals from those lists, and for options without a list solves
random deals on demand within a budget until one is proved won.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from ..deals import MAX_DEAL, random_deal
from ..engine import Game, Rules
from ..files import write_atomically
from ..games import get_rules
from ..options import OptionValue
from ..solve import solve, solver_version
from .db import ResultRow, options_key

__all__ = [
    "GRADES",
    "LIST_FILE_SHAPE",
    "RARELY_PROVED",
    "REMEMBERED",
    "Grading",
    "ListFileError",
    "NoGrades",
    "NoWinnableDeal",
    "WinnableDealPicker",
    "check_grade",
    "grade_deals",
    "list_path",
    "load_grades",
    "load_lists",
    "packaged_dir",
    "rarely_proved",
    "read_list_file",
    "shipped_deals",
    "shipped_grades",
    "winnable_info",
    "write_list",
]

#: Options under which the solver rarely proves a deal winnable within the on-demand budget (a
#: few seconds), so that "winnable deals only" without a shipped list usually finds nothing:
#: per game, a list of (options that must all match, what to tell the player). Spider solver 5
#: wins four-suit deals in 13-53 CPU s (docs/solving.md), rarely within the 8 s of a search on
#: demand; two suits it won all of deals 1-10 within 8 CPU s (`benchmarks/solve.py spider
#: --deals 1-10 --budget 8 --cpu -o suits=2`: median 2.88 s), so two suits is not listed.
RARELY_PROVED: dict[str, list[tuple[dict[str, OptionValue], str]]] = {
    "spider": [
        (
            {"suits": 4},
            "the solver rarely proves a deal of Spider with 4 suits winnable in the time allowed",
        ),
    ],
}


#: The grades of winnable deals, easiest first.
GRADES = ("easy", "medium", "hard")


class NoWinnableDeal(ValueError):
    """No deal could be proved winnable within the picker's budget."""


class NoGrades(ValueError):
    """A grade of winnable deals was asked for where the picker has none to deal from."""


def packaged_dir() -> Traversable:
    """The package's folder of winnable-deal lists (``patience/data/winnable``)."""
    return resources.files("patience") / "data" / "winnable"


#: Lists already parsed, per file, with the file's (modification time, size) when read: the
#: catalogue and every pick read the lists, and a 10,000-deal study's list is some 200 KB of
#: JSON. A file changed since is read again, so a list exported meanwhile is offered at once.
_PARSED: dict[str, tuple[tuple[int, int], list[dict[str, Any]]]] = {}


def _entries(game: str, folder: Traversable | Path | None) -> list[dict[str, Any]]:
    # The lists of the game's file in the folder (the package's by default); none without one.
    # Callers only read them.
    path = (folder if folder is not None else packaged_dir()) / f"{game}.json"
    stamp: tuple[int, int] | None = None
    if isinstance(path, Path):  # a package inside a zip file has no stat: read it each time
        try:
            status = path.stat()
        except FileNotFoundError:
            return []
        stamp = (status.st_mtime_ns, status.st_size)
        cached = _PARSED.get(str(path))
        if cached is not None and cached[0] == stamp:
            return cached[1]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    entries: list[dict[str, Any]] = data.get("lists", [])
    if stamp is not None:
        _PARSED[str(path)] = (stamp, entries)
    return entries


def list_path(game: str) -> Path:
    """The file of ``game``'s lists in the package's folder (``src/patience/data/winnable``
    in a checkout), where ``patience study export-winnable`` writes by default."""
    return Path(__file__).resolve().parents[1] / "data" / "winnable" / f"{game}.json"


def load_lists(game: str, folder: Traversable | Path | None = None) -> dict[str, list[int]]:
    """The lists for ``game``: canonical options JSON -> deals; empty when none is shipped."""
    return {
        options_key(entry["options"]): [int(deal) for deal in entry["deals"]]
        for entry in _entries(game, folder)
    }


def load_grades(
    game: str, folder: Traversable | Path | None = None
) -> dict[str, dict[str, list[int]]]:
    """The graded lists for ``game``: canonical options JSON -> grade (:data:`GRADES`) ->
    deals, for the lists that hold ``grades``; empty when none does."""
    return {
        options_key(entry["options"]): {
            grade: [int(deal) for deal in entry["grades"].get(grade, [])] for grade in GRADES
        }
        for entry in _entries(game, folder)
        if isinstance(entry.get("grades"), dict)
    }


def shipped_grades(
    rules: Rules[Any], folder: Traversable | Path | None = None
) -> dict[str, list[int]] | None:
    """The shipped graded deals of ``rules``' game and options (grade -> deals), or None when
    their list has no grades (or no list is shipped)."""
    return load_grades(rules.name, folder).get(options_key(rules.options))


def check_grade(grade: object) -> str:
    """``grade`` when it is one of :data:`GRADES`; else a ``ValueError`` naming them."""
    if not isinstance(grade, str) or grade not in GRADES:
        raise ValueError(
            f"a grade of winnable deals is one of {', '.join(GRADES)} (not {grade!r}); "
            "leave it out for any winnable deal"
        )
    return grade


def shipped_deals(rules: Rules[Any], folder: Traversable | Path | None = None) -> list[int]:
    """The shipped proved-winnable deals of ``rules``' game and options (maybe none)."""
    return load_lists(rules.name, folder).get(options_key(rules.options), [])


def rarely_proved(rules: Rules[Any]) -> str | None:
    """What to tell the player when ``rules``' options are among :data:`RARELY_PROVED`, else
    None."""
    for options, note in RARELY_PROVED.get(rules.name, []):
        if all(rules.options.get(name) == value for name, value in options.items()):
            return note
    return None


def winnable_info(
    game: str, *, seconds: float, folder: Traversable | Path | None = None
) -> dict[str, Any]:
    """What the start page needs to describe "winnable deals only" for ``game``: the options
    that have a shipped list (``lists``: ``{"options", "deals"}`` with the number of deals, and
    for a graded list ``grades``: the number of deals of each grade, easiest first),
    whether the default options have one (``default_listed``), the options under which deals
    are rarely proved on demand (``rarely``: ``{"options", "note"}``) and the on-demand budget
    (``seconds``). Read from the folder on every call, so a list added to it (say
    ``napoleon.json``) is offered as soon as the server starts with it.
    """
    lists = load_lists(game, folder)
    graded = load_grades(game, folder)
    default = options_key(get_rules(game).options)
    described: list[dict[str, Any]] = []
    for key, deals in lists.items():
        if not deals:
            continue
        entry: dict[str, Any] = {"options": json.loads(key), "deals": len(deals)}
        if key in graded:
            entry["grades"] = {grade: len(graded[key][grade]) for grade in GRADES}
        described.append(entry)
    return {
        "lists": described,
        "default_listed": bool(lists.get(default)),
        "rarely": [
            {"options": dict(options), "note": note}
            for options, note in RARELY_PROVED.get(game, [])
        ],
        "seconds": seconds,
    }


#: What a list file holds, for the message about one that does not.
LIST_FILE_SHAPE = (
    'a JSON object {"game": GAME, "lists": [{"options": {...}, "solver": N, "studied": N, '
    '"deals": [...]}, ...]} as patience study export-winnable writes it'
)


_JSON_TYPES = {list: "array", str: "string", int: "number", float: "number", bool: "boolean"}


class ListFileError(ValueError):
    """A file that should hold winnable-deal lists holds something else."""


def read_list_file(path: Path, game: str) -> list[dict[str, Any]]:
    """The lists in the file at ``path`` for ``game`` (none when there is no file), each with
    its ``options`` (an object) and ``deals`` (an array); :class:`ListFileError` saying what is
    wrong with a file that holds anything else, or the lists of another game."""

    def wrong(what: str) -> ListFileError:
        return ListFileError(
            f"{path} is not a list of winnable deals: {what}; it must hold {LIST_FILE_SHAPE}"
        )

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except UnicodeDecodeError as error:
        raise wrong(f"it is not UTF-8 text ({error})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise wrong(f"it is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise wrong(f"it holds a JSON {_JSON_TYPES.get(type(data), 'null')}, not an object")
    if not isinstance(data.get("game"), str):
        raise wrong('it names no "game"')
    if not isinstance(data.get("lists"), list):
        raise wrong('it has no "lists" array')
    for number, entry in enumerate(data["lists"], 1):
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("options"), dict)
            and isinstance(entry.get("deals"), list)
        ):
            raise wrong(f'list {number} is not an object with "options" and "deals"')
    if data.get("game") != game:
        raise ListFileError(f"{path} holds the lists of {data.get('game')!r}, not {game!r}")
    lists: list[dict[str, Any]] = data["lists"]
    return lists


@dataclass(frozen=True)
class Grading:
    """Won deals in :data:`GRADES`: thirds by the nodes the core's search (``solver`` version)
    took to win them."""

    solver: int
    grades: dict[str, list[int]]


def grade_deals(rows: Sequence[ResultRow]) -> Grading | None:
    """Grade the deals that the compiled core won among ``rows`` (one game and options) at the
    newest core solver version there: sorted by the nodes to the win (the fewest of a deal's
    runs), the first third is easy, the next medium, the last hard. None without such rows."""
    won = [row for row in rows if row.engine == "core" and row.result == "won"]
    if not won:
        return None
    solver = max(row.solver for row in won)
    nodes: dict[int, int] = {}
    for row in won:
        if row.solver == solver:
            nodes[row.deal] = min(row.nodes, nodes.get(row.deal, row.nodes))
    ordered = sorted(nodes, key=lambda deal: (nodes[deal], deal))
    size = len(ordered)
    return Grading(
        solver,
        {
            grade: sorted(ordered[index * size // 3 : (index + 1) * size // 3])
            for index, grade in enumerate(GRADES)
        },
    )


def write_list(
    path: Path,
    game: str,
    options: dict[str, OptionValue],
    deals: Sequence[int],
    studied: int,
    grading: Grading | None = None,
) -> None:
    """Put the list of ``deals`` for ``options`` into the file at ``path`` (replacing the list
    for the same options, keeping the others), with their ``grading`` when given.
    :class:`ListFileError` when the file holds anything but lists of ``game`` (it is left as
    it is)."""
    key = options_key(options)
    lists = [entry for entry in read_list_file(path, game) if options_key(entry["options"]) != key]
    entry: dict[str, Any] = {
        "options": dict(options),
        "solver": solver_version(game),
        "studied": studied,
        "deals": sorted(set(deals)),
    }
    if grading is not None:
        entry["grades"] = grading.grades
        entry["graded_by"] = {"engine": "core", "solver": grading.solver}
    lists.append(entry)
    lists.sort(key=lambda entry: options_key(entry["options"]))
    # One line per list: short files that still diff by options.
    entries = ",\n  ".join(json.dumps(entry) for entry in lists)
    write_atomically(path, f'{{"game": {json.dumps(game)}, "lists": [\n  {entries}\n]}}\n')


#: Deals proved winnable on demand that a picker remembers per game and options (the newest):
#: a bound, since a long-running server searches again and again, and the picker is pickled to
#: a worker process with its memory for every search.
REMEMBERED = 100


class WinnableDealPicker:
    """The web app's ``deal_picker``: a random deal, or for "winnable deals only" a random
    shipped proved-winnable deal of the game and options; when none is shipped for those
    options, random deals are solved (``seconds_per_deal`` each, ``total_seconds`` in all)
    until one is won. Wins found that way are remembered (:attr:`found`, at most
    :data:`REMEMBERED` per game and options) as a fallback for when a later search finds none
    in time.

    Calling the picker chooses and remembers in one go, in this process. A server runs the
    search in a worker process instead, on a pickled copy of the picker, which cannot change
    the original: it draws a seed (:meth:`next_seed`), has the copy :meth:`pick` (which
    changes nothing and returns the wins it found besides the deal), and gives those wins back
    to the original (:meth:`remember`). The seed comes from :attr:`rng`, so picks vary from one
    to the next and repeat with a seeded ``rng`` (as far as the solver's time budget lets the
    same deals be won).
    """

    def __init__(
        self,
        *,
        seconds_per_deal: float = 1.0,
        total_seconds: float = 8.0,
        rng: random.Random | None = None,
        folder: Traversable | Path | None = None,
        new_deal: Callable[[], int] | None = None,
    ) -> None:
        """``rng`` seeds every pick for winnable deals (a fresh generator by default);
        ``folder`` holds the lists (the package's by default); ``new_deal``, when given, deals
        every random deal: a table's when winnable deals are not asked for, and each one a
        search tries. By default the first comes from the system's entropy
        (:func:`patience.deals.random_deal`) and the others from the pick's seed, so that a
        seeded ``rng`` tries the same deals again."""
        self.seconds_per_deal = seconds_per_deal
        self.total_seconds = total_seconds
        self.rng = rng or random.Random()
        self.folder = folder
        self.new_deal = new_deal
        #: Deals proved winnable on demand, per (game, canonical options JSON), oldest first.
        self.found: dict[tuple[str, str], list[int]] = {}

    def __call__(self, rules: Rules[Any], winnable: bool, grade: str | None = None) -> int:
        """A deal number for a new table of ``rules`` (of that ``grade`` of the shipped
        list, when given); :class:`NoWinnableDeal` if winnable deals are asked for and none is
        found within the budget, :class:`NoGrades` (or a ``ValueError``) for a grade that
        cannot be dealt (:meth:`pick`). Wins found on the way are remembered."""
        if not winnable and grade is None:
            return self.random_deal()
        deal, found = self.pick(rules, winnable, self.next_seed(), grade)
        self.remember(rules, found)
        return deal

    def random_deal(self) -> int:
        """A random deal number, for a table that need not be winnable."""
        return self.new_deal() if self.new_deal is not None else random_deal()

    def next_seed(self) -> int:
        """A seed for one :meth:`pick`, drawn from :attr:`rng`."""
        return self.rng.getrandbits(64)

    def pick(
        self, rules: Rules[Any], winnable: bool, seed: int, grade: str | None = None
    ) -> tuple[int, list[int]]:
        """A deal number for a new table of ``rules`` as :meth:`__call__` chooses it, and the
        deals proved winnable on the way (for :meth:`remember`), its random choices drawn from
        ``seed``. It changes nothing of the picker, so it may run on a copy of it (in a worker
        process); :class:`NoWinnableDeal` if winnable deals are asked for and none is found
        within the budget.

        A ``grade`` (one of :data:`GRADES`, with ``winnable`` only) deals from that grade of
        the shipped list; :class:`NoGrades` saying why when the list for the options has no
        grades, or none of that grade, or no list ships for them (a search on demand does not
        grade what it finds)."""
        if grade is not None:
            check_grade(grade)
            if not winnable:
                raise ValueError("a grade goes with winnable deals only")
        if not winnable:
            return self.random_deal(), []
        rng = random.Random(seed)
        shipped = shipped_deals(rules, self.folder)
        if grade is not None:
            return rng.choice(self._graded(rules, shipped, grade)), []
        if shipped:
            return rng.choice(shipped), []
        return self._solve_on_demand(rules, rng)

    def _graded(self, rules: Rules[Any], shipped: list[int], grade: str) -> list[int]:
        # The deals of the grade in the shipped list, or NoGrades saying what can be asked.
        variant = f"{rules.title} ({rules.options_text()})"
        if not shipped:
            raise NoGrades(
                f"no list of winnable deals ships for {variant}: they are searched for on "
                "demand, which has no grades; ask for any winnable deal (leave the grade out)"
            )
        grades = shipped_grades(rules, self.folder)
        if grades is None:
            raise NoGrades(
                f"the list of winnable deals of {variant} has no grades; ask for any "
                "winnable deal (leave the grade out)"
            )
        if not grades[grade]:
            offered = [name for name in GRADES if grades[name]]
            raise NoGrades(
                f"the list of winnable deals of {variant} has no {grade} deal; its grades "
                f"with deals: {', '.join(offered) or 'none'}"
            )
        return grades[grade]

    def remember(self, rules: Rules[Any], found: Iterable[int]) -> None:
        """Keep ``found``, deals proved winnable under ``rules`` (from :meth:`pick`), as a
        fallback for later searches: each once, the newest :data:`REMEMBERED`."""
        kept = self.found.setdefault((rules.name, options_key(rules.options)), [])
        for deal in found:
            if deal in kept:
                kept.remove(deal)
            kept.append(deal)
        del kept[:-REMEMBERED]

    def remembered(self, rules: Rules[Any]) -> list[int]:
        """The deals proved winnable on demand under ``rules`` that the picker remembers."""
        return list(self.found.get((rules.name, options_key(rules.options)), []))

    def solve_on_demand(self, rules: Rules[Any]) -> int:
        """Solve random deals until one is proved won or the time is up (then a remembered
        win, if any; else :class:`NoWinnableDeal`); a new win is remembered."""
        deal, found = self._solve_on_demand(rules, random.Random(self.next_seed()))
        self.remember(rules, found)
        return deal

    def _solve_on_demand(self, rules: Rules[Any], rng: random.Random) -> tuple[int, list[int]]:
        # The deal, and the deals newly proved winnable (it, or none when it is remembered).
        # A copy: in threads, the original may be remembering another search's win meanwhile.
        fallback = self.remembered(rules)
        start = time.monotonic()
        while (left := self.total_seconds - (time.monotonic() - start)) > 0:
            deal = self.new_deal() if self.new_deal is not None else rng.randint(0, MAX_DEAL)
            budget = min(self.seconds_per_deal, left)
            if solve(Game.create(rules, deal=deal), seconds=budget).result == "won":
                return deal, [deal]
        if fallback:
            return rng.choice(fallback), []
        note = rarely_proved(rules)
        advice = (
            f'{note}: play without "winnable deals only", or choose other options'
            if note
            else "try again, or choose a deal"
        )
        raise NoWinnableDeal(
            f"no deal of {rules.title} ({rules.options_text()}) was proved winnable within "
            f"{self.total_seconds:g} s; {advice}"
        )

    def winnable_info(self, game: str) -> dict[str, Any]:
        """How this picker deals winnable deals of ``game`` (:func:`winnable_info`), for the
        games catalogue of the web app."""
        return winnable_info(game, seconds=self.total_seconds, folder=self.folder)
