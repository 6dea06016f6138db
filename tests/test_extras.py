"""`pip install patience` brings the engine, solvers, bots and command line; the rest are extras.

The base install must not need what an extra brings: importing the package, the engine, the
solvers, the bots and the command line (and its --help) imports none of it, and a command that
needs a missing extra says which one to install instead of failing with a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.study import StudyDB

ROOT = Path(__file__).resolve().parent.parent
#: The top-level modules of every extra (web, dask, ray, plot, openspiel, gymnasium, pettingzoo,
#: ladder).
EXTRA_MODULES = (
    *("starlette", "uvicorn", "markdown_it", "argon2", "dask", "distributed", "ray", "matplotlib"),
    *("pyspiel", "open_spiel", "gymnasium", "pettingzoo", "openskill", "numpy"),
)

BASE_IMPORTS = """
import json, sys
import patience, patience.engine, patience.games, patience.record, patience.solve
import patience.solve.hint, patience.bots, patience.bots.match, patience.cli
from patience.cli import main
from patience.study import StudyDB
try:
    main(["--help"])
except SystemExit:
    pass
for group in ("study", "serve", "solve", "play", "match", "admin", "ladder"):
    try:
        main([group, "--help"])
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""


def test_the_base_install_imports_no_extra() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BASE_IMPORTS], capture_output=True, text=True, check=True
    )
    modules = json.loads(done.stdout.splitlines()[-1])
    loaded = {name.partition(".")[0] for name in modules}
    assert "patience" in loaded
    assert loaded.isdisjoint(EXTRA_MODULES), sorted(loaded & set(EXTRA_MODULES))


def test_serve_without_the_web_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # As if starlette were not installed: a None entry makes every import of it fail, and the
    # server (and whatever imported it) is imported afresh.
    for name in list(sys.modules):
        if name.partition(".")[0] == "starlette" or name.startswith("patience.server"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "starlette", None)
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "store.sqlite3")])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "the web app needs the web extra: pip install 'patience[web]'" in result.output
    assert "starlette is not installed" in result.output
    assert "Traceback" not in result.output


def test_a_broken_import_of_our_own_is_not_blamed_on_an_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in list(sys.modules):
        if name.startswith("patience.server"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "patience.server.app", None)
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "store.sqlite3")])
    assert isinstance(result.exception, ImportError)
    assert "patience[web]" not in result.output


def test_plot_without_matplotlib_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in list(sys.modules):
        if name.partition(".")[0] == "matplotlib":
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    db = tmp_path / "studies.sqlite3"
    StudyDB(db).close()
    result = CliRunner().invoke(
        main, ["study", "report", "--db", str(db), "--plot", str(tmp_path / "plot.png")]
    )
    assert result.exit_code == 1, result.output
    assert "--plot needs the plot extra: pip install 'patience[plot]'" in result.output


def test_the_extras_are_as_documented() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = " ".join(project["dependencies"])
    for module in ("starlette", "uvicorn", "markdown-it", "dask", "ray", "matplotlib"):
        assert module not in base
    extras = project["optional-dependencies"]
    assert {"web", "dask", "ray", "plot", "all", "test"} <= set(extras)
    everything = {name for name in extras if name not in ("all", "test")}
    assert extras["all"] == [f"patience[{','.join(sorted(everything, key=list(extras).index))}]"]
    assert "patience[all]" in extras["test"]
    ruff = [spec for spec in extras["test"] if spec.startswith("ruff")]
    assert len(ruff) == 1
    assert "==" in ruff[0]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in extras:
        assert f"patience[{name}]" in readme
