# The Pico runs this file at boot, from source: it stays this small, and the composition root is
# start.py (compiled, and in flash with the rest of the firmware when the board has a ROM partition).
import sys

from start import main

if sys.platform == "rp2":
    main([])
else:
    code = main(sys.argv[1:])
    if code:
        sys.exit(code)
