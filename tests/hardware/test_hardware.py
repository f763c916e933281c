# make hardware: the drawings, tables and power budget agree with hardware/board.json and the limiter.
import copy
import csv
import io
import json
import os
import re
import xml.etree.ElementTree as ET

import pytest
from generate import OUTPUTS, generate
from hwgen_bom import bom_csv
from hwgen_chains import leds_svg, sensors_svg
from hwgen_power import power_md, typical_frame
from hwgen_svg import MARGIN, holes, layout_svg, sensor_of
from hwgen_wiring import PICO_PIN, wiring_md

from board.boarddef.boardfile import load, read
from board.render.power import Limiter, budget

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
BOARD_JSON = os.path.join(ROOT, "hardware", "board.json")
NS = {"s": "http://www.w3.org/2000/svg"}


@pytest.fixture(scope="module")
def board():
    return load(BOARD_JSON)


def _svg(text):
    return ET.fromstring(text.split("\n", 1)[1])


def _circles(root, kind=None):
    out = []
    for c in root.iter("{%s}circle" % NS["s"]):
        classes = c.get("class", "").split()
        if "hole" in classes and (kind is None or kind in classes):
            out.append(c)
    return out


# --- the definition ---------------------------------------------------------------------------


def pegged_holes(board):
    """The holes with a sensor bit, counted from the board file itself (not hwgen_bom's formula):
    every track and start hole of every side and the game hole."""
    return sum(len(t) for t in board.sensor_track) + sum(len(s) for s in board.sensor_start) + 1


def test_every_hole_has_exactly_one_led_and_one_sensor(board):
    hs = holes(board)
    leds = [h[5] for h in hs]
    assert len(hs) == board.led_count == 397
    assert sorted(leds) == list(range(board.led_count))  # one LED each, none spare, none shared
    bits = [sensor_of(board, k, s, i) for k, s, i, _x, _y, _led in hs]
    bits = [b for b in bits if b is not None]
    assert len(bits) == pegged_holes(board) == 367
    assert len(set(bits)) == len(bits) and max(bits) < board.sensor_bits


def test_no_pin_twice_and_chain_lengths(board):
    pins = []
    for v in board.wiring.pins.values():
        if v is not None:
            pins += v if isinstance(v, list) else [v]
    assert len(pins) == len(set(pins))
    assert sum(board.wiring.led_chains) == board.led_count
    assert board.wiring.led_chains == [133, 132, 132]  # one chain a side; chain 0 also carries the game hole
    for c, first in enumerate(board.wiring.led_chain_start):
        side = c
        assert board.led_dealer[side] == first  # each chain starts at its side's dealer LED
    assert (
        board.wiring.sensor_chips * 8
        == board.sensor_bits
        >= pegged_holes(board) + len(board.wiring.sensor_fixed)
    )


def test_hole_positions_do_not_overlap(board):
    pts = [(x, y) for _k, _s, _i, x, y, _led in holes(board)]
    d = board.layout["hole_d"]
    for i, (x1, y1) in enumerate(pts):
        for x2, y2 in pts[i + 1 :]:
            assert (x2 - x1) ** 2 + (y2 - y1) ** 2 >= (d + 2.0) ** 2, (x1, y1, x2, y2)
    w, h = board.layout["board"]
    assert all(d < x < w - d and d < y < h - d for x, y in pts)


# --- the drilling template --------------------------------------------------------------------


def test_layout_svg_is_to_scale(board):
    root = _svg(layout_svg(board))
    w, h = board.layout["board"]
    assert root.get("width") == "%gmm" % (w + 2 * MARGIN)
    vb = [float(v) for v in root.get("viewBox").split()]
    assert vb[2] == w + 2 * MARGIN  # one user unit is one millimetre
    outline = root.find(".//s:rect[@id='outline']", NS)
    assert float(outline.get("width")) == w and float(outline.get("height")) == h


