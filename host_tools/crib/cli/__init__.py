# The `crib` command line: one typer app made of one typer app a subject (board, history, club, ...).
import typer

from crib.cli import board, club, common, duel, hands, history, serve, tools

app = typer.Typer(cls=common.Group, help="cribboard laptop tool", no_args_is_help=True, add_completion=False)


@app.callback()
def _root():
    """Score hands, sync games from the board, watch it live, plot and deploy."""


app.add_typer(board.app)  # ports, name, sync, watch, link ...
app.add_typer(history.app)  # games, show, stats, plot, export, stakes
app.add_typer(serve.app)  # serve
app.add_typer(club.app, name="club", rich_help_panel=common.CLUB)
app.add_typer(hands.app)  # score, advise
app.add_typer(duel.app)  # duel
app.add_typer(tools.app)  # deploy, sim: in the checkout crib was installed from, or a clear refusal


def main():
    app()
