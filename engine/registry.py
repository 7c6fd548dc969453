"""Load games by id. A game's module is imported only when it is asked for.

To add a game: write ``engine/<id>.py`` with a ``State`` subclass called
``Game`` and add its id to :data:`GAMES`.

The protocol loads this module for a ``new`` line of a game not loaded yet
(engine/protocol_new.py) and forgets it again on a board
(:func:`engine.state.cold`), so it is kept short: loading a save is in
engine/seldom.py.
"""

from engine.state import seldom, fail, parse_options

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
    """Those of ``names`` whose module ``pkg.<name>`` is loaded or has a
    ``.py``/``.mpy`` file beside ``pkg``'s ``__init__``. Looks at the
    folder once instead of importing, so asking costs no memory on a board
    (the app asks at boot, so this stays here rather than in seldom)."""
    import os
    import sys
    if pkg not in sys.modules:
        __import__(pkg)
    f = getattr(sys.modules[pkg], "__file__", None) or pkg + "/__init__.py"
    files = os.listdir(f[:max(f.rfind("/"), f.rfind("\\")) + 1] or ".")
    return [n for n in names if n + ".mpy" in files or n + ".py" in files or
            pkg + "." + n in sys.modules]


def available():
    """Ids whose engine modules are installed here (nothing is imported)."""
    return installed("engine", GAMES)


def new(game_id, options=None):
    """A fresh state. ``options`` is a dict or a list of ``key=value`` words."""
    if options is None or isinstance(options, dict):
        opts = dict(options or {})
    else:
        opts = parse_options(options)
    return game_class(game_id)(opts)


def deserialize(data):
    """Bytes from ``State.serialize`` -> an equal state; ValueError if bad."""
    return seldom().deserialize(data)
