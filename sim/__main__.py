# `python -m sim` (make sim, crib sim): the launcher, sim/launch.py, with the command line's options.
import sys

from sim.launch import main

main(sys.argv[1:])
