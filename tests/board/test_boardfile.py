# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The board file: the reference validates, and each kind of mistake is refused naming the field.
from fakehal import remove_tree, scratch_dir

from board.boarddef import boardcache, boardfile
from board.boarddef.boardfile import KEYS, BoardFileError, load, read
from check import message, raises

SWEEP = 300  # board-file mutations in the sweep (issue 9: 300)


def _path():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    return here + "/../../hardware/board.json"


def _refused(mutate):
    raw = read(_path())
    mutate(raw)
    return message(raises(BoardFileError, load, raw))


def test_reference_validates():
    b = load(_path())
    assert b.sides == 3
    assert b.led_count == sum(b.wiring.led_chains) == 397
    assert b.wiring.led_chain_start == [0, 133, 265]
    assert len(b.wiring.led_pins) == len(b.wiring.led_chains)
    assert b.record_count == 9
    assert len(b.key_names) == len(b.wiring.key_rows) * len(b.wiring.key_cols) == 20
    assert sorted(n for n in b.key_names if n) == sorted(KEYS)
    assert b.sensor_bits == b.wiring.sensor_chips * 8 == 384
    assert b.wiring.display["address"] == 0x3C and b.wiring.display["width"] == 128
    assert len(b.colours) == 3 and len(b.colours[0]) == 3
    assert 1 <= b.brightness <= 255


def test_every_hole_has_one_led_and_one_sensor():
    b = load(_path())
    leds = [b.led_game] + b.led_dealer
    bits = [b.sensor_game]
    for s in range(b.sides):
        leds += list(b.led_track[s]) + list(b.led_start[s]) + list(b.led_record[s])
        bits += list(b.sensor_track[s]) + list(b.sensor_start[s])
        assert len(b.led_track[s]) == len(b.sensor_track[s]) == 120
    assert sorted(leds) == list(range(b.led_count))
    assert len(set(bits + [bit for bit, _ in b.wiring.sensor_fixed])) == len(bits) + len(
        b.wiring.sensor_fixed
    )
    assert max(bits) < b.sensor_bits


def test_loading_a_dict_names_board_json():
    b = load(read(_path()))
    assert b.led_game == b.led_track[0][-1] + 1


def test_positions_follow_the_legs():
    b = load(_path())
    lay = b.layout
    x1, y1 = b.position("track", 0, 1)
    x2, _ = b.position("track", 0, 2)
    x6, _ = b.position("track", 0, 6)
    assert x2 - x1 == lay["pitch"]
    assert x6 - x1 == 5 * lay["pitch"] + lay["group_gap"]
    # the second leg runs back the other way
    assert b.position("track", 0, 32)[0] < b.position("track", 0, 31)[0]
    assert b.position("track", 1, 1)[1] - y1 == lay["lane_pitch"]


def test_led_used_twice_names_both_fields():
    def m(raw):
        raw["leds"]["track"][1][37] = raw["leds"]["track"][0][5]

    msg = _refused(m)
    assert msg.startswith("board.json: leds.track[1][37]: LED 17 used twice"), msg
    assert "leds.track[0][5]" in msg


def test_led_beyond_chain():
    def m(raw):
        raw["leds"]["game"] = 397

    msg = _refused(m)
    assert "leds.game" in msg and "beyond the chain" in msg, msg


def test_chain_too_long_leaves_unmapped_leds():
    def m(raw):
        raw["leds"]["chains"][2] += 1

    assert "leds.chains" in _refused(m)


def test_pin_used_twice():
    def m(raw):
        raw["pins"]["key_cols"][2] = 7

    msg = _refused(m)
    assert "pins.key_cols[2]" in msg and "used twice" in msg and "pins.key_rows[1]" in msg, msg


def test_pin_not_on_the_header():
    def m(raw):
        raw["pins"]["led_power"] = 25

    assert "pins.led_power" in _refused(m)


def test_pin_wrong_bus_function():
    def m(raw):
        raw["pins"]["display_sda"] = 5

    assert "pins.display_sda" in _refused(m)


def test_hole_with_no_led():
    def m(raw):
        raw["leds"]["track"][2].pop()

    msg = _refused(m)
    assert "leds.track[2]" in msg and "120" in msg, msg


def test_hole_with_no_sensor():
    def m(raw):
        del raw["sensors"]["game"]

    assert "sensors.game: missing" in _refused(m)


def test_sensor_bit_twice_and_beyond():
    def twice(raw):
        raw["sensors"]["start"][1][0] = raw["sensors"]["track"][0][0]

    msg = _refused(twice)
    assert "sensors.start[1][0]" in msg and "used twice" in msg and "sensors.track[0][0]" in msg, msg

    def beyond(raw):
        raw["sensors"]["track"][2][119] = 384

    msg = _refused(beyond)
    assert "sensors.track[2][119]" in msg and "beyond" in msg, msg


