"""Golden records: finished games that every future version must replay the same way.

Each record in ``tests/golden/`` (``NAME.rec`` in the text form, ``NAME.json`` in the JSON form)
has a ``NAME.final.json`` beside it holding ``{"outcome": ..., "position": ...}`` of the game's
final state. ``scripts/make_golden.py`` wrote the Klondike ones; new games add their own files and
this test picks them up.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patience import record

GOLDEN = Path(__file__).resolve().parent / "golden"
FINAL = ".final.json"


def _records() -> list[Path]:
    paths = [*GOLDEN.glob("*.rec"), *GOLDEN.glob("*.json")]
    return sorted(path for path in paths if not path.name.endswith(FINAL))


def _final_for(path: Path) -> Path:
    return path.with_name(path.stem + FINAL)


RECORDS = _records()


def test_golden_records_exist() -> None:
    assert len(RECORDS) >= 4
    outcomes = {
        (data["outcome"]["result"], data["outcome"].get("reason"))
        for data in (json.loads(_final_for(path).read_text()) for path in RECORDS)
    }
    assert ("won", "all 52 cards are on the foundations") in outcomes
    assert ("lost", "no legal move left") in outcomes
    assert ("lost", "resigned") in outcomes


@pytest.mark.parametrize("path", RECORDS, ids=[path.name for path in RECORDS])
def test_golden_record_replays_to_its_final_state(path: Path) -> None:
    final_path = _final_for(path)
    assert final_path.exists(), f"{path.name} has no {final_path.name} beside it"
    expected = json.loads(final_path.read_text(encoding="utf-8"))
    game = record.loads(path.read_text(encoding="utf-8"))
    assert {"outcome": game.outcome().to_json(), "position": game.position()} == expected


@pytest.mark.parametrize("path", RECORDS, ids=[path.name for path in RECORDS])
def test_golden_record_is_written_the_same_way(path: Path) -> None:
    # Golden records are the program's own output: writing the replayed game again must give
    # the file byte for byte, so a change of the record format shows up here.
    text = path.read_text(encoding="utf-8")
    rec, game = record.load_record(text)
    format = "json" if path.suffix == ".json" else "text"
    assert record.dumps(game, format, players=rec.players, seed=rec.seed) == text
