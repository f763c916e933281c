# The developer tools, run from the checkout as `python -m tools.NAME`: build (the firmware compiled
# as the Pico runs it), deploy (make deploy), emupico (the emulated Pico of make test-device).
