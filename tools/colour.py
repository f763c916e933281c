"""Side colours checked for colour-blind players: Machado 2009 simulation and CIEDE2000 differences."""

import math

# Machado, Oliveira & Fernandes 2009, severity 1.0, applied to linear RGB.
DEFICIENCIES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

MIN_DELTA_E = 20.0
# The brightness settings a player can pick (firmware/board/settings.py).
BRIGHTNESS_LEVELS = (16, 32, 64, 96, 128, 192, 255)
# The lowest brightness at which three sides can pass at all (docs/accessibility.md): below it every
# colour is too near the unlit track, so the dimmer levels rely on the cues that are not colour.
CHECKED_FROM = 64
CHECKED_LEVELS = tuple(b for b in BRIGHTNESS_LEVELS if b >= CHECKED_FROM)
UNLIT = (0, 0, 0)
_SKUNK_LEVEL = 40  # the skunk line: white at 40/256 of the brightness (board/render/anims.py)

_WHITE = (0.95047, 1.0, 1.08883)  # D65


def led_rgb(rgb, bright):
    """The bytes an LED is sent for colour rgb at brightness bright, as board/render does it."""
    return tuple(c * bright // 255 for c in rgb)


def skunk_rgb(bright):
    k = _SKUNK_LEVEL * bright
    return (255 * k >> 16,) * 3


def simulate(linear, deficiency):
    """Linear RGB (0..1 each) as seen with the deficiency, clipped to the gamut."""
    m = DEFICIENCIES[deficiency]
    return tuple(min(1.0, max(0.0, sum(m[i][j] * linear[j] for j in range(3)))) for i in range(3))


def lab(linear):
    """CIELAB (D65) of a linear RGB colour."""
    r, g, b = linear
    xyz = (
        0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
        0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
        0.0193339 * r + 0.1191920 * g + 0.9503041 * b,
    )

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, _WHITE, strict=True))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def _chroma(a, b):
    return math.sqrt(a * a + b * b)


def delta_e00(lab1, lab2):
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005), kL = kC = kH = 1."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    cbar = (_chroma(a1, b1) + _chroma(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = _chroma(a1p, b1), _chroma(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp = l2 - l1
    dcp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    dhp_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbar = (l1 + l2) / 2
    cbarp = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbarp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbarp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbarp = (h1p + h2p + 360) / 2
    else:
        hbarp = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbarp - 30))
        + 0.24 * math.cos(math.radians(2 * hbarp))
        + 0.32 * math.cos(math.radians(3 * hbarp + 6))
        - 0.20 * math.cos(math.radians(4 * hbarp - 63))
    )
    dtheta = 30 * math.exp(-(((hbarp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp**7 / (cbarp**7 + 25.0**7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt(
        (dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp_big / sh) ** 2 + rt * (dcp / sc) * (dhp_big / sh)
    )


def seen(led, deficiency):
    """CIELAB of LED bytes (their duty cycle, so already linear light) as seen with deficiency."""
    return lab(simulate(tuple(c / 255 for c in led), deficiency))


def problems(colours, names=None, levels=CHECKED_LEVELS, minimum=MIN_DELTA_E):
    """Every pair too alike under a deficiency -> list of (deficiency, bright, a, b, delta E).

    Checked: each pair of side colours, and each side against the unlit track and the skunk line,
    as the LEDs show them at every brightness in levels.
    """
    names = names or ["side %d" % i for i in range(len(colours))]
    found = []
    for bright in levels:
        shown = [(names[i], led_rgb(c, bright)) for i, c in enumerate(colours)]
        track = [("unlit", UNLIT), ("skunk line", skunk_rgb(bright))]
        pairs = [(shown[i], shown[j]) for i in range(len(shown)) for j in range(i + 1, len(shown))]
        pairs += [(s, t) for s in shown for t in track]
        for deficiency in DEFICIENCIES:
            for (na, a), (nb, b) in pairs:
                d = delta_e00(seen(a, deficiency), seen(b, deficiency))
                if d < minimum:
                    found.append((deficiency, bright, na, nb, d))
    return found


def describe(found):
    """One line a problem, for a maker's warning."""
    return [
        "%s and %s look alike with %s at brightness %d (CIEDE2000 %.1f < %.0f)"
        % (a, b, deficiency, bright, d, MIN_DELTA_E)
        for deficiency, bright, a, b, d in found
    ]
