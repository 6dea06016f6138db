"""The ``patience`` command group, assembled from the command modules.

Each module beside this one defines its commands on their own (``play``: games, deal, play,
replay; ``solve``: solve, autoplay; ``bots``: match, arena; ``study``: the study group; ``web``:
serve; ``admin``: the server's store, which it finds as ``web`` does) and imports only
:mod:`patience.cli.common` (and ``admin``, ``web``); this module alone knows them all, so no
command module imports the group and there is no import cycle.
"""

from __future__ import annotations

import click

from .. import __version__
from . import admin, bots, ladder, play, solve, study, web

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="patience")
def main() -> None:
    """Card games of patience: list them, deal them, play them, replay records."""


for _command in (
    play.games_command,
    play.deal_command,
    play.play_command,
    play.replay_command,
    solve.solve_command,
    solve.autoplay_command,
    web.serve_command,
    bots.match_command,
    bots.arena_command,
    ladder.ladder_command,
    study.study_group,
    admin.admin_group,
):
    main.add_command(_command)
