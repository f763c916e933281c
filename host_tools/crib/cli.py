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

# `crib stakes`: a ledger of what games cost, from the history and this laptop's settings.
from crib import stakes as _stakes  # noqa: E402

_stakes.register(app)


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
