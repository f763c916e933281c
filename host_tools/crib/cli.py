# The `crib` command line: one typer app, one sub-command per user task.
import typer

app = typer.Typer(help="cribboard laptop tool", no_args_is_help=True, add_completion=False)


@app.callback()
def _root():
    """Score hands, sync games from the board, watch it live, plot and deploy."""


# The board-facing commands (ports, link, sync, watch, games, show, stats, plot, export, deploy, sim).
from crib import commands as _board_commands  # noqa: E402

_board_commands.register(app)

# `crib score`: count hands with the same core the board runs.
from crib import score as _score  # noqa: E402

_score.register(app)

# `crib club`: a club night's rounds, standings and scorecards from the boards' games.
from crib import clubcli as _club  # noqa: E402

_club.register(app)
_club.register_serve(app)

# `crib advise`: rank the discards of a dealt hand, as the board's advice shows them.
from crib import advise as _advise  # noqa: E402

_advise.register(app)


def main():
    app()
