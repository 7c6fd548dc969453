"""The text protocol over a serial line, about the game on the screen.

On a board the line is CircuitPython's second USB serial port
(``usb_cdc.data``, turned on by boot.py); in the simulator a pseudo
terminal or a pipe stands in for it. A computer sends protocol lines
(docs/protocol.md), one per line, and reads the answers, each ended by an
empty line, exactly as ``tools/ptp.py`` does on a desktop:
``tools/ptp.py --port /dev/ttyACM1``.

The lines act on the game the app is showing, so what a line plays shows
on the LEDs, and a ``new`` starts that game on the screen (leaving, and
saving, the one that was there). The protocol's modules load when the
first line arrives: a board that is never spoken to never holds them.

A line counts as activity, as a press does: it wakes a dimmed or dark
panel (App.activity) and the frame it causes is shown.

The session is made with ``auto=False``: it never samples bookkeeping
chance nodes nor moves device seats by itself; the app does that, pass by
pass, as it does after a button press.
"""

CHUNK = 128     # bytes read from the port in one pass at most
# Longer lines are refused: the limit is in bytes, before the line is
# decoded (a character outside ASCII takes two to four). The protocol
# itself takes up to 4096 characters, but no command a person or a script
# sends to a board comes near this (a whole Ice Solo deal is about 230),
# and the buffer is made once and kept: a smaller one leaves the game
# more heap.
MAX_LINE = 512
CR = 13
LF = 10


class Link:
    """Reads protocol lines from ``port`` (an object with ``in_waiting``,
    ``readinto`` and ``write``, as ``usb_cdc.Serial``) and answers them
    about ``app``'s game."""

    def __init__(self, app, port):
        self.app = app
        self.port = port
        self.session = None
        self.line = None        # made when the first byte comes
        self.length = 0
        self.too_long = False
        # a CR just read: dropped if the LF comes next (a Windows line
        # end), else a control character inside the line
        self.cr = False
        self.control = -1       # the line's first control byte, or -1
        self.control_at = 0     # and its place in the line, from 1
        self.chunk = None
        if hasattr(port, "timeout"):
            port.timeout = 0     # never wait for bytes: the loop must go on

    def poll(self):
        """Read what has arrived (a pass's worth at most) and answer every
        line it completes. Costs one attribute read when nothing came."""
        if not self.port.in_waiting:
            return
        if self.line is None:
            self.line = bytearray(MAX_LINE)
            self.chunk = bytearray(CHUNK)
        count = self.port.readinto(self.chunk) or 0
        for i in range(count):
            byte = self.chunk[i]
            if byte == LF:
                self.cr = False
                self.end()
                continue
            if self.cr:
                self.cr = False
                self.add(CR)
            if byte == CR:
                self.cr = True
            else:
                self.add(byte)

    def add(self, byte):
        """One byte of the line being read (not its LF)."""
        n = self.length
        if (byte < 32 or byte == 127) and self.control < 0:
            self.control = byte
            self.control_at = n + 1
        if n < MAX_LINE:
            self.line[n] = byte
        else:
            self.too_long = True
        self.length = n + 1

    def end(self):
        """The line's LF: answer it, or say why not, then start the next."""
        if self.too_long:
            self.reply("? line too long (%d bytes; at most %d)\n\n"
                       % (self.length, MAX_LINE))
        elif self.control >= 0:
            self.reply("? control character \\x%02x at byte %d: a line is "
                       "printable text (a CR only just before its LF)\n\n"
                       % (self.control, self.control_at))
        else:
            self.answer(bytes(self.line[:self.length]))
        if self.length or self.control >= 0:
            self.app.activity()
        self.length = 0
        self.too_long = False
        self.control = -1

    def answer(self, raw):
        """Answer one line and show on the screen what it changed."""
        try:
            text = raw.decode("utf-8")
        except UnicodeError:
            self.reply("? the line is not UTF-8 text\n\n")
            return
        if self.session is None:
            from engine.protocol import Session
            self.session = Session(None, auto=False)
        session = self.session
        app = self.app
        before = app.state
        history = bytes(before.hist) if before is not None else None
        session.state = before
        try:
            reply = session.handle(text)
        except MemoryError:
            reply = "? out of memory\n\n"
        after = session.state
        # the session must not keep a game alive once the app has left it
        session.state = None
        if after is not before:
            why = app.adopt(after)
            if why:
                reply = "? %s\n\n" % why
            else:
                # the app deals and rolls with its own generator: hand it
                # the session's, so `new ... seed=N` repeats on the board
                app.rng.setstate(session.rng.getstate())
        elif after is not None and bytes(after.hist) != history:
            app.adopt(after)
        self.reply(reply)

    def reply(self, text):
        self.port.write(text.encode("utf-8"))
