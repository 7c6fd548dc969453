"""The protocol's ``new`` line. engine/protocol.py loads this module for
the line and, on a board, forgets it again (:func:`engine.state.cold`):
starting a game is setup, and none of it need stay in the heap while the
game is played.

A game whose module is already loaded (a board's second game, the
runner's every game) starts without the registry, which a board would
otherwise load for the line too (~1.5 KB of heap and several ms): its
``Game`` class is taken from the module, checked by its id.
"""

import sys
from engine.state import cold, parse_options


def cmd_new(self, words):
    if len(words) < 2:
        raise ValueError("usage: new <id> [key=value ...]")
    opts = parse_options(words[2:])
    seed = opts.pop("seed", None)
    if seed is not None:
        try:
            seed = int(seed)
        except ValueError:
            raise ValueError("seed=%s: expected a whole number" % seed)
        if not 0 <= seed <= 0xFFFFFFFF:
            raise ValueError("seed=%d: expected 0..4294967295" % seed)
    # both raise before anything changes
    cls = getattr(sys.modules.get("engine." + words[1]), "Game", None)
    if cls is not None and cls.GAME == words[1]:
        st = cls(opts)
    else:
        st = cold("engine.registry").new(words[1], opts)
    if seed is None:
        # drawn from the session's generator: random on a board (seeded
        # from os.urandom), reproducible under ``ptp.py --seed N``
        seed = self.rng.next32()
    self.state = st
    self.rng.seed(seed)
    return self._auto("%s seed=%d" % (st.GAME, seed))
