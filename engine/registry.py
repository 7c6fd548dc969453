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


def module_exists(pkg, name):
    """True if ``pkg/name.py`` or ``.mpy`` is on disk beside ``pkg``'s
    ``__init__``. Looks at files instead of importing, so asking costs no
    memory on a board."""
    import os
    import sys
    if pkg not in sys.modules:
        __import__(pkg)
    f = getattr(sys.modules[pkg], "__file__", None) or pkg + "/__init__.py"
    base = f[:max(f.rfind("/"), f.rfind("\\")) + 1]
    for ext in (".mpy", ".py"):
        try:
            os.stat(base + name + ext)
            return True
        except OSError:
            pass
    return False


def available():
    """Ids whose engine modules are installed here (nothing is imported)."""
    return [g for g in GAMES if module_exists("engine", g)]


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
