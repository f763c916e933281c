# `crib deploy` and `crib sim`: the checkout's own programs (crib/tools.py finds it), as make runs them.
from typing import Annotated

import typer

from crib.cli import common
from crib.cli.common import FIRMWARE, Command, Port

app = typer.Typer()


# Their own options pass through to the checkout's programs.
PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command("deploy", cls=Command, rich_help_panel=FIRMWARE, context_settings=PASS_THROUGH)
def deploy_cmd(
    ctx: typer.Context,
    port: Port = "auto",
    dry_run: Annotated[bool, typer.Option("--dry-run", help="list what it would copy")] = False,
):
    """Compile and copy the firmware to the board, the same as `make deploy`.

    The deploy tool's own options, such as --full and --no-reset, pass through."""
    from crib.tools import deploy

    raise typer.Exit(deploy(port, (["--dry-run"] if dry_run else []) + list(ctx.args)))


@app.command("sim", cls=Command, rich_help_panel=FIRMWARE, context_settings=PASS_THROUGH)
def sim_cmd(
    ctx: typer.Context,
    link_port: Annotated[int, typer.Option("--link", help="TCP port of the sim's link on 127.0.0.1")] = 7373,
    headless: Annotated[bool, typer.Option(help="no board drawing (scripts, CI)")] = False,
):
    """Run the board firmware in the simulator, its link on socket://127.0.0.1:PORT."""
    from crib.tools import sim

    def started():
        common.console.print("link: crib sync --port socket://127.0.0.1:%d" % link_port)

    raise typer.Exit(sim(link_port, headless, list(ctx.args), started))
