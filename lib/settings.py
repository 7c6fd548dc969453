"""Remembered settings: brightness, the options of each game the catalog
lists (engine/catalog.py, ``Entry.settings``), the custom bag, and the last
result of each game.

Everything is one small record in the platform store (NVM), written only
when something changed and the player leaves a screen, so a session costs a
handful of flash writes. An unreadable record gives the defaults.

The record is keyed by name: each game's settings under its id, each
setting by its option name, each result by its game id, so adding, removing
or reordering games or settings never shifts another's value. Only values
that differ from their defaults are written, each as the index of its
choice: a setting may gain choices at the end, never reorder them (that
would need a new VERSION). Records of every earlier format still load:
version 2 (each key written whole, ``<game id>.<option>``, with its chosen
text: with every setting changed it outgrew the store's slot) and
version 1 (values and results by position, written before the catalog).
"""

from engine import catalog

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# display brightness (0..255) of each level; the display's power limit may
# still lower a bright frame
LEVELS = (8, 16, 28, 44, 64, 96, 140, 200)
BRIGHTNESS = catalog.Setting("bright", catalog.counts(1, 8), "5", "BRIGHTNESS")
BRIGHT = const(0)    # the brightness is the first item
# the shell's own settings after the games' (appended, so a game's setting
# keeps its place on the screen): how fast effects play, and the sound
# (heard only on a board whose profile names a PIEZO_PIN)
PACE = catalog.Setting("pace", ("1", "2", "3", "4"), "2", "ANIMATION SPEED",
                       ("SLOW", "NORMAL", "FAST", "FASTEST"))
# speed per pace, in quarters: an effect's clock runs this many quarter
# milliseconds a millisecond (SLOW takes twice as long, FASTEST a quarter)
SPEEDS = b"\x02\x04\x08\x10"
SOUND = catalog.Setting("sound", ("0", "1"), "1", "SOUND", catalog.OFF_ON)
# Ice Solo's deal: a new one, or the same as last time (the app keeps the
# generator's state each new deal was dealt from, ``deal_seed``); its
# option is "replay", which no engine takes (Ice Solo's own ``deal=`` is a
# dealt position), so it never reaches the engine
DEAL = catalog.Setting("replay", ("new", "same"), "new", "ICE SOLO: DEAL",
                       ("NEW", "SAME"))
REPLAYS = ("ice_solo",)     # games whose deal can be dealt again
# custom bag: rocks of each of these colours (black is left out: it barely
# shows on an LED), 0..CUSTOM_MAX each, so a bar is one pixel per rock on 8x8
COLOURS = "roygcbpw"
CUSTOM_DEFAULT = b"\x03\x03\x03\x03\x03\x03\x03\x00"
CUSTOM_MAX = const(8)
MAGIC = b"PS"
VERSION = const(3)
# a settings record must fit the store's settings slot (lib.save:
# SETTINGS_SLOT less its HEADER)
MAX_RECORD = const(244)

# The first format (version 1) stored each value as an index into its
# choices, in this order of keys, and each result by its game's place in
# this order of games. Kept only to read such a record.
V1_KEYS = ("bright", "ice_solo.variant", "ice_solo.quick", "bag_of_ice.players",
           "bag_of_ice.target", "ice_stalks.players", "ice_towers.players",
           "ice_towers.ghost", "dice.die", "dice.count", "bag.preset",
           "bag_of_ice.bots")
V1_GAMES = ("ice_solo", "bag_of_ice", "ice_stalks", "ice_towers", "pointsettia",
            "dice", "bag")


def custom_contents(counts):
    """Rock counts per COLOURS -> the bag engine's ``contents`` text, e.g.
    ``'r*3,y*2'``; None if the bag would be empty."""
    parts = ["%s*%d" % (COLOURS[i], counts[i]) for i in range(len(COLOURS))
             if counts[i]]
    return ",".join(parts) if parts else None


