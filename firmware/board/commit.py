# Committing an event: the match and its journal, kept the same. The firmware's most important contract:
# an event a player confirmed is applied and on flash before anything shows it as done, and any failure
# on the way leaves it wholly in or wholly out, the match rebuilt from the journal (the truth at boot).
import json
import os
from binascii import hexlify

from board.crc import crc, crc32
from cribbage import events, records
from cribbage.errors import CribError
from cribbage.game import Match

try:
    from micropython import const
except ImportError:  # CPython: const(x) is just x
    const = int  # type: ignore

# The boot checkpoint (Commit.load/save; docs/journal.md "The boot checkpoint"): in this module, with
# private constants and helpers named as names the firmware has (write, dump, records.decode,
# crc.crc, remove): a module of its own cost two interned names, and the budget is spent ([name budget]).
_FORMAT = const(1)
_EVERY = const(40)  # records between checkpoints: a boot replays fewer than this (~2 ms each on a Pico)


def setup_of(settings):
    """The set-up event of a new match with the board's settings."""
    s = settings
    return events.setup(
        form=s["form"], fmt=s["fmt"], games=s["games"], to=s["to"], muggins=s["muggins"], three=s["three"]
    )


def remove(path):
    for p in (path, path + ".tmp"):
        try:
            os.remove(p)
        except OSError:
            pass


def write(f, text, value):
    """text (str) into the checkpoint file f; -> the CRC-32 of what was written, continued from value."""
    data = text.encode()
    f.write(data)
    return crc32(data, value)


def dump(f, v, value):
    """v as JSON that records.decode reads back (a tuple as {"(": [...]}, a bytearray {"#": hex}, the
    record log {"L": [end, hex, ...]}), written to f a small piece at a time (no string of the whole
    state, nor of its 3 KB record log, on the heap: a save at 100 KB of heap found no room for one);
    -> the CRC-32 so far. Short strings are built from one-character ones: a short string constant
    is an interned name ([name budget])."""
    t = type(v)
    if t is dict:
        sep = "{"
        for k in v:
            value = dump(f, v[k], write(f, sep + json.dumps(k) + ":", value))
            sep = ","
        return write(f, "{" + "}" if sep == "{" else "}", value)
    if t is list or t is tuple:
        value = write(f, "[" if t is list else "{" + json.dumps("(") + ":" + "[", value)
        sep = ""
        for x in v:
            value = dump(f, x, write(f, sep, value))
            sep = ","
        return write(f, "]" if t is list else "]" + "}", value)
    if t is bytearray or t is bytes or isinstance(v, records.Log):
        if t is bytearray or t is bytes:  # {"#": hex}
            value = write(f, "{" + json.dumps("#") + ":", value)
            chunks = (v,)
        else:  # {"L": [end, hex, ...]}
            value = write(f, "{" + json.dumps("L") + ":" + "[" + str(v.end) + ",", value)
            chunks = v.chunks
        sep = ""
        for c in chunks:
            value = write(f, sep + '"', value)
            for i in range(0, len(c), 64):
                value = write(f, hexlify(c[i : i + 64]).decode(), value)
            value = write(f, '"', value)
            sep = ","
        return write(f, "}" if t is bytearray or t is bytes else "]" + "}", value)
    return write(f, json.dumps(v), value)


