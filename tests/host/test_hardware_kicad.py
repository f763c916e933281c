# make hardware, the KiCad side: the circuit model and the schematic written from board.json agree with
# the board file and with the order in which the firmware drives the LEDs and reads the sensors.
import csv
import io
import json
import os
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "hardware", "tools"))

import hwgen_circuit as hc  # noqa: E402
import kicad_sch  # noqa: E402
from hwgen_bom import bom_csv  # noqa: E402
from hwgen_circuit import SR_BIT_PIN, lit_holes  # noqa: E402

from board.boardfile import load  # noqa: E402

BOARD_JSON = os.path.join(ROOT, "hardware", "board.json")


@pytest.fixture(scope="module")
def board():
    return load(BOARD_JSON)


@pytest.fixture(scope="module")
def circuit(board):
    return hc.build(board)


@pytest.fixture(scope="module")
def sch_nets(circuit, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("sch") / "cribboard.kicad_sch")
    kicad_sch.write(circuit, path, "test")
    return kicad_sch.net_of_pins(path)


def _by_net(pin_net):
    nets = {}
    for (ref, pin), net in pin_net.items():
        nets.setdefault(net, set()).add((ref, pin))
    return nets


def test_every_led_and_sensor_sits_at_its_hole(board, circuit):
    parts = {p.ref: p for p in circuit["parts"]}
    rects = dict(circuit["boards"])
    for led, kind, _, _, x, y, bit in lit_holes(board):
        d = parts["D%d" % led]
        assert (d.x, d.y, d.side) == (x, y, "F"), (led, kind)
        x0, y0, x1, y1 = rects[d.board]
        assert x0 < x < x1 and y0 < y < y1, (led, d.board)
        if bit is None:
            assert kind in ("record", "dealer")
            continue
        h = parts["H%d" % bit]  # the hall switch of the hole, right under its LED, on the same board
        assert (h.x, h.y, h.side, h.board) == (x, y, "B", d.board)
    assert len([p for p in circuit["parts"] if p.kind == "led"]) == board.led_count
    assert len([p for p in circuit["parts"] if p.kind == "hall"]) == 367


def test_schematic_netlist_is_the_circuit(circuit, sch_nets):
    want = {(p.ref, pin): net for p in circuit["parts"] for pin, net in p.pins.items()}
    assert sch_nets == want


def test_led_chains_run_in_the_firmware_order(board, sch_nets):
    # walk each chain through the schematic: LDATAc -> DIN, DOUT -> next DIN ...
    nets = _by_net(sch_nets)
    for c, (start, count) in enumerate(zip(board.led_chain_start, board.led_chains, strict=True)):
        order = []
        net = "LDATA%d" % c
        while True:
            dins = [ref for ref, pin in nets.get(net, ()) if pin == "4" and ref.startswith("D")]
            if not dins:
                break
            assert len(dins) == 1, net
            order.append(int(dins[0][1:]))
            nxt = [n for (ref, pin), n in sch_nets.items() if ref == dins[0] and pin == "2"]
            if not nxt:
                break
            net = nxt[0]
        assert order == list(range(start, start + count)), c


