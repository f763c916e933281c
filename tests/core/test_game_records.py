# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The compact log: record types agree between modules, records round-trip to events, chunks.
from cribbage import fold
from cribbage import records as R
from cribbage.events import KINDS, WHYS


def test_fold_constants_agree_with_records():
    names = "CUT DEALER PEG FIX STARTER SHOW LAY GO MUG DEAL GAME END NONE".split()
    for name in names:
        mine = getattr(fold, "_" + name, None)  # MicroPython keeps no const names: nothing to compare
        if mine is not None:
            assert mine == getattr(R, name), name


def test_records_round_trip_to_events():
    recs = [
        (bytes((R.PEG, 1, 12, WHYS.index("hand"))), {"t": "peg", "s": 1, "n": 12, "why": "hand"}),
        (bytes((R.FIX, 0, 128 - 3)), {"t": "fix", "s": 0, "n": -3}),
        (bytes((R.LAY, 1, 17, R.NONE, 2)), {"t": "lay", "p": 1, "c": 17, "n": 2}),
        (bytes((R.LAY, 1, 17, 0, 2)), {"t": "lay", "p": 1, "c": 17, "claim": 0, "n": 2}),
        (bytes((R.GO, 0, 1, 1)), {"t": "go", "p": 0, "s": 1, "n": 1}),
        (bytes((R.GO, 0, R.NONE, 0)), {"t": "go", "p": 0, "n": 0}),
        (
            bytes([R.SHOW, 1, KINDS.index("crib"), 8, R.NONE, 1, 2, 3, 4]),
            {"t": "show", "s": 1, "k": "crib", "cards": [1, 2, 3, 4], "n": 8},
        ),
        (bytes((R.CUT, 9, 40)), {"t": "cut", "cards": [9, 40]}),
        (bytes((R.DEALER, 1)), {"t": "dealer", "p": 1}),
        (bytes((R.STARTER, 42)), {"t": "starter", "c": 42}),
        (bytes((R.MUG, 0, 3)), {"t": "muggins", "s": 0, "n": 3}),
        (bytes((R.DEAL,)), {"t": "deal"}),
        (bytes((R.GAME,)), {"t": "game"}),
        (bytes((R.END,)), {"t": "end"}),
    ]
    for rec, ev in recs:
        assert R.rec_len(rec, 0, 2, 4) == len(rec), ev
        assert R.event_of(rec, 0, 2, 4) == ev


def test_log_chunks_never_split_a_record():
    log = R.Log()
    show = bytes([R.SHOW, 1, 0, 8, R.NONE, 1, 2, 3, 4])
    positions = []
    for k in range(100):
        rec = show if k % 3 == 0 else bytes((R.PEG, 0, k % 29, 0))
        b, i, p = log.append(rec)
        assert b[i] == rec[0] and log.at(p) == (b, i)
        assert i + len(rec) <= len(b)
        positions.append(p)
    assert len(log.chunks) > 1
    walked = [0]
    while True:
        q = log.after(walked[-1], 2, 4)
        if q >= log.end:
            break
        walked.append(q)
    assert walked == positions
    log.truncate(positions[60])
    assert log.end == positions[60] and log.after(positions[59], 2, 4) == positions[60]
    b, i, p = log.append(bytes((R.DEAL,)))
    assert p == positions[60]


def test_log_chunk_exactly_full():
    log = R.Log()
    size = len(log.chunks[0])
    for _ in range(size // 4):
        log.append(bytes((R.PEG, 0, 1, 0)))  # 4-byte records: the chunk is exactly full
    assert log.end == size and len(log.chunks) == 1
    b, i, p = log.append(bytes((R.DEAL,)))
    assert p == size and i == 0 and len(log.chunks) == 2
    assert log.after(size - 4, 2, 4) == size
