# The dependency direction of the firmware and what ships, checked from the sources:
# the core imports nothing from the board or the HAL, the HAL nothing above it, the simulator's folder is
# never deployed, and firmware/manifest.py (the one list of what ships) holds everything under firmware/.
# The laptop's crib the same way: its command line on top, the link to a board and the store at the bottom.
import ast
import os

from tools import build

LAYERS = {"cribbage": 0, "hal": 0, "board": 1}  # a package may import its own layer's others only below it


def _imports(path):
    """Every module name a file imports, at any depth (imports inside functions count too)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
    return out


def _top(name):
    return name.split(".", 1)[0]


def _files(package):
    """Every module of the package, its sub-packages' too."""
    out = []
    for where, dirs, names in os.walk(os.path.join(build.FIRMWARE, package)):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += [os.path.join(where, n) for n in names if n.endswith(".py")]
    return sorted(out)


def test_the_core_imports_nothing_from_the_board_hal_or_sim():
    for path in _files("cribbage"):
        bad = [m for m in _imports(path) if _top(m) in ("board", "hal", "sim", "start")]
        assert bad == [], (path, bad)


def test_the_hal_imports_nothing_above_it():
    for path in _files("hal"):
        bad = [m for m in _imports(path) if _top(m) in ("board", "cribbage", "sim", "start")]
        assert bad == [], (path, bad)


def test_the_board_imports_no_simulator():
    for path in _files("board"):
        bad = [m for m in _imports(path) if _top(m) in ("sim", "start")]
        assert bad == [], (path, bad)


def test_only_the_composition_root_names_the_simulator():
    """start.py picks sim.hal off the Pico; no other shipped module knows the simulator exists."""
    named = []
    for rel in build.sources():
        if "sim" in [_top(m) for m in _imports(build.source_path(rel))]:
            named.append(rel)
    assert named == ["start.py"]


def test_everything_under_firmware_ships_and_nothing_of_the_simulator():
    shipped = build.sources()
    found = []
    for folder, dirs, names in os.walk(build.FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for n in names:
            rel = os.path.relpath(os.path.join(folder, n), build.FIRMWARE).replace(os.sep, "/")
            if n.endswith(".py") and rel not in ("main.py", "manifest.py"):
                found.append(rel)
    assert sorted(found) == shipped  # the manifest lists every module: one rule, one list
    assert not any(rel.startswith("sim/") for rel in shipped)
    assert not os.path.exists(os.path.join(build.FIRMWARE, "sim"))
    sim = [rel for rel in build.sources(sim=True) if rel not in shipped]
    assert "sim/hal.py" in sim and "sim/term.py" in sim  # built for `make sim`, and only there


def test_the_const_fallback_is_written_once():
    """MicroPython's const() for CPython is given in cribbage/__init__.py only: a module that uses it
    imports it from there (the HAL, which may not import the core, writes its numbers out)."""
    fallbacks, users, importers = [], set(), set()
    for rel in build.sources():
        path = build.source_path(rel)
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and "const" in [a.name for a in node.names]:
                if node.module == "micropython":
                    fallbacks.append(rel)
                elif node.module == "cribbage":
                    importers.add(rel)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "const":
                users.add(rel)
    assert fallbacks == ["cribbage/__init__.py"]
    assert len(users) > 10, users  # the walk saw the firmware's const() calls
    assert sorted(users - importers) == []  # each imports it, none defines its own
    assert not [rel for rel in users if rel.startswith("hal/")]


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def test_only_the_controller_writes_its_fields():
    """The menu, the advice, the play against the board, the link's table op and the display are handed
    the controller (`c`) to read and to ask (say, commit): none of them assigns to it, to its fields or
    to theirs (docs/design.md, the controller's contract)."""
    writes = []
    for name in ("controller/menu", "controller/advising", "controller/solo", "display", "link/table"):
        path = os.path.join(build.FIRMWARE, "board", name + ".py")
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef) or "c" not in [a.arg for a in fn.args.args]:
                continue
            for node in ast.walk(fn):
                targets = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                    targets = [node.target]
                elif isinstance(node, ast.Delete):
                    targets = node.targets
                writes += ["%s.%s:%d" % (name, fn.name, t.lineno) for t in targets if _root(t) == "c"]
    assert writes == []


CRIB = os.path.join(os.path.dirname(build.FIRMWARE), "host_tools", "crib")
# crib's packages, and those each may import: the command line over the web app and the history, over
# the link to a board and the store (the modules at crib's top are the shared helpers, free to all).
CRIB_MAY_IMPORT = {
    "cli": {"cli", "web", "history", "link", "store"},
    "web": {"web", "history", "link", "store"},
    "history": {"history", "link", "store"},
    "link": {"link"},
    "store": {"store"},
}


def _crib_uses(path):
    """The crib packages and modules a file imports: `from crib import club` counts as crib.club."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and _top(node.module) == "crib":
            parts = node.module.split(".")
            out |= {parts[1]} if len(parts) > 1 else {a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[1] for a in node.names if a.name.startswith("crib.")}
    return out


def test_crib_s_packages_import_only_downwards():
    seen = set()
    for folder, _dirs, names in os.walk(CRIB):
        rel = os.path.relpath(folder, CRIB)
        package = None if rel == "." else rel.split(os.sep)[0]
        for n in names:
            if not n.endswith(".py"):
                continue
            uses = _crib_uses(os.path.join(folder, n)) & set(CRIB_MAY_IMPORT)
            allowed = CRIB_MAY_IMPORT.get(package, set(CRIB_MAY_IMPORT) - {"cli"})
            assert uses <= allowed, (os.path.join(rel, n), sorted(uses - allowed))
            seen.add(package)
    assert set(CRIB_MAY_IMPORT) <= seen
