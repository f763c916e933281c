# The 11-word frame rule (docs/memory.md "Hot functions keep their frame off the heap"), enforced: a
# MicroPython function whose frame passes 11 words allocates it on the heap at every call. Every function
# declared hot below is read from mpy-cross's output (bench/frames.py's method) and must stay within 11
# words; the few hot-path functions that are over it today are held to their present size, so none grows.
import os

from bench import frames

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# file -> the functions called for every record, frame or scan (the boot replay's fold and the
# validator's shortcut, the journal's append, the LED frame, the key and sensor scans, the fast show total).
HOT = {
    "firmware/cribbage/fold.py": (
        "_do",
        "_do_lay",
        "_do_go",
        "_do_show",
        "_do_starter",
        "_score",
        "_claimed",
        "_show_order",
        "_new_deal",
        "play",
    ),
    "firmware/cribbage/checks.py": (
        "journaled",
        "_lay_journaled",
        "_go_journaled",
        "_show_journaled",
        "_show_fits",
        "_starter_journaled",
        "_ints",
        "_closed",
        "_not_in_play",
        "_not_turn",
        "_not_countable",
        "_no_starter",
        "_seen_in_deal",
        "_shown_twice",
    ),
    "firmware/cribbage/game.py": ("apply",),
    "firmware/cribbage/records.py": ("add", "rec_len"),
    "firmware/cribbage/showtotal.py": ("show_total", "score_total"),
    "firmware/board/store/journal.py": ("_encode", "_sync"),
    "firmware/cribbage/journal.py": ("payload_of", "record"),
    "firmware/board/render/__init__.py": ("put", "hole_led", "front", "peg", "update"),
    "firmware/board/render/power.py": ("limit",),  # once a frame (issue 15: not over 11 with its bound n)
    "firmware/board/edges/__init__.py": ("make", "put", "get"),
    "firmware/board/ticks.py": ("diff", "add"),
    "firmware/board/store/commit.py": ("replay",),
}
# Hot-path functions over the rule today, each held to its present size (words), and why it is over.
OVER = {
    ("firmware/board/store/journal.py", "replay"): 31,  # once a boot: the loop over every record, two trys
    ("firmware/board/render/__init__.py", "_draw"): 19,  # once a changed frame, not once an LED
    ("firmware/board/render/__init__.py", "put_side"): 12,  # once a lit peg (a few a frame), not once an LED
    ("firmware/board/edges/keys.py", "update"): 15,  # once a scan; the loop over keys is inside it
    ("firmware/board/edges/sensors.py", "update"): 25,  # once a scan; the loop over sensor bytes is inside it
}


def _names(path):
    """{function name: words} of a file. MicroPython names some functions with its own built-in strings
    (update, __init__, get, put...): those are told apart by compiling a file that defines them."""
    out = {}
    for name, n_state, n_exc in frames.frames(os.path.join(ROOT, path)):
        w = frames.words(n_state, n_exc)
        out[name] = max(w, out.get(name, 0))
    return out


_builtin = {}


def _key(name, tmp):
    """How frames() names a function called `name`: itself, or "<built-in name N>"."""
    if name not in _builtin:
        probe = os.path.join(tmp, "probe_%s.py" % name)
        with open(probe, "w") as f:
            f.write("def %s():\n    pass\n" % name)
        _builtin[name] = frames.frames(probe)[0][0]
    return _builtin[name]


def test_hot_functions_keep_their_frame_within_11_words(tmp_path):
    over = []
    for path, names in HOT.items():
        found = _names(path)
        for name in names:
            key = _key(name, str(tmp_path))
            assert key in found, "%s: no function %s (renamed? update HOT)" % (path, name)
            if found[key] > frames.STACK_WORDS:
                over.append("%s %s: %d words" % (path, name, found[key]))
    assert over == [], "frames on the heap at every call (docs/memory.md): %s" % over


def test_the_hot_functions_over_the_rule_do_not_grow(tmp_path):
    grown = []
    for (path, name), allowed in OVER.items():
        key = _key(name, str(tmp_path))
        words = _names(path).get(key)
        assert words is not None, "%s: no function %s (update OVER)" % (path, name)
        if words > allowed:
            grown.append("%s %s: %d words, was %d" % (path, name, words, allowed))
    assert grown == []


def test_the_frame_reader_sees_a_big_frame():
    """The method itself: a function with 12 locals is read as over the rule, one with 2 is not."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "f.py")
        with open(path, "w") as f:
            f.write(
                "def small(a):\n    b = a\n    return b\n\n"
                "def big(a):\n"
                + "".join("    v%d = a + %d\n" % (i, i) for i in range(12))
                + "    return v0 + v11\n"
            )
        got = {n: frames.words(s, e) for n, s, e in frames.frames(path)}
    assert got["small"] <= frames.STACK_WORDS < got["big"]
