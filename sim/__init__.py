# The simulator, `python -m sim`: the firmware's HAL on the MicroPython unix port (terminal drawing,
# scripts, a littlefs file), and the laptop's side that builds and starts it (launch.py, boot.py) and
# writes its scripts (keyscript.py, match3.py). It lives outside firmware/, so nothing here is ever
# deployed (firmware/manifest.py).
