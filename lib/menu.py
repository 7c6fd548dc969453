"""The menu: one icon per game and tool, then rules, settings, scores and
about (RULES: each game's rules in short, lib.shell.Rules).

LEFT/RIGHT (or UP/DOWN) move through the items, wrapping; A opens one.
Every game and tool of the catalog (engine/catalog.py) is listed, in its
order; one not built, or whose engine or screen is not on this device, is
drawn grey, and A on it shows a red cross ("not yet") instead of opening.
On a 16x16 panel the item's name scrolls under its icon; on 8x8, where
there is no room, the name scrolls past once in place of the icon when the
cursor has rested on an item for two seconds.
"""

from lib import palette as P
from lib import font
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, ticks_diff
from lib import screens_common as C
from engine import catalog

NOPE_MS = 800      # how long the "not yet" cross shows
# the RULES item, after the games: its icon (as the catalog's are written),
# kept in screens_common's icon cache so every screen draws it alike
RULES = "rules"
RULES_ICON = (
    ".dddddd."
    ".d....d."
    ".dttthd."
    ".d....d."
    ".dtthhd."
    ".d....d."
    ".dthttd."
    ".dddddd."
)
NAME_MS = 2000     # 8x8: rest this long on an item and its name scrolls by
SPREAD = 6         # 16x16: changed rows shown per pass at most


class Menu:
    def __init__(self, app):
        self.app = app
        # the catalog's games and tools, then the shell's own items
        if RULES not in C.ICONS:
            C.ICONS[RULES] = C.compile_icon(RULES_ICON)
        self.items = tuple(catalog.ids()) + (RULES,) + C.SHELL_ITEMS
        self.games = len(self.items) - len(C.SHELL_ITEMS) - 1
        # each item's name, looked up once
        self.names = tuple([C.name(item) for item in self.items])
        self.cursor = 0
        self.nope = -1     # when "not yet" was shown, or -1
        self.small = app.d.width <= 8
        self.text = font.Scroller(app.d.width, y=1 if self.small else 10,
                                  colour=P.TEXT, step_ms=80,
                                  pause_ms=150 if self.small else 700,
                                  loop=not self.small)
        self.since = 0     # 8x8: when the cursor came to rest
        self.naming = 0    # 8x8: 0 icon, 1 name scrolling, 2 name shown
        # 16x16: the frame without the name, kept while the name scrolls
        # under it (drawing the icon again every step cost more than the
        # step), and what it shows: item | 0x80 with the cross, or -1
        self.base = None   # (made when the menu shows, dropped in a game)
        self.base_key = -1
        self._label()

    def wake(self):
        """The menu is shown again (after a game or a shell screen)."""
        self.base_key = -1
        self._label()


    def select(self, item):
        """Put the cursor on ``item`` (an id in ``items``)."""
        if item in self.items:
            self.cursor = self.items.index(item)
            self._label()

    def current(self):
        return self.items[self.cursor]

    def playable(self, i):
        return self.items[i] in self.app.playable

    def _label(self):
        self.nope = -1
        self.since = self.app.now
        self.naming = 0
        self.text.set(self.names[self.cursor], self.app.now)
        self.text.colour = P.TEXT if (self.cursor >= self.games or self.playable(self.cursor)) \
            else P.DIM

    def key(self, k):
        n = len(self.items)
        if k == RIGHT or k == DOWN:
            self.cursor = (self.cursor + 1) % n
            self._label()
            return True
        if k == LEFT or k == UP:
            self.cursor = (self.cursor + n - 1) % n
            self._label()
            return True
        if k == A:
            return self.open()
        return False

    def open(self):
        app = self.app
        item = self.items[self.cursor]
        if self.cursor < self.games:
            if app.choose(item):
                # the game's screen gets the heap of the frame copy
                self.base = None
                return True
            # not on this device (or it failed to start): say so
            self.nope = app.now
            self.naming = 2
            self.text.set("NOT YET", app.now)
            self.text.colour = P.REFUSE
            return True
        if item == RULES:
            app.scr = app.shell("Rules")
        elif item == "settings":
            app.scr = app.shell("SettingsScreen")
        elif item == "scores":
            app.scr = app.scores_screen()
        else:
            app.scr = app.shell("About")
        return True

    def tick(self, now):
        if self.nope >= 0:
            if ticks_diff(now, self.nope) >= NOPE_MS:
                self._label()
                self.naming = 2
                return True
            return not self.small and self.app.d.owed
        if not self.small:
            # (or rows of the last frame still owed: another pass of it)
            return self.text.tick(now) or self.app.d.owed
        if self.naming == 0:
            if ticks_diff(now, self.since) >= NAME_MS:
                self.naming = 1
                self.text.set(self.names[self.cursor], now)
                return True
            return False
        if self.naming == 1:
            if self.text.done:
                self.naming = 2    # once per rest: back to the icon
                return True
            return self.text.tick(now)
        return False

    def draw(self, d):
        d.fill(P.OFF)
        item = self.items[self.cursor]
        dim = self.cursor < self.games and not self.playable(self.cursor)
        if self.small:
            if self.naming == 1:
                self.text.draw(d)
                return
            C.draw_icon(d, C.icon(item), 0, 0, 1, dim)
            if self.nope >= 0:
                C.cross(d, 0, 0, 8, P.REFUSE)
        else:
            # a new item goes up SPREAD changed rows a pass
            d.spread(SPREAD)
            if self.base is None:
                self.base = bytearray(d.n)
                self.base_key = -1
            key = self.cursor | (0x80 if self.nope >= 0 else 0)
            if key == self.base_key:
                d.frame[:] = self.base
            else:
                C.draw_icon(d, C.icon(item), 4, 0, 1, dim)
                if self.nope >= 0:
                    C.cross(d, 4, 0, 8, P.REFUSE)
                self.base[:] = d.frame
                self.base_key = key
            self.text.draw(d)
