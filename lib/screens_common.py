"""Shell screens and drawing helpers shared by the app's screens.

Icons are 8x8 pictures (drawn 2x on a 16x16 panel) compiled once at import
into bytes of palette indices. The screens here follow the contract in
lib.app: ``key(k)``/``tick(now)`` return True when the frame changed and
``draw(d)`` paints the whole frame.
"""

from lib import palette as P
from lib import font
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff

NAMES = (
    ("ice_solo", "ICE SOLO"), ("bag_of_ice", "BAG OF ICE"),
    ("ice_stalks", "ICE STALKS"), ("ice_towers", "ICETOWERS"),
    ("pointsettia", "POINTSETTIA"), ("dice", "DICE"), ("bag", "BAG"),
    ("settings", "SETTINGS"), ("scores", "SCORES"), ("about", "ABOUT"),
)

# '.' off; piece colours r o y g c b p w k (large) and R O Y G C B P W K
# (small, dimmer); d dim, t text, h hilite, + ok, x refuse, 1-4 players
_ICONS = {
    "ice_solo": (
        "....g...",
        "...ggg..",
        "...yyy..",
        "..yyyyy.",
        "..bbbbb.",
        ".bbbbbbb",
        "........",
        "R.Y.G.B.",
    ),
    "bag_of_ice": (
        "...tt...",
        "..t..t..",
        "...tt...",
        ".tttttt.",
        "t......t",
        "t.y.p.yt",
        "tyyyppyt",
        ".tttttt.",
    ),
    "ice_stalks": (
        "...p....",
        "...b....",
        "..ccc...",
        "..ggg...",
        ".yyyyy..",
        ".ooooo..",
        "rrrrrrr.",
        ".....R.G",
    ),
    "ice_towers": (
        "........",
        ".r......",
        ".g....b.",
        ".b..y.y.",
        ".y..r.r.",
        ".g..g.g.",
        ".r..p.y.",
        "dddddddd",
    ),
    "pointsettia": (
        "r..g..r.",
        ".r.g.r..",
        "..rgr...",
        "gggwggg.",
        "..rkr...",
        ".r.g.r..",
        "g..g..g.",
        "........",
    ),
    "dice": (
        ".tttttt.",
        "tw....wt",
        "t......t",
        "t..ww..t",
        "t..ww..t",
        "t......t",
        "tw....wt",
        ".tttttt.",
    ),
    "bag": (
        "...tt...",
        "..t..t..",
        "...tt...",
        ".tttttt.",
        "t.r..g.t",
        "t..y..ct",
        "tb..p..t",
        ".tttttt.",
    ),
    "settings": (
        "........",
        "dddhdddd",
        "...h....",
        "........",
        "ddddddhd",
        "......h.",
        "........",
        "dhdddddd",
    ),
    "scores": (
        "........",
        ".....3..",
        ".1...3..",
        ".1...3..",
        ".1.2.3..",
        ".1.2.3.4",
        ".1.2.3.4",
        "dddddddd",
    ),
    "about": (
        "...tt...",
        "...tt...",
        "........",
        "..ttt...",
        "...tt...",
        "...tt...",
        "...tt...",
        "..tttt..",
    ),
}


def _ink(ch):
    if ch == ".":
        return P.OFF
    i = "roygcbpwk".find(ch)
    if i >= 0:
        return P.piece(i, 3)
    i = "ROYGCBPWK".find(ch)
    if i >= 0:
        return P.piece(i, 1)
    i = "1234".find(ch)
    if i >= 0:
        return P.player(i)
    return {"d": P.DIM, "t": P.TEXT, "h": P.HILITE, "+": P.OK,
            "x": P.REFUSE}[ch]


def _compile(rows):
    out = bytearray(64)
    for y in range(8):
        for x in range(8):
            out[y * 8 + x] = _ink(rows[y][x])
    return bytes(out)


ICONS = {}
for _k in _ICONS:
    ICONS[_k] = _compile(_ICONS[_k])
del _k
_ICONS = None


def name(gid):
    for n in NAMES:
        if n[0] == gid:
            return n[1]
    return gid.upper()


def draw_icon(d, icon, x, y, scale, dim=False):
    """An 8x8 icon with its top-left at (x, y), each pixel a ``scale``
    square; ``dim`` draws its lit pixels grey (a game not built yet)."""
    i = 0
    for yy in range(8):
        for xx in range(8):
            c = icon[i]
            i += 1
            if c:
                if dim:
                    c = P.DIM
                if scale == 1:
                    d.pixel(x + xx, y + yy, c)
                else:
                    d.rect(x + xx * scale, y + yy * scale, scale, scale, c)


