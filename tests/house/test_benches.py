# Every benchmark still finds what it measures after code moves: `make bench` is not part of `make test`,
# so a bench importing a module from where it used to be would go unnoticed until someone runs it.
import importlib
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCHES = sorted(
    n[:-3] for n in os.listdir(os.path.join(ROOT, "bench")) if n.startswith("bench_") and n.endswith(".py")
)


@pytest.mark.parametrize("name", BENCHES)
def test_each_bench_imports(name):
    module = importlib.import_module("bench." + name)
    assert callable(getattr(module, "main", None)), "bench/%s.py has no main()" % name


def test_the_serve_bench_runs_the_server_crib_has():
    from bench import bench_serve

    assert callable(importlib.import_module(bench_serve.SERVE).serve)
