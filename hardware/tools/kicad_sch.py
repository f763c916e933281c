# The schematic (KiCad 6 .kicad_sch, written with kiutils) from the circuit model, and its netlist read back.
# Every pin is joined to its net by a label at the pin's end, so the drawing is regular and the netlist
# can be read from the file itself (net_of_pins) and compared with the circuit boards.
import uuid

from hwgen_circuit import CATALOGUE, PICO_PIN
from kiutils.items.common import Effects, Font, Position, Property, Stroke
from kiutils.items.schitems import LocalLabel, SchematicSymbol, SymbolInstance
from kiutils.items.syitems import SyRect
from kiutils.schematic import Schematic
from kiutils.symbol import Symbol, SymbolPin

PITCH = 2.54
LIB = "cribboard"

_HDR = [str(i) for i in range(1, 21)]
PINS = {
    # kind: (left pins, right pins) as (number, name)
    "led": ([("4", "DIN"), ("1", "VDD")], [("2", "DOUT"), ("3", "VSS")]),
    "c100n": ([("1", "~")], [("2", "~")]),
    "hall": ([("1", "VCC")], [("2", "OUT"), ("3", "GND")]),
    "sr": (
        [
            ("11", "A"),
            ("12", "B"),
            ("13", "C"),
            ("14", "D"),
            ("3", "E"),
            ("4", "F"),
            ("5", "G"),
            ("6", "H"),
            ("10", "SER"),
        ],
        [
            ("1", "SH/~LD"),
            ("2", "CLK"),
            ("15", "CLK_INH"),
            ("9", "QH"),
            ("7", "~QH"),
            ("16", "VCC"),
            ("8", "GND"),
        ],
    ),
    "buf": (
        [
            ("1", "1~OE"),
            ("2", "1A"),
            ("4", "2~OE"),
            ("5", "2A"),
            ("10", "3~OE"),
            ("9", "3A"),
            ("13", "4~OE"),
            ("12", "4A"),
            ("14", "VCC"),
        ],
        [("3", "1Y"), ("6", "2Y"), ("8", "3Y"), ("11", "4Y"), ("7", "GND")],
    ),
    "lvc": ([("1", "~OE"), ("2", "A"), ("5", "VCC")], [("4", "Y"), ("3", "GND")]),
    "pmos": (
        [("4", "G"), ("1", "S"), ("2", "S"), ("3", "S")],
        [("5", "D"), ("6", "D"), ("7", "D"), ("8", "D")],
    ),
    "nmos": ([("1", "G")], [("3", "D"), ("2", "S")]),
    "fuse": ([("1", "~")], [("2", "~")]),
    "bulk": ([("1", "+")], [("2", "-")]),
    "usbc": (
        [("A4", "VBUS"), ("A9", "VBUS"), ("B4", "VBUS"), ("B9", "VBUS"), ("A5", "CC1"), ("B5", "CC2")],
        [("A1", "GND"), ("A12", "GND"), ("B1", "GND"), ("B12", "GND"), ("S1", "SHIELD")],
    ),
    "key": ([("1", "1")], [("2", "2")]),
    "oled": ([("1", "GND"), ("2", "VCC"), ("3", "SCL"), ("4", "SDA")], []),
    "hdr": ([(n, n) for n in _HDR[0::2]], [(n, n) for n in _HDR[1::2]]),
}
for _k in ("r330", "r5k1", "r10k", "r100"):
    PINS[_k] = ([("1", "~")], [("2", "~")])
for _k in ("schottky", "tvs", "diode"):
    PINS[_k] = ([("2", "A")], [("1", "K")])
_GP = {str(p): "GP%d" % g for g, p in PICO_PIN.items()}
_PICO_NAMES = dict(
    _GP, **{"39": "VSYS", "36": "3V3_OUT", "40": "VBUS", "37": "3V3_EN", "35": "ADC_VREF", "30": "RUN"}
)
for _p in (3, 8, 13, 18, 23, 28, 33, 38):
    _PICO_NAMES[str(_p)] = "GND"
