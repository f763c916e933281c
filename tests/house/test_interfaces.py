# Every stand-in against the interface it stands in for: the HALs (hal.rp2 on tests/support/rp2fakes.py,
# the simulator's sim.hal on MicroPython, tests/support/fakehal.py) against firmware/hal/interface.pyi,
# the one written interface; the link tests' settings (tests/support/linkfakes.py) against
# board.settings.Settings. Each member the interface names must be there, a method callable with the
# interface's arguments.
import ast
import inspect
import json
import os
import subprocess

from boards import MICROPYTHON, ROOT

from tools import unixport

STUB = os.path.join(ROOT, "firmware", "hal", "interface.pyi")
OPTIONAL = "Extras"  # the stub's class of what a HAL may leave out


def interface():
    """The stub read as {protocol: {member: (kind, detail)}}: ("part", protocol), ("attr", None) or
    ("method", (arguments it must accept at least, at most)), self not counted."""
    with open(STUB) as f:
        tree = ast.parse(f.read(), STUB)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    names = {c.name for c in classes}
    protos = {}
    for c in classes:
        members = {}
        for item in c.body:
            if isinstance(item, ast.FunctionDef):
                n = len(item.args.args) - 1
                members[item.name] = ("method", (n - len(item.args.defaults), n))
            elif isinstance(item, ast.AnnAssign):
                kind = ast.unparse(item.annotation)
                members[item.target.id] = ("part", kind) if kind in names else ("attr", None)
        protos[c.name] = members
    return protos


PROTOS = interface()


def _inspected(obj, name):
    """(fewest, most) positional arguments the bound method obj.name takes."""
    params = inspect.signature(getattr(obj, name)).parameters.values()
    pos = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    most = 99 if any(p.kind == p.VAR_POSITIONAL for p in params) else len(pos)
    return len([p for p in pos if p.default is p.empty]), most


def problems(obj, proto, where, arity=_inspected):
    """What obj lacks of the protocol proto (recursively for its parts), as readable lines."""
    out = []
    for name, (kind, detail) in PROTOS[proto].items():
        path = where + "." + name
        if not hasattr(obj, name):
            if proto != OPTIONAL:
                out.append(path + ": missing")
            continue
        value = getattr(obj, name)
        if kind == "part":
            out += problems(value, detail, path, arity)
        elif kind == "attr":
            if callable(value):
                out.append(path + ": a method, where the interface has a value")
        elif not callable(value):
            out.append(path + ": not callable")
        else:
            least, most = arity(obj, name)
            need, take = detail
            if least > need or most < take:
                out.append(
                    "%s: takes %d to %d arguments, the interface %d to %d" % (path, least, most, need, take)
                )
    return out


def test_the_stub_reads_as_an_interface():
    # The reading above is what the checks below trust: a stub it misread would check nothing.
    hal = PROTOS["Hal"]
    assert hal["leds"] == ("part", "Leds") and hal["link"] == ("part", "Link")
    assert hal["ticks_diff"] == ("method", (2, 2)) and hal["close"] == ("method", (0, 1))
    assert PROTOS["Link"]["session"] == ("attr", None)
    assert set(PROTOS[OPTIONAL]) == {"exit_code", "time", "heap_seen"}


def test_a_hal_missing_a_member_or_taking_other_arguments_is_named():
    class Leds:
        def write(self, frame, extra):
            pass

    class Half:
        leds = Leds()
        storage_dir = "/data"

        def ticks_ms(self):
            return 0

    got = problems(Half(), "Hal", "hal")
    assert "hal.leds.write: takes 2 to 2 arguments, the interface 1 to 1" in got
    assert "hal.keys: missing" in got and "hal.ticks_diff: missing" in got
    assert not [line for line in got if line.startswith(("hal.storage_dir", "hal.ticks_ms", "hal.time"))]


def test_the_picos_hal_on_the_fakes_of_its_chips():
    import rp2fakes

    hal = rp2fakes.reference_hal()[0]
    try:
        assert problems(hal, "Hal", "hal.rp2") == []
        assert problems(hal, OPTIONAL, "hal.rp2") == []
        assert problems(hal.watchdog(8000), "Watchdog", "hal.rp2.watchdog()") == []
    finally:
        rp2fakes.uninstall()


