# Record-type values live in one place (cribbage/records.py, issue 10 item 4); the const copies the fold and
# the boot replay's shortcut need are written by tools/gen/records.py and must be up to date.
from tools.gen import records as gen_records


def test_the_const_copies_are_written_from_records_py():
    assert gen_records.main(["--check"]) == 0, "run: python -m tools.gen.records"


def test_a_changed_value_makes_the_copies_stale():
    found = gen_records.values()
    assert found["LAY"] == 7 and found["NONE"] == 255 and len(found) == 18  # NAME, ADVICE, SOLO, SHIFT, MASK
    assert found["MASK"] == (1 << found["SHIFT"]) - 1  # the log's chunk arithmetic
    changed = dict(found, LAY=99)
    for rel, names in gen_records.USERS.items():
        path = gen_records.os.path.join(gen_records.ROOT, rel)
        with open(path) as f:
            now = f.read()
        assert gen_records.updated(path, names, found) == now
        if "LAY" in names:
            assert "_LAY = const(99)" in gen_records.updated(path, names, changed)
    changed = dict(found, NAME=99)  # the name record (private in records.py) is copied to checks.py too
    path = gen_records.os.path.join(gen_records.ROOT, "firmware/cribbage/checks.py")
    assert "_NAME = const(99)" in gen_records.updated(
        path, gen_records.USERS["firmware/cribbage/checks.py"], changed
    )
