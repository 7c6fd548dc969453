"""Shell screens used outside games: the boot animation, the resume offer
(and what the menu does while a game is saved), notices, scores, about and
settings. The app imports this module when one
of them is needed and drops it again at the menu, so none of it stays in
memory during a game. They follow the screen contract in lib.app.
"""

from lib import palette as P
from lib import font
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff
from lib.screens_common import icon, border, draw_icon
from engine.state import OVER
from engine import catalog
from lib.save import split_game


class Boot:
    """A pyramid grows, large to small, for about a second; any key skips."""

    STEPS = 12
    STEP_MS = 90

    def __init__(self, app):
        self.app = app
        self.since = app.now
        self.phase = 0

    def key(self, k):
        self.app.boot_done()
        return True

    def tick(self, now):
        p = ticks_diff(now, self.since) // self.STEP_MS
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


def waiting(app, gid):
    """What the menu's A on ``gid`` does while the save slot holds a game
    (App.choose, which acts on the answer): the same game is resumed where
    it was left (its State), not dealt anew; a tool opened while anything
    else waits runs without saving (False): a die rolled in a pause costs
    no game; another game first gets the resume offer (a Prompt), whose B
    discards the waiting game and opens ``gid``; a waiting tool gives way
    to a game (None: a new one, saved as usual)."""
    w = saved_id(app.store.load_game())
    if w is None:
        return None
    if w == gid:
        st = app.store.resume()
        if st is not None and st.GAME == gid and st.to_move() != OVER:
            return st
        return None             # unusable: a new one takes the slot
    if is_tool(gid):
        return False
    if is_tool(w):
        return None
    st = app.store.resume()
    if st is None or st.to_move() == OVER:
        return None
    return Prompt(app, st, gid)


def is_tool(gid):
    """A table tool (the catalog's ``tool``): opened while something else
    waits in the save slot, it runs without saving rather than write over
    it."""
    entry = catalog.entry(gid)
    return entry is not None and entry.tool


def saved_id(p):
    """The game id at the head of a save record as ``State.serialize``
    writes it (magic, format, id length, id), after any view (lib.save),
    without loading the game; None if there is none."""
    if p is None:
        return None
    try:
        p = split_game(p)[1]
    except ValueError:
        return None
    if len(p) < 4 or len(p) < 4 + p[3]:
        return None
    try:
        return bytes(p[4:4 + p[3]]).decode()
    except ValueError:          # UnicodeError: not ours
        return None


