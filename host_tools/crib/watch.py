# `crib watch`: the board live in the terminal: pegs, scores, match points, the last itemised count.
import time

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from crib.history.report import item_text
from crib.untrusted import plain, shown
from cribbage.cards import format_card, format_cards, pip
from cribbage.errors import CribError

SIDE_STYLES = ("bold red", "bold blue", "bold green")
TRACK = 60  # characters for a track: two holes a character


def cell(hole, target):
    """The character of hole 1..target on a TRACK-wide track: hole 1 the first, the game hole the last."""
    hole = max(1, min(target, hole))
    return (hole - 1) * (TRACK - 1) // max(1, target - 1)


def track(front, back, target, style):
    """One side's track as text: back peg o, front peg O, the game hole at the end."""
    cells = ["·"] * TRACK
    if back:
        cells[cell(back, target)] = "o"
    if front:
        cells[cell(front, target)] = "O"
    t = Text("|")
    t.append("".join(cells), style=style)
    t.append("| %d" % target)
    return t


def _items_text(items):
    return plain(item_text(items), 400) if items else ""


def render(state, hello=None, recent=(), status=""):
    """A rich renderable of the board's state dict (the link's `state`)."""
    parts = []
    head = "cribboard %s" % shown((hello or {}).get("board", ""))
    if not state:
        return Panel(Text("no match running on the board"), title=head)
    names = [plain(n) for n in state.get("names") or []]
    target = state.get("target") or 121
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right")
    table.add_column()
    table.add_column(justify="right")
    table.add_column(justify="right")
    for side, name in enumerate(names):
        style = SIDE_STYLES[side % 3]
        front = state["front"][side]
        back = state["back"][side]
        deal = " (crib)" if state.get("dealer_side") == side else ""
        mp = state.get("match_points") or [0] * len(names)
        table.add_row(
            Text(name + deal, style=style),
            track(front, back, target, style),
            Text("%3d" % front, style=style),
            "match %d" % mp[side],
        )
    parts.append(table)
    info = "game %s, deal %s, %s" % (state.get("game_no"), state.get("deal_no"), state.get("phase", ""))
    if state.get("starter") is not None:
        info += ", starter %s" % format_card(state["starter"])
    play = state.get("play")
    if play and not play.get("over"):
        info += ", count %d: %s" % (play["count"], format_cards(play["current"]))
    parts.append(Text(info))
    last = state.get("last_show")
    if last:
        side, kind, cards, starter, n = last[0], last[1], last[2], last[3], last[4]
        who = names[side] if side < len(names) else str(side)
        line = "last count: %s's %s %s | %s = %d" % (
            who,
            kind,
            format_cards(cards),
            format_card(starter) if starter is not None else "?",
            n,
        )
        parts.append(Text(line, style="bold"))
        items = _items_text(state.get("last_items"))
        if items:
            parts.append(Text("  " + items))
    if state.get("game_over") and state.get("winner") is not None:
        parts.append(Text("%s wins the game" % names[state["winner"]], style="bold yellow"))
    if state.get("match_over"):
        w = state.get("match_winner")
        parts.append(Text("match over: %s" % (names[w] if w is not None else "level"), style="bold yellow"))
    if recent:
        parts.append(Text("recent: " + "  ".join(recent[-6:]), style="dim"))
    if status:
        parts.append(Text(status, style="dim"))
    return Panel(Group(*parts), title=head)


def describe(ev, names):
    """A few words for an event pushed by the board (the 'recent' line), as plain text."""
    try:
        return plain(_describe(ev, names), 80)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return plain(ev, 40)


def _describe(ev, names):
    t = ev.get("t")

    def who(k):
        i = ev.get(k)
        return names[i % len(names)] if isinstance(i, int) and names else "?"

    if t == "peg":
        return "%s +%d %s" % (who("s"), ev.get("n", 0), ev.get("why", ""))
    if t == "show":
        return "%s %s %d" % (who("s"), ev.get("k"), ev.get("n", 0))
    if t == "lay":
        return "%s lays %s" % (who("p"), format_card(ev["c"]))
    if t == "starter":
        return "starter %s" % format_card(ev["c"])
    if t == "go":
        return "%s go" % who("p")
    if t == "fix":
        return "%s fix %+d" % (who("s"), ev.get("n", 0))
    if t == "throw":  # against the board: places in the hand, never the cards
        return "%s throws to the crib" % who("p")
    if t == "seed":
        return "the game's seed %d" % ev["n"]
    if t == "name":  # by number: the names shown are already the new ones
        return "player %d is %s" % (ev["s"] + 1, ev["name"])
    return str(t)


