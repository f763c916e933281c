# The hardware abstraction: rp2.py on the Pico, sim.py on the unix port (the contract: docs/hal.md).