class Item:
    """One setting as the settings record and screen see it: ``key``
    (``<game id>.<option>``, or ``bright``), ``gid`` (``""`` for the
    brightness) and the catalog's ``setting``. ``needs_at`` is the index
    in the items of the setting its ``needs`` names, ``players_at`` that of
    its game's PLAYERS setting (-1: none); ``most`` is its game's most
    players."""

    def __init__(self, key, gid, setting, most=1):
        self.key = key
        self.gid = gid
        self.setting = setting
        self.most = most
        self.needs_at = -1
        self.players_at = -1


def catalog_items():
    """The brightness, then every game's settings in catalog order."""
    items = [Item("bright", "", BRIGHTNESS)]
    for entry in catalog.GAMES:
        for setting in entry.settings:
            items.append(Item(entry.gid + "." + setting.option, entry.gid,
                              setting, entry.players[1]))
    items.append(Item("pace", "", PACE))
    items.append(Item("sound", "", SOUND))
    for gid in REPLAYS:
        items.append(Item(gid + ".replay", gid, DEAL))
    # the settings each one's value depends on, found once
    for it in items:
        needs = it.setting.needs
        for j in range(len(items)):
            other = items[j]
            if other.gid != it.gid or not it.gid:
                continue
            if needs is not None and other.setting.option == needs[0]:
                it.needs_at = j
            if other.setting.option == "players":
                it.players_at = j
    return items


def best_key(gid, state):
    """The remembered-results key of a game and its option set, e.g.
    ``ice_solo quick=0 variant=5``."""
    return gid + " " + state.options if state.options else gid


def is_fewest(gid, values):
    """A single remembered value that is a count of turns, the fewer the
    better (Bag of Ice in practice), not a best score."""
    return gid == "bag_of_ice" and len(values) == 1


