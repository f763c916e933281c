# hal.piezo on the Pico: a piezo sounder on a PWM pin (the board file's pins.piezo), loaded only when fitted.
import machine


class Piezo:
    """hal.piezo: a piezo sounder on a PWM pin, half duty for a tone; tone(0) is silence."""

    def __init__(self, gp):
        self._pwm = machine.PWM(machine.Pin(gp, machine.Pin.OUT, value=0))
        self._pwm.duty_u16(0)

    def tone(self, hz):
        if hz:
            self._pwm.freq(hz)
            self._pwm.duty_u16(32768)
        else:
            self._pwm.duty_u16(0)
