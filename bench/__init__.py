# The benchmarks: make bench (python -m bench.run, every bench_*.py), make bench-device (bench.device),
# each also alone as `python -m bench.NAME`. A bench_*.py measures on CPython and runs its MicroPython
# half, an mp_*.py, on the unix port (tools/unixport.py gives that its path). They drive the firmware with
# the tests' fixtures: both folders go on the path here, once, as pyproject.toml's pythonpath puts them
# there for pytest.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (os.path.join(ROOT, "tests", "support"), os.path.join(ROOT, "firmware")):
    if _p not in sys.path:
        sys.path.insert(0, _p)