PINS["pico"] = (
    [(str(i), _PICO_NAMES[str(i)]) for i in range(1, 21)],
    [(str(i), _PICO_NAMES[str(i)]) for i in range(21, 41)],
)
PREFIX = {
    "led": "D",
    "hall": "H",
    "sr": "U",
    "buf": "U",
    "lvc": "U",
    "pico": "M",
    "hdr": "J",
    "usbc": "J",
    "oled": "J",
    "key": "SW",
    "diode": "D",
    "schottky": "D",
    "tvs": "D",
    "fuse": "F",
    "pmos": "Q",
    "nmos": "Q",
    "bulk": "C",
    "c100n": "C",
}


def _size(kind):
    left, right = PINS[kind]
    rows = max(len(left), len(right), 1)
    return 10.16, rows * PITCH + PITCH


def pin_points(kind):
    """{pin number: (dx, dy)} of each pin's end, in sheet axes (y down), from the symbol's origin."""
    w, h = _size(kind)
    left, right = PINS[kind]
    out = {}
    top = -h / 2 + PITCH
    for i, (num, _) in enumerate(left):
        out[num] = (round(-w / 2 - PITCH, 4), round(top + i * PITCH, 4))
    for i, (num, _) in enumerate(right):
        out[num] = (round(w / 2 + PITCH, 4), round(top + i * PITCH, 4))
    return out


def _effects(size=1.27, hide=False):
    return Effects(font=Font(height=size, width=size), hide=hide)


def lib_symbol(kind):
    part = CATALOGUE[kind]
    w, h = _size(kind)
    sym = Symbol(libraryNickname=LIB, entryName=kind)
    sym.inBom = True
    sym.onBoard = True
    ref = PREFIX.get(kind, "R" if kind.startswith("r") else "X")
    sym.properties = [
        Property(key="Reference", value=ref, id=0, position=Position(0, -h / 2 - 1.5), effects=_effects()),
        Property(key="Value", value=part[1], id=1, position=Position(0, h / 2 + 1.5), effects=_effects()),
        Property(
            key="Footprint",
            value="%s:%s" % (LIB, part[3]),
            id=2,
            position=Position(0, 0),
            effects=_effects(hide=True),
        ),
        Property(key="Datasheet", value="", id=3, position=Position(0, 0), effects=_effects(hide=True)),
        Property(key="MPN", value=part[4], id=4, position=Position(0, 0), effects=_effects(hide=True)),
        Property(key="MPN2", value=part[5], id=5, position=Position(0, 0), effects=_effects(hide=True)),
    ]
    body = Symbol(entryName=kind, unitId=0, styleId=1)
    body.graphicItems = [
        SyRect(start=Position(-w / 2, h / 2), end=Position(w / 2, -h / 2), stroke=Stroke(width=0.254))
    ]
    pins = Symbol(entryName=kind, unitId=1, styleId=1)
    names = dict(PINS[kind][0] + PINS[kind][1])
    for num, (dx, dy) in pin_points(kind).items():
        pin = SymbolPin(
            electricalType="passive", graphicalStyle="line", length=PITCH, name=names[num], number=num
        )
        pin.position = Position(dx, -dy, 0 if dx < 0 else 180)  # library axes: y up
        pin.nameEffects = _effects()
        pin.numberEffects = _effects()
        pins.pins.append(pin)
    sym.units = [body, pins]
    return sym


def write(circuit, path, title):
    sch = Schematic.create_new()
    sch.version = 20211123
    sch.generator = "cribboard"
    sch.uuid = str(uuid.uuid5(uuid.NAMESPACE_URL, "cribboard/" + title))
    kinds = sorted({p.kind for p in circuit["parts"]})
    sch.libSymbols = [lib_symbol(k) for k in kinds]
    # one block of columns per board, parts in reference order
    x0, y = 20.32, 30.48
    col_w, max_y = 38.1, 1100.0
    x = x0
    for board in ["ctrl"] + sorted({p.board for p in circuit["parts"]} - {"ctrl"}):
        parts = [p for p in circuit["parts"] if p.board == board]
        parts.sort(key=lambda p: (p.kind, _num(p.ref)))
        for p in parts:
            w, h = _size(p.kind)
            if y + h > max_y:
                x += col_w
                y = 30.48
            sx, sy = _grid(x + col_w / 2), _grid(y + h / 2)
            _place(sch, p, sx, sy, sch.uuid)
            y += h + 7.62
        x += col_w
        y = 30.48
    sch.paper.paperSize = "User"
    sch.paper.width = _grid(x + 20)
    sch.paper.height = 1130.0
    sch.to_file(path)
    return sch


