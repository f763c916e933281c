# The `crib` command line: one typer app made of one typer app a subject (board, history, club, ...).
import typer

app = typer.Typer(help="cribboard laptop tool", no_args_is_help=True, add_completion=False)


@app.callback()
def _root():
    """Score hands, sync games from the board, watch it live, plot and deploy."""


from crib.cli import board, club, hands, history, serve  # noqa: E402
from crib.tools import repo_root  # noqa: E402

app.add_typer(board.app)  # ports, name, sync, watch, link ...
app.add_typer(history.app)  # games, show, stats, plot, export, stakes
if repo_root() is not None:
    # A pip-installed crib has no firmware or tools/ beside it: it does not offer what it cannot do.
    from crib.cli import tools  # noqa: E402

    app.add_typer(tools.app)  # deploy, sim
app.add_typer(hands.app)  # score, advise
app.add_typer(serve.app)  # serve
app.add_typer(club.app, name="club")


# typer 0.29 prints a type after every option, `<bool>` after flags and --help too: a flag takes
# no value, so its help shows none (issue 12).
from typer.core import TyperCommand, TyperGroup  # noqa: E402
from typer.models import DefaultPlaceholder  # noqa: E402


def _default(cls, base):
    return cls is None or cls is base or isinstance(cls, DefaultPlaceholder)


def _quiet_flags(cmd):
    for p in cmd.params:
        if getattr(p, "is_flag", False) and p.metavar is None:
            p.metavar = ""


class _Command(TyperCommand):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _quiet_flags(self)

    def invoke(self, ctx):
        # A database that fails under a command (locked, a full disk, a damaged page, a role that
        # may not write) is one line and exit 4, never a traceback; its transaction changed nothing.
        try:
            return super().invoke(ctx)
        except Exception as e:
            from crib.store import db

            said = db.trouble(e, ctx.params.get("db_path"))
            if said is None:
                raise
            from rich.console import Console

            from crib.untrusted import shown

            Console(stderr=True).print("[bold red]crib:[/] %s" % shown(said, 400))
            raise typer.Exit(4) from None

    def get_help_option(self, ctx):
        opt = super().get_help_option(ctx)
        if opt is not None:
            opt.metavar = ""
        return opt


class _Group(TyperGroup):
    def get_help_option(self, ctx):
        opt = super().get_help_option(ctx)
        if opt is not None:
            opt.metavar = ""
        return opt


def _quiet(typer_app):
    if _default(typer_app.info.cls, TyperGroup):
        typer_app.info.cls = _Group
    for info in typer_app.registered_commands:
        if _default(info.cls, TyperCommand):
            info.cls = _Command
    for group in typer_app.registered_groups:
        if _default(group.cls, TyperGroup):
            group.cls = _Group
        _quiet(group.typer_instance)


_quiet(app)


def main():
    app()
