# Land patterns of every part on the circuit boards, as plain data (mm, KiCad's footprint axes, y down).
# Shared by the KiCad builder (pcbnew, system python3) and the .venv tools, so it imports nothing.
# Pad: (number, x, y, w, h, drill); drill 0 = SMD. Pads with the same number are one pin.
# Figures follow the manufacturers' recommended land patterns (IPC nominal), rounded to 0.05 mm.
# Parts whose land pattern is KiCad's own library footprint (hardware/footprints/kicad.pretty: the
# USB-C receptacle, the mounting hole) are not here: the builder loads those files.


def _row(first, n, x, y0, dy, w, h, drill=0.0):
    return [(str(first + i), x, y0 + i * dy, w, h, drill) for i in range(n)]


def _tssop(n):
    half = n // 2
    y0 = -(half - 1) * 0.65 / 2
    pads = _row(1, half, -2.9, y0, 0.65, 1.5, 0.45)
    pads += _row(half + 1, half, 2.9, -y0, -0.65, 1.5, 0.45)
    return pads


def _pico():
    # Raspberry Pi Pico castellated edge: pins 1-20 down the left, 21-40 up the right, USB at the top.
    # (KiCad's own RPi_Pico_SMD has 3.5 x 1.7 mm pads: 1.7 mm leaves 0.84 mm between pads, too narrow
    # for a track on the router's 0.325 mm grid, and the controller did not route in time with them.)
    pads = _row(1, 20, -8.89, -24.13, 2.54, 3.2, 1.6)
    pads += _row(21, 20, 8.89, 24.13, -2.54, 3.2, 1.6)
    return pads


def _header2(n):
    # 2 x n pin header, 2.54 mm: odd pins in the first column, centred on the footprint origin.
    pads = []
    for i in range(n):
        y = (i - (n - 1) / 2) * 2.54
        pads.append((str(2 * i + 1), -1.27, y, 1.7, 1.7, 1.0))
        pads.append((str(2 * i + 2), 1.27, y, 1.7, 1.7, 1.0))
    return pads


FOOTPRINTS = {
    # WS2812B 5050: 1 VDD, 2 DOUT, 3 VSS, 4 DIN (Worldsemi datasheet, top view).
    "LED_WS2812B_5050": [
        ("1", -2.45, -1.6, 1.5, 1.0, 0.0),
        ("2", -2.45, 1.6, 1.5, 1.0, 0.0),
        ("3", 2.45, 1.6, 1.5, 1.0, 0.0),
        ("4", 2.45, -1.6, 1.5, 1.0, 0.0),
    ],
    "C_0603": [("1", -0.8, 0.0, 0.9, 0.95, 0.0), ("2", 0.8, 0.0, 0.9, 0.95, 0.0)],
    "R_0603": [("1", -0.8, 0.0, 0.9, 0.95, 0.0), ("2", 0.8, 0.0, 0.9, 0.95, 0.0)],
    # SOT-23-3 (DRV5032 DBZ): 1 VCC, 2 OUT, 3 GND.
    "SOT-23": [
        ("1", -1.1375, -0.95, 1.325, 0.6, 0.0),
        ("2", -1.1375, 0.95, 1.325, 0.6, 0.0),
        ("3", 1.1375, 0.0, 1.325, 0.6, 0.0),
    ],
    # SOT-23-5 (74LVC1G125 DBV): 1 OE, 2 A, 3 GND, 4 Y, 5 VCC.
    "SOT-23-5": [
        ("1", -1.1, -0.95, 1.06, 0.65, 0.0),
        ("2", -1.1, 0.0, 1.06, 0.65, 0.0),
        ("3", -1.1, 0.95, 1.06, 0.65, 0.0),
        ("4", 1.1, 0.95, 1.06, 0.65, 0.0),
        ("5", 1.1, -0.95, 1.06, 0.65, 0.0),
    ],
    "TSSOP-16": _tssop(16),
    "TSSOP-14": _tssop(14),
    # SO-8 (AO4407A): 1-3 S, 4 G, 5-8 D.
    "SOIC-8": _row(1, 4, -2.7, -1.905, 1.27, 1.55, 0.6) + _row(5, 4, 2.7, 1.905, -1.27, 1.55, 0.6),
    "SOD-123": [("1", -1.65, 0.0, 0.9, 1.2, 0.0), ("2", 1.65, 0.0, 0.9, 1.2, 0.0)],  # 1 = cathode
    "SMA": [("1", -2.0, 0.0, 2.5, 1.7, 0.0), ("2", 2.0, 0.0, 2.5, 1.7, 0.0)],  # 1 = cathode
    "Fuse_2410": [("1", -2.55, 0.0, 1.6, 2.9, 0.0), ("2", 2.55, 0.0, 1.6, 2.9, 0.0)],
    "CP_Radial_D8.0mm_P3.50mm": [("1", -1.75, 0.0, 1.6, 1.6, 0.8), ("2", 1.75, 0.0, 1.6, 1.6, 0.8)],
    "PinHeader_2x10_P2.54mm": _header2(10),
    "PinSocket_1x04_P2.54mm": [(str(i + 1), (i - 1.5) * 2.54, 0.0, 1.7, 1.7, 1.0) for i in range(4)],
    # 12 x 12 mm tact switch: the two pins 12.5 mm apart are one terminal, so at a 14 mm key pitch
    # (1.5 mm from the next key's pin) one pin of each terminal is soldered and the other sits in a
    # plain hole.
    "SW_Push_12x12mm": [
        ("1", -6.25, -2.5, 1.5, 1.5, 1.1),
        ("", 6.25, -2.5, 1.1, 1.1, 1.1),
        ("2", -6.25, 2.5, 1.5, 1.5, 1.1),
        ("", 6.25, 2.5, 1.1, 1.1, 1.1),
    ],
    "RaspberryPi_Pico_SMD": _pico(),
    "MountingHole_2.7mm_M2.5": [("", 0.0, 0.0, 2.7, 2.7, 2.7)],
}

# Outline of each part's body (w, h), for the courtyard and the drawings.
BODY = {
    "LED_WS2812B_5050": (5.0, 5.0),
    "C_0603": (1.6, 0.8),
    "R_0603": (1.6, 0.8),
    "SOT-23": (2.9, 1.3),
    "SOT-23-5": (2.9, 1.6),
    "TSSOP-16": (4.4, 5.0),
    "TSSOP-14": (4.4, 5.0),
    "SOIC-8": (3.9, 4.9),
    "SOD-123": (2.7, 1.6),
    "SMA": (4.3, 2.6),
    "Fuse_2410": (6.1, 2.7),
    "CP_Radial_D8.0mm_P3.50mm": (8.0, 8.0),
    "PinHeader_2x10_P2.54mm": (5.08, 25.4),
    "PinSocket_1x04_P2.54mm": (10.16, 2.54),
    "SW_Push_12x12mm": (12.0, 12.0),
    "RaspberryPi_Pico_SMD": (21.0, 51.0),
    "MountingHole_2.7mm_M2.5": (2.7, 2.7),
}
