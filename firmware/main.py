# The Pico runs this file at boot, from source: it stays this small, and the composition root is
# start.py (compiled, and in flash with the rest of the firmware when the board has a ROM partition).
import sys

if sys.platform == "rp2":
    # The modules from one file (codefs.py: an import makes three lookups on littlefs, each a slow walk);
    # without a bundle they load one by one from littlefs, as before.
    try:
        import codefs

        codefs.mount("/app.bundle")
    except (ImportError, OSError, ValueError) as e:
        print("no code bundle: %r" % (e,))

from start import main  # noqa: E402

if sys.platform == "rp2":
    main([])
else:
    code = main(sys.argv[1:])
    if code:
        sys.exit(code)
