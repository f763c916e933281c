# pytest configuration shared by every test folder.
import os

# Hypothesis: deterministic and bounded, so `make test` stays fast and repeatable in CI.
from hypothesis import settings

settings.register_profile("ci", max_examples=300, deadline=None, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# tests/mp holds MicroPython-only tests (littlefs, heap_lock): `make test-mp` runs them there.
collect_ignore = ["mp", "mp_runner.py"]