def test_unknown_and_missing_keys():
    def unknown(raw):
        raw["keys"]["names"][0][0] = "ACE"

    msg = _refused(unknown)
    assert "keys.names[0][0]" in msg and "unknown key" in msg, msg

    def missing(raw):
        raw["keys"]["names"][2][3] = None

    assert "'MENU' is missing" in _refused(missing)

    def twice(raw):
        raw["keys"]["names"][2][3] = "OK"

    assert "keys.names[3][4]" in _refused(twice)


def test_wrong_lengths_and_types():
    def short_row(raw):
        raw["keys"]["names"][1] = raw["keys"]["names"][1][:4]

    assert "keys.names[1]" in _refused(short_row)

    def bad_type(raw):
        raw["leds"]["track"][0][3] = "15"

    assert "leds.track[0][3]: must be a whole number" in _refused(bad_type)

    def bool_pin(raw):
        raw["pins"]["sensor_latch"] = True

    assert "pins.sensor_latch" in _refused(bool_pin)

    def colour(raw):
        raw["sides"]["colours"][1] = [0, 300, 0]

    assert "sides.colours[1][1]" in _refused(colour)


def test_power_budget_must_cover_idle_draw():
    def m(raw):
        raw["power"]["budget_ma"] = 300

    msg = _refused(m)
    assert "power.budget_ma" in msg and "idle" in msg, msg


def test_missing_section_and_bad_file():
    def m(raw):
        del raw["display"]

    assert _refused(m) == "board.json: display: missing"
    assert "cannot read" in message(raises(BoardFileError, load, "/nonexistent/board.json"))


def _write_cache(folder, board, crc, size):
    import json

    path = folder + "/board.cache"
    with open(path, "w") as f:
        f.write(json.dumps(boardcache.cache_dict(board, crc, size)))
    return path


def test_a_cache_of_the_checked_file_gives_the_same_board():
    checked = load(_path(), layout=False)
    crc, size = boardcache.file_crc(_path())
    folder = scratch_dir()
    try:
        b = boardcache.from_cache(_write_cache(folder, checked, crc, size), crc, size)
        assert b is not None
        for name in boardcache.ATTRS:  # the Board's own, and its wiring's
            got, want = (b.wiring, checked.wiring) if hasattr(b.wiring, name) else (b, checked)
            assert getattr(got, name) == getattr(want, name), name
        assert not [name for name in boardcache.ATTRS if hasattr(b, name) == hasattr(b.wiring, name)]
        assert type(b.led_track[0]) is type(checked.led_track[0]) and type(b.colours[0]) is tuple
        assert b.key_names[b.key_names.index("MENU")] is KEYS[KEYS.index("MENU")]  # interned, not a copy
        assert b.layout is None
    finally:
        remove_tree(folder)


def test_a_cache_of_another_file_or_a_broken_one_is_not_used():
    checked = load(_path(), layout=False)
    crc, size = boardcache.file_crc(_path())
    folder = scratch_dir()
    try:
        path = _write_cache(folder, checked, crc, size)
        assert boardcache.from_cache(path, crc ^ 1, size) is None  # the board file was edited
        assert boardcache.from_cache(path, crc, size + 1) is None
        assert boardcache.from_cache(folder + "/none.cache", crc, size) is None
        with open(path, "w") as f:
            f.write('{"v": 1, "crc": %d, "size": %d, "sides": 3}' % (crc, size))  # fields missing
        assert boardcache.from_cache(path, crc, size) is None
        with open(path, "w") as f:
            f.write("{not json")
        assert boardcache.from_cache(path, crc, size) is None
    finally:
        remove_tree(folder)


def test_cache_sits_beside_the_board_file():
    assert boardcache.cache_path("/board.json") == "/board.cache"
    assert boardcache.cache_path("x/my.board") == "x/my.board.cache"


# ---- issue 9, item 10: every bad board file refused naming the field, never a traceback ----------


def _write(data):
    from boardmutate import write

    folder = scratch_dir()
    path = folder + "/board.json"
    write(path, data if isinstance(data, list) else [data])
    return folder, path


def _file_refused(data):
    folder, path = _write(data)
    try:
        return message(raises(BoardFileError, load, path))
    finally:
        remove_tree(folder)


def _ref_bytes():
    with open(_path(), "rb") as f:
        return f.read()


def test_pins_of_another_type_are_refused_naming_pins():
    """pins null, a number or a list gave a TypeError traceback."""
    for v in (None, 7, [1, 2], "GP2"):

        def m(raw, v=v):
            raw["pins"] = v

        msg = _refused(m)
        assert msg.startswith("board.json: pins: must be an object"), msg
    for role, v in (("sensor_mosi", [19]), ("led_data", 2), ("key_rows", None), ("display_sda", "20")):

        def m(raw, role=role, v=v):
            raw["pins"][role] = v

        msg = _refused(m)
        assert msg.startswith("board.json: pins." + role + ": must be a"), msg


