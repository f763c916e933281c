# Scoring speed and the core's heap on MicroPython; bench_scoring.py runs it and prints one JSON line.
# Usage: MICROPYPATH=.frozen:FIRMWARE_DIR:. micropython bench/mp_scoring.py   (FIRMWARE_DIR: firmware/,
# or a folder of .mpy files to measure those instead; ".": the checkout, for verify/'s reference scorer)
import gc
import json


def deal(n, seed=12345):
    """n shows of 5 different cards as one bytes object (4 hand cards then the starter each).

    A plain LCG, so CPython and MicroPython score exactly the same hands.
    """
    out = bytearray()
    x = seed
    while len(out) < 5 * n:
        show = []
        while len(show) < 5:
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            c = (x >> 16) % 52
            if c not in show:
                show.append(c)
        out.extend(show)
    return bytes(out)


def _ticks():
    import time

    return time.ticks_us, time.ticks_diff


def _fast_loop(show_total, cards, n, crib):
    total = 0
    for i in range(0, 5 * n, 5):
        total += show_total(cards[i], cards[i + 1], cards[i + 2], cards[i + 3], cards[i + 4], crib)
    return total


def _itemised_loop(score_show, cards, n):
    total = 0
    for i in range(0, 5 * n, 5):
        total += score_show([cards[i], cards[i + 1], cards[i + 2], cards[i + 3]], cards[i + 4]).total
    return total


def _reference_loop(score, cards, n):
    total = 0
    for i in range(0, 5 * n, 5):
        total += score([cards[i], cards[i + 1], cards[i + 2], cards[i + 3]], cards[i + 4])
    return total


def _rate(fn, args, n, repeat=3):
    ticks_us, ticks_diff = _ticks()
    best = None
    result = None
    for _ in range(repeat):
        gc.collect()
        t0 = ticks_us()
        result = fn(*args)
        dt = ticks_diff(ticks_us(), t0)
        best = dt if best is None or dt < best else best
    return n * 1000000 // max(best, 1), result


def main():
    gc.collect()
    before = gc.mem_free()
    import cribbage.show
    import cribbage.showtotal
    from cribbage import showtables

    gc.collect()
    show_heap = before - gc.mem_free()
    import cribbage.play  # noqa: F401

    gc.collect()
    core_heap = before - gc.mem_free()
    tables = len(showtables.RANK_POINTS) + len(showtables.DISPLACE)
    tables += len(cribbage.showtotal._HAND_FLUSH) + len(cribbage.showtotal._CRIB_FLUSH)

    from verify import reference_scorer

    n_fast, n_slow = 200000, 4000
    cards = deal(n_fast)
    fast_hand, total_hand = _rate(_fast_loop, (cribbage.showtotal.show_total, cards, n_fast, False), n_fast)
    fast_crib, total_crib = _rate(_fast_loop, (cribbage.showtotal.show_total, cards, n_fast, True), n_fast)
    itemised, total_items = _rate(_itemised_loop, (cribbage.show.score_show, cards, n_slow), n_slow)
    reference, total_ref = _rate(_reference_loop, (reference_scorer.score, cards, n_slow), n_slow)
    figures = {
        "fast_hand": fast_hand,
        "fast_crib": fast_crib,
        "itemised": itemised,
        "reference": reference,
        "total_hand": total_hand,
        "total_crib": total_crib,
        "sample_total_fast": _fast_loop(cribbage.showtotal.show_total, cards, n_slow, False),
        "sample_total_itemised": total_items,
        "sample_total_reference": total_ref,
        "show_heap": show_heap,
        "core_heap": core_heap,
        "table_bytes": tables,
        "n_fast": n_fast,
        "n_slow": n_slow,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
