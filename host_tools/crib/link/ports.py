# Finding and opening the board's serial port the way mpremote does: auto, DEVICE, id:SERIAL, socket://.
import errno
import os
import socket
import sys

import serial
import serial.tools.list_ports

RASPBERRY_PI_VID = 0x2E8A  # Raspberry Pi's USB vendor id: every Pico running MicroPython uses it
BAUD = 115200  # ignored by USB CDC and by socket://, but pyserial wants one
SHORTCUTS = {"a": "/dev/ttyACM", "u": "/dev/ttyUSB", "c": "COM"}  # mpremote's a0, u0, c3
SIM_HOST = "127.0.0.1"
# The simulator's default link port (sim/hal.py) and the next ones, where a second and third sim's
# --link go: `crib ports` and `auto` look for simulators on all of them.
SIM_PORTS = tuple(range(7373, 7373 + 100))


class PortError(Exception):
    """The board cannot be reached; the message says why and what to do."""


def boards():
    """USB serial ports that look like a cribboard (a Pico), sorted by device name."""
    found = [p for p in serial.tools.list_ports.comports() if p.vid == RASPBERRY_PI_VID]
    return sorted(found, key=lambda p: p.device)


def listening(port, host=SIM_HOST):
    """True when something listens on host:port, found without connecting: the simulator takes a
    new connection as a new laptop and drops the one it had (a running `crib watch`). Binding the
    port with SO_REUSEADDR fails only while a socket listens on it (TIME_WAIT does not count)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if os.name != "nt":  # on Windows SO_REUSEADDR would bind over the listener
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, port))
    except OSError as e:
        return e.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", errno.EADDRINUSE))
    finally:
        s.close()
    return False


def simulators():
    """socket:// URLs of simulators running on this machine (on SIM_PORTS)."""
    return ["socket://%s:%d" % (SIM_HOST, port) for port in SIM_PORTS if listening(port)]


def describe(p):
    return "%s  serial %s  %04x:%04x  %s" % (
        p.device,
        p.serial_number or "-",
        p.vid or 0,
        p.pid or 0,
        p.product or p.description or "",
    )


def resolve(spec):
    """The device path or URL for a --port value; PortError when no board matches."""
    spec = (spec or "auto").strip()
    if spec == "auto":
        found = [p.device for p in boards()] + simulators()
        if not found:
            raise PortError(
                "no board found: plug the cribboard in over USB, or start the simulator "
                "(make sim); or give --port DEVICE, or socket://127.0.0.1:PORT"
            )
        if len(found) > 1:
            raise PortError(
                "%d boards found (%s): choose one with --port DEVICE, id:SERIAL or socket://..."
                % (len(found), ", ".join(found))
            )
        return found[0]
    if spec.startswith("id:"):
        want = spec[3:]
        for p in serial.tools.list_ports.comports():
            if p.serial_number == want:
                return p.device
        raise PortError("no board with serial number %s: `crib ports` lists the boards plugged in" % want)
    if spec.startswith("port:"):
        return spec[5:]
    if len(spec) >= 2 and spec[0] in SHORTCUTS and spec[1:].isdigit():
        return SHORTCUTS[spec[0]] + spec[1:]
    return spec


def open_port(spec, timeout=2.0):
    """An open, exclusive serial.Serial for --port `spec`; every read times out after `timeout` s."""
    target = resolve(spec)
    try:
        ser = serial.serial_for_url(
            target, baudrate=BAUD, timeout=timeout, write_timeout=timeout, exclusive=True, do_not_open=True
        )
        ser.open()
    except (serial.SerialException, OSError, ValueError) as e:
        raise PortError(explain(target, e)) from e
    return ser


def explain(target, e):
    """A user's message for a failure to open `target`."""
    text = str(e)
    code = getattr(e, "errno", None)
    if target.startswith("socket://"):
        if code == errno.ECONNREFUSED or "refused" in text.lower():
            return "nothing listening on %s: start the simulator with `crib sim` first" % target
        return "cannot reach %s: %s" % (target, text)
    if code in (errno.EBUSY, errno.EAGAIN, errno.EACCES) or "lock" in text.lower() or "busy" in text.lower():
        if code == errno.EACCES and sys.platform.startswith("linux"):
            return (
                "%s: permission denied: add yourself to the 'dialout' group (or the board is open "
                "in another program)" % target
            )
        return (
            "%s is busy: another program has it open (mpremote, a serial terminal, another crib "
            "watch): close it and try again" % target
        )
    if code == errno.ENOENT or not os.path.exists(target) and target.startswith("/dev/"):
        return "%s does not exist: is the board plugged in? `crib ports` lists boards" % target
    return "cannot open %s: %s" % (target, text)