class Commit:
    """Owns the journal and the match in force (one Match object for the board's life: boots, rebuilds
    and new matches refill it in place, so whoever holds it sees the state in force).

    log(text): the console. after(seq, line, done, was_over): called once an event's record is on
    flash (the link push, the animation); what it raises is logged, the event stands.
    """

    def __init__(self, journal, setup, log, after=None):
        self.journal = journal
        self.match = Match(setup)
        self.log = log
        self.after = after
        self.recent = []  # the last few events done, newest last (for the undo prompt)
        self.warning = None  # after apply(): why an event that was saved nonetheless failed on the way
        self.collect = False  # an event was committed or failed: the app collects garbage when calm
        self._loading = None  # the match a replay fills; left set when a rebuild did not finish
        self.count = 0  # the match's records in the journal (its set-up and every event after it)
        self.kept = 0  # ... of which the boot checkpoint holds (load, save)

    # ---- the journal -> the match ----------------------------------------------------------

    def replay(self, line):
        """One journal record into the match being loaded (Journal.open calls it at boot)."""
        # json.loads, not events.from_line: that words any failure as a bad line, a MemoryError too,
        # and the journal sets a refused record aside with all after it (a replay in a full heap did).
        self.count += 1
        if self.count <= self.kept:
            return  # in the checkpoint the match was restored from
        ev = json.loads(line)
        if type(ev) is not dict:
            raise CribError("not an event: %r" % (line[:40],))
        if ev.get("t") == "setup":
            # Into the match object in force, in place: its old state is garbage before the replay
            # builds the new one, so a rebuild after a failed commit (a MemoryError, mostly) needs
            # room for one match, not two.
            m = self._loading = self.match
            m.__init__(ev)
            self.recent = []
            self.count = 1
            self.kept = 0
            return
        if self._loading is None:
            raise CribError("journal starts without a set-up")
        self._loading.apply(ev, trusted=True)
        self._remember(ev)

    def boot(self, setup):
        """Replay the journal into the match (a new match of `setup` when it holds none); -> its report."""
        self._loading = None
        self.count = self.kept = 0
        restored = self.load()  # the match as the journal's first `restored` records left it
        report = self.journal.open(self.replay)
        if restored and (not report.ok or self.count < restored):
            # The journal did not hand over every record the checkpoint holds (set aside, rolled
            # back, newer): the journal is the truth, so the match from all of it.
            remove(self.journal.path + ".checkpoint")
            self._loading = None
            self.count = self.kept = 0
            self.recent = []
            self.journal.open(self.replay)
        self.log(str(report))
        if self.kept:
            self.log("checkpoint: the match after %d records" % self.kept)
        if self._loading is None:  # no set-up in it
            self.new_match(setup)
        self._loading = None
        return report

    def new_match(self, setup):
        """Start a new match. The journal keeps every record a laptop has not acknowledged (older
        matches too: they are not replayed) and drops the synced ones (docs/journal.md)."""
        self.match.__init__(setup)
        j = self.journal
        if not j.locked:  # a journal of newer firmware: the match lives in RAM, apply refuses
            j.rewrite(j.acked + 1, [events.to_line(self.match.setup)])
        self.recent = []
        self.count = 1
        self.kept = 0

    def note(self, text="New match?"):  # the new-match note (named as a name the firmware has: [name budget])
        """The question before a new match, saying how many games (with a record past the laptop's
        acknowledged seq) the laptop has not stored: read from the journal, not a hot path."""
        n = 0
        played = False
        j = self.journal
        for _, line in j.records(j.acked + 1):
            if line.startswith('{"t":"setup"') or line.startswith('{"t":"game"'):
                n += played
                played = False
            elif line != '{"t":"end"}':
                played = True
        n += played
        if n:
            return "%s %d game%s not synced: OK to keep going" % (text, n, "" if n == 1 else "s")
        return text

    # ---- an event -> the match and the journal ----------------------------------------------

    def apply(self, ev):
        """Apply ev to the match and append it to the journal; -> the completed event.

        CribError (refused) changes nothing. Any other failure before the record is confirmed (a
        MemoryError in the game, which may leave the match part-changed; the flash write failing,
        before or after its record landed) is answered by rebuilding the match from the journal: the
        event is then wholly in (its record landed: `warning` says what failed) or wholly out
        (CribError "...: not saved"). A failure after the record is confirmed (`after`, a compaction)
        is logged: the event stands, and nothing is retried.
        """
        self.warning = None
        if self.journal.locked:
            raise CribError("Update firmware")
        if self._loading is not None:
            # The replay after the last failed commit did not finish: ev was made from a match that
            # is not the journal's. Replay first; the players see the true state and key ev again.
            self._rebuild()
            raise CribError("Reloaded: not saved")
        m = self.match
        was_over = m.game_over
        seq = self.journal.next_seq
        done = line = None
        try:
            done = m.apply(ev)
            line = events.to_line(done)
            seq = self.journal.append(line)
            self.count += 1
        except CribError:
            raise
        except Exception as e:
            self.log("commit failed: %r" % (e,))
            why = "Out of memory" if isinstance(e, MemoryError) else "Flash error"
            self.collect = True  # the save pass collects, and replays once more if this replay fails
            self._rebuild()
            if self.journal.next_seq <= seq:
                raise CribError(why + ": not saved")
            self.warning = why  # the write landed before its error: it is in force
            return done
        try:
            if self.after is not None:
                self.after(seq, line, done, was_over)
            self._remember(done)
            if self.journal.needs_compaction:
                self._compact()
        except Exception as e:  # on flash and in the match: it stands (the link re-reads the journal)
            self.log("saved, then: %r" % (e,))
        self.collect = True
        return done

    def retry(self):
        """After a rebuild that did not finish, replay once more; -> True when it did."""
        if self._loading is None:
            return False
        try:
            self._rebuild()
        except CribError:
            return False
        return True

    def last(self):
        """The last event in force (for the undo prompt), or None."""
        if self.recent:
            return self.recent[-1]
        effective = self.match.effective_events()
        return effective[-1] if effective else None

    def _rebuild(self):
        """The match rebuilt in place from the journal after a failed commit; CribError if even that
        fails: the journal then stays closed (no record is written while the match may differ from
        it), and the next retry() and apply() replay first; a restart replays it in an empty heap."""
        try:
            self.boot(self.match.setup)
        except Exception as e:
            self.journal.close()
            self._loading = self.match
            self.log("commit failed: %r" % (e,))
            raise CribError("Not saved: restart the board")

    def _remember(self, ev):
        if ev.get("t") == "undo":
            if self.recent:
                self.recent.pop()
            return
        self.recent.append(ev)
        if len(self.recent) > 8:
            self.recent.pop(0)

    def _compact(self):
        # The current match and whatever the laptop has not acknowledged stay, with their seqs.
        j = self.journal
        j.rewrite(min(j.acked + 1, j.fold))

    # ---- the boot checkpoint: the match as the journal's first records left it ---------------

    def load(self):
        """Restore book's match from the checkpoint when the journal still starts with what it covers;
        -> the records the replay then skips (self.kept; 0: nothing restored, any checkpoint removed)."""
        from board.app import FIRMWARE

        path = self.journal.path + ".checkpoint"
        try:
            with open(path, "rb") as f:
                data = f.read()  # whole: readline would read it a byte at a time
            nl = data.find(b"\n")
            state = data[:nl]
            check = json.loads(data[nl + 1 :])
            form, fw, n, want, count, scrc, recent = check
            if form != _FORMAT or fw != FIRMWARE or crc(self.journal.path, n) != want:
                raise ValueError
            if crc32(state) != scrc:
                raise ValueError
            state = json.loads(state)
            m = self.match
            have = m.__dict__
            if len(state) != len(have) or any(k not in have for k in state):
                raise ValueError
            for k in state:
                setattr(m, k, records.decode(state[k]))
            if m._play is not None:
                m._play = None
                m._stale = True  # rebuilt from the deal's lays and goes when read (Fold.play)
        except (OSError, ValueError, TypeError, KeyError, IndexError):
            # none, or not this journal's: the journal is the truth; a failed restore left the match part-
            # changed, and the full replay starts from its set-up record, which re-initialises it
            remove(path)
            return 0
        self.recent = records.decode(recent)
        self.kept = count
        self._loading = m
        return count

    def save(self):
        """A new checkpoint of book's match when _EVERY records came since the last; -> True if
        written. Called at a calm point (the match is exactly the journal's records); never raises for
        the flash or the heap: the checkpoint is only a shortcut."""
        j = self.journal
        if j.locked or self._loading is not None or self.count < 2:
            return False
        if self.count - self.kept < _EVERY:
            return False
        from board.app import FIRMWARE

        path = j.path + ".checkpoint"
        try:
            n = j.size
            want = crc(j.path, n)
            scrc = 0
            with open(path + ".tmp", "wb") as f:
                value = write(f, "{", 0)
                d = self.match.__dict__
                sep = ""
                for k in d:
                    v = d[k]
                    if k == "_play":
                        v = None if v is None else 0  # a Play is rebuilt from _acts at load
                    value = dump(f, v, write(f, sep + json.dumps(k) + ":", value))
                    sep = ","
                write(f, "}" + "\n", 0)
                scrc = crc32(b"}", value)
                value = write(f, "[" + ",".join([json.dumps(x) for x in (_FORMAT, FIRMWARE, n, want)]), 0)
                value = dump(f, self.recent, write(f, "," + str(self.count) + "," + str(scrc) + ",", 0))
                write(f, "]" + "\n", 0)
            os.rename(path + ".tmp", path)
        except (OSError, MemoryError, ValueError, TypeError) as e:
            remove(path)
            self.log("checkpoint not saved: %r" % (e,))
            self.kept = self.count  # tried: the next try _EVERY records later, not at every event
            return False
        self.kept = self.count
        return True
