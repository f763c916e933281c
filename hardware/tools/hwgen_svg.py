# The drilling template from board.json, at 1:1 in mm, and the drawing helpers the chain drawings share.
import xml.etree.ElementTree as ET

MARGIN = 15.0  # sheet margin around the board outline
NOTES_H = 34.0  # room under the board for the notes and the scale bar
SVG_NS = "http://www.w3.org/2000/svg"
INK = "#000"
FAINT = "#999"


def holes(board):
    """Every lit hole as (kind, side, i, x, y, led): the drawings and the tests walk this one list."""
    out = []
    for s in range(board.sides):
        for h in range(1, 121):
            out.append(("track", s, h) + board.position("track", s, h) + (board.led_track[s][h - 1],))
        for i in range(2):
            out.append(("start", s, i) + board.position("start", s, i) + (board.led_start[s][i],))
        for i in range(board.record_count):
            out.append(("record", s, i) + board.position("record", s, i) + (board.led_record[s][i],))
        out.append(("dealer", s, 0) + board.position("dealer", s) + (board.led_dealer[s],))
    out.append(("game", 0, 0) + board.position("game") + (board.led_game,))
    return out


def sensor_of(board, kind, side, i):
    """The sensor bit of a hole, or None (game-record holes and dealer LEDs are lights only)."""
    if kind == "track":
        return board.sensor_track[side][i - 1]
    if kind == "start":
        return board.sensor_start[side][i]
    if kind == "game":
        return board.sensor_game
    return None


def _f(v):
    return ("%.3f" % v).rstrip("0").rstrip(".")


def _hex(rgb):
    return "#%02x%02x%02x" % rgb


def _el(parent, tag, **attrs):
    e = ET.SubElement(parent, tag)
    for k, v in attrs.items():
        e.set(k.rstrip("_").replace("_", "-"), _f(v) if isinstance(v, float) else str(v))
    return e


def _text(parent, x, y, s, size=2.5, anchor="middle", fill=INK, weight="normal"):
    t = _el(
        parent,
        "text",
        x=float(x),
        y=float(y),
        font_size=float(size),
        text_anchor=anchor,
        fill=fill,
        font_family="DejaVu Sans, Arial, sans-serif",
        font_weight=weight,
    )
    t.text = s
    return t


def _sheet(board, title):
    w, h = board.layout["board"]
    sw, sh = w + 2 * MARGIN, h + 2 * MARGIN + NOTES_H
    svg = ET.Element(
        "svg", xmlns=SVG_NS, width=_f(sw) + "mm", height=_f(sh) + "mm", viewBox="0 0 %s %s" % (_f(sw), _f(sh))
    )
    _el(svg, "rect", x=0.0, y=0.0, width=sw, height=sh, fill="#fff")
    _text(svg, MARGIN, 9.0, title, size=5.0, anchor="start", weight="bold")
    g = _el(svg, "g", id="board", transform="translate(%s,%s)" % (_f(MARGIN), _f(MARGIN)))
    lay = board.layout
    _el(
        g,
        "rect",
        id="outline",
        x=0.0,
        y=0.0,
        width=float(w),
        height=float(h),
        rx=float(lay["corner_radius"]),
        fill="none",
        stroke=INK,
        stroke_width=0.4,
    )
    return svg, g


def _notes(svg, board, lines):
    lay = board.layout
    y0 = MARGIN + lay["board"][1] + 9.0
    # a 100 mm scale bar: measure it on the print before drilling
    x0 = MARGIN
    bar = _el(svg, "g", id="scale-bar")
    _el(bar, "line", x1=x0, y1=y0, x2=x0 + 100.0, y2=y0, stroke=INK, stroke_width=0.5)
    for k in range(11):
        tick = 2.5 if k % 5 == 0 else 1.2
        _el(
            bar, "line", x1=x0 + 10.0 * k, y1=y0 - tick, x2=x0 + 10.0 * k, y2=y0, stroke=INK, stroke_width=0.3
        )
    _text(bar, x0 + 50, y0 + 4.0, "100 mm: print at 100 % and check this bar", size=2.8)
    for i, line in enumerate(lines):
        _text(svg, x0 + 110, y0 - 2.0 + 4.6 * i, line, size=3.0, anchor="start")


def _lane_strips(g, board):
    # Tinted strips under each leg show which track belongs to which side (the classic coloured lanes).
    lay = board.layout
    span = (lay["leg"] - 1) * lay["pitch"] + (lay["leg"] - 1) // lay["group"] * lay["group_gap"]
    for leg in lay["legs"]:
        x = leg["x"] if leg["dir"] > 0 else leg["x"] - span
        for s in range(board.sides):
            y = leg["y"] + leg["lanes"][s] * lay["lane_pitch"]
            _el(
                g,
                "rect",
                x=x - 3.5,
                y=y - 3.2,
                width=span + 7.0,
                height=6.4,
                rx=3.2,
                fill=_hex(board.colours[s]),
                fill_opacity=0.18,
                stroke="none",
            )
    for s in range(board.sides):
        tint = _hex(board.colours[s])
        (x1, y1), (x2, _) = lay["start"][s]
        _el(
            g,
            "rect",
            x=min(x1, x2) - 3.5,
            y=y1 - 3.2,
            width=abs(x2 - x1) + 7.0,
            height=6.4,
            rx=3.2,
            fill=tint,
            fill_opacity=0.18,
            stroke="none",
        )
        r = lay["record"][s]
        _el(
            g,
            "rect",
            x=r["x"] - 3.5,
            y=r["y"] - 3.2,
            width=(board.record_count - 1) * r["pitch"] + 7.0,
            height=6.4,
            rx=3.2,
            fill=tint,
            fill_opacity=0.18,
            stroke="none",
        )