def test_the_tests_fake_hal():
    import board_fixture
    import fakehal

    hal = fakehal.make(board_fixture.reference())
    try:
        assert problems(hal, "Hal", "fakehal") == []
        assert problems(hal, OPTIONAL, "fakehal") == []
        assert problems(hal.watchdog(8000), "Watchdog", "fakehal.watchdog()") == []
    finally:
        fakehal.remove_tree(hal.storage_dir)


# The simulator's HAL runs on MicroPython only (littlefs, ticks): it is made there, headless, and what
# each member of the interface is comes back as JSON, the methods' arguments read from sim/'s source.
_SIM = r"""
import json, sys
import board_fixture
from sim import hal as simhal, parts

with open(sys.argv[2]) as f:
    protos = json.load(f)
seen = {}

def walk(obj, proto, where):
    for name, (kind, detail) in protos[proto].items():
        path = where + "." + name
        has = hasattr(obj, name)
        value = getattr(obj, name) if has else None
        seen[path] = [has, callable(value), type(obj).__name__]
        if has and kind == "part":
            walk(value, detail, path)

options = simhal.parse_args(["--headless", "--data", sys.argv[1], "--fresh"])
hal = simhal.make(board_fixture.reference(), options)
try:
    walk(hal, "Hal", "sim")
    walk(hal, "Extras", "sim")
    walk(parts.SocketLink(0, hal.log), "Link", "sim.SocketLink")  # the link of a sim run with --link
    walk(hal.watchdog(8000), "Watchdog", "sim.watchdog()")
finally:
    hal.close()
print(json.dumps(seen))
"""


def _sim_sources():
    """{class name: {method: (fewest, most) arguments}} of the classes in sim/*.py."""
    classes = {}
    folder = os.path.join(ROOT, "sim")
    for path in [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".py")]:
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for c in [node for node in tree.body if isinstance(node, ast.ClassDef)]:
            methods = classes.setdefault(c.name, {})
            for item in c.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    a = item.args
                    n = len(a.args) - 1
                    methods[item.name] = (n - len(a.defaults), 99 if a.vararg else n)
    return classes


def test_the_simulators_hal(tmp_path):
    spec = tmp_path / "interface.json"
    spec.write_text(json.dumps(PROTOS))
    run = subprocess.run(
        [MICROPYTHON, "-c", _SIM, str(tmp_path), str(spec)],
        capture_output=True,
        text=True,
        timeout=120,
        env=unixport.env(unixport.FIRMWARE, unixport.SUPPORT, ROOT),  # ROOT: the sim package
    )
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    sources = _sim_sources()

    class Seen:
        """The MicroPython objects as the checker reads them: present, callable, their class's source."""

        def __init__(self, path):
            self.path = path

        def __getattr__(self, name):
            key = self.path + "." + name
            if key not in seen or not seen[key][0]:
                raise AttributeError(name)
            if seen[key][1]:
                return lambda *a: None
            return Seen(key)

    def arity(obj, name):
        cls = seen[obj.path + "." + name][2]
        return sources[cls][name]

    assert problems(Seen("sim"), "Hal", "sim", arity) == []
    assert problems(Seen("sim"), OPTIONAL, "sim", arity) == []
    assert problems(Seen("sim.SocketLink"), "Link", "sim.SocketLink", arity) == []
    assert problems(Seen("sim.watchdog()"), "Watchdog", "sim.watchdog()", arity) == []
    assert seen["sim.link.read_line"][2] == "NoLink" and seen["sim.leds.write"][2] == "SimLeds"


def test_the_link_tests_settings_are_the_boards_settings_in_shape():
    # tests/support/linkfakes.FakeSettings stands in for board.settings.Settings where the link reads and
    # changes the settings (Link's docstring: .values, .set(name, value, now)).
    import linkfakes

    from board.settings import Settings

    fake, real = linkfakes.FakeSettings(), Settings("/nonexistent/settings.json")
    for obj in (fake, real):
        assert isinstance(obj.values, dict)
        assert _inspected(obj, "set") == (2, 3), obj
    assert set(fake.values) <= set(real.values)
