# pytest configuration shared by every test folder; the fixtures of the laptop's tests.
import itertools
import os
import tempfile

import pgserver
import pytest

# Hypothesis: deterministic and bounded, so `make test` stays fast and repeatable in CI.
from hypothesis import settings

settings.register_profile("ci", max_examples=300, deadline=None, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# test_*_mp.py files are MicroPython-only (littlefs, heap_lock): `make test-mp` runs each in a fresh
# interpreter. device/ is `make test-device`'s (no test_*.py there).
collect_ignore = ["mp_runner.py"]
collect_ignore_glob = ["*/*_mp.py"]

_names = itertools.count(1)

# crib's board hubs (crib/link/share.py) in a runtime folder of this test run's own, never the user's: a
# test's crib must not join a hub a `make sim` of the user's, or another test run, has open.
os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="crib-rt-")


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the session; missing, the tests fail saying how to get it (never skip)."""
    try:
        server = pgserver.Server()
    except pgserver.Missing as e:
        pytest.fail(str(e))
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def history_db(request, tmp_path):
    """The same test on a SQLite file and on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "history.sqlite3")
    return request.getfixturevalue("pg_server").database("crib_test_%d" % next(_names))
