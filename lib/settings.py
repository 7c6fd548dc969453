"""Remembered settings: brightness, players and options per game, the table
tools' last choices, and the last result of each game.

Everything is one small record in the platform store (NVM), written only
when something changed and the player leaves a screen, so a session costs a
handful of flash writes. An unreadable record gives the defaults.

Each setting is a choice from a fixed tuple of option strings; a game gets
only the options its engine declares (``State.OPTIONS``), so a setting for
an option an engine does not take is harmless.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# (key, game or "" for general, engine option name, choices, default index,
#  what the screen shows for each choice or None to show the choice itself)
# Option names follow the engines where they exist (ice_solo); for games
# not built yet they are a guess that costs nothing if wrong, because a game
# only ever gets the options its engine lists in OPTIONS. The record stores
# values by position: add new items at the end.
_OFF_ON = ("off", "on")
ITEMS = (
    ("bright", "", "", ("1", "2", "3", "4", "5", "6", "7", "8"), 4, None),
    ("ice_solo.variant", "ice_solo", "variant", ("4", "5"), 1, None),
    ("ice_solo.quick", "ice_solo", "quick", ("0", "1"), 0, _OFF_ON),
    ("bag_of_ice.players", "bag_of_ice", "players",
     ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"), 1, None),
    ("bag_of_ice.target", "bag_of_ice", "target",
     ("30", "40", "50", "60", "80", "100"), 3, None),
    ("ice_stalks.players", "ice_stalks", "players", ("2", "3", "4"), 0, None),
    ("ice_towers.players", "ice_towers", "players", ("2", "3", "4", "5"), 0, None),
    ("ice_towers.ghost", "ice_towers", "ghost", ("0", "1"), 0, _OFF_ON),
    ("dice.die", "dice", "die", ("pyramid", "color", "treehouse", "d6"), 0, None),
    ("dice.count", "dice", "count", ("1", "2", "3", "4", "5", "6"), 0, None),
    ("bag.preset", "bag", "preset", ("bag_of_ice", "ice_stalks", "custom"), 0, None),
    # how many seats the device plays: the last ones, so seat 1 stays a
    # person's (see Settings.options); more than the players means all
    ("bag_of_ice.bots", "bag_of_ice", "bots",
     ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"), 0,
     ("none", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11")),
)
BRIGHT = const(0)
# display brightness (0..255) of each level; the display's power limit may
# still lower a bright frame
LEVELS = (8, 16, 28, 44, 64, 96, 140, 200)
# custom bag: rocks of each of these colours (black is left out: it barely
# shows on an LED), 0..CUSTOM_MAX each, so a bar is one pixel per rock on 8x8
COLOURS = "roygcbpw"
CUSTOM_DEFAULT = b"\x03\x03\x03\x03\x03\x03\x03\x00"
CUSTOM_MAX = const(8)
_MAGIC = b"PS"
_VERSION = const(1)
_GAMES = ("ice_solo", "bag_of_ice", "ice_stalks", "ice_towers", "pointsettia",
          "dice", "bag")


def custom_contents(counts):
    """Rock counts per COLOURS -> the bag engine's ``contents`` text, e.g.
    ``'r*3,y*2'``; None if the bag would be empty."""
    parts = ["%s*%d" % (COLOURS[i], counts[i]) for i in range(len(COLOURS))
             if counts[i]]
    return ",".join(parts) if parts else None


def index(key):
    for i in range(len(ITEMS)):
        if ITEMS[i][0] == key:
            return i
    raise KeyError(key)


class Settings:
    """Current values (indexes into each item's choices) and persistence."""

    def __init__(self, store=None):
        self.store = store
        self.vals = bytearray([it[4] for it in ITEMS])
        self.custom = bytearray(CUSTOM_DEFAULT)
        self.results = {}     # game id -> list of scores of its last game
        self.last = None      # id of the game that finished most recently
        self.dirty = False
        if store is not None:
            try:
                data = store.load_settings()
            except ValueError:
                data = None
            if data:
                self.decode(bytes(data))

    # ---- values ----------------------------------------------------------
    def get(self, key):
        """The chosen option string of ``key``."""
        i = index(key)
        return ITEMS[i][3][self.vals[i]]

    def set(self, key, value):
        i = index(key)
        v = ITEMS[i][3].index(value)
        if self.vals[i] != v:
            self.vals[i] = v
            self.dirty = True

    def step(self, i, delta):
        """Move item ``i`` to the next/previous choice (clamped); True if it
        changed."""
        n = len(ITEMS[i][3])
        v = self.vals[i] + delta
        if v < 0 or v >= n:
            return False
        self.vals[i] = v
        self.dirty = True
        return True

    def brightness(self):
        """Brightness level 1..8."""
        return self.vals[BRIGHT] + 1

    def apply(self, display):
        """Set the display brightness from the setting."""
        display.brightness = LEVELS[self.vals[BRIGHT]]

    def options(self, gid, accepted):
        """The remembered options of game ``gid`` that its engine takes."""
        out = {}
        for i in range(len(ITEMS)):
            it = ITEMS[i]
            if it[1] == gid and it[2] in accepted:
                out[it[2]] = it[3][self.vals[i]]
        if "bots" in out:
            # a count of seats here, a list of seats for the engine
            n = int(out.pop("bots"))
            p = int(out.get("players", "1"))
            if n:
                out["bots"] = ",".join([str(i) for i in range(max(1, p - n + 1), p + 1)])
        if out.get("preset") == "custom":
            del out["preset"]
            c = custom_contents(self.custom)
            if c:
                out["contents"] = c
        return out

    def set_custom(self, counts):
        if bytes(counts) != bytes(self.custom):
            self.custom = bytearray(counts)
            self.dirty = True

    def record(self, gid, scores):
        """Remember the result of a finished game (for the scores screen)."""
        self.results[gid] = [int(s) for s in scores][:12]
        self.last = gid
        self.dirty = True

    # ---- persistence -----------------------------------------------------
    def encode(self):
        out = bytearray(_MAGIC)
        out.append(_VERSION)
        out.append(len(self.vals))
        out += self.vals
        out += self.custom
        gids = [g for g in _GAMES if g in self.results]
        if self.last in gids:   # the latest result first
            gids.remove(self.last)
            gids.insert(0, self.last)
        out.append(len(gids))
        for g in gids:
            r = self.results[g]
            out.append(_GAMES.index(g))
            out.append(len(r))
            for s in r:
                s = max(-32768, min(32767, s)) & 0xFFFF
                out.append(s >> 8)
                out.append(s & 0xFF)
        return bytes(out)

    def decode(self, data):
        """Load a record; anything malformed leaves the defaults."""
        try:
            if data[:2] != _MAGIC or data[2] != _VERSION:
                return False
            n = data[3]
            vals = bytearray(data[4:4 + n])
            p = 4 + n
            custom = bytearray(data[p:p + len(COLOURS)])
            p += len(COLOURS)
            if len(vals) != n or len(custom) != len(COLOURS):
                return False
            results = {}
            last = None
            k = data[p]
            p += 1
            for _ in range(k):
                g = _GAMES[data[p]]
                m = data[p + 1]
                p += 2
                r = []
                for _ in range(m):
                    s = (data[p] << 8) | data[p + 1]
                    p += 2
                    r.append(s - 65536 if s & 0x8000 else s)
                results[g] = r
                if last is None:
                    last = g
        except IndexError:
            return False
        for i in range(min(n, len(ITEMS))):
            if vals[i] < len(ITEMS[i][3]):
                self.vals[i] = vals[i]
        for i in range(len(custom)):
            self.custom[i] = min(custom[i], CUSTOM_MAX)
        self.results = results
        self.last = last
        return True

    def flush(self):
        """Write the record if anything changed since the last write."""
        if self.dirty and self.store is not None:
            self.store.save_settings(self.encode())
        self.dirty = False
