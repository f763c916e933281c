# Runs the plain test_* functions of test files on MicroPython. Given tests/ (or a subject folder), it runs
# the files marked with MARK, which pytest runs too; a file named test_*_mp.py is MicroPython-only and is
# given by its path, one file an interpreter (`make test-mp`).
import os
import sys

try:
    import gc
except ImportError:  # pragma: no cover
    gc = None


def _here():
    path = __file__ if "/" in __file__ else "./" + __file__
    return path.rsplit("/", 1)[0]


MARK = "# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py)."


def _marked(path):
    with open(path) as f:
        return f.readline().rstrip() == MARK


def _test_files(target):
    if target.endswith(".py"):
        return [target]
    found = []
    for name in sorted(os.listdir(target)):
        path = target + "/" + name
        if name.startswith("test_") and name.endswith(".py"):
            if not name.endswith("_mp.py") and _marked(path):
                found.append(path)
        elif "." not in name and name not in ("support", "device"):
            try:
                found.extend(_test_files(path))
            except OSError:  # not a folder
                pass
    return found


def run(targets):
    root = _here() + "/.."
    # tests/ off the path: MicroPython takes any folder for a package, and tests/board would hide board.
    for p in [p for p in sys.path if p.rstrip("/").endswith("/tests") or p == "tests"]:
        sys.path.remove(p)
    for extra in (root + "/firmware", root + "/tests/support", root):  # root: sim/, verify/
        if extra not in sys.path:
            sys.path.append(extra)
    passed = failed = 0
    for path in [f for t in targets for f in _test_files(t)]:
        folder, name = path.rsplit("/", 1)
        if folder not in sys.path:
            sys.path.insert(0, folder)
        mod_name = name[:-3]
        try:
            module = __import__(mod_name)
        except Exception as e:  # a file that does not import is a failure, not a skip
            print("FAIL", path, "(import)")
            sys.print_exception(e)
            failed += 1
            continue
        for attr in sorted(dir(module)):
            fn = getattr(module, attr)
            if not attr.startswith("test_") or not callable(fn):
                continue
            try:
                fn()
                passed += 1
            except Exception as e:
                failed += 1
                print("FAIL", path + "::" + attr)
                sys.print_exception(e)
            if gc:
                gc.collect()
        del sys.modules[mod_name]
    print("micropython: %d passed, %d failed" % (passed, failed))
    return failed


if __name__ == "__main__":
    args = sys.argv[1:] or [_here()]
    sys.exit(1 if run(args) else 0)