def test_infinity_and_huge_numbers_are_refused_naming_the_field():
    """1e400 read as infinity passed the checks and crashed the power budget (OverflowError) or
    the sim's drawing (NaN)."""
    ref = _ref_bytes()
    for old, new, field in (
        (b'"supply_ma": 3000', b'"supply_ma": 1e400', "power.supply_ma"),
        (b'"mcu_ma": 50', b'"mcu_ma": -1e400', "power.mcu_ma"),
        (b'"pitch": 8.0', b'"pitch": 1e400', "layout.pitch"),
        (b'"hole_d": 4.0', b'"hole_d": 1e300', "layout.hole_d"),
        (b'"mcu_ma": 50', b'"mcu_ma": ' + b"9" * 400, "power.mcu_ma"),
    ):
        assert old in ref
        msg = _file_refused(ref.replace(old, new, 1))
        assert msg.startswith("board.json: " + field + ": "), msg
        assert len(msg) < 120, msg  # the value is not repeated whole
    for v in (float("inf"), float("-inf"), float("nan")):

        def m(raw, v=v):
            raw["layout"]["legs"][1]["x"] = v

        assert _refused(m).startswith("board.json: layout.legs[1].x: "), v


def test_lax_json_is_refused():
    """MicroPython's json read leading zeros and trailing commas (and {"a" 1}, [1 2])."""
    ref = _ref_bytes()
    for old, new in (
        (b'"brightness": 96', b'"brightness": 096'),
        (b'"format": 1', b'"format": 01'),
        (b'"game": 132', b'"game": 132,'),
        (b"[6, 7, 8, 9]", b"[6, 7, 8, 9,]"),
        (b"[6, 7, 8, 9]", b"[6 7, 8, 9]"),
        (b'"brightness": 96', b'"brightness" 96'),
    ):
        assert old in ref
        msg = _file_refused(ref.replace(old, new, 1))
        assert msg.startswith("board.json: not valid JSON ("), msg


def test_a_file_too_large_deep_or_long_is_refused_as_such():
    """A string far past the size checked, a huge array or 20,000-deep nesting gave a MemoryError naming
    nothing. (Four times the limit: the test's own copy must fit the shared MicroPython run's heap.)"""
    ref = _ref_bytes()
    big = ref.replace(b'"cribboard reference', b'"' + b"x" * (4 * boardfile.MAX_BYTES), 1)
    msg = _file_refused(big)
    assert msg.startswith("board.json: too large to check (") and str(len(big)) in msg, msg
    msg = _file_refused(ref.replace(b'"brightness": 96', b'"brightness": ' + b"[" * 20000 + b"]" * 20000, 1))
    assert msg.startswith("board.json: "), msg  # too large, before any nesting is read
    msg = _file_refused(ref.replace(b'"brightness": 96', b'"brightness": ' + b"[" * 40 + b"]" * 40, 1))
    assert msg.startswith("board.json: not valid JSON (nested deeper"), msg

    def long_name(raw):
        raw["name"] = "x" * (4 * boardfile.MAX_BYTES)

    assert _refused(long_name) == "board.json: name: longer than 64 characters"

    def many_chains(raw):
        raw["leds"]["chains"] = [1000] * 30000
        raw["pins"]["led_data"] = list(range(30000))

    msg = _refused(many_chains)
    assert msg.startswith("board.json: pins.led_data"), msg


def test_board_file_mutations_are_refused_or_sane():
    """A sweep of mutated board files (in bytes and in fields): each is refused with a
    BoardFileError or gives a board whose numbers are all finite; never another exception."""
    from boardmutate import Rng, mutate_dict, mutate_text, sane

    ref = _ref_bytes()
    rng = Rng(2026)
    refused = accepted = 0
    for i in range(SWEEP):
        if i % 2:
            raw = read(_path())
            what = mutate_dict(raw, rng)
            try:
                b = load(raw)
            except BoardFileError as e:
                assert message(e).startswith("board.json: "), (what, message(e))
                refused += 1
                continue
        else:
            data, what = mutate_text(ref, rng)
            folder, path = _write(data)
            try:
                b = load(path)
            except BoardFileError as e:
                assert message(e).startswith("board.json: "), (what, message(e))
                refused += 1
                continue
            finally:
                remove_tree(folder)
        assert sane(b), what
        accepted += 1
    assert refused + accepted == SWEEP and refused > SWEEP // 2


def test_a_piezo_is_optional_and_its_pin_checked_like_any_other():
    assert load(_path()).wiring.piezo_pin is None  # the reference board has none: no sound
    raw = read(_path())
    raw["pins"]["piezo"] = 22
    assert load(raw).wiring.piezo_pin == 22

    def taken(raw):
        raw["pins"]["piezo"] = raw["pins"]["led_power"]

    def off_header(raw):
        raw["pins"]["piezo"] = 25

    msg = _refused(taken)
    assert "pins.piezo" in msg and "used twice" in msg, msg
    assert "pins.piezo" in _refused(off_header)