class Settings:
    """Current values (``values[i]`` indexes ``items[i]``'s choices) and
    persistence."""

    def __init__(self, store=None):
        self.store = store
        self.items = catalog_items()
        self.values = bytearray([it.setting.choices.index(it.setting.default)
                                 for it in self.items])
        self.defaults = bytes(self.values)   # only values off these are saved
        self.custom = bytearray(CUSTOM_DEFAULT)
        self.results = {}     # game id -> list of scores of its last game
        self.last = None      # id of the game that finished most recently
        # remembered results per game and option set (best_key): a best
        # score [n], the fewest turns [n], or wins per seat [w0, w1, ...]
        self.bests = {}
        self.deal_game = ""   # the game last dealt anew (REPLAYS) ...
        self.deal_seed = 0    # ... and the seed it was dealt from (32 bits)
        self.dirty = False
        if store is not None:
            try:
                data = store.load_settings()
            except ValueError:
                data = None
            if data:
                self.decode(bytes(data))

    # ---- values ----------------------------------------------------------
    def index(self, key):
        """The place of setting ``key`` in ``items``; KeyError if none."""
        for i in range(len(self.items)):
            if self.items[i].key == key:
                return i
        raise KeyError(key)

    def get(self, key):
        """The chosen option string of ``key``."""
        i = self.index(key)
        return self.items[i].setting.choices[self.values[i]]

    def set(self, key, value):
        i = self.index(key)
        v = self.items[i].setting.choices.index(value)
        if self.values[i] != v:
            self.values[i] = v
            self.dirty = True

    def label(self, i):
        """What the settings screen shows for item ``i``'s value (as it
        applies: see ``choice``)."""
        setting = self.items[i].setting
        return (setting.labels or setting.choices)[self.choice(i)]

    def most(self, i):
        """The highest choice item ``i`` can take with the others' values:
        a COUNT of seats the device plays stops at the players less one
        (the game's PLAYERS setting, or its most players)."""
        it = self.items[i]
        top = len(it.setting.choices) - 1
        if it.setting.seats != catalog.COUNT:
            return top
        if it.players_at >= 0:
            players = int(self.get_at(it.players_at))
        else:
            players = it.most
        return min(top, players - 1)

    def choice(self, i):
        """The index of item ``i``'s choice as the game gets it: the value
        kept, held to ``most``."""
        return min(self.values[i], self.most(i))

    def applies(self, i):
        """Does item ``i`` reach its game with the others' values? Not a
        setting whose ``needs`` is unmet (IceTowers' ghost with more than
        two players), nor a COUNT of seats with none to give (one player)."""
        it = self.items[i]
        needs = it.setting.needs
        if needs is not None and self.get_at(it.needs_at) != needs[1]:
            return False
        return it.setting.seats != catalog.COUNT or self.most(i) > 0

    def get_at(self, i):
        """The chosen option string of item ``i`` as kept."""
        return self.items[i].setting.choices[self.values[i]]

    def step(self, i, delta):
        """Move item ``i`` to the next/previous choice it can take (see
        ``most``); True if it changed."""
        v = self.choice(i) + delta
        if v < 0 or v > self.most(i):
            return False
        self.values[i] = v
        self.dirty = True
        return True

    def brightness(self):
        """Brightness level 1..8."""
        return self.values[BRIGHT] + 1

    def apply(self, display):
        """Set the display brightness from the setting."""
        display.brightness = LEVELS[self.values[BRIGHT]]

    def speed(self):
        """How fast effects play, in quarters (4 normal, see SPEEDS)."""
        return SPEEDS[self.values[self.index("pace")]]

    def sound_on(self):
        return self.get("sound") == "1"

    def options(self, gid, accepted):
        """The remembered options of game ``gid`` that its engine takes and
        that apply with the others (``applies``), as the settings screen
        shows them: a COUNT of seats becomes the last seats, counted from
        1; a NAMED seat its name; none is left out."""
        out = {}
        for i in range(len(self.items)):
            it = self.items[i]
            setting = it.setting
            if it.gid != gid or setting.option not in accepted or not self.applies(i):
                continue
            c = self.choice(i)
            if setting.seats and c == 0:
                continue
            if setting.seats == catalog.COUNT:
                p = it.most if it.players_at < 0 else int(self.get_at(it.players_at))
                out["bots"] = ",".join([str(k) for k in range(p - c + 1, p + 1)])
            else:
                out[setting.option] = setting.choices[c]
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

    def record(self, gid, scores, state=None):
        """Remember the result of a finished game (for the scores screen)
        and, given its ``state``, the best results of its option set: one
        player's best score (Bag of Ice: the fewest turns to the target),
        or the wins of each seat (every seat with the top score wins)."""
        self.results[gid] = [int(s) for s in scores][:12]
        self.last = gid
        self.dirty = True
        if state is None or not scores:
            return
        key = best_key(gid, state)
        # taken out and put back: the dict keeps the latest played last
        old = self.bests.pop(key, None)
        n = len(scores)
        if n == 1:
            v = state.turns if gid == "bag_of_ice" else int(scores[0])
            if old is None or len(old) != 1 or (
                    v < old[0] if gid == "bag_of_ice" else v > old[0]):
                old = [v]
            self.bests[key] = old
            return
        if old is None or len(old) != n:
            old = [0] * n
        top = max(scores)
        for i in range(n):
            if scores[i] == top:
                old[i] += 1
        self.bests[key] = old

    def remember_deal(self, gid, seed):
        self.deal_game = gid
        self.deal_seed = seed
        self.dirty = True

    # ---- persistence -----------------------------------------------------
    # Version 3, after MAGIC and VERSION (a "name" is ASCII written without
    # a length: the top bit of its last character is set; the empty name is
    # one 0 byte):
    #   the custom bag's counts (len(COLOURS) bytes);
    #   a count, then per game with a setting off its default (the app's own
    #   settings under the empty name, first): its id (a name), a count,
    #   then per such setting its option (a name) and the index of its
    #   choice (a byte). Each id and option is written once;
    #   a count, then per result, the latest first: the game id (a name),
    #   the number of scores, each a signed 16-bit big-endian number.
    # Then, as in version 2 (a record without it reads as none):
    #   a count, then per remembered result (bests), the latest first: its
    #   key (a name), the number of values, each a signed 16-bit number;
    #   the game last dealt anew (a name, maybe empty) and its seed, 32 bits
    #   big-endian.
    # With every setting changed, a custom bag and the deal this takes 204
    # of the MAX_RECORD bytes (version 2 took 295 without the deal), so the
    # latest result (12 scores at most: 35 bytes) always fits. It is kept
    # first, then the remembered results, latest first, then the other
    # results, latest first, while the record fits (tests/test_save.py).
    def encode(self):
        items = self.items
        values = self.values
        defaults = self.defaults
        out = bytearray(MAGIC)
        out.append(VERSION)
        out += self.custom
        groups = []       # the ids with a changed setting, in item order
        for i in range(len(items)):
            if values[i] != defaults[i] and items[i].gid not in groups:
                groups.append(items[i].gid)
        out.append(len(groups))
        for gid in groups:
            add_name(out, gid)
            count_at = len(out)
            out.append(0)
            for i in range(len(items)):
                if items[i].gid == gid and values[i] != defaults[i]:
                    add_name(out, items[i].setting.option)
                    out.append(values[i])
                    out[count_at] += 1
        gids = [g for g in self.results if g != self.last]
        if self.last in self.results:     # the latest result first
            gids.insert(0, self.last)
        # the room the remembered results leave: after the results' count,
        # the tail's fixed part and the latest result
        room = MAX_RECORD - len(out) - 1 - 1 - name_size(self.deal_game) - 4
        if gids:
            room -= name_size(gids[0]) + 1 + 2 * len(self.results[gids[0]])
        tail = bytearray()
        tail.append(0)
        keys = list(self.bests)
        keys.reverse()           # the latest written first
        for k in keys:
            r = self.bests[k]
            size = name_size(k) + 1 + 2 * len(r)
            if size > room:
                break
            room -= size
            add_values(tail, k, r)
            tail[0] += 1
        add_name(tail, self.deal_game)
        d = self.deal_seed
        for shift in (24, 16, 8, 0):
            tail.append((d >> shift) & 0xFF)
        count_at = len(out)
        out.append(0)
        for g in gids:
            r = self.results[g]
            if len(out) + len(tail) + name_size(g) + 1 + 2 * len(r) > MAX_RECORD:
                break
            add_values(out, g, r)
            out[count_at] += 1
        return bytes(out + tail)

    def decode(self, data):
        """Load a record; anything malformed leaves the defaults."""
        if data[:2] != MAGIC or len(data) < 3:
            return False
        try:
            if data[2] == VERSION:
                read = read_v3(data, len(COLOURS), self.items)
            elif data[2] == 2:
                read = read_v2(data, len(COLOURS))
            elif data[2] == 1:
                read = read_v1(data, len(COLOURS))
            else:
                return False
        except (IndexError, ValueError):
            return False
        values, custom, results, last, bests, deal = read
        for key in values:
            try:
                i = self.index(key)
            except KeyError:
                continue      # a game no longer in the catalog
            choices = self.items[i].setting.choices
            if values[key] in choices:
                self.values[i] = choices.index(values[key])
        for i in range(len(custom)):
            self.custom[i] = min(custom[i], CUSTOM_MAX)
        self.results = results
        self.last = last
        self.bests = bests
        self.deal_game = deal[0]
        self.deal_seed = deal[1]
        return True

    def flush(self):
        """Write the record if anything changed since the last write."""
        if self.dirty and self.store is not None:
            self.store.save_settings(self.encode())
        self.dirty = False


