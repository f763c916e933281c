# LED and sensor chain drawings over the layout: which way each data line runs, hole by hole.
from hwgen_svg import (
    FAINT,
    _controls,
    _el,
    _f,
    _hex,
    _hole_circles,
    _notes,
    _sheet,
    _text,
    _tostring,
    holes,
    sensor_of,
)


def _arrow_marker(svg, mid, colour):
    defs = _el(svg, "defs")
    m = _el(
        defs,
        "marker",
        id=mid,
        viewBox="0 0 10 10",
        refX=5,
        refY=5,
        markerWidth=3,
        markerHeight=3,
        orient="auto",
        markerUnits="strokeWidth",
    )
    _el(m, "path", d="M0 1L9 5L0 9z", fill=colour)


HOP_MM = 100.0  # consecutive LEDs further apart than this are joined by a wire routed round the edge


def _route(pts, n, mid_x):
    # Split a chain into the short DOUT->DIN steps (one path) and long hops routed through the top
    # margin (dashed), so a hop from the panel to the start holes does not cut across the track.
    steps, hops = [[pts[0]]], []
    for (x1, y1), (x2, y2) in zip(pts, pts[1:], strict=False):
        if ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 > HOP_MM:
            xr = max(x1, x2) + 3.0 + 1.5 * n
            xl = min(x1, x2) - 6.0 - 1.5 * n
            yt = 12.0 - 1.5 * n
            hops.append([(x1, y1), (xr, y1), (xr, yt), (xl, yt), (xl, y2), (x2, y2)])
            steps.append([(x2, y2)])
        else:
            if abs(x2 - x1) < 0.01 and abs(y2 - y1) > 12.0:
                # a turn between legs: bow it outwards, wider for outer lanes, so turns do not overlap
                b = (3.0 + abs(y2 - y1) / 8.0) * (1 if x1 > mid_x else -1)
                steps[-1] += [(x1 + b, y1), (x2 + b, y2)]
            steps[-1].append((x2, y2))
    return steps, hops


def _path_d(pts):
    return "M" + "L".join("%s %s" % (_f(x), _f(y)) for x, y in pts)


def _chain_drawing(board, title, chains, label_of, notes):
    # chains: list of (name, colour, [(x, y), ...] in data order, start label)
    svg, g = _sheet(board, title)
    _controls(g, board, labels=False)
    _hole_circles(g, board, stroke=FAINT, with_cross=False)
    for n, (name, colour, pts, start_label) in enumerate(chains):
        mid = "arrow%d" % n
        _arrow_marker(svg, mid, colour)
        steps, hops = _route(pts, n, board.layout["board"][0] / 2)
        for run in steps:
            if len(run) < 2:
                continue
            p = _el(
                g,
                "path",
                class_="chain",
                d=_path_d(run),
                fill="none",
                stroke=colour,
                stroke_width=0.45,
                stroke_opacity=0.85,
                marker_mid="url(#%s)" % mid,
                marker_end="url(#%s)" % mid,
            )
            p.set("data-chain", name)
        for hop in hops:
            _el(
                g,
                "path",
                class_="hop",
                d=_path_d(hop),
                fill="none",
                stroke=colour,
                stroke_width=0.45,
                stroke_dasharray="2,1",
                marker_end="url(#%s)" % mid,
            )
        if start_label:  # the chain's first LED, circled and named by the GPIO that feeds it
            x0, y0 = pts[0]
            _el(g, "circle", cx=float(x0), cy=float(y0), r=2.6, fill="none", stroke=colour, stroke_width=0.6)
            _text(g, x0 - 3.4, y0 + 0.9, start_label, size=2.4, anchor="end", fill=colour, weight="bold")
    lg = _el(g, "g", id="hole-labels")
    for kind, s, i, x, y, led in holes(board):
        lab = label_of(kind, s, i, led)
        if lab is not None:
            _text(lg, x, y - 3.0, str(lab), size=1.5, fill="#222")
    _notes(svg, board, notes)
    return _tostring(svg)


def leds_svg(board):
    """LED chain order: each chain's data line drawn through its LEDs, arrows in the data direction."""
    pos = {}
    for _kind, _s, _i, x, y, led in holes(board):
        pos[led] = (x, y)
    chains = []
    for c in range(len(board.wiring.led_chains)):
        first = board.wiring.led_chain_start[c]
        pts = [pos[k] for k in range(first, first + board.wiring.led_chains[c])]
        colour = _hex(tuple(v * 3 // 4 for v in board.colours[c % board.sides]))
        chains.append(("%d" % c, colour, pts, "GP%d" % board.wiring.led_pins[c]))
    notes = [
        "Circled: first LED of a chain, its DIN fed from the GPIO named. Numbers: LED index (chain %s)."
        % ", ".join(
            "%d = %d..%d"
            % (
                c,
                board.wiring.led_chain_start[c],
                board.wiring.led_chain_start[c] + board.wiring.led_chains[c] - 1,
            )
            for c in range(len(board.wiring.led_chains))
        ),
        "Each chain: Pico GPIO -> 74AHCT125 (5 V) -> 330 ohm -> DIN of its first LED; DOUT to DIN along "
        "the arrows.",
        "Dashed: long hops (panel to start holes), ordinary DOUT->DIN wires along the edge; "
        "each LED regenerates the signal.",
        "%d LEDs in all; order on the wire: %s." % (board.led_count, board.wiring.led_order),
    ]
    return _chain_drawing(board, "%s: LED chain order" % board.name, chains, lambda k, s, i, led: led, notes)


def sensors_svg(board):
    """Sensor chain order: bit order of the 74HCT165 chain, drawn from the far end to the Pico."""
    at_bit = {}
    for kind, s, i, x, y, _led in holes(board):
        bit = sensor_of(board, kind, s, i)
        if bit is not None:
            at_bit[bit] = (x, y)
    bits = sorted(at_bit)
    chains = []
    # one path per chip, alternating tones, so the eight holes of each 74HCT165 read as a group
    for chip in range(board.wiring.sensor_chips):
        pts = [at_bit[b] for b in bits if b // 8 == chip]
        if not pts:
            continue
        pts.reverse()  # data leaves through QH towards chip 0 and the Pico: draw it that way
        colour = "#1a6fb0" if chip % 2 == 0 else "#d07000"
        chains.append(("U%d" % chip, colour, pts, ""))
    fixed = ", ".join("%d=%s" % (b, "3V3" if v else "GND") for b, v in board.wiring.sensor_fixed)
    notes = [
        "Numbers: sensor bit; Uk:8k marks the first input (H) of 74HCT165 number k from the Pico; "
        "bits 8k..8k+7 = inputs H..A.",
        "Bit b is byte b//8 of the SPI read, mask 0x80>>(b%%8). U0's QH -> MISO GP%d; U(k+1) QH -> SER of Uk."
        % board.wiring.pins["sensor_miso"],
        "SCK GP%d and latch (SH/LD) GP%d go to every chip; CLK INH to GND; SER of the last chip to GND."
        % (board.wiring.pins["sensor_sck"], board.wiring.pins["sensor_latch"]),
        "%d chips, %d bits. Spare inputs tied: %s." % (board.wiring.sensor_chips, board.sensor_bits, fixed),
    ]

    def label(kind, side, i, led):
        bit = sensor_of(board, kind, side, i)
        if bit is None:
            return None
        return "U%d:%d" % (bit // 8, bit) if bit % 8 == 0 else bit

    return _chain_drawing(board, "%s: sensor chain order (74HCT165)" % board.name, chains, label, notes)
