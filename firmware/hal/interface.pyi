# The HAL's interface, written once: what board.app and start.py use of a HAL (docs/hal.md).
# A stub, never imported on the board and never deployed: pyright reads it, and
# tests/house/test_interfaces.py holds hal.rp2, the simulator's sim.hal and the test fakes to it.
# A member of Hal or of a part is required; those of Extras a HAL may leave out (the app asks getattr).
from typing import Protocol

class Leds(Protocol):
    def write(self, frame: bytearray) -> None:
        """frame: bytearray(3 * board_def.led_count), R, G, B per LED index; the HAL does the chip's
        byte order and the chains (rp2: PIO + DMA, one state machine per chain). Allocates nothing."""

class Keys(Protocol):
    def scan(self) -> int:
        """The keys held now, bit i = board_def.key_names[i] (row-major: a small int)."""

class Sensors(Protocol):
    def readinto(self, buf: bytearray) -> None:
        """Fill buf, a bytearray(board_def.sensor_bits // 8) made once, with the 74HC165 chain: bit b in
        byte b // 8, mask 0x80 >> (b % 8); a set bit is a peg or a finger (active-low boards inverted)."""

class Display(Protocol):
    """16 x 8 characters of 8 x 8 text on the 128 x 64 SSD1306 (rp2: micropython-lib's ssd1306; the
    sim draws a box)."""

    def fill(self, c: int) -> None: ...
    def text(self, row: int, col: int, s: str) -> None:
        """s at text row `row`, column col; a big row (large print: s's first character is "\x01",
        "\x02" or "\x03", the width scale w) is the rest of s with each glyph 8w x 24 px, over the
        row and the two under it (hal/bigtext.py; board/large.py makes them)."""
    def show(self) -> None: ...

class Link(Protocol):
    """The laptop link (docs/protocol.md)."""

    session: int
    """Changes when a host comes or goes (sim: the socket's accept and close; Pico: best effort)."""
    size: int
    """Bytes written and not yet taken by the host (0 on a port with no outbox: the link then hands it
    a records stream's next chunk at once)."""

    def read_line(self) -> bytes | None:
        """The next whole line, or None; never blocks and reads only until one line is whole, so a
        flood waits in the host's buffer, not the board's heap."""

    def write(self, data: bytes) -> None:
        """Never waits for the host: what it has not taken waits in the port's outbox."""

class Piezo(Protocol):
    def tone(self, hz: int) -> None:
        """Sound hz (rp2: PWM at half duty) until the next call; 0 is silence. Never waits."""

class Watchdog(Protocol):
    def feed(self) -> None: ...

class Hal(Protocol):
    leds: Leds
    keys: Keys
    sensors: Sensors
    display: Display
    link: Link
    piezo: Piezo | None
    """The board file's piezo (pins.piezo), or None: the board has no sound."""
    storage_dir: str
    """Where the journal and settings live: /data on the Pico's littlefs; in the sim a littlefs image in
    a file (vfs.VfsLfs2). The journal needs littlefs: its rename is atomic, FAT's is not."""

    def ticks_ms(self) -> int:
        """As time.ticks_ms: the firmware reads the clock nowhere else."""

    def ticks_diff(self, a: int, b: int) -> int: ...
    def watchdog(self, timeout_ms: int) -> Watchdog | None:
        """A started watchdog, or None where there is none (off unless the setting is on)."""

    def board_uid(self) -> str:
        """The board's id for the laptop's history: hex machine.unique_id() on the Pico, an id kept on
        the sim's flash image."""

    def log(self, msg: str) -> None:
        """A console line (sim: under the board's drawing)."""

    def close(self, ended: bool = False) -> None:
        """The firmware has stopped (ended: the sim's script ran to its end); the board keeps its frame."""

class Extras(Protocol):
    """What a HAL may have besides; the app asks for each with getattr."""

    exit_code: int
    """start.py's return value once the board stops (the sim: its script's checks)."""

    def time(self) -> int:
        """The time of day in Unix seconds, on a HAL that knows it: the sim's is its host's clock, so a
        simulated board stamps its matches from boot on. The Pico learns it from a laptop's hello."""

    def heap_seen(self) -> None:
        """Called by App.calm_gc after its collections: the heap held then is what the board needs."""