def name_size(text):
    """The bytes ``text`` takes written as a name (add_name)."""
    return len(text) or 1


def add_name(out, text):
    """Append ``text`` (ASCII: ids, options, option words) to the bytearray
    ``out`` as a name: its characters, the top bit of the last one set, so
    it needs no length byte; the empty text is one 0 byte."""
    if not text:
        out.append(0)
        return
    out += text.encode()
    out[-1] |= 0x80


def add_values(out, text, values):
    """Append a key and its numbers: the name, a count, 16-bit each."""
    add_name(out, text)
    out.append(len(values))
    for s in values:
        s = max(-32768, min(32767, s)) & 0xFFFF
        out.append(s >> 8)
        out.append(s & 0xFF)


class Reader:
    """Reads a record from the front; IndexError past its end."""

    def __init__(self, data, at):
        self.data = data
        self.at = at

    def byte(self):
        b = self.data[self.at]
        self.at += 1
        return b

    def raw(self, n):
        part = self.data[self.at:self.at + n]
        if len(part) != n:
            raise IndexError("record truncated")
        self.at += n
        return part

    def text(self):
        """A length byte, then ASCII (version 2)."""
        return self.raw(self.byte()).decode()

    def name(self):
        """A name as add_name writes it (version 3)."""
        start = self.at
        b = self.byte()
        if not b:
            return ""
        while not b & 0x80:
            b = self.byte()
        part = bytearray(self.data[start:self.at])
        part[-1] &= 0x7F
        return bytes(part).decode()

    def left(self):
        return len(self.data) - self.at

    def scores(self):
        out = []
        for _ in range(self.byte()):
            s = (self.byte() << 8) | self.byte()
            out.append(s - 65536 if s & 0x8000 else s)
        return out