def _turns(g, board):
    # Thin arcs join each leg's end to the next leg's start, so the track reads as one continuous path.
    lay = board.layout
    legs = lay["legs"]
    for L in range(len(legs) - 1):
        a = legs[L]
        end = (L + 1) * lay["leg"]
        for s in range(board.sides):
            x1, y1 = board.position("track", s, end)
            x2, y2 = board.position("track", s, end + 1)
            nest = abs(y2 - y1) / lay["lane_pitch"]  # outer lanes turn wider, so arcs never cross
            rx = 2.5 + nest
            sweep = 1 if a["dir"] > 0 else 0
            _el(
                g,
                "path",
                class_="turn",
                d="M%s %sA%s %s 0 0 %d %s %s"
                % (_f(x1), _f(y1), _f(rx), _f(abs(y2 - y1) / 2), sweep, _f(x2), _f(y2)),
                fill="none",
                stroke=_hex(board.colours[s]),
                stroke_opacity=0.5,
                stroke_width=1.2,
            )
    gx, gy = lay["game"]
    r = lay["hole_d"] / 2 + 0.6
    for s in range(board.sides):
        x, y = board.position("track", s, 120)
        dx = -r if x > gx else r
        _el(
            g,
            "line",
            class_="turn",
            x1=x + dx,
            y1=y,
            x2=gx - dx,
            y2=gy,
            stroke=_hex(board.colours[s]),
            stroke_opacity=0.5,
            stroke_width=1.2,
        )


