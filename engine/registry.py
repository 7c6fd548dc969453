"""Load games by id. A game's module is imported only when it is asked for.

To add a game: write ``engine/<id>.py`` with a ``State`` subclass called
``Game`` and add its id to :data:`GAMES`.
"""

from engine.state import parse_options, seldom, fail

GAMES = ("ice_solo", "bag_of_ice", "ice_stalks", "ice_towers", "pointsettia",
         "dice", "bag")


def game_class(game_id):
    """The ``Game`` class of a registered id (imports its module)."""
    if game_id not in GAMES:
        seldom().unknown_game(game_id, GAMES)
    try:
        mod = __import__("engine." + game_id, None, None, ("Game",))
    except ImportError as e:
        if game_id in str(e):
            fail(43, (game_id,))   # game %s is not built yet
        raise
    return mod.Game


def installed(pkg, names):
    """Those of ``names`` whose module ``pkg.<name>`` is loaded or on disk
    (nothing is imported). The app asks this of its screens."""
    return seldom().installed(pkg, names)


def available():
    """Ids whose engine modules are installed here (looks at the files:
    nothing is imported, so asking costs no memory on a board)."""
    return seldom().installed("engine", GAMES)


def new(game_id, options=None):
    """A fresh state. ``options`` is a dict or a list of ``key=value`` words."""
    if options is None or isinstance(options, dict):
        opts = dict(options or {})
    else:
        opts = parse_options(options)
    return game_class(game_id)(opts)


def deserialize(data):
    """Bytes from ``State.serialize`` -> an equal state; ValueError if bad."""
    gid, opt, body = seldom().split_header(data)
    st = new(gid, opt.split() if opt else None)
    st._unpack(body)
    return st