def read_v3(data, colours, items):
    """A version 3 record, its choices' indexes read against ``items``
    (catalog_items()) -> (values by key, custom counts, results, last,
    remembered results, (deal game, seed))."""
    reader = Reader(data, 3)
    custom = reader.raw(colours)
    values = {}
    for _ in range(reader.byte()):
        gid = reader.name()
        for _ in range(reader.byte()):
            option = reader.name()
            index = reader.byte()
            key = gid + "." + option if gid else option
            for it in items:
                if it.key == key and index < len(it.setting.choices):
                    values[key] = it.setting.choices[index]
    return (values, custom) + read_results(reader, reader.name)


def read_v2(data, colours):
    """A version 2 record -> the same as read_v3."""
    reader = Reader(data, 3)
    custom = reader.raw(colours)
    values = {}
    for _ in range(reader.byte()):
        key = reader.text()
        values[key] = reader.text()
    return (values, custom) + read_results(reader, reader.text)


def read_results(reader, text):
    """The results, the remembered results and the deal of a version 2 or
    3 record, their keys read by ``text`` -> (results, last, bests, deal)."""
    results = {}
    last = None
    for _ in range(reader.byte()):
        gid = text()
        results[gid] = reader.scores()
        if last is None:
            last = gid
    # the remembered results and the deal, if the record has them (read
    # oldest first, so the dict keeps the latest written last)
    bests = {}
    deal = ("", 0)
    if reader.left():
        pairs = []
        for _ in range(reader.byte()):
            key = text()
            pairs.append((key, reader.scores()))
        for i in range(len(pairs) - 1, -1, -1):
            bests[pairs[i][0]] = pairs[i][1]
        gid = text()
        seed = 0
        for _ in range(4):
            seed = (seed << 8) | reader.byte()
        deal = (gid, seed)
    return results, last, bests, deal


def read_v1(data, colours):
    """A version 1 record (values and results by position) -> the same as
    read_v3. Its indexes are read against the choices each setting had
    then, which are today's."""
    reader = Reader(data, 3)
    n = reader.byte()
    indexes = reader.raw(n)
    custom = reader.raw(colours)
    values = {}
    items = catalog_items()
    for i in range(min(n, len(V1_KEYS))):
        key = V1_KEYS[i]
        choices = None
        for it in items:
            if it.key == key:
                choices = it.setting.choices
        if choices is not None and indexes[i] < len(choices):
            values[key] = choices[indexes[i]]
    results = {}
    last = None
    for _ in range(reader.byte()):
        gid = V1_GAMES[reader.byte()]
        results[gid] = reader.scores()
        if last is None:
            last = gid
    return values, custom, results, last, {}, ("", 0)
