# The sim's terminal drawing, read back as a screen: the pegs it draws are the LED frame the firmware
# wrote (each hole in its LED's colour), the display box holds the display's text, the key help is
# there, and the terminal is handed back as it was found.
import json
import os
import re
import shutil
import subprocess
import tempfile

import simbuild
from simscreen import DrawnBoard, Screen

from board.boarddef import boardfile
from sim import term

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_drawn(tmp_path, script_text, *more):
    script = tmp_path / "s.script"
    script.write_text(script_text)
    cmd = simbuild.command(
        "--script", str(script), "--fast", "--link", "0", "--data", str(tmp_path / "data"), "--fresh", *more
    )
    # stdin stays open (a pipe, no keys): the script types; stdout is not a terminal, so the raw
    # mode is skipped but everything is drawn.
    p = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()  # until the sim exits (closing stdin first would be a quit)
    err = p.stderr.read()
    p.stdin.close()
    p.wait(timeout=300)
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def test_the_screen_shows_the_led_frame_the_display_and_the_help(tmp_path):
    keys = "cards 4H TD\nkey OK\nkey OK\ntap blue 9\nkey OK\ntap red 14\n+100 wait 0\n"
    code, out, err = run_drawn(tmp_path, keys)
    assert code == 0, out[-2000:] + err
    assert "error in" not in out and "Error" not in err, re.findall(r"error in[^\x1b]*", out)[:3]
    # The drawing happens on the alternate screen; what follows it is the end state on the normal one.
    drawn, _, after = out.partition("\x1b[?1049l")
    assert "\x1b[?1049h" in drawn and "\x1b[?25h" in drawn[-200:]  # cursor shown again on the way out
    assert "final: red 0  blue 9" in after
    s = Screen()
    s.feed(drawn)

    b = boardfile.load(os.path.join(ROOT, "hardware", "board.json"))
    lay = term.Layout(b)

    def cell(side, hole, kind=term.KIND_TRACK):
        for i in range(lay.count):
            if lay.kind[i] == kind and lay.side[i] == side and lay.hole[i] == hole:
                return s.cells.get((2 + lay.row[i], 2 + lay.col[i]))
        raise AssertionError("no hole %d of side %d" % (hole, side))

    def eye(rgb):
        return tuple(term._EYE[v] for v in rgb)

    # Blue's front peg on 9, in blue (the colour on the eye's curve of what the LED was given).
    ch, colour = cell(1, 9)
    assert ch == "●" and colour is not None
    assert colour[2] > colour[0] and colour[2] > colour[1], colour
    # Red's proposal on 14 blinks: whatever phase the last frame caught, it is red or dark; red's
    # pegs are still in the start holes.
    ch, colour = cell(0, 14)
    assert ch in "●·"
    assert ch == "·" or colour[0] > colour[1], colour
    ch, colour = cell(0, 0, term.KIND_START)
    assert ch == "●" and colour[0] > colour[2]
    # A hole no peg is in is drawn dark.
    assert cell(2, 60)[0] == "·"
    # The display box holds the display's 16 x 8 text; the help and the side legend are beside it.
    top = s.find("┌ display")
    assert top is not None
    box = [s.text(top[0] + 1 + r)[top[1] : top[1] + 16] for r in range(8)]
    assert any("9" in line for line in box), box
    assert s.find("Enter             OK/SCORE") is not None
    assert s.find("quit  Ctrl-C") is not None
    assert s.find("● red") is not None
    # The board's frame carries its name, and the track's turns are numbered.
    assert s.find(b.name) is not None
    assert s.find(" 30") is not None and s.find("120") is not None
    assert eye(b.colours[1]) != eye(b.colours[0])

    # Fed as it comes off a pipe, in pieces cut anywhere (inside an escape, inside a character), the
    # drawing is the same screen, and the board read from it: blue's hole 9 drawn lit, the display's rows.
    raw = drawn.encode()
    d = DrawnBoard(b)
    for k in range(0, len(raw), 7):
        d.feed(raw[k : k + 7], t=k)
    assert d.cells == s.cells
    assert any(kind == term.KIND_TRACK and (side, hole) == (1, 9) for _t, kind, side, hole in d.lit)
    assert not any(kind == term.KIND_TRACK and side == 2 for _t, kind, side, _hole in d.lit)
    assert d.shown[-1][1] == [line.rstrip() for line in box]
    assert [t for t, _rows in d.shown] == sorted(t for t, _rows in d.shown)