def _skunk_marks(g, board):
    # Skunk lines sit before holes 91 and 61 (121-point game) and 31 (61-point game): a leg's entry.
    lay = board.layout
    for hole in (31, 61, 91):
        leg = lay["legs"][(hole - 1) // lay["leg"]]
        x = leg["x"] - leg["dir"] * (lay["pitch"] * 0.75)
        y1 = leg["y"] - 4.5
        y2 = leg["y"] + (board.sides - 1) * lay["lane_pitch"] + 4.5
        line = _el(g, "line", class_="skunk", x1=x, y1=y1, x2=x, y2=y2, stroke="#c00", stroke_width=0.8)
        line.set("data-hole", str(hole))
        _text(g, x, y2 + 3.2, str(hole), size=2.6, fill="#c00", weight="bold")


def _hole_numbers(g, board):
    lay = board.layout
    for L, leg in enumerate(lay["legs"]):
        for k in range(lay["group"] - 1, lay["leg"], lay["group"]):
            hole = L * lay["leg"] + k + 1
            x = board.position("track", 0, hole)[0]
            _text(g, x, leg["y"] - 4.6, str(hole), size=2.4, fill="#444")


def _controls(g, board, labels=True):
    lay = board.layout
    keys = lay["keys"]
    c = keys["cutout"]
    ncols = len(board.wiring.key_cols)
    for r in range(len(board.wiring.key_rows)):
        for col in range(ncols):
            x = keys["x"] + col * keys["pitch"]
            y = keys["y"] + r * keys["pitch"]
            name = board.key_names[r * ncols + col]
            _el(
                g,
                "rect",
                class_="key-cutout",
                x=x - c / 2,
                y=y - c / 2,
                width=float(c),
                height=float(c),
                fill="none",
                stroke=INK,
                stroke_width=0.3,
            )
            if labels and name:
                _text(g, x, y + 1.0, name, size=3.0 if len(name) == 1 else 2.2)
    d = lay["display"]
    mx, my, mw, mh = d["module"]
    _el(
        g,
        "rect",
        class_="display-module",
        x=float(mx),
        y=float(my),
        width=float(mw),
        height=float(mh),
        fill="none",
        stroke=FAINT,
        stroke_width=0.25,
        stroke_dasharray="1,0.8",
    )
    _el(
        g,
        "rect",
        class_="display-cutout",
        x=float(d["x"]),
        y=float(d["y"]),
        width=float(d["w"]),
        height=float(d["h"]),
        fill="#eee",
        stroke=INK,
        stroke_width=0.3,
    )
    if labels:
        _text(g, d["x"] + d["w"] / 2, d["y"] + d["h"] / 2 + 1.0, "OLED", size=2.6)


def _mounting(g, board):
    m = board.layout["mounting"]
    r = m["d"] / 2
    for x, y in m["at"]:
        _el(
            g,
            "circle",
            class_="mount",
            cx=float(x),
            cy=float(y),
            r=float(r),
            fill="none",
            stroke=INK,
            stroke_width=0.3,
        )
        _el(
            g,
            "path",
            d="M%s %sh%sM%s %sv%s"
            % (_f(x - r - 1), _f(y), _f(2 * r + 2), _f(x), _f(y - r - 1), _f(2 * r + 2)),
            stroke=INK,
            stroke_width=0.15,
        )


def _fixings(g, board):
    """Where each circuit board is screwed to the back of the panel (hwgen_circuit.mounting): a crossed
    circle, for a heat-set M3 insert in a blind hole (do not drill through)."""
    from hwgen_circuit import mounting

    r = 2.0
    for _, at in sorted(mounting(board).items()):
        for x, y in at:
            _el(g, "circle", class_="fixing", cx=float(x), cy=float(y), r=r, fill="none", stroke=INK,
                stroke_width=0.3, stroke_dasharray="1 0.6")  # fmt: skip
            d = r * 0.7
            _el(g, "path", d="M%s %sl%s %sM%s %sl%s %s" % (_f(x - d), _f(y - d), _f(2 * d), _f(2 * d),
                _f(x - d), _f(y + d), _f(2 * d), _f(-2 * d)), stroke=INK, stroke_width=0.15)  # fmt: skip


def _hole_circles(g, board, stroke=INK, with_cross=True):
    r = board.layout["hole_d"] / 2
    cross = []
    hg = _el(g, "g", id="holes")
    for kind, s, i, x, y, led in holes(board):
        e = _el(
            hg,
            "circle",
            class_="hole " + kind,
            cx=float(x),
            cy=float(y),
            r=float(r),
            fill="#fff",
            stroke=stroke,
            stroke_width=0.25,
        )
        e.set("data-side", str(s))
        e.set("data-index", str(i))
        e.set("data-led", str(led))
        if with_cross:
            cross.append("M%s %sh1.6M%s %sv1.6" % (_f(x - 0.8), _f(y), _f(x), _f(y - 0.8)))
    if cross:
        _el(g, "path", id="centre-marks", d="".join(cross), stroke=INK, stroke_width=0.12)


def _labels(g, board):
    lay = board.layout
    sx, sy = lay["start"][0][0]
    _text(g, sx + 4, sy - 4.6, "START", size=2.4, weight="bold")
    gx, gy = lay["game"]
    _text(g, gx, gy + 5.6, "GAME 121", size=2.4, weight="bold")
    r0 = lay["record"][0]
    _text(g, r0["x"] - 3, r0["y"] - 4.2, "game-record holes (match points)", size=2.2, anchor="start")
    for s in range(board.sides):
        dx, dy = lay["dealer"][s]
        _text(g, dx - 4.0, dy + 0.9, "D", size=2.4, anchor="end", fill=_hex(board.colours[s]), weight="bold")


def layout_svg(board):
    """The drilling template: every hole, cut-out and mounting hole at 1:1, figures stated."""
    lay = board.layout
    svg, g = _sheet(board, "%s: drilling template (1:1, mm)" % board.name)
    _lane_strips(g, board)
    _turns(g, board)
    _skunk_marks(g, board)
    _hole_numbers(g, board)
    _hole_circles(g, board)
    _labels(g, board)
    _controls(g, board)
    _mounting(g, board)
    _fixings(g, board)
    n = len(holes(board))
    w, h = lay["board"]
    _notes(
        svg,
        board,
        [
            "Board %s x %s mm, corner radius %s mm. %d LED holes, diameter %s mm (%d track holes a side)."
            % (_f(w), _f(h), _f(lay["corner_radius"]), n, _f(lay["hole_d"]), 120),
            "Hole pitch %s mm in a group of %d, %s mm between groups (gap +%s); legs of %d; "
            "lanes %s mm apart."
            % (
                _f(lay["pitch"]),
                lay["group"],
                _f(lay["pitch"] + lay["group_gap"]),
                _f(lay["group_gap"]),
                lay["leg"],
                _f(lay["lane_pitch"]),
            ),
            "Keys: %d cut-outs %s mm square at %s mm pitch. OLED window %s x %s mm (module outline dashed)."
            % (
                len(board.wiring.key_rows) * len(board.wiring.key_cols),
                _f(lay["keys"]["cutout"]),
                _f(lay["keys"]["pitch"]),
                _f(lay["display"]["w"]),
                _f(lay["display"]["h"]),
            ),
            "Red lines: skunk lines before 91 (skunk) and 61 (double skunk); before 31 in a 61-point game.",
            "Mounting: %d holes, diameter %s mm. Crossed dashed circles: circuit board fixings, a blind "
            "hole for an M3 heat-set insert (do not drill through)."
            % (len(lay["mounting"]["at"]), _f(lay["mounting"]["d"])),
            "Generated from hardware/board.json by make hardware.",
        ],
    )
    return _tostring(svg)


def _tostring(svg):
    ET.indent(svg)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(svg, encoding="unicode") + "\n"
