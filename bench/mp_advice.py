# Discard advice speed and heap on MicroPython; bench_advice.py runs it and prints one JSON line.
# Usage: MICROPYPATH=.frozen:firmware micropython bench/mp_advice.py
import gc
import json
import time

HANDS = {
    "six": bytes((17, 16, 19, 42, 15, 22)),  # 5H 5S 5C JD 4C 6D
    "five": bytes((17, 16, 41, 13, 21)),  # 5H 5S JH 4H 6H
    "three": bytes((17, 16, 41, 13, 21)),
    "four": bytes((17, 16, 41, 13, 21)),
}


def main():
    gc.collect()
    free0 = gc.mem_free()
    import cribbage.show  # noqa: F401  (already on the board: not the advice's cost)

    gc.collect()
    free1 = gc.mem_free()
    import cribbage.cribtables  # noqa: F401

    gc.collect()
    free2 = gc.mem_free()
    from cribbage.advice import Advisor

    a = Advisor()
    gc.collect()
    free3 = gc.mem_free()
    out = {"heap_show": free0 - free1, "heap_tables": free1 - free2, "heap_advice": free2 - free3}
    for form in ("six", "five", "three", "four"):
        best = None
        for _ in range(3):
            t0 = time.ticks_us()
            a.advise(HANDS[form], form, True)
            dt = time.ticks_diff(time.ticks_us(), t0)
            best = dt if best is None or dt < best else best
        out["us_" + form] = best
    print(json.dumps(out))


main()