def test_layout_svg_hole_counts(board):
    root = _svg(layout_svg(board))
    assert len(_circles(root)) == board.led_count
    assert len(_circles(root, "track")) == 3 * 120
    assert len(_circles(root, "start")) == 3 * 2
    assert len(_circles(root, "game")) == 1
    assert len(_circles(root, "record")) == 3 * board.record_count
    assert len(_circles(root, "dealer")) == 3
    r = board.layout["hole_d"] / 2
    assert all(float(c.get("r")) == r for c in _circles(root))
    mounts = [c for c in root.iter("{%s}circle" % NS["s"]) if c.get("class") == "mount"]
    assert len(mounts) == len(board.layout["mounting"]["at"])
    keys = [e for e in root.iter("{%s}rect" % NS["s"]) if e.get("class") == "key-cutout"]
    assert len(keys) == 20
    assert root.find(".//s:rect[@class='display-cutout']", NS) is not None
    skunk = sorted(
        int(e.get("data-hole")) for e in root.iter("{%s}line" % NS["s"]) if e.get("class") == "skunk"
    )
    assert skunk == [31, 61, 91]


def test_layout_svg_marks_every_circuit_board_fixing(board):
    # Issue 16: the template showed the panel's own holes only. Each M3 hole of a circuit board
    # (hwgen_circuit.mounting) is a crossed circle on the template, where the panel gets its insert,
    # and lies inside its board's outline, clear of every LED hole by more than the 3.5 mm keep-out.
    from hwgen_circuit import board_outlines, mounting

    root = _svg(layout_svg(board))
    marks = sorted(
        (float(c.get("cx")), float(c.get("cy")))
        for c in root.iter("{%s}circle" % NS["s"])
        if c.get("class") == "fixing"
    )
    want = mounting(board)
    assert marks == sorted(xy for at in want.values() for xy in at)
    rects = dict(board_outlines(board))
    for name, at in want.items():
        x0, y0, x1, y1 = rects[name]
        for x, y in at:
            assert x0 + 3.5 <= x <= x1 - 3.5 and y0 + 3.5 <= y <= y1 - 3.5, (name, x, y)
            for _, _, _, hx, hy, _ in holes(board):
                assert (hx - x) ** 2 + (hy - y) ** 2 > (3.5 + 2.5) ** 2, (name, x, y, hx, hy)


def test_layout_svg_pitch_and_groups(board):
    lay = board.layout
    root = _svg(layout_svg(board))
    track = {}
    for c in _circles(root, "track"):
        track[(int(c.get("data-side")), int(c.get("data-index")))] = (float(c.get("cx")), float(c.get("cy")))
    pitch, gap = lay["pitch"], lay["group_gap"]
    for side in range(3):
        for hole in range(1, 120):
            if hole % 30 == 0:
                continue  # the turn between legs
            (x1, y1), (x2, y2) = track[(side, hole)], track[(side, hole + 1)]
            want = pitch + (gap if hole % 5 == 0 else 0)
            assert abs(abs(x2 - x1) - want) < 1e-6 and y1 == y2, (side, hole)
        # legs alternate: up the board, then back
        assert track[(side, 2)][0] > track[(side, 1)][0]
        assert track[(side, 32)][0] < track[(side, 31)][0]
    text = " ".join(t.text or "" for t in root.iter("{%s}text" % NS["s"]))
    assert "Hole pitch %g mm in a group of 5" % pitch in text
    assert "diameter %g mm" % lay["hole_d"] in text


def test_chain_drawings_parse_and_label_every_hole(board):
    leds = _svg(leds_svg(board))
    labels = leds.find(".//s:g[@id='hole-labels']", NS)
    assert sorted(int(t.text) for t in labels) == list(range(board.led_count))
    chains = {p.get("data-chain") for p in leds.iter("{%s}path" % NS["s"]) if p.get("class") == "chain"}
    assert chains == {"0", "1", "2"}
    sens = _svg(sensors_svg(board))
    labels = sens.find(".//s:g[@id='hole-labels']", NS)
    bits = sorted(int(t.text.split(":")[-1]) for t in labels)
    assert len(bits) == pegged_holes(board) and bits == sorted(set(bits))


# --- tables -----------------------------------------------------------------------------------


def _bom(board):
    rows = list(csv.DictReader(io.StringIO(bom_csv(board))))
    return rows, {(r["part"], r["value"]): int(r["quantity"]) for r in rows}


