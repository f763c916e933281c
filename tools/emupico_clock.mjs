// Loaded into the emulated Pico's node (NODE_OPTIONS=--import) by tools/emupico.py: a fix for a hang in
// ../shared/rp2emu, which stays read-only. Its run loop takes clock.nanosToNextAlarm <= 0 as "nothing
// scheduled: wait for the host", but rp2040js also answers 0 for an alarm due now: a DMA transfer
// paced by a PIO FIFO is scheduled with delay 0. So when the core sleeps (WFI/WFE: asyncio's sleep)
// while a DMA feeds the WS2812 state machines, nothing ever ticks the clock again and device time stops
// (rp2emu's README: "a time.sleep_ms right after writing all three LED chains ... never to return").
// Here an alarm due now is 1 ns away, so the loop ticks the clock and the transfer runs; with no alarm
// at all the answer is still 0. Nothing else changes, so device times are as the runner counts them.
import { SimulationClock } from '../../shared/rp2emu/node_modules/rp2040js/dist/esm/clock/simulation-clock.js';

Object.defineProperty(SimulationClock.prototype, 'nanosToNextAlarm', {
  get() {
    return this.nextAlarm ? Math.max(1, this.nextAlarm.nanos - this.nanos) : 0;
  },
});
