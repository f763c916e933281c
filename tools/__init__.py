# The developer tools, run from the checkout as `python -m tools.NAME`: build (the firmware compiled as
# the Pico runs it), deploy (make deploy), emupico (the emulated Pico of make test-device), unixport
# (MicroPython's unix port and the path a program there imports from), gen/ (the generators of
# committed firmware tables). They run the firmware's own modules on CPython (the board file's checks,
# the journal's and the bundle's formats), so firmware/ goes on the path here, once, for every tool, as
# pyproject.toml's pythonpath puts it there for pytest.
import os
import sys

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