def test_bom_counts_match_the_definition(board):
    rows, q = _bom(board)
    assert list(rows[0].keys()) == [
        "part",
        "value",
        "package",
        "quantity",
        "example_part_number",
        "second_source",
        "boards",
        "references",
        "note",
    ]
    assert q[("RGB LED", "WS2812B")] == board.led_count
    assert q[("Shift register", "74HCT165 8-bit PISO")] == board.wiring.sensor_chips == 48
    assert q[("Hall switch", "DRV5032FA omnipolar push-pull 20 Hz")] == pegged_holes(board) == 367
    assert q[("Buffer", "74AHCT125 quad, 3.3 V -> 5 V")] == 2  # 3 LED chains + clock + latch
    assert q[("Key switch", "tactile 12 x 12 mm with cap")] == 20
    assert q[("Diode", "1N4148W")] == 20
    assert q[("Resistor", "5.1 kohm 1 %")] == 2
    assert q[("Resistor", "330 ohm 1 %")] == len(board.wiring.led_pins)
    # one 100 nF per LED and per logic IC (48 + 2 buffers + the 74LVC1G125)
    assert q[("Capacitor", "100 nF X7R 16 V")] == board.led_count + board.wiring.sensor_chips + 3
    assert q[("Magnet", "3 x 2 mm NdFeB N52 disc")] == 2 * board.sides + 2
    for r in rows:  # a maker can order every line twice over
        assert r["part"] and r["value"] and r["package"] and r["note"], r
        assert r["example_part_number"] not in ("", "-") and r["second_source"] not in ("", "-"), r
        assert r["example_part_number"] != r["second_source"], r
    # the per-board counts add up to the line's quantity
    for r in rows:
        if r["boards"] != "-":
            assert sum(int(b.split(":")[1]) for b in r["boards"].split()) == int(r["quantity"]), r


def test_bom_follows_the_file(board):
    _, q = _bom(load(_drop_records(read(BOARD_JSON))))
    assert q[("RGB LED", "WS2812B")] == 397 - 12
    assert q[("Capacitor", "100 nF X7R 16 V")] == 397 - 12 + 48 + 3
    _, q = _bom(load(_no_switch(read(BOARD_JSON))))
    assert not any(part == "P-MOSFET" for part, _ in q)


def _no_switch(raw):
    raw["pins"]["led_power"] = None
    return raw


def _drop_records(raw):
    """The board file with 5 game-record holes a side instead of 9 (LEDs renumbered)."""
    drop = {i for s in raw["leds"]["record"] for i in s[5:]}

    def renum(i):
        return i - sum(1 for d in drop if d < i)

    leds = raw["leds"]
    leds["track"] = [[renum(i) for i in s] for s in leds["track"]]
    leds["start"] = [[renum(i) for i in s] for s in leds["start"]]
    leds["record"] = [[renum(i) for i in s[:5]] for s in leds["record"]]
    leds["dealer"] = [renum(i) for i in leds["dealer"]]
    leds["game"] = renum(leds["game"])
    leds["chains"] = [c - 4 for c in leds["chains"]]
    return raw


def test_wiring_table_matches_the_definition(board):
    md = wiring_md(board)
    gpio_rows = re.findall(r"^\| GP(\d+) \| (\d+) \|", md, re.M)
    used = []
    for v in board.wiring.pins.values():
        if v is not None:
            used += v if isinstance(v, list) else [v]
    assert sorted(int(g) for g, _ in gpio_rows) == sorted(used)
    assert all(PICO_PIN[int(g)] == int(p) for g, p in gpio_rows)
    chips = re.findall(r"^\| U(\d+) \| (\d+)\.\.(\d+) \|", md, re.M)
    assert len(chips) == board.wiring.sensor_chips
    for name in board.side_names:
        for hole in (1, 37, 120):
            assert md.count("| %s %d |" % (name, hole)) == 1
    assert md.count("| game hole |") == 1
    ncols = len(board.wiring.key_cols)
    for r in range(len(board.wiring.key_rows)):
        cells = " | ".join(board.key_names[r * ncols + c] for c in range(ncols))
        assert "| row %d GP%d | %s |" % (r, board.wiring.key_rows[r], cells) in md


# --- power budget -----------------------------------------------------------------------------


def _figure(md, label):
    for line in md.splitlines():
        if line.startswith("| ") and label in line:
            return int(re.findall(r"(\d+) mA", line)[-1])
    raise AssertionError("no row with %r" % label)


