"""Ice Solo's text picture (the protocol's ``show``): the field, the grid
and a status line. Loaded for one call and forgotten on a board (see
``engine.ice_solo._text``), so a picture costs little to load.

Written byte by byte into one buffer from the game's arrays (no text of
the field or grid made first and split again, no formatting per cell):
the picture was ~40 ms of a board's time that way. tests/test_ice_solo.py
holds it to the plain reading (every field cell 5 wide, every grid cell
padded to 7).
"""

from engine.ice_solo import CL, NONE

_PAD = b"       "       # a grid cell is padded to 7


def render(g):
    out = bytearray()
    cl = CL
    lo = g.lo
    if lo is not None:
        hi = g.hi
        out += b"field:"
        for r in range(8):
            out += b"\n"
            out.append(49 + r)
            out.append(32)
            for s in range(r * 8, r * 8 + 8):
                p = lo[s]
                if p == NONE:
                    out += b"  .  "
                    continue
                q = hi[s]
                if q == NONE:
                    out += b"  "
                else:
                    out.append(cl[p >> 2])
                    out.append(48 + (p & 3))
                    p = q
                out.append(cl[p >> 2])
                out.append(48 + (p & 3))
                out.append(32)
        out += b"\ngrid:\n"
    w = g.width
    grid = g.grid
    for r in range(5):
        if r:
            out += b"\n"
        out.append(49 + r)
        for i in range(r * w, r * w + w):
            out.append(32)
            st = grid[i]
            n = 2 * len(st)
            if not st:
                out.append(45)
                n = 1
            for p in st:
                out.append(cl[p >> 2])
                out.append(48 + (p & 3))
            if n < 7:
                out += _PAD[n:]
    out = str(out, "ascii")
    return "%s\n%s  score %d  remixes %d  undos %d" % (
        out, g.phase_name(), g.breakdown()["total"], g.remixes, g.undos)
