# `make bench`: run every bench/bench_*.py with this CPython, print each report, then a summary.
"""Usage: python -m bench.run [NAME ...]   (NAME picks bench_NAME.py; default: all of them)

Each bench prints its own report (and spawns MicroPython itself when it measures it), a missed goal
as GOAL MISSED with its figures (exit 0). A bench that exits non-zero crashed: it is listed at the end
and makes this exit 1.
"""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def benches(names):
    found = sorted(n for n in os.listdir(HERE) if n.startswith("bench_") and n.endswith(".py"))
    if not names:
        return found
    wanted = ["bench_%s.py" % n.removeprefix("bench_").removesuffix(".py") for n in names]
    missing = [w for w in wanted if w not in found]
    if missing:
        raise SystemExit("no such bench: %s (have: %s)" % (", ".join(missing), ", ".join(found)))
    return wanted


def main(argv):
    results = []
    for name in benches(argv):
        print("=== %s" % name, flush=True)
        t0 = time.perf_counter()
        code = subprocess.call([sys.executable, "-m", "bench." + name[:-3]], cwd=ROOT)
        results.append((name, code, time.perf_counter() - t0))
        print(flush=True)
    print("=== summary")
    for name, code, secs in results:
        print("  %-24s %s  (%.1f s)" % (name, "ok" if code == 0 else "FAILED (exit %d)" % code, secs))
    return 1 if any(code for _n, code, _s in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
