# Freezes the board firmware into a MicroPython build, for people who build their own: the modules then run
# from flash (bytecode, strings and tables), as a ROMFS image does on a board with a ROM partition.
# From a micropython checkout (docs/memory.md):
#   make -C ports/rp2 submodules
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/cribboard/firmware/manifest.py
# Flash build-RPI_PICO/firmware.uf2, then `make deploy`: it finds the modules frozen in and copies only
# main.py (run from littlefs at boot), board.json and its cache.
# This file is the single list of what ships: tools/build.py reads it for `make deploy` and `make sim`,
# and everything under firmware/ is in it (tests/house/test_layers.py). The simulator lives outside
# firmware/ (sim/), so it can never be deployed.
# The manifest's own functions (metadata, include, require, package, module) are given by the build:
# ruff: noqa: F821
# pyright: reportUndefinedVariable=false
metadata(description="cribboard: the firmware of an electronic cribbage board", version="0.1.0")

include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules (asyncio, ...)
require("ssd1306")  # micropython-lib's display driver (what `make deploy` installs with mip)
package("cribbage")
package("board")
package("hal")
module("start.py")
module("codefs.py")  # main.py looks for a code bundle first; frozen, it finds none and carries on
