# The simulator: the firmware's HAL on the MicroPython unix port (terminal drawing, scripts, a littlefs
# file). It lives outside firmware/, so nothing here is ever deployed (firmware/manifest.py).