class Prompt:
    """The resume offer: A resumes the waiting game, B asks to discard it.

    At boot it offers the saved game; from the menu it shows when another
    game ``then`` was chosen while this one waits (App.choose), and says so:
    the waiting game's name, that A resumes it and that B discards it for
    ``then``. One press never throws a game away: B only asks, showing the
    question in red; DOWN (a different button, so a double press of B
    does nothing) then discards, and any other key goes back to the offer.

    On 16x16 the game's icon blinks above the scrolling text; on 8x8 the
    icon shows for a moment, then the text scrolls across in its place,
    and again, so the 8x8 says what A and B do too."""

    BLINK_MS = 500
    ICON_MS = 1500     # 8x8: how long the icon shows between the texts

    def __init__(self, app, state, then=None):
        self.app = app
        self.state = state
        self.then = then
        self.lit = True
        self.since = app.now
        self.small = app.d.width <= 8
        self.asking = False    # B was pressed: DOWN discards
        self.texting = False   # 8x8: the text shows in place of the icon
        self.text = font.Scroller(app.d.width, y=1 if self.small else 10,
                                  colour=P.TEXT, step_ms=80, pause_ms=300,
                                  loop=not self.small)
        # the two texts, made once
        waits = catalog.entry(state.GAME)
        waits = waits.name if waits else state.GAME.upper()
        if then is None:
            self.offer = waits + " WAITS  A RESUME  B DISCARD"
        else:
            self.offer = (waits + " WAITS  A RESUMES IT  B DISCARDS IT FOR "
                          + catalog.entry(then).name)
        self.question = "DISCARD " + waits + "?  DOWN YES  OTHER KEY NO"
        self.text.set(self.offer, app.now)

    def _say(self, text, colour):
        app = self.app
        self.text.set(text, app.now)
        self.text.colour = colour
        # the question loops until answered, on both panels
        self.text.loop = self.asking or not self.small
        self.since = app.now
        self.texting = self.small and self.asking

    def key(self, k):
        app = self.app
        st = self.state
        if self.asking:
            self.asking = False
            if k != DOWN:
                self._say(self.offer, P.TEXT)
                return True
            self.state = None
            app.discard_save(st.GAME)
            if self.then is None or not app.enter(self.then):
                app.to_menu()
            return True
        if k == A:
            self.state = None
            if not app.enter(st.GAME, st, app.store.view):
                app.refuse()
                app.discard_save(st.GAME)
                app.to_menu()
            return True
        if k == B:
            self.asking = True
            self._say(self.question, P.REFUSE)
            return True
        return False

    def tick(self, now):
        on = (ticks_diff(now, self.since) // self.BLINK_MS) & 1 == 0
        ch = on != self.lit
        self.lit = on
        if self.small and not self.asking:
            # icon, then the text once, then the icon again
            if self.texting:
                if self.text.done:
                    self.texting = False
                    self.since = now
                    return True
            elif ticks_diff(now, self.since) >= self.ICON_MS:
                self.texting = True
                self.text.set(self.offer, now)
                return True
            else:
                return ch
        if self.text.tick(now):
            ch = True
        return ch

    def draw(self, d):
        d.fill(P.OFF)
        gid = self.state.GAME
        if self.small:
            if self.texting:
                self.text.draw(d)
                if self.asking:
                    d.rect(0, 7, 8, 1, P.REFUSE)
            else:
                draw_icon(d, icon(gid), 0, 0, 1, not self.lit)
        else:
            draw_icon(d, icon(gid), 4, 0, 1, not self.lit)
            if self.asking:
                d.rect(0, 8, d.width, 1, P.REFUSE)
                d.rect(0, d.height - 1, d.width, 1, P.REFUSE)
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
        self.since = app.now

    def key(self, k):
        self.app.go(self.then)
        return True

    def tick(self, now):
        if self.text.passes >= 1 or (self.text.fits() and
                                     ticks_diff(now, self.since) > 2500):
            self.app.go(self.then)
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
    the menu: the last result of each game, then the remembered results
    (entries ``(gid, values, label, options)``: "BEST 12  VARIANT=5",
    "FEWEST TURNS 9  ...", "WINS 3 ..." per seat). B (or A) goes back to
    ``back``."""

    def __init__(self, app, gid, scores, back, games=None):
        self.app = app
        self.back = back
        self.games = games     # [(gid, scores), ...] from the menu, or None
        self.game_index = 0
        self.page = 0
        self.text = font.Scroller(app.d.width, y=2 if app.d.width <= 8 else 10,
                                  colour=P.TEXT)
        if games and len(games[0]) > 2:
            g = games[0]
            self._load(g[0], g[1], g[2], g[3])
        else:
            self._load(gid, scores)

    def _load(self, gid, scores, label="", options=""):
        self.gid = gid
        self.scores = scores
        # texts built once per game shown, not per page or frame
        self.texts = ([label + str(s) + options for s in scores] if scores
                      else ["NO SCORES"])
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
            self.app.go(self.back)
            return True
        if k == LEFT or k == RIGHT:
            if n < 2:
                return False
            self.page = (self.page + (1 if k == RIGHT else n - 1)) % n
            self.text.set(self.texts[self.page], self.app.now)
            return True
        if (k == UP or k == DOWN) and self.games and len(self.games) > 1:
            m = len(self.games)
            self.game_index = (self.game_index + (1 if k == DOWN else m - 1)) % m
            g = self.games[self.game_index]
            if len(g) > 2:
                self._load(g[0], g[1], g[2], g[3])
            else:
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
            if self.gid:
                draw_icon(d, icon(self.gid), 0, 0, 1)
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
            self.app.to_menu()
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


class Rules:
    """The menu's RULES item: a short summary of each game's rules
    (lib/rules.py), scrolling under the game's icon on 16x16; on 8x8 the
    icon shows for a moment, then the text scrolls in its place. LEFT/RIGHT
    (or UP/DOWN) another game, A or B back to the menu."""

    ICON_MS = 1000     # 8x8: the icon before the text

    def __init__(self, app):
        from lib import rules
        self.app = app
        self.rules = rules
        self.games = [g for g in catalog.ids() if g in app.playable]
        if not self.games:
            self.games = list(catalog.ids())
        self.index = 0
        self.small = app.d.width <= 8
        self.text = font.Scroller(app.d.width, y=1 if self.small else 10,
                                  colour=P.TEXT, step_ms=80, pause_ms=600)
        self.texting = not self.small
        self.since = app.now
        self._show()

    def _show(self):
        self.text.set(self.rules.text(self.games[self.index]), self.app.now)
        self.since = self.app.now
        self.texting = not self.small

    def key(self, k):
        if k == A or k == B:
            from engine.state import release
            self.rules = None
            release("lib.rules")
            self.app.to_menu()
            return True
        n = len(self.games)
        if k == RIGHT or k == DOWN:
            self.index = (self.index + 1) % n
        elif k == LEFT or k == UP:
            self.index = (self.index + n - 1) % n
        else:
            return False
        self._show()
        return True

    def tick(self, now):
        if not self.texting:
            if ticks_diff(now, self.since) < self.ICON_MS:
                return False
            self.texting = True
            self.text.set(self.text.text, now)
            return True
        return self.text.tick(now)

    def draw(self, d):
        d.fill(P.OFF)
        gid = self.games[self.index]
        if self.small:
            if self.texting:
                self.text.draw(d)
            else:
                draw_icon(d, icon(gid), 0, 0, 1)
            return
        draw_icon(d, icon(gid), 4, 0, 1)
        self.text.draw(d)


class SettingsScreen:
    """UP/DOWN choose a setting (its name scrolls), LEFT/RIGHT change its
    value, B goes back to the menu and writes the record if it changed.
    On an 8x8 panel the name scrolls once and then the value shows (it
    scrolls too if wider than the panel); brightness applies at once so
    the player sees what they pick. A setting that does not apply with the
    others (IceTowers' ghost with more than two players) shows its value
    grey and struck through with a red line: the game starts without it.
    A count of seats the device plays never goes past the players less
    one, and shows as it will play."""

    def __init__(self, app):
        self.app = app
        # (item index, title) of what shows here: the settings with a title
        # (a table tool's own choices are made in the tool), a game's only
        # when the game is playable here
        items = app.settings.items
        self.rows = [(i, items[i].setting.title) for i in range(len(items))
                     if items[i].setting.title and
                     (not items[i].gid or items[i].gid in app.playable)]
        self.row = 0         # row shown
        self.item = 0         # its item index
        self.small = app.d.width <= 8
        self.text = font.Scroller(app.d.width, y=1, colour=P.TEXT,
                                  step_ms=75, pause_ms=250)
        self.value = font.Scroller(app.d.width, y=1 if self.small else 9,
                                   colour=P.HILITE, pause_ms=400)
        self.naming = True     # 8x8: the name is scrolling, not the value
        self.shown = ""        # the value shown (lib.settings label)
        self.off = False       # it does not apply with the others
        self._show(0)

    def _value(self):
        st = self.app.settings
        self.shown = st.label(self.item)
        self.off = not st.applies(self.item)
        return self.shown

    def _show(self, r):
        self.row = r
        self.item = self.rows[r][0]
        now = self.app.now
        self.text.loop = not self.small
        self.text.set(self.rows[r][1], now)
        self.naming = self.small
        self.value.set(self._value(), now)

    def key(self, k):
        app = self.app
        st = app.settings
        if k == B:
            st.flush()
            app.to_menu()
            return True
        if k == UP or k == DOWN:
            n = len(self.rows)
            self._show((self.row + (1 if k == DOWN else n - 1)) % n)
            return True
        if k == LEFT or k == RIGHT:
            # one press changes the value on both panels (on 8x8 it also
            # stops the name scrolling, so the new value shows at once)
            self.naming = False
            if not st.step(self.item, 1 if k == RIGHT else -1):
                self.value.set(self._value(), app.now)
                app.refuse()
                return True
            app.apply_settings()
            self.value.set(self._value(), app.now)
            return True
        return False

    def tick(self, now):
        if self.naming:
            if self.text.done:
                self.naming = False
                self.value.set(self._value(), now)
                return True
            return self.text.tick(now)
        ch = self.value.tick(now)
        if not self.small and self.text.tick(now):
            ch = True
        return ch

    def draw(self, d):
        d.fill(P.OFF)
        v = self.value
        if self.off:
            v.colour = P.DIM
            # the strike first: the value's grey lit pixels go over it
            if not (self.small and self.naming):
                d.rect(0, v.y + 2, d.width, 1, P.REFUSE)
        else:
            v.colour = P.OK if self.shown == "on" else P.HILITE
        if self.small:
            if self.naming:
                self.text.draw(d)
            else:
                v.draw(d)
            # which setting: a dot per item along the bottom row (spread
            # out if there are more items than pixels)
            n = len(self.rows)
            d.pixel(self.row if n <= 8 else self.row * 7 // (n - 1), 7, P.TEXT)
        else:
            self.text.draw(d)
            v.draw(d)
            d.pixel(self.row * 2, 15, P.TEXT)