def test_sensor_chain_reads_the_bits_of_board_json(board, sch_nets):
    # MISO <- 74LVC1G125 <- QH of U0; SER of Uk <- QH of Uk+1; bit 8k+i on input HGFEDCBA[i]
    assert sch_nets[("U102", "2")] == sch_nets[("U0", "9")] == "QH0"
    assert sch_nets[("U102", "4")] == "MISO"
    pico_pin = hc.PICO_PIN[board.pins["sensor_miso"]]
    assert sch_nets[("M1", str(pico_pin))] == "MISO"
    for k in range(board.sensor_chips - 1):
        assert sch_nets[("U%d" % k, "10")] == sch_nets[("U%d" % (k + 1), "9")]
    hole_of_bit = {}
    for _, kind, s, i, _, _, bit in lit_holes(board):
        if bit is not None:
            hole_of_bit[bit] = (kind, s, i)
    seen = 0
    for bit, where in hole_of_bit.items():
        net = sch_nets[("U%d" % (bit // 8), SR_BIT_PIN[bit % 8])]
        assert net == "S%d" % bit == sch_nets[("H%d" % bit, "2")], where
        seen += 1
    assert seen == 367
    for bit, level in board.sensor_fixed:
        assert sch_nets[("U%d" % (bit // 8), SR_BIT_PIN[bit % 8])] == ("+5V_SW" if level else "GND")


def test_each_chip_sits_on_the_board_of_its_holes(circuit):
    parts = {p.ref: p for p in circuit["parts"]}
    for p in circuit["parts"]:
        if p.kind != "sr":
            continue
        for pin, net in p.pins.items():
            if net.startswith("S") and net[1:].isdigit():
                assert parts["H" + net[1:]].board == p.board, (p.ref, pin)


def test_bom_counts_match_the_boards(board, circuit):
    rows = list(csv.DictReader(io.StringIO(bom_csv(board, circuit))))
    placed = {}
    for p in circuit["parts"]:
        placed[p.board] = placed.get(p.board, 0) + 1
    counted = {}
    for r in rows:
        if r["boards"] == "-":
            continue
        for item in r["boards"].split():
            name, n = item.split(":")
            counted[name] = counted.get(name, 0) + int(n)
    assert counted == placed


# --- the circuit boards, built and checked by KiCad's own pcbnew ------------------------------------
# KiCad (Debian's kicad, its python3 module pcbnew) builds the boards; missing, these tests fail saying
# how to install it. The boards are read from out/hardware/kicad when `make hardware` built them from
# this very circuit and builder (hwgen_kicad.ensure_boards), else built there once (a few minutes).


@pytest.fixture(scope="module")
def boards(board):
    import hwgen_kicad
    from generate import write_circuit

    try:
        hwgen_kicad.kicad_python()
    except hwgen_kicad.KicadMissing as e:
        pytest.fail(str(e))
    kicad_dir = os.path.join(ROOT, "out", "hardware", "kicad")
    write_circuit(board, kicad_dir)
    drc = hwgen_kicad.ensure_boards(kicad_dir)
    geom = {}
    for name in drc:
        with open(os.path.join(kicad_dir, name + "-pads.json")) as f:
            geom[name] = json.load(f)
    return drc, geom


def test_kicad_drc_finds_no_errors(boards):
    drc, _ = boards
    assert sorted(drc) == ["ctrl", "leg0", "leg1", "leg2", "leg3"]
    for name, r in drc.items():
        assert r["counts"]["errors"] == 0, (name, r["counts"])
        assert r["counts"]["Footprint errors"] == 0, name


def test_kicad_counts_the_same_unrouted_connections_as_the_router(boards):
    # KiCad's DRC and the build's router agree on what is still unrouted (hardware/README.md lists it)
    drc, _ = boards
    for name, r in drc.items():
        assert r["counts"]["unconnected pads"] >= len(r["router_failed"]) > -1, name
        assert r["counts"]["unconnected pads"] <= len(r["router_failed"]) + 3, (name, r["counts"])


def test_every_led_and_sensor_is_on_a_board_at_its_hole(board, boards):
    _, geom = boards
    placed = {}
    for name, g in geom.items():
        x0, y0, x1, y1 = g["rect"]
        for p in g["parts"]:
            assert x0 < p["x"] < x1 and y0 < p["y"] < y1, (name, p["ref"])
            placed[p["ref"]] = (name, p["x"], p["y"], p["side"])
    for led, kind, _, _, x, y, bit in lit_holes(board):
        name, px, py, side = placed["D%d" % led]
        assert (round(px, 3), round(py, 3), side) == (round(x, 3), round(y, 3), "F"), (led, kind)
        if bit is not None:
            assert placed["H%d" % bit] == (name, px, py, "B"), (bit, kind)


def test_board_netlist_is_the_schematic(boards, sch_nets):
    _, geom = boards
    on_boards = {}
    for g in geom.values():
        for pad in g["pads"]:
            if pad["net"]:
                key = (pad["ref"], pad["pin"])
                assert on_boards.setdefault(key, pad["net"]) == pad["net"], key
    assert on_boards == sch_nets


def test_bom_counts_are_the_parts_on_the_boards(board, circuit, boards):
    _, geom = boards
    rows = list(csv.DictReader(io.StringIO(bom_csv(board, circuit))))
    for name, g in geom.items():
        counted = sum(
            int(item.split(":")[1])
            for r in rows
            for item in r["boards"].split()
            if item.startswith(name + ":")
        )
        assert counted == len(g["parts"]), name
