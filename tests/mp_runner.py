# Runs the plain test_* functions of test files on MicroPython (pytest collects the same files).
import os
import sys

try:
    import gc
except ImportError:  # pragma: no cover
    gc = None


def _here():
    path = __file__ if "/" in __file__ else "./" + __file__
    return path.rsplit("/", 1)[0]


def _test_files(target):
    if target.endswith(".py"):
        return [target]
    names = sorted(n for n in os.listdir(target) if n.startswith("test_") and n.endswith(".py"))
    return [target + "/" + n for n in names]


def run(targets):
    root = _here() + "/.."
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
    args = sys.argv[1:] or [_here() + "/both"]
    sys.exit(1 if run(args) else 0)
