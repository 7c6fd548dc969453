"""Load games by id. A game's module is imported only when it is asked for.

To add a game: write ``engine/<id>.py`` with a ``State`` subclass called
``Game`` and add its id to :data:`GAMES`.
"""

from engine.state import parse_options, split_header

GAMES = ("ice_solo", "bag_of_ice", "ice_stalks", "ice_towers", "pointsettia",
         "dice", "bag")


def game_class(game_id):
    """The ``Game`` class of a registered id (imports its module)."""
    if game_id not in GAMES:
        raise ValueError("unknown game %r (games: %s)" % (game_id, " ".join(GAMES)))
    try:
        mod = __import__("engine." + game_id, None, None, ("Game",))
    except ImportError as e:
        if game_id in str(e):
            raise ValueError("game %s is not built yet" % game_id)
        raise
    return mod.Game


def available():
    """Ids whose modules exist on this installation. Modules imported only
    to find out are released again, so listing costs no lasting memory."""
    import sys
    out = []
    for g in GAMES:
        name = "engine." + g
        loaded = name in sys.modules
        try:
            game_class(g)
            out.append(g)
        except ValueError:
            pass
        if not loaded and name in sys.modules:
            del sys.modules[name]
            # the package keeps its submodule as an attribute too; on
            # MicroPython that alone holds the module's code (~KBs) alive
            pkg = sys.modules.get("engine")
            if pkg is not None and g in pkg.__dict__:
                delattr(pkg, g)
    return out


def new(game_id, options=None):
    """A fresh state. ``options`` is a dict or a list of ``key=value`` words."""
    if options is None or isinstance(options, dict):
        opts = dict(options or {})
    else:
        opts = parse_options(options)
    return game_class(game_id)(opts)


def deserialize(data):
    """Bytes from ``State.serialize`` -> an equal state; ValueError if bad."""
    gid, opt, body = split_header(data)
    st = new(gid, opt.split() if opt else None)
    st._unpack(body)
    return st
