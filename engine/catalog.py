"""The catalog: every game and table tool the console knows, in menu order.

This table is the one place a game is named. The engine's registry (and so
the text protocol's ``games`` and ``new``), the menu, the settings, the
shell, the simulator's key scripts, the gallery and the generic tests all
read it. It lives in engine/ because the engine must read it and engine/
never imports lib/.

To add a game ``<id>``: write ``engine/<id>.py`` (a ``State`` subclass
called ``Game``), write ``lib/screen_<id>.py`` (a ``Screen``, see the
contract in lib/app.py), and add one :class:`Entry` to :data:`GAMES`
below with ``built=True``. Until its screen exists an entry stays
``built=False``: the menu lists it greyed out.

An entry's fields:

``gid``       the id: module names ``engine.<gid>`` and ``lib.screen_<gid>``,
              the protocol's ``new <gid>``, the key of its settings and saves
``name``      what the menu scrolls (upper case: the LED font has no other)
``players``   ``(fewest, most)`` seats
``built``     its engine and its screen both exist in this repository
``icon``      an 8x8 picture, one 64-character string read row by row:
              ``.`` off; piece colours ``r o y g c b p w k`` (large) and
              ``R O Y G C B P W K`` (small, dimmer); ``d`` dim, ``t`` text,
              ``h`` highlight, ``+`` ok, ``x`` refusal, ``1``-``4`` players
``settings``  the engine options the device remembers, as :class:`Setting`
``tool``      a table tool (dice, bag), not a game: one opened while a game
              is saved runs without saving rather than write over it
``budget``    the option sets (each a string of ``key=value`` words) that
              tools/budget.py plays at engine level: the defaults, and the
              ones that cost a board the most (most players, bot seats)
"""


# what the choice of a setting of the seats the device plays (``seats``) is
COUNT = 1   # how many of the last seats: "0" none, at most the players less one
NAMED = 2   # the one seat, by the name the engine takes; the first choice: none


class Setting:
    """One remembered option of a game: the engine option ``option`` takes
    one of ``choices`` (strings), ``default`` at first. ``title`` is the
    name the settings screen shows, or None for a choice made inside the
    game's own screen (the table tools'). ``labels`` are what the settings
    screen shows for each choice, or None to show the choice itself.

    ``needs`` is None, or ``(option, choice)``: the setting applies only
    while the game's setting ``option`` is at ``choice``; otherwise the game
    starts without it and the settings screen shows it crossed out.
    ``seats`` is 0, or COUNT or NAMED for the seats the device plays
    (lib.settings turns either into the engine's list of seats). A COUNT
    never reaches every seat: it is held to the game's PLAYERS setting (or
    its most players) less one, and crossed out where that is none."""

    def __init__(self, option, choices, default, title=None, labels=None,
                 needs=None, seats=0):
        self.option = option
        self.choices = choices
        self.default = default
        self.title = title
        self.labels = labels
        self.needs = needs
        self.seats = seats


class Entry:
    """One game or table tool (the fields are described above)."""

    def __init__(self, gid, name, players, built, icon, settings=(), tool=False,
                 budget=("",)):
        self.gid = gid
        self.name = name
        self.players = players
        self.built = built
        self.icon = icon
        self.settings = settings
        self.tool = tool
        self.budget = budget


def counts(low, high):
    """The choices ``low`` .. ``high`` as strings."""
    return tuple([str(n) for n in range(low, high + 1)])


OFF_ON = ("off", "on")

