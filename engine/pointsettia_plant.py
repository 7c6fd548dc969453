"""Pointsettia's plant, shared by the game (engine/pointsettia.py) and
its device player (engine/pointsettia_bot.py): the positions, their names
and links, the pieces, a move's placing, and the rim's runs and scores.
Positions and pieces are numbered as engine/pointsettia.py's docstring
says."""

GREEN = 0
RED = 1
CLEAR = 2
BLACK = 3
COLOURS = "grwk"
ROOT_PIECE = CLEAR << 2 | 3
MOVES = 45          # pieces played in a whole game (the plant holds 46)
RIM = 22            # the first rim position
BLACK_POWER = 5
# the stash kinds, in the order ``state`` lists them
KINDS = (1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15)


def _names():
    names = ["root", "0", "1", "2"]
    for i in range(1, 22):
        names.append(names[i] + "l")
        names.append(names[i] + "r")
    return tuple(names)


NAMES = _names()
INDEX = {}
for _i in range(46):
    INDEX[NAMES[_i]] = _i
# the parent of each position (the root's own entry is 0, never used)
PARENT = bytes([0, 0, 0, 0] + [(j - 2) // 2 for j in range(4, 46)])
DEPTH = bytes([len(n) if n != "root" else 0 for n in NAMES])
# the root child (1..3) each position lies under (0 for the root)
_branch = bytearray(b"\x00\x01\x02\x03" + bytes(42))
for _i in range(4, 46):
    _branch[_i] = _branch[PARENT[_i]]
BRANCH = bytes(_branch)
del _branch


def _reroot_table(i):
    """For the root child at slot ``i`` (0..2) becoming the root: the new
    position of every old position, 0xFF where it would fall past
    distance 4."""
    c = str(i)
    out = bytearray(46)
    for old in range(46):
        n = NAMES[old]
        if n == "root":
            new = "2"
        elif n[0] == c:
            rest = n[1:]
            new = "root" if not rest else ("0" if rest[0] == "l" else "1") + rest[1:]
        else:
            new = "2" + ("l" if int(n[0]) == (i + 1) % 3 else "r") + n[1:]
        out[old] = INDEX[new] if len(new) <= 4 or new == "root" else 0xFF
    return bytes(out)


REROOT = (_reroot_table(0), _reroot_table(1), _reroot_table(2))


def piece_name(p):
    return COLOURS[p >> 2] + "0123"[p & 3]


def parse_piece(text):
    """``'g2'`` -> piece code, or 0 if it is not one of the 12 kinds."""
    if len(text) == 2:
        c = COLOURS.find(text[0])
        s = "123".find(text[1])
        if c >= 0 and s >= 0:
            return c << 2 | (s + 1)
    return 0


def place(plant, a):
    """Put action ``a``'s piece into ``plant`` (a bytearray by position,
    changed in place) and use its power; returns the plant, a new one after
    a black power. ``a`` must be legal there."""
    k = a >> 9
    s = a >> 3 & 63
    power = a & 7
    plant[s] = k
    if power == BLACK_POWER:
        table = REROOT[BRANCH[s] - 1]
        new = bytearray(46)
        for p in range(46):
            if table[p] != 0xFF:
                new[table[p]] = plant[p]
        return new
    if power:
        # walk up from the slot: each piece on the path moves one place down
        p = s
        for _ in range(power):
            q = PARENT[p]
            plant[p] = plant[q]
            p = q
        plant[p] = k
    return plant


def rim_owners(plant):
    """For each rim position clockwise: ``(owner, scored)``, as two
    bytearrays: the seat it scores for (0xFF for nobody) and the position of
    the piece scored. Positions not filled score for nobody."""
    owner = bytearray(24)
    scored = bytearray(24)
    for r in range(24):
        p = RIM + r
        q = plant[p]
        while q >> 2 == CLEAR and p:
            p = PARENT[p]
            q = plant[p]
        c = q >> 2
        if q and c < CLEAR:
            owner[r] = c
            scored[r] = p
        else:
            owner[r] = 0xFF
    return owner, scored


def run_worth(plant, scored, start, length):
    """The worth of the run of ``length`` rim positions from ``start``
    (wrapping), whose scored pieces' positions are in ``scored``."""
    seen = []
    pips = 0
    ded = 0
    for k in range(length):
        p = scored[(start + k) % 24]
        if p not in seen:
            seen.append(p)
            pips += plant[p] & 3
            if p and plant[PARENT[p]] >> 2 == BLACK:
                ded += 1
    v = pips * (length - ded)
    return v if v > 0 else 0


def runs(plant, owner=None, scored=None):
    """Every run of the rim as ``[player, start, length, worth]``, sorted by
    start; positions not filled break runs (a full plant's runs are the
    scored ones)."""
    if owner is None:
        owner, scored = rim_owners(plant)
    first = 0
    while first < 24 and owner[first] == owner[first - 1]:
        first += 1
    out = []
    if first == 24:     # one owner all around
        if owner[0] != 0xFF:
            out.append([owner[0], 0, 24, run_worth(plant, scored, 0, 24)])
        return out
    k = 0
    while k < 24:
        s = (first + k) % 24
        o = owner[s]
        n = 1
        while n < 24 - k and owner[(s + n) % 24] == o:
            n += 1
        if o != 0xFF:
            out.append([o, s, n, run_worth(plant, scored, s, n)])
        k += n
    out.sort(key=_start)
    return out


def _start(run):
    return run[1]


def totals(plant):
    """The two players' totals of the runs as the plant stands."""
    t = [0, 0]
    for run in runs(plant):
        t[run[0]] += run[3]
    return t