def test_large_print_is_drawn_as_the_glass_shows_it(tmp_path):
    # A board file whose default is large print: the scores' big row is drawn in braille dots from the
    # FrameBuffer the Pico draws it on (sim/term.py big_rows), 3 rows high under the names.
    with open(os.path.join(ROOT, "hardware", "board.json")) as f:
        board = json.load(f)
    board["large_print"] = True
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board))
    code, out, err = run_drawn(tmp_path, "cards 4H TD\nkey OK\n+100 wait 0\n", "--board", str(path))
    assert code == 0, out[-2000:] + err
    s = Screen()
    s.feed(out.partition("\x1b[?1049l")[0])
    top = s.find("┌ display")
    assert top is not None
    box = [s.text(top[0] + 1 + r)[top[1] : top[1] + 16] for r in range(8)]
    assert box[0].split() == ["*P1", "P2"], box
    braille = [sum(0x2800 < ord(ch) <= 0x28FF for ch in line) for line in box[1:4]]
    assert all(n >= 2 for n in braille), box  # the two scores' digits, over three rows
    assert box[7].startswith("Starter? OK=skip"), box


def test_a_terminal_too_small_for_the_board_is_told_the_size_it_needs():
    # At 100x24 (the size the README gave) the display was below the screen, at 80x24 the drawing
    # broke, and nothing said so.
    import io

    from sim import keys

    b = boardfile.load(os.path.join(ROOT, "hardware", "board.json"))
    out = io.StringIO()
    t = term.Term(b, keys.HELP, out=out)
    rows, cols = t.minimum()
    t.resize(24, 100)
    assert "terminal 100x24: the board and its display need %dx%d" % (cols, rows) in out.getvalue()
    out.truncate(0)
    t.resize(rows, cols)
    assert "need" not in out.getvalue()
    s = Screen()
    s.feed(out.getvalue())
    top = s.find("┌ display")
    assert top is not None and top[0] <= rows and top[1] + 17 <= cols  # the display box on the screen
    with open(os.path.join(ROOT, "README.md")) as f:
        assert "%d\ncolumns and %d rows" % (cols, rows) in f.read()  # the README states the true minimum


def test_the_start_up_log_line_is_whole_at_the_readme_s_terminal_size():
    # Before: at 139x27 the sim's start-up line ("sim: unix heap ... flash ..., keyboard") was cut at
    # the terminal's width, its end (the flash and what drives the sim) off the screen. (A flash in a
    # short folder, as sim-data is: the log has three rows at this size.)
    data = tempfile.mkdtemp(prefix="s", dir="/tmp")
    cmd = simbuild.command("--link", "0", "--data", data)
    p = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # The terminal's answer to the sim's size query (27 rows, 139 columns), then it goes away.
        out, err = p.communicate(b"\x1b[27;139R", timeout=300)
    finally:
        shutil.rmtree(data)
    out, err = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    assert p.returncode == 0, out[-2000:] + err
    drawn = out.partition("\x1b[?1049l")[0]
    s = Screen()
    s.feed(drawn[drawn.rindex("\x1b[2J") :])  # the last full drawing: after the size was known
    assert "need" not in s.text(1)  # 139x27 is enough
    # The log: the rows under the board's frame and the status row, each line's time first; a line
    # that goes on over the next rows is indented past the time.
    rows = [s.text(r) for r in range(s.find("quit  Ctrl-C")[0] + 2, 28)]
    assert all(len(r) <= 139 for r in rows), rows
    lines = []
    for r in rows:
        if lines and r.startswith(" " * 10) and r[10:11].strip():
            lines[-1] += " " + r.strip()
        elif r.strip():
            lines.append(r.strip())
    start = [line for line in lines if " sim: unix heap " in line]
    assert start and start[0].endswith(", flash %s/flash.img, keyboard" % data), rows
