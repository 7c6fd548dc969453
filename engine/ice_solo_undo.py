"""Ice Solo's save format: the undo count, the remix memo (each: a 4-byte
position key, a count, that many cells), then the history. Writing it is
here; reading it and undo by replay are in engine/ice_solo_replay.py."""

from engine.ice_solo_replay import undo, unpack  # noqa: F401 (the game's entry points)


def pack(g):
    # one buffer of the final size (a grown one is copied as it grows: the
    # history is most of a save, and a board's heap is fragmented by then)
    memo = g.memo
    hist = g.hist
    n = 3 + len(hist)
    for k, f in memo:
        n += 5 + len(f)
    out = bytearray(n)
    out[0] = g.undos >> 8
    out[1] = g.undos & 255
    out[2] = len(memo)
    i = 3
    for k, f in memo:
        out[i:i + 4] = k
        out[i + 4] = len(f)
        i += 5
        out[i:i + len(f)] = f
        i += len(f)
    out[i:] = hist
    return out      # State.serialize copies it into its bytes
