# Hole sensor bytes (74HC165 chain) -> debounced taps per hole, with chain faults reported, not pegged.
# A tap is a hole going on: a tap switch pressed, or a magnetic peg set in a hall-switch hole. A hole
# that stays on is a peg resting there (or a held switch): it was one tap when it came on and never
# taps again until it has gone off. A chain reading all ones (unplugged), too many holes coming on in
# one scan (noise), or (for resting pegs) no hole on for a long time is reported once and never
# turned into taps; spare inputs tied to a known level (the board file's sensor_fixed) catch a chain
# that reads all zeros or garbage. When the chain reads sensibly again, that reading is the new
# baseline.
from array import array

from board import edges
from board.ticks import add, diff


class Sensors:
    debounce_ms = 30
    max_new = 3  # more holes than this coming on in one scan is noise, not players
    silent_ms = 5000  # pegs_rest boards: this long with no hole on means the chain is dead

    def __init__(self, nbytes, bit_hole, ring, pegs_rest=False, fixed=()):
        """bit_hole[b] is the hole id read by bit b of the chain (bit 7 of byte 0 = bit 0), or -1.

        fixed: (bit, level) of spare inputs tied to a known level, as read (1 = set); a reading that
        disagrees is a broken or unplugged chain.
        """
        self.nbytes = nbytes
        self._fixed_byte = bytearray(b // 8 for b, _ in fixed)
        self._fixed_mask = bytearray(0x80 >> (b % 8) for b, _ in fixed)
        self._fixed_want = bytearray((0x80 >> (b % 8)) if level else 0 for b, level in fixed)
        self._bit_hole = bit_hole
        self._ring = ring
        self.pegs_rest = pegs_rest
        self.state = bytearray(nbytes)  # debounced reading
        # each bit's last debounced edge, set at the first sane reading (_resync) [array rule]
        self._since = array("i", range(8 * nbytes))
        for i in range(8 * nbytes):
            self._since[i] = 0
        self.fault = 0  # an edges.FAULT_* while the chain is not believed
        self._resync = True  # take the next sane reading as the baseline, without taps
        self._last_on = 0  # tick a hole was last seen on (pegs_rest boards)
        self._any = 0  # some hole on in the state

    def _report(self, fault):
        if fault != self.fault:
            self.fault = fault
            self._ring.put((edges.SENSOR_FAULT << 10) | fault)
        self._resync = True

    def update(self, raw, now):
        """Feed one chain reading (bytearray of nbytes) taken at tick now; taps go to the ring."""
        n = self.nbytes
        state = self.state
        if raw == state and not self._resync:
            # Nothing moved (nearly every scan): the reading was checked when it became the state.
            if self.pegs_rest:
                if self._any:
                    self._last_on = now
                elif diff(now, self._last_on) >= self.silent_ms:
                    self._report(edges.FAULT_SILENT)
            return
        ones = 0
        anyon = 0
        for b in range(n):
            v = raw[b]
            if v == 0xFF:
                ones += 1
            anyon |= v
        bad = ones == n
        fb = self._fixed_byte
        for i in range(len(fb)):
            if raw[fb[i]] & self._fixed_mask[i] != self._fixed_want[i]:
                bad = True
        if bad:
            self._report(edges.FAULT_UNPLUGGED)
            return
        if self.pegs_rest:
            if anyon:
                self._last_on = now
            elif diff(now, self._last_on) >= self.silent_ms:
                self._report(edges.FAULT_SILENT)
                return
        if self._resync:
            for b in range(n):
                state[b] = raw[b]
            past = add(now, -self.debounce_ms)  # the next scan may already be a tap
            for i in range(n * 8):
                self._since[i] = past
            self._last_on = now
            self._resync = False
            self._any = anyon
            if self.fault:
                self.fault = 0
                self._ring.put(edges.SENSOR_OK << 10)
            return
        new_on = 0
        for b in range(n):
            ch = raw[b] ^ state[b]
            if ch:
                new_on += _bits(ch & raw[b])
        if new_on > self.max_new:
            self._report(edges.FAULT_GLITCH)
            return
        for b in range(n):
            ch = raw[b] ^ state[b]
            if not ch:
                continue
            m = 0x80
            bit = b * 8
            while m:
                if ch & m and diff(now, self._since[bit]) >= self.debounce_ms:
                    self._since[bit] = now
                    state[b] ^= m
                    if raw[b] & m:
                        hole = self._bit_hole[bit]
                        if hole >= 0:
                            self._ring.put((edges.TAP << 10) | hole)
                m >>= 1
                bit += 1
        anyon = 0
        for b in range(n):
            anyon |= state[b]
        self._any = anyon


def _bits(v):
    c = 0
    while v:
        v &= v - 1
        c += 1
    return c


# Hole ids in edges: side * 128 + hole, hole 1..120 on the track, 0 for a start hole, GAME for the
# game hole (shared, so its side part is 0).
GAME = 127


def hole_id(side, hole):
    return side * 128 + hole


def from_board(board_def, ring, present_is_set=True):
    """Sensors for a board definition (boardfile.Board).

    present_is_set: the HAL hands over bits with 1 = peg/tap present (the HAL contract), so an
    active-low chain has already been inverted, its tied inputs too.
    """
    # [array rule]
    bit_hole = array("h", range(board_def.sensor_bits))
    for bit in range(board_def.sensor_bits):
        bit_hole[bit] = -1
    for side in range(board_def.sides):
        track = board_def.sensor_track[side]
        for i in range(len(track)):  # not enumerate: a tuple a hole, garbage at boot
            bit_hole[track[i]] = hole_id(side, i + 1)
        for bit in board_def.sensor_start[side]:
            bit_hole[bit] = hole_id(side, 0)
    bit_hole[board_def.sensor_game] = GAME
    flip = 1 if (present_is_set and board_def.sensor_active_low) else 0
    fixed = [(bit, level ^ flip) for bit, level in board_def.wiring.sensor_fixed]
    return Sensors(
        board_def.sensor_bits // 8, bit_hole, ring, pegs_rest=board_def.sensor_kind == "hall", fixed=fixed
    )