def test_power_budget_equals_the_limiter(board):
    md = power_md(board)
    lim = Limiter(board.wiring.power, board.led_count)
    dark = bytearray(3 * board.led_count)
    white = bytearray(b"\xff" * (3 * board.led_count))
    assert _figure(md, "idle draw of 397 LEDs") == lim.idle_ma() == 397
    assert _figure(md, "dark board") == lim.estimate_ma(dark) == 467
    assert _figure(md, "no limiter") == lim.estimate_ma(white)
    lim.limit(white)
    assert (
        _figure(md, "worst case under the firmware limiter")
        == lim.estimate_ma(white)
        <= board.wiring.power["budget_ma"]
    )
    assert _figure(md, "a game in progress") == Limiter(board.wiring.power, board.led_count).estimate_ma(
        typical_frame(board)
    )
    assert "estimate" in md.lower() and "5 V 3 A USB-C" in md


def test_power_budget_follows_changed_figures(board):
    raw = read(BOARD_JSON)
    raw["power"] = dict(raw["power"], idle_ma_per_led=0.3, ma_per_channel=12.5, budget_ma=1500)
    b = load(raw)
    md = power_md(b)
    f = budget(b)
    assert f["idle_ma"] == 120  # 397 * 0.3 = 119.1, rounded up like the limiter
    assert _figure(md, "dark board") == f["dark_ma"] == Limiter(b.wiring.power, b.led_count).fixed_ma()
    assert _figure(md, "worst case under the firmware limiter") == f["limited_ma"] <= 1500


# --- make hardware ----------------------------------------------------------------------------


def test_generate_writes_every_document(tmp_path):
    written = generate(BOARD_JSON, str(tmp_path))
    names = [os.path.basename(p) for p in written]
    assert names[: len(OUTPUTS) + 2] == [name for name, _ in OUTPUTS] + [
        "circuit.json",
        "cribboard.kicad_sch",
    ]
    # the drilling template on A4 and Letter: 420 x 210 mm of template is 2 x 2 pages of either
    assert sorted(names[len(OUTPUTS) + 2 :]) == sorted(
        "%s-%d-%d.svg" % (p, r, c) for p in ("A4", "Letter") for r in (1, 2) for c in (1, 2)
    )
    for p in written:
        assert os.path.getsize(p) > 500
    for name in ("layout.svg", "leds.svg", "sensors.svg"):
        ET.parse(str(tmp_path / name))


def test_generate_from_a_rewired_board(tmp_path):
    raw = read(BOARD_JSON)
    raw = copy.deepcopy(raw)
    a, b = raw["leds"]["track"][0][0], raw["leds"]["track"][0][1]
    raw["leds"]["track"][0][0], raw["leds"]["track"][0][1] = b, a  # two LEDs wired the other way round
    path = tmp_path / "board.json"
    path.write_text(json.dumps(raw))
    generate(str(path), str(tmp_path / "out"))
    root = ET.parse(str(tmp_path / "out" / "layout.svg")).getroot()
    first = [c for c in _circles(root, "track") if c.get("data-side") == "0" and c.get("data-index") == "1"]
    assert first[0].get("data-led") == str(b)


def test_template_pages_tile_the_layout_with_shared_marks(board):
    from hwgen_tiles import PAPERS, tiles

    svg = layout_svg(board)
    for paper, (pw, ph) in PAPERS.items():
        pages = tiles(svg, paper)
        marks = {}
        for name, text in pages:
            root = ET.fromstring(text.split("\n", 1)[1])
            assert root.get("width") == "%gmm" % pw and root.get("height") == "%gmm" % ph  # prints at 1:1
            inner = root.find("s:svg", NS)
            vb = [float(v) for v in inner.get("viewBox").split()]
            assert (vb[2], vb[3]) == (float(inner.get("width")), float(inner.get("height")))  # 1 mm is 1 mm
            for g in inner.iter("{%s}g" % NS["s"]):
                if g.get("class") == "mark":
                    marks.setdefault(g.get("data-mark"), []).append(name)
        assert len(pages) == 4, paper
        # every alignment mark prints on the two pages of its seam, so they can be laid mark on mark
        assert marks and all(len(on) >= 2 for on in marks.values()), (paper, marks)