GAMES = [
    Entry("ice_solo", "ICE SOLO", (1, 1), True,
          "....g..."
          "...ggg.."
          "...yyy.."
          "..yyyyy."
          "..bbbbb."
          ".bbbbbbb"
          "........"
          "R.Y.G.B.",
          (Setting("variant", ("4", "5"), "5", "ICE SOLO: COLOURS"),
           # the quick start deals the 4-colour game only (the 5-colour
           # one is always dealt straight into the grid)
           Setting("quick", ("0", "1"), "0", "ICE SOLO: QUICK START", OFF_ON,
                   needs=("variant", "4"))),
          budget=("variant=5", "variant=4", "variant=4 quick=1")),
    Entry("bag_of_ice", "BAG OF ICE", (1, 12), True,
          "...tt..."
          "..t..t.."
          "...tt..."
          ".tttttt."
          "t......t"
          "t.y.p.yt"
          "tyyyppyt"
          ".tttttt.",
          (Setting("players", counts(1, 12), "2", "BAG OF ICE: PLAYERS"),
           Setting("target", ("30", "40", "50", "60", "80", "100"), "60",
                   "BAG OF ICE: TARGET"),
           # how many seats the device plays: the last ones, so seat 1
           # stays a person's
           Setting("bots", counts(0, 11), "0", "BAG OF ICE: DEVICE PLAYS",
                   ("none",) + counts(1, 11), seats=COUNT)),
          budget=("players=3", "players=2 bots=2", "players=12 target=30")),
    Entry("ice_stalks", "ICE STALKS", (2, 4), True,
          "...p...."
          "...b...."
          "..ccc..."
          "..ggg..."
          ".yyyyy.."
          ".ooooo.."
          "rrrrrrr."
          ".....R.G",
          (Setting("players", counts(2, 4), "2", "ICE STALKS: PLAYERS"),
           # the last seats, as Bag of Ice's
           Setting("bots", counts(0, 3), "0", "ICE STALKS: DEVICE PLAYS",
                   ("none",) + counts(1, 3), seats=COUNT)),
          budget=("players=2", "players=2 bots=2", "players=4 bots=2,3,4")),
    Entry("ice_towers", "ICETOWERS", (2, 5), True,
          "........"
          ".r......"
          ".g....b."
          ".b..y.y."
          ".y..r.r."
          ".g..g.g."
          ".r..p.y."
          "dddddddd",
          (Setting("players", counts(2, 5), "3", "ICETOWERS: PLAYERS"),
           # the ghost stash plays only with 2 players (the engine refuses
           # it with more)
           Setting("ghost", ("0", "1"), "0", "ICETOWERS: GHOST IF 2 PLAYERS",
                   OFF_ON, needs=("players", "2")),
           # the seats the device plays: the last ones, as Bag of Ice's
           Setting("bots", counts(0, 4), "0", "ICETOWERS: DEVICE PLAYS",
                   ("none",) + counts(1, 4), seats=COUNT)),
          budget=("players=3", "players=2 ghost=1 bots=2",
                  "players=5 bots=2,3,4,5")),
    Entry("pointsettia", "POINTSETTIA", (2, 2), True,
          "r..g..r."
          ".r.g.r.."
          "..rgr..."
          "gggwggg."
          "..rkr..."
          ".r.g.r.."
          "g..g..g."
          "........",
          # which seat the device plays, by its colour (Green moves first)
          (Setting("bots", ("none", "red", "green"), "none",
                   "POINTSETTIA: DEVICE PLAYS", seats=NAMED),)),
    Entry("dice", "DICE", (1, 1), True,
          ".tttttt."
          "tw....wt"
          "t......t"
          "t..ww..t"
          "t..ww..t"
          "t......t"
          "tw....wt"
          ".tttttt.",
          (Setting("die", ("pyramid", "color", "treehouse", "d6"), "pyramid"),
           Setting("count", counts(1, 6), "1")), tool=True,
          budget=("die=pyramid count=3", "die=d6 count=6")),
    Entry("bag", "BAG", (1, 1), True,
          "...tt..."
          "..t..t.."
          "...tt..."
          ".tttttt."
          "t.r..g.t"
          "t..y..ct"
          "tb..p..t"
          ".tttttt.",
          (Setting("preset", ("bag_of_ice", "ice_stalks", "custom"),
                   "bag_of_ice"),), tool=True,
          budget=("preset=bag_of_ice", "preset=ice_stalks")),
]


def ids():
    """Every id in the catalog, in menu order."""
    return [entry.gid for entry in GAMES]


def entry(gid):
    """The entry of ``gid``, or None."""
    for e in GAMES:
        if e.gid == gid:
            return e
    return None


def built():
    """The ids of the entries marked built."""
    return [e.gid for e in GAMES if e.built]
