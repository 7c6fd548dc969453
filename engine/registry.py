"""Load games by id. A game's module is imported only when it is asked for.

The ids are those of engine/catalog.py, which says how to add a game.
"""

from engine import catalog
from engine.state import parse_options, read_save


def game_class(game_id):
    """The ``Game`` class of a catalog id (imports its module)."""
    ids = catalog.ids()
    if game_id not in ids:
        # only the games that can be started here: built, engine installed
        games = [g for g in available() if catalog.entry(g).built]
        raise ValueError("unknown game %r (games: %s)" % (game_id, " ".join(games)))
    try:
        mod = __import__("engine." + game_id, None, None, ("Game",))
    except ImportError as e:
        if game_id in str(e):
            raise ValueError("game %s is not built yet" % game_id)
        raise
    return mod.Game


def installed(pkg, names):
    """Those of ``names`` whose module ``pkg.<name>`` is loaded or has a
    ``.py``/``.mpy`` file in ``pkg``'s folder (or folders). Looks at the
    folder listing instead of importing, so asking costs no memory."""
    import os
    import sys
    if pkg not in sys.modules:
        __import__(pkg)
    module = sys.modules[pkg]
    folders = getattr(module, "__path__", None)
    if folders is None:
        path = getattr(module, "__file__", None) or pkg + "/__init__.py"
        folders = path[:max(path.rfind("/"), path.rfind("\\")) + 1] or "."
    if isinstance(folders, str):     # MicroPython: one folder, as a string
        folders = [folders]
    files = []
    for folder in folders:
        files.extend(os.listdir(folder or "."))
    return [n for n in names if n + ".mpy" in files or n + ".py" in files or
            pkg + "." + n in sys.modules]


def available():
    """Ids whose engine modules are installed here (nothing is imported)."""
    return installed("engine", catalog.ids())


def new(game_id, options=None):
    """A fresh state. ``options`` is a dict or a list of ``key=value`` words."""
    if options is None or isinstance(options, dict):
        opts = dict(options or {})
    else:
        opts = parse_options(options)
    return game_class(game_id)(opts)


def deserialize(data):
    """Bytes from ``State.serialize`` -> an equal state; ValueError if bad."""
    return read_save(data, new)
