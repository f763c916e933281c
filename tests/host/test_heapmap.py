# The simulator's heap accounting stays true to what it stands for: tools/sim.py counts the sim's own HAL
# outside the firmware's heap and the Pico's HAL inside it (SIM_HAL, PICO_HAL). Both are measured again
# here with bench/heapmap.py on this port, but for the part of PICO_HAL measured on the emulated Pico
# (PICO_OBJECTS: what hal.rp2.make holds; `python bench/heapmap.py --pico` measures it). A sim that
# grew, or a Pico HAL that did, fails this until the figures are measured again (docs/memory.md,
# "How the simulator counts").
import os
import sys

import simbuild

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import heapmap  # noqa: E402

launcher = simbuild.launcher


def _rows(code):
    os.makedirs(heapmap.WORK, exist_ok=True)
    path, _lines = heapmap.journal600()
    return dict(heapmap.on_unix(code, path, False)["parts"])


def _near(got, want):
    return abs(got - want) <= max(512, want // 20)


def test_the_sims_hal_and_the_picos_as_measured():
    for code in ("rom", "ram"):
        rows = _rows(code)
        sim = rows["sim.flash, sim.parts, sim.hal (the sim's HAL)"] + rows["the HAL's objects"]
        assert _near(sim, launcher.SIM_HAL[code]), (code, sim, launcher.SIM_HAL[code])
        pico_modules = rows["hal.rp2, hal.ws2812 (the Pico's HAL; its names aside)"]
        want = launcher.PICO_HAL[code] - launcher.PICO_OBJECTS
        assert _near(pico_modules, want), (code, pico_modules, want)
