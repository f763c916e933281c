# The hardware abstraction: rp2.py on the Pico, sim.py on the unix port (team.md, "HAL contract").