def said_scores(ev, before, after):
    """What the event `ev` scored, in players' words with the side's name, from the board's states before
    and after it (their fronts say who scored how much; the event why): ["Ann: fifteen two", ...].
    A hand or crib is itemised from the state's last_items, a lay's reasons worked out from the count's
    cards. Nothing for a state that makes no sense (a board's words are not trusted)."""
    from crib.speech import peg_words, play_words, scored_words
    from cribbage.play import reasons_for_lay

    try:
        names = after.get("names") or []
        t = ev.get("t")
        out = []
        for side, (was, now) in enumerate(zip(before["front"], after["front"], strict=False)):
            n = now - was
            if not isinstance(n, int) or n <= 0:
                continue
            name = plain(names[side], 30) if side < len(names) else "player %d" % (side + 1)
            if t == "show":
                out.append(scored_words(name, n, ev.get("k"), after.get("last_items") or ()))
            elif t == "lay":
                cards = list((before.get("play") or {}).get("current") or []) + [ev["c"]]
                if sum(pip(c) for c in cards) > 31:
                    cards = [ev["c"]]  # the count had started again
                out.append(play_words(name, reasons_for_lay(cards), n))
            else:
                why = {"go": "go", "starter": "heels", "muggins": "muggins"}.get(t, ev.get("why") or "manual")
                out.append(peg_words(name, n, str(why)))
        return out
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, CribError):
        return []


def safe_render(state, hello, recent, status=""):
    """render(), or a line saying the board's state made no sense (a board's words are not trusted)."""
    try:
        return render(state, hello, recent, status)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return Panel(
            Text("the board sent a state that makes no sense; waiting for the next one"), title="cribboard"
        )


def _start(client):
    """Hello, the state, and a subscription with state pushes: (hello, state)."""
    hello = client.hello or client.connect()
    state = client.state()["state"]
    client.subscribe(state=True)
    return hello, state


def watch(client, console, seconds=None, clock=time.monotonic, reopen=None, retry_s=1.0, speak=None):
    """Subscribe and redraw on every push until Ctrl-C (or `seconds` pass; for tests).

    When the board goes away (unplugged, reset, the simulator stopped) and `reopen` is given, the
    view stays up saying so and `reopen()` (a new connected client, or an exception) is tried every
    `retry_s` seconds, as a scoreboard on a second screen would; without it the LinkError goes up.
    With `speak` (a callable taking text), each score is said in players' words with the side's name,
    as the state pushed after its event shows it (said_scores)."""
    from rich.live import Live

    from crib.link.client import LinkError

    hello, state, names, recent, status = client.hello or {}, None, [], [], ""
    event = {}  # the last event pushed: what the next state's new points were scored for
    started = False  # subscribed on the client we hold
    end = None if seconds is None else clock() + seconds
    with Live(safe_render(state, hello, recent), console=console, auto_refresh=False) as live:
        while end is None or clock() < end:
            try:
                if client is None:
                    try:
                        client = reopen()
                    except Exception:  # not back yet: a port missing, refused, or a board still booting
                        time.sleep(retry_s)
                        continue
                if not started:
                    hello, state = _start(client)
                    started, status = True, ""
                names = (state or {}).get("names") or names
                push = client.next_push(timeout=0.5)
            except LinkError as e:
                if reopen is None:
                    raise
                try:
                    client.close()
                except Exception:
                    pass
                client, started = None, False
                status = "the board went away (%s): waiting for it to come back" % e
                live.update(safe_render(state, hello, recent, status), refresh=True)
                continue
            if push is None:
                live.update(safe_render(state, hello, recent, status), refresh=True)
                continue
            if push.get("push") == "event":
                event = push.get("event") or {}
                recent.append(describe(event, names))
                del recent[:-6]
            elif push.get("push") == "state":
                before, state = state, push.get("state")
                names = (state or {}).get("names") or names
                if speak is not None and isinstance(before, dict) and isinstance(state, dict):
                    for said in said_scores(event, before, state):  # the points the last event scored
                        speak(said)
            elif push.get("push") == "pending":
                recent.append(plain("laptop request %s %s" % (push.get("pid"), push.get("status"))))
            live.update(safe_render(state, hello, recent, status), refresh=True)
    return state
