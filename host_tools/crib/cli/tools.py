# `crib deploy` and `crib sim`: the checkout's own scripts (crib/tools.py finds them), as make runs them.
import typer

from crib.cli import common
from crib.cli.common import PORT_HELP

app = typer.Typer()


@app.command("deploy", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def deploy_cmd(
    ctx: typer.Context,
    port: str = typer.Option("auto", "--port", "-p", help=PORT_HELP),
    dry_run: bool = typer.Option(False, "--dry-run", help="list what it would copy"),
):
    """Compile and copy the firmware to the board (the same as `make deploy`; tools/deploy.py's options
    such as --full and --no-reset pass through)."""
    from crib.tools import deploy

    raise typer.Exit(deploy(port, (["--dry-run"] if dry_run else []) + list(ctx.args)))


@app.command("sim", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def sim_cmd(
    ctx: typer.Context,
    link_port: int = typer.Option(7373, "--link", help="TCP port of the sim's link on 127.0.0.1"),
    headless: bool = typer.Option(False, help="no board drawing (scripts, CI)"),
):
    """Run the board firmware in the simulator, its link on socket://127.0.0.1:PORT."""
    from crib.tools import sim

    common.console.print("link: crib sync --port socket://127.0.0.1:%d" % link_port)
    raise typer.Exit(sim(link_port, headless, list(ctx.args)))
