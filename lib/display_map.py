"""How a panel's LEDs are wired, worked out once when a Display is made.

Loaded for that and dropped again on a board (engine.state.cold): the
code is not needed while anything is drawn, and every function held costs
heap there.
"""

from array import array


def led_map(width, height, serpentine=False, rotation=0):
    """The LED index of each logical pixel, in reading order.

    ``width`` and ``height`` are the panel's own (as wired: rows of
    ``width`` LEDs, data entering at the top-left row's first LED).
    ``rotation`` (0, 90, 180, 270) is how far the panel is turned clockwise
    as mounted; for 90 and 270 the logical width and height swap. Returns a
    bytearray (or an array of 16-bit ints past 256 LEDs).
    """
    if rotation not in (0, 90, 180, 270):
        raise ValueError("rotation must be 0, 90, 180 or 270, not %r" % (rotation,))
    n = width * height
    if n <= 256:
        out = bytearray(n)
    else:
        out = array("H", range(n))   # every entry is set below
    lw, lh = (height, width) if rotation in (90, 270) else (width, height)
    i = 0
    for y in range(lh):
        for x in range(lw):
            if rotation == 0:
                px, py = x, y
            elif rotation == 90:
                px, py = y, height - 1 - x
            elif rotation == 180:
                px, py = width - 1 - x, height - 1 - y
            else:
                px, py = width - 1 - y, x
            if serpentine and py & 1:
                px = width - 1 - px
            out[i] = py * width + px
            i += 1
    return out


def rows_even(m, width, height):
    """True if every logical row of map ``m`` runs along its LEDs in even
    steps (rotation 0 or 180, or a progressive panel at any rotation): then
    Display.show walks a row from its first LED without reading the map."""
    if width < 2:
        return False
    for y in range(height):
        i = y * width
        st = m[i + 1] - m[i]
        for x in range(2, width):
            if m[i + x] - m[i + x - 1] != st:
                return False
    return True
