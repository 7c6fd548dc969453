# Ice Solo's save format: the undo count, the remix memo (each: a 4-byte
# position key, a count, that many cells), then the history. A save loads
# this module (engine.state.cold: forgotten again on a board) in one of the
# app's loop passes, and a board pays for a load about in proportion to the
# module's size (its compile, from .py sources), so it holds ``pack`` and
# no more: reading a save and undo by replay are in engine/ice_solo_replay.py.

from engine.state import cold


def undo(g, n):
    cold("engine.ice_solo_replay").undo(g, n)


def unpack(g, body):
    cold("engine.ice_solo_replay").unpack(g, body)


def pack(g):
    memo = g.memo
    out = bytearray((g.undos >> 8, g.undos & 255, len(memo)))
    for k, f in memo:
        out += k
        out.append(len(f))
        out += f
    out += g.hist
    return bytes(out)
