# The sim's piezo (the board file's pins.piezo): loaded only for a board file with one, as on the Pico.


class SimPiezo:
    """The board file's piezo: each beep rings the terminal's bell (the trace logs the tones); `tones`
    counts the tones begun, so a script or a test can count the beeps."""

    def __init__(self, hal):
        self._hal = hal
        self.tones = 0
        self.hz = 0

    def tone(self, hz):
        if hz and not self.hz:
            self.tones += 1
            hal = self._hal
            if hal.term is not None:
                hal.term.out.write("\a")
            elif hal.options["trace"]:
                hal.log("piezo: %d Hz" % hz)
        self.hz = hz
