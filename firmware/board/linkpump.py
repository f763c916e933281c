# The USB link's traffic, one save pass at a time: request lines in, replies and pushes out, and the
# laptop's proposal offered to the controller (and withdrawn when the laptop cancels it). Beside
# board/link.py (the protocol, pure) and loaded only when a link starts.


class LinkPump:
    """port: the HAL's link (read_line() -> a line or None, write(bytes), session: changes when a
    laptop comes or goes); link: board.link.Link; controller: its offer_link/withdraw_link."""

    lines = 8  # requests answered a pass, at most: a sync moves on, the pass stays short

    def __init__(self, port, link, controller):
        self.port = port
        self.link = link
        self.controller = controller
        self._host = getattr(port, "session", 0)
        self._answer = link.resolve  # bound once: the controller tells it how the proposal ended

    def pump(self, now):
        port = self.port
        link = self.link
        for _ in range(self.lines):
            line = port.read_line()
            host = getattr(port, "session", 0)
            if host != self._host:
                # A laptop came or went while reading: the last one's subscription ends before the
                # new one's first line is answered (a pending proposal stays: protocol.md).
                self._host = host
                link.disconnect()
            if line is None:
                break
            for out in link.handle(line, now):
                port.write(out)
        for out in link.pushes():
            port.write(out)
        p = link.pending
        if p is not None:
            self.controller.offer_link(p["event"], p.get("note"), now, self._answer)  # once nothing waits
        else:
            self.controller.withdraw_link()  # the laptop cancelled it