def _num(ref):
    digits = "".join(c for c in ref if c.isdigit())
    return int(digits or 0)


def _grid(v):
    return round(round(v / 1.27) * 1.27, 4)


def _place(sch, part, sx, sy, root):
    u = str(uuid.uuid5(uuid.NAMESPACE_URL, "cribboard/sym/" + part.ref))
    s = SchematicSymbol(libraryNickname=LIB, entryName=part.kind, position=Position(sx, sy, 0), unit=1)
    s.libName = None
    s.uuid = u
    s.inBom = True
    s.onBoard = True
    w, h = _size(part.kind)
    cat = CATALOGUE[part.kind]
    s.properties = [
        Property(
            key="Reference",
            value=part.ref,
            id=0,
            position=Position(sx, sy - h / 2 - 1.27),
            effects=_effects(),
        ),
        Property(
            key="Value", value=part.value, id=1, position=Position(sx, sy + h / 2 + 1.27), effects=_effects()
        ),
        Property(
            key="Footprint",
            value="%s:%s" % (LIB, cat[3]),
            id=2,
            position=Position(sx, sy),
            effects=_effects(hide=True),
        ),
        Property(key="Datasheet", value="", id=3, position=Position(sx, sy), effects=_effects(hide=True)),
        Property(key="MPN", value=cat[4], id=4, position=Position(sx, sy), effects=_effects(hide=True)),
        Property(key="Board", value=part.board, id=5, position=Position(sx, sy), effects=_effects(hide=True)),
    ]
    s.pins = {
        num: str(uuid.uuid5(uuid.NAMESPACE_URL, "cribboard/pin/%s/%s" % (part.ref, num)))
        for num in pin_points(part.kind)
    }
    sch.schematicSymbols.append(s)
    sch.symbolInstances.append(
        SymbolInstance(
            path="/" + u, reference=part.ref, unit=1, value=part.value, footprint="%s:%s" % (LIB, cat[3])
        )
    )
    for num, (dx, dy) in pin_points(part.kind).items():
        net = part.pins.get(num)
        if not net:
            continue
        lab = LocalLabel(
            text=net,
            position=Position(round(sx + dx, 4), round(sy + dy, 4), 180 if dx < 0 else 0),
            effects=_effects(1.0),
        )
        lab.effects.justify.horizontally = "right" if dx < 0 else "left"
        lab.uuid = str(uuid.uuid5(uuid.NAMESPACE_URL, "cribboard/lab/%s/%s" % (part.ref, num)))
        sch.labels.append(lab)


def net_of_pins(path):
    """Read a written schematic back: {(ref, pin): net}, from the labels lying on the pins' ends."""
    sch = Schematic.from_file(path)
    lib = {s.entryName: s for s in sch.libSymbols}
    at = {}
    for lab in sch.labels:
        at[(round(lab.position.X, 3), round(lab.position.Y, 3))] = lab.text
    out = {}
    for s in sch.schematicSymbols:
        ref = [p.value for p in s.properties if p.key == "Reference"][0]
        sym = lib[s.entryName]
        for unit in sym.units:
            for pin in unit.pins:
                # library axes have y up; a symbol placed unrotated flips y onto the sheet
                x = round(s.position.X + pin.position.X, 3)
                y = round(s.position.Y - pin.position.Y, 3)
                if (x, y) in at:
                    out[(ref, pin.number)] = at[(x, y)]
    return out
