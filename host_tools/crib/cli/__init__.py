# The `crib` command line: one typer app made of one typer app a subject (board, history, club, ...).
import typer

from crib.cli import board, club, common, hands, history, serve
from crib.tools import repo_root

app = typer.Typer(cls=common.Group, help="cribboard laptop tool", no_args_is_help=True, add_completion=False)


@app.callback()
def _root():
    """Score hands, sync games from the board, watch it live, plot and deploy."""


app.add_typer(board.app)  # ports, name, sync, watch, link ...
app.add_typer(history.app)  # games, show, stats, plot, export, stakes
app.add_typer(serve.app)  # serve
app.add_typer(club.app, name="club", rich_help_panel=common.CLUB)
app.add_typer(hands.app)  # score, advise
if repo_root() is not None:
    # A pip-installed crib has no firmware or tools/ beside it: it does not offer what it cannot do.
    from crib.cli import tools

    app.add_typer(tools.app)  # deploy, sim


def main():
    app()