def draw_full_icon(d, gid, dim=False):
    """The icon of ``gid`` filling an 8x8 panel, or 2x on 16x16."""
    s = d.width // 8
    draw_icon(d, ICONS[gid], (d.width - 8 * s) // 2, 0, s, dim)


def border(d, c, t=1):
    """A frame ``t`` pixels thick around the panel."""
    w = d.width
    h = d.height
    d.rect(0, 0, w, t, c)
    d.rect(0, h - t, w, t, c)
    d.rect(0, 0, t, h, c)
    d.rect(w - t, 0, t, h, c)


def refusal(d):
    """The refusal flash drawn over a frame: a red frame."""
    border(d, P.REFUSE, 1 if d.width <= 8 else 2)


def cross(d, x, y, n, c):
    """An X ``n`` pixels square."""
    for i in range(n):
        d.pixel(x + i, y + i, c)
        d.pixel(x + n - 1 - i, y + i, c)


def centre_number(d, n, y, c):
    font.draw_number(d, n, (d.width - font.number_width(n)) // 2, y, c)


def centre_text(d, text, y, c):
    font.draw(d, text, (d.width - font.width(text)) // 2, y, c)


class Boot:
    """A pyramid grows, large to small, for about a second; any key skips."""

    STEPS = 12
    STEP_MS = 90

    def __init__(self, app):
        self.app = app
        self.t0 = app.now
        self.phase = 0

    def key(self, k):
        self.app.boot_done()
        return True

    def tick(self, now):
        p = ticks_diff(now, self.t0) // self.STEP_MS
        if p >= self.STEPS:
            self.app.boot_done()
            return True
        if p != self.phase:
            self.phase = p
            return True
        return False

    def draw(self, d):
        d.fill(P.OFF)
        w = d.width
        h = d.height
        # rows appear bottom-up; each third of the height a size and colour
        rows = ((self.phase + 1) * h + self.STEPS - 1) // self.STEPS
        for i in range(rows):
            y = h - 1 - i
            half = (h - 1 - i) * w // (2 * h)
            third = i * 3 // h
            c = P.piece(5 - 2 * third if third < 2 else 0, 3 - third)
            d.rect(w // 2 - 1 - half, y, 2 * half + 2, 1, c)


class Handoff:
    """Pass-and-play: whose turn it is, in their colour, hiding the board
    until they press A."""

    def __init__(self, app, player):
        self.app = app
        self.player = player

    def key(self, k):
        if k == A:
            app = self.app
            app.scr = app.game_scr
            return True
        return False

    def tick(self, now):
        return False

    def draw(self, d):
        d.fill(P.OFF)
        c = P.player(self.player)
        n = self.player + 1
        if d.width <= 8:
            if n < 10:
                border(d, c, 1)
            else:
                d.rect(0, 0, 8, 1, c)
                d.rect(0, 7, 8, 1, c)
            centre_number(d, n, 1, c)
        else:
            border(d, c, 2)
            x = (d.width - font.ADVANCE - font.number_width(n)) // 2
            font.draw_char(d, "P", x, 5, c)
            font.draw_number(d, n, x + font.ADVANCE, 5, c)


class Prompt:
    """At boot: resume the saved game (A) or discard it (B). Its icon
    blinks so the prompt is not mistaken for the menu."""

    BLINK_MS = 500

    def __init__(self, app, state):
        self.app = app
        self.state = state
        self.on = True
        self.t0 = app.now
        self.text = font.Scroller(app.d.width, y=10, colour=P.TEXT)
        self.text.set("A RESUME  B NEW")

    def key(self, k):
        app = self.app
        st = self.state
        if k == A:
            self.state = None
            if not app.enter(st.GAME, st):
                app.refuse()
                app.discard_save(st.GAME)
                app.scr = app.menu
            return True
        if k == B:
            self.state = None
            app.discard_save(st.GAME)
            app.scr = app.menu
            return True
        return False

    def tick(self, now):
        on = (ticks_diff(now, self.t0) // self.BLINK_MS) & 1 == 0
        ch = on != self.on
        self.on = on
        if self.app.d.width > 8 and self.text.tick(now):
            ch = True
        return ch

    def draw(self, d):
        d.fill(P.OFF)
        gid = self.state.GAME
        if d.width <= 8:
            draw_icon(d, ICONS[gid], 0, 0, 1, not self.on)
        else:
            draw_icon(d, ICONS[gid], 4, 0, 1, not self.on)
            self.text.draw(d)


class Notice:
    """A short message scrolled in amber, then ``then`` (a screen). Any key
    (or one pass of the text) dismisses it."""

    def __init__(self, app, text, then):
        self.app = app
        self.then = then
        y = 1 if app.d.width <= 8 else 6
        self.text = font.Scroller(app.d.width, y=y, colour=P.NOTICE,
                                  step_ms=80, pause_ms=300)
        self.text.set(text)
        self.t0 = app.now

    def key(self, k):
        self.app.scr = self.then
        return True

    def tick(self, now):
        if self.text.passes >= 1 or (self.text.fits() and
                                     ticks_diff(now, self.t0) > 2500):
            self.app.scr = self.then
            return True
        return self.text.tick(now)

    def draw(self, d):
        d.fill(P.OFF)
        if d.width > 8:
            border(d, P.NOTICE, 1)
        self.text.draw(d)


class Scores:
    """Scores per player, one page each (LEFT/RIGHT), the player's colour
    on top; the best score is marked. UP/DOWN switch games when shown from
    the menu. B (or A) goes back to ``back``."""

    def __init__(self, app, gid, scores, back, games=None):
        self.app = app
        self.back = back
        self.games = games     # [(gid, scores), ...] from the menu, or None
        self.g = 0
        self.page = 0
        self.text = font.Scroller(app.d.width, y=2 if app.d.width <= 8 else 10,
                                  colour=P.TEXT)
        self._load(gid, scores)

    def _load(self, gid, scores):
        self.gid = gid
        self.scores = scores
        # texts built once per game shown, not per page or frame
        self.texts = [str(s) for s in scores] if scores else ["NO SCORES"]
        best = None
        for s in scores or ():
            if best is None or s > best:
                best = s
        self.best = best
        self.page = 0
        self.text.set(self.texts[0], self.app.now)

    def key(self, k):
        n = len(self.texts)
        if k == B or k == A:
            self.app.scr = self.back
            return True
        if k == LEFT or k == RIGHT:
            if n < 2:
                return False
            self.page = (self.page + (1 if k == RIGHT else n - 1)) % n
            self.text.set(self.texts[self.page], self.app.now)
            return True
        if (k == UP or k == DOWN) and self.games and len(self.games) > 1:
            m = len(self.games)
            self.g = (self.g + (1 if k == DOWN else m - 1)) % m
            g = self.games[self.g]
            self._load(g[0], g[1])
            return True
        return False

    def tick(self, now):
        return self.text.tick(now)

    def draw(self, d):
        d.fill(P.OFF)
        if not self.scores:
            self.text.colour = P.DIM
            self.text.draw(d)
            return
        i = self.page
        c = P.player(i)
        s = self.scores[i]
        n = len(self.scores)
        self.text.colour = P.OK if s == self.best and n > 1 else P.TEXT
        if d.width <= 8:
            d.rect(0, 0, 8, 1, c)
            if n > 1:
                d.pixel(i * 8 // n, 7, P.TEXT)
        else:
            if self.gid in ICONS:
                draw_icon(d, ICONS[self.gid], 0, 0, 1)
            d.rect(10, 1, 5, 6, c)
            if n > 1:
                d.pixel(i * 16 // n, 15, P.TEXT)
        self.text.draw(d)


class About:
    """The name and version scrolling under a pyramid."""

    TEXT = "POCKET PYRAMIDS 1.0"

    def __init__(self, app):
        self.app = app
        y = 1 if app.d.width <= 8 else 10
        self.text = font.Scroller(app.d.width, y=y, colour=P.TEXT)
        self.text.set(self.TEXT, app.now)

    def key(self, k):
        if k == B or k == A:
            self.app.scr = self.app.menu
            return True
        return False

    def tick(self, now):
        return self.text.tick(now)

    def draw(self, d):
        d.fill(P.OFF)
        if d.width > 8:
            # a small pyramid in three sizes above the text
            for i in range(7):
                half = i // 2
                c = P.piece(5, 1 + i * 3 // 7)
                d.rect(7 - half, 1 + i, 2 + 2 * half, 1, c)
        else:
            d.rect(0, 7, 8, 1, P.DIM)
        self.text.draw(d)
