# `crib --help` and every command's help: grouped by subject, each summary one sentence, a type shown only
# where an option takes a value (a flag and --help take none), and every command made as a crib Command.
import inspect
import re

import pytest
import typer
from typer.testing import CliRunner

from crib.cli import app, common

runner = CliRunner()
ROOT = typer.main.get_command(app)

# What `crib --help` lists under each subject's panel.
PANELS = {
    common.BOARD: ["ports", "name", "sync", "watch", "link"],
    common.HISTORY: ["games", "show", "stats", "plot", "export", "stakes"],
    common.CLUB: ["serve", "play", "table", "club"],
    common.BOTS: ["duel"],
    common.HANDS: ["score", "advise"],
    common.FIRMWARE: ["deploy", "sim"],  # crib run from its checkout, as here
}


def _tree(cmd, path=()):
    """(path, click command) for `crib` and every group and command under it."""
    yield path, cmd
    for name in getattr(cmd, "commands", {}):
        yield from _tree(cmd.commands[name], path + (name,))


EVERY = list(_tree(ROOT))
LEAVES = [(p, c) for p, c in EVERY if not hasattr(c, "commands")]


def _panels(text):
    """{panel title: [the names listed in it]} from a help page's boxes."""
    out, title = {}, None
    for line in text.splitlines():
        if line.startswith("╭─"):
            title = line.strip("╭─╮ ")
            out[title] = []
        elif line.startswith("│ ") and title is not None:
            first = line[2:].split(" ", 1)[0]
            if first and first[0].isalpha():
                out[title].append(first)
    return out


def test_crib_help_lists_every_command_under_its_subject():
    r = runner.invoke(app, ["--help"])
    assert r.exit_code == 0, r.output
    shown = _panels(r.output)
    assert {k: v for k, v in shown.items() if k not in ("Options",)} == PANELS
    assert sorted(sum(PANELS.values(), [])) == sorted(ROOT.commands)


def test_every_command_is_made_the_crib_way():
    # The crib classes are what hide a flag's type and turn a failing database into one line, exit 4.
    for path, cmd in EVERY:
        kind = common.Group if hasattr(cmd, "commands") else common.Command
        assert isinstance(cmd, kind), "crib %s is a %s" % (" ".join(path), type(cmd).__name__)


def test_every_summary_reads_as_one_line_in_the_listing():
    # A group's listing shows the help's first paragraph with its line breaks: one line, one sentence.
    for path, cmd in EVERY[1:]:
        first = inspect.cleandoc(cmd.help or "").split("\n\n")[0]
        assert first and "\n" not in first, "crib %s: %r" % (" ".join(path), first)


@pytest.mark.parametrize("path", [p for p, _c in EVERY], ids=lambda p: " ".join(p) or "crib")
def test_help_shows_a_type_only_for_what_takes_a_value(path):
    cmd = dict(EVERY)[path]
    r = runner.invoke(app, list(path) + ["--help"], prog_name="crib")
    assert r.exit_code == 0, r.output
    assert ("Usage: crib %s" % " ".join(path)).rstrip() in r.output
    assert "<bool>" not in r.output
    rows = r.output.splitlines()
    for p in cmd.params:
        name = p.opts[0] if p.param_type_name == "option" else p.name
        # its row of the box: `│ *  --player <list[str]> ...`, `│   cards...  <list[str]> ...`
        cell = re.compile(r"│\s+(\*\s+)?%s(\.\.\.)?\s" % re.escape(name))
        row = next((line for line in rows if cell.match(line)), None)
        assert row is not None, "%s not in:\n%s" % (name, r.output)
        if p.param_type_name == "argument" or not p.is_flag:
            assert "<" in row, row  # `--port -p <str>`, `player <int>`: what the value is
        else:
            assert "<" not in row, row  # `--follow`, `--dealer --pone`: a flag takes no value
    assert [line for line in rows if line.startswith("│ --help ") and "<" in line] == []
