# Committing an event: the match and its journal, kept the same. The firmware's most important contract:
# an event a player confirmed is applied and on flash before anything shows it as done, and any failure
# on the way leaves it wholly in or wholly out, the match rebuilt from the journal (the truth at boot).
import json
import os

from board.ticks import diff
from cribbage import const, events
from cribbage.errors import CribError
from cribbage.forms import check_setup
from cribbage.game import Match
from cribbage.journal import crc32

# The boot checkpoint (load, save; docs/journal.md "The boot checkpoint"): the match's record log on
# flash beside the journal, so that a boot replays only the records after it.
_FORMAT = const(3)  # the file's layout and the record log's (cribbage/records.py): a change bumps it
_EVERY = const(25)  # journal records between checkpoints: a boot replays fewer than this after one


def setup_of(settings):
    """The set-up event of a new match with the board's settings."""
    s = settings
    return events.setup(
        form=s["form"], fmt=s["fmt"], games=s["games"], to=s["to"], muggins=s["muggins"], three=s["three"]
    )


class Commit:
    """Owns the journal and the match in force (one Match object for the board's life: boots, rebuilds
    and new matches refill it in place, so whoever holds it sees the state in force).

    log(text): the console. after(seq, line, done, was_over): called once an event's record is on
    flash (the link push, the animation); what it raises is logged, the event stands.
    """

    def __init__(self, journal, setup, log, after=None):
        self.journal = journal
        self.now = 0  # the app's ticks this pass (ms), for the stamps (at)
        self.clock = [0, 0]  # a laptop's hello: its time (Unix seconds; 0: never told) and the ticks then
        self.match = Match(setup)
        self.log = log
        self.after = after
        self.warning = None  # after apply(): why an event that was saved nonetheless failed on the way
        self.collect = False  # an event was committed or failed, a boot asks a checkpoint: the calm pass
        self._loading = None  # the match a replay fills; left set when a rebuild did not finish
        self.count = 0  # the match's records in the journal: its set-up and every event after it
        self.kept = 0  # how many of them the boot checkpoint holds (the boot did not replay them)
        self.mark = None  # the checkpoint read at boot (load), until the journal has taken it (_refold)

    # ---- the journal -> the match ----------------------------------------------------------

    def replay(self, line):
        """One journal record into the match being loaded (Journal.open calls it at boot)."""
        # json.loads, not events.from_line: that words any failure as a bad line, a MemoryError too,
        # and the journal sets a refused record aside with all after it (a replay in a full heap did).
        self.count += 1
        ev = json.loads(line)
        if type(ev) is not dict:
            raise CribError("not an event: %r" % (line[:40],))
        if ev.get("t") == "setup":
            # Into the match object in force, in place: its old state is garbage before the replay
            # builds the new one, so a rebuild after a failed commit (a MemoryError, mostly) needs
            # room for one match, not two.
            m = self._loading = self.match
            m.__init__(ev)
            self.count = 1
            self.kept = 0  # no checkpoint is of this match yet
            return
        if self._loading is None:
            raise CribError("journal starts without a set-up")
        self._loading.apply(ev, trusted=True)

    def boot(self, setup):
        """Replay the journal into the match (a new match of `setup` when it holds none); -> its report.
        From the boot checkpoint when the journal's first bytes are still the ones it was made of;
        a checkpoint that is not (or cannot be read, or does not fold) is removed and all is replayed."""
        self._loading = None
        self.count = self.kept = 0
        report = self.journal.open(self.replay, self.load(), self._refold)
        if self.mark is not None:  # not used: the journal is the truth, the match from all of it
            self.log("checkpoint dropped")
            self.mark = None
            try:
                os.remove(self.journal.path + ".checkpoint")
            except OSError:
                pass
        self.log(str(report))
        if self._loading is None:  # no set-up in it
            self.new_match(setup)
        self._loading = None
        self.remember()
        if self.count - self.kept >= _EVERY:
            # No checkpoint, or one far behind (another firmware's, one dropped): the app's first calm
            # pass writes one (save), so that only this boot replays all of it.
            self.collect = True
        return report

    def new_match(self, setup):
        """Start a new match. The journal keeps every record a laptop has not acknowledged (older
        matches too: they are not replayed) and drops the synced ones (docs/journal.md). The
        journal first: a rewrite that fails (the flash) leaves the match in force as it was, and
        CribError says so (the match was renewed first, and the new match's events went on after
        the old one's in the journal)."""
        j = self.journal
        if not j.locked:  # a journal of newer firmware: the match lives in RAM, apply refuses
            seq = j.next_seq
            line = check_setup(setup)
            if self.clock[0]:
                line = dict(line)
                line["at"] = self.at()  # when the match started, if a laptop told the board the time
            # Its seq mark names no pegs: until the match below is the new one, they would be the old's.
            note = j.note
            j.note = None
            try:
                j.rewrite(j.acked + 1, [events.to_line(line)])
            except Exception as e:
                j.note = note
                self.log("new match: %r" % (e,))
                if j.next_seq <= seq:  # the journal is the old one: so is the match in force
                    raise CribError("Flash error: not saved")
                self._rebuild()  # the new journal landed before the error: its match, from flash
                return
            j.note = note
            self.count = 1
            self.kept = 0
        self.match.__init__(setup)
        self.remember()

    def remember(self):
        """The seq mark names the match in force (its note: the pegs, for the next boot's first light).
        Only a shortcut: a flash that fails it is logged, and the board goes on."""
        j = self.journal
        if not j.locked:
            try:
                j.remember()
            except Exception as e:
                self.log("seq mark: %r" % (e,))

    def note(self, text="New match?"):  # the new-match note (named as a name the firmware has: [name budget])
        """The question before a new match, saying how many games (with a record past the laptop's
        acknowledged seq) the laptop has not stored: read from the journal, not a hot path."""
        n = 0
        played = False
        j = self.journal
        try:
            for _, line in j.records(j.acked + 1):
                if line.startswith('{"t":"setup"') or line.startswith('{"t":"game"'):
                    n += played
                    played = False
                elif line != '{"t":"end"}':
                    played = True
        except OSError:  # the flash would not read it: the question says so
            return text + " Flash error: synced?"
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
        if self.journal.locked:  # a journal of newer firmware, or one the flash would not read at boot
            raise CribError("Flash error: not saved" if self.journal.unreadable else "Update firmware")
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
            done = m.apply(ev)  # type: dict | None
            if done["t"] == "game" and self.clock[0]:
                done["at"] = self.at()  # when the game started, if a laptop told the board the time
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
            if self.journal.needs_compaction:
                self._compact()
        except Exception as e:  # on flash and in the match: it stands (the link re-reads the journal)
            self.log("saved, then: %r" % (e,))
        self.collect = True
        return done

    def ready(self):
        """Take now, at a calm point (the app's collection after an event), the long-lived room the
        next commit would otherwise take in the middle of its work: the match log's next chunk and a
        journal mark's slot."""
        self.match._log.ready()
        self.journal.ready()

    def at(self):
        # Now in Unix seconds: the laptop's time at its hello plus the ticks since (the app sets
        # self.now each pass). ([name budget] docs/memory.md: "at" and "now" are names it has.)
        return self.clock[0] + diff(self.now, self.clock[1]) // 1000

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
        """The last event in force (for the undo prompt), or None: read from the match's log when
        asked, not kept: a list of the last events done would hold their dicts all game for a prompt."""
        return self.match.effective_events(last=True)

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

    def _compact(self):
        # The current match and whatever the laptop has not acknowledged stay, with their seqs.
        j = self.journal
        j.rewrite(min(j.acked + 1, j.fold))

    # ---- the boot checkpoint: the match as the journal's first bytes left it ----------------------

    def load(self):
        """Read the boot checkpoint into self.mark when its checksum holds; -> the journal's state() it
        was made with (Journal.open checks it against the file, then calls _refold), else None. A
        damaged one (or of another layout) is removed."""
        self.mark = None
        path = self.journal.path + ".checkpoint"
        try:
            with open(path, "rb") as f:
                head = f.read(40)
                nl = head.find(b"\n")
                form, value, size = [int(x) for x in head[:nl].split()]
                f.seek(nl + 1)
                games = f.read(size)
                got = crc32(games)
                chunks = []
                while True:
                    c = bytearray(256)  # records.Log's chunks, read in place
                    if f.readinto(c) != 256:
                        break
                    chunks.append(c)
                    got = crc32(c, got)
            if form != _FORMAT or got != value:
                raise ValueError
            n, end, skip, setup, starts, results = json.loads(games)
            if n < 2 or not 0 < end <= 256 * len(chunks) or type(setup) is not dict:
                raise ValueError
            nums = [int(x) for x in skip[:4]]
            marks = [int(x) for x in skip[4]]
            if min(nums) < 0 or len(marks) % 2 or max(marks[1::2] + [0]) >= nums[0]:
                raise ValueError  # no journal this firmware wrote (its marks: seqs, offsets in it)
            skip = nums + [marks]
            starts = _starts(starts, results)
        except OSError:  # none (a new match): the replay reads it all
            return None
        except Exception:  # damaged, cut, or of another firmware (ValueError, or a field of a wrong type)
            os.remove(path)
            return None
        self.mark = (n, end, chunks, setup, starts)
        return skip

    def _refold(self):
        """The journal's first bytes are the checkpoint's (Journal.open): the match becomes what their
        replay makes: its record log is the checkpoint's, the last game folded from its start as undo
        folds it. -> True when done; False leaves the match to the replay of every record."""
        n, end, chunks, setup, starts = self.mark  # pyright: ignore[reportGeneralTypeIssues]
        m = self.match
        try:
            m.__init__(setup)
            log = m._log
            log.chunks = chunks
            log.end = end
            # the games before the last are their results and start checkpoints, kept in the file
            m._cps, m.results = starts
            m._restore(m._cps[-1])
            p = log.norm(m._cps[-1][0])
            while p < log.end:
                m.count += 1
                m._do(p)
                p = log.after(p, m.players, m.hand_size)
        except Exception as e:  # not the journal's: the replay of it all makes the match
            self.log("checkpoint: %r" % (e,))
            return False
        m.last_pegs = []
        self._loading = m
        self.count = self.kept = n
        self.mark = None
        return True

    def save(self):
        """Write the boot checkpoint when _EVERY records came since the last one (the app calls it at a
        calm point); -> True when written. Never raises: the checkpoint is only a shortcut. A new file
        renamed over the old one: a power cut leaves the old or the new."""
        j = self.journal
        if j.locked or self._loading is not None or self.count - self.kept < _EVERY:
            return False
        m = self.match
        log = m._log
        path = j.path + ".checkpoint"
        try:
            # the games' start checkpoints (their state packed in bytes, as lists here) and results
            starts = [[cp[0], cp[1], list(cp[3]), cp[4], cp[5], cp[6]] for cp in m._cps if cp[2]]
            games = json.dumps([self.count, log.end, j.state(), m.setup, starts, m.results]).encode()
            value = crc32(games)
            for c in log.chunks:
                value = crc32(c, value)
            with open(path + ".tmp", "wb") as f:
                f.write(("%d %d %d\n" % (_FORMAT, value, len(games))).encode())
                f.write(games)
                for c in log.chunks:
                    f.write(c)
            os.rename(path + ".tmp", path)
        except Exception as e:
            self.log("checkpoint: %r" % (e,))
            return False
        self.kept = self.count
        return True


def _starts(cps, results):
    """The checkpoint's games (save): [(start checkpoint)], [results], as the match holds them (tuples,
    its state in bytes). A field of another shape raises (ValueError, TypeError): the file is dropped."""
    out = []
    for end, count, v, show, cut, names in cps:
        if show is not None:
            show = (show[0], show[1], tuple(show[2])) + tuple(show[3:])
        out.append((end, count, True, bytearray(v), show, None if cut is None else tuple(cut), names))
    if not out or out[0][0]:
        raise ValueError  # the first is the set-up's, at the log's start
    return out, [(w, tuple(pl), tuple(g), tuple(sk), tuple(f)) for w, pl, g, sk, f in results]
