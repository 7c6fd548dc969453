"""Ice Solo's text picture (the protocol's ``show``): the field, the grid
and a status line.

Written as constant pieces (the game's piece names, fixed blanks) into one
buffer, straight from the game's arrays: no text of the field or grid
made first and split again, no formatting per cell. On a board the buffer
is a bytearray with room for the whole picture (a list of ~150 pieces and
its regrowth cost more at the peak); CPython's bytearray takes no str, so
there the pieces go into a list, a character each, joined once. tests/test_ice_solo.py
holds it to the plain reading (every field cell 5 wide, every grid cell
padded to 7).
"""

from engine.ice_solo import PN, NONE

# blanks that pad a grid cell of n characters to 7, by n (a list: its
# strings are interned names, cheaper to load than a constant tuple's)
_PAD = ["       ", "      ", "     ", "    ", "   ", "  ", " ", ""]
_ROW = ["1 ", "2 ", "3 ", "4 ", "5 ", "6 ", "7 ", "8 "]


def render(g):
    lo = g.lo
    # room for the picture: emptied, a board's bytearray keeps it
    out = bytearray(320 if lo is None else 640)
    out[:] = b""
    try:
        out += ""
    except TypeError:
        out = []
    add = out.extend
    pn = PN
    if lo is not None:
        hi = g.hi
        add("field:")
        for r in range(8):
            add("\n")
            add(_ROW[r])
            for s in range(r * 8, r * 8 + 8):
                p = lo[s]
                if p == NONE:
                    add("  .  ")
                    continue
                q = hi[s]
                if q == NONE:
                    add("  ")
                    add(pn[p])
                else:
                    add(pn[p])
                    add(pn[q])
                add(" ")
        add("\ngrid:\n")
    w = g.width
    grid = g.grid
    pad = _PAD
    for r in range(5):
        if r:
            add("\n")
        add(_ROW[r][0])
        for i in range(r * w, r * w + w):
            add(" ")
            st = grid[i]
            if not st:
                add("-      ")
                continue
            for p in st:
                add(pn[p])
            n = 2 * len(st)
            if n < 7:
                add(pad[n])
    add("\n%s  score %d  remixes %d  undos %d" % (
        g.phase_name(), g.breakdown()["total"], g.remixes, g.undos))
    return "".join(out) if type(out) is list else out.decode()
