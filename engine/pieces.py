"""Pieces, stacks, cells and grids in the RULINGS notation.

In memory a piece is one small int: ``colour << 2 | size``. Size 1..3 is a
pyramid; size 0 is a rock (a bare colour, as in the Ice Stalks bag). A stack
is a ``bytes``/``bytearray`` of pieces, bottom first. Strings exist only at
the edges, in the ``parse_*``/``fmt_*`` functions.
"""


COLOURS = "roygcbpwk"
NAMES = ("red", "orange", "yellow", "green", "cyan", "blue", "purple",
         "clear", "black")
SIZE_NAMES = ("rock", "small", "medium", "large")
NONE = 0xFF  # "no piece": 0 is a valid code (a red rock)


class NotationError(ValueError):
    """Malformed piece, stack, cell or grid text."""


def piece(colour, size):
    return (colour << 2) | size


def colour_of(p):
    return p >> 2


def size_of(p):
    return p & 3


def parse_colour(ch):
    i = COLOURS.find(ch) if len(ch) == 1 else -1
    if i < 0:
        raise NotationError("unknown colour %r (use one of %s)" % (ch, COLOURS))
    return i


def parse_piece(text, rock_ok=False):
    """``'r3'`` -> piece code. With ``rock_ok`` a lone colour is a rock."""
    if len(text) == 2 and text[1] in "123":
        return piece(parse_colour(text[0]), ord(text[1]) - 48)
    if rock_ok and len(text) == 1:
        return piece(parse_colour(text), 0)
    if len(text) == 2 and text[0] in COLOURS:
        raise NotationError("bad size in %r: sizes are 1, 2, 3" % text)
    raise NotationError("bad piece %r: a colour letter (%s) and a size 1-3"
                        % (text, COLOURS))


def fmt_piece(p):
    s = p & 3
    return COLOURS[p >> 2] + ("123"[s - 1] if s else "")


def parse_stack(text):
    """``'r3g2b1'`` (bottom to top) or ``'-'`` -> bytes."""
    if text == "-":
        return b""
    if not text or len(text) % 2:
        raise NotationError("bad stack %r: pieces like r3g2b1, or - for empty"
                            % text)
    out = bytearray(len(text) // 2)
    for i in range(0, len(text), 2):
        out[i // 2] = parse_piece(text[i:i + 2])
    return bytes(out)


def fmt_stack(stack):
    if not stack:
        return "-"
    return "".join([fmt_piece(p) for p in stack])


def parse_cell(text, width, height):
    """``'b3'`` -> index ``row * width + col`` (row 1 is the top)."""
    # ASCII digits only, no leading zero: str.isdigit() would also accept
    # '\u00b2' or Arabic-Indic digits, and 'a01' would alias 'a1'
    if (2 <= len(text) <= 3 and "a" <= text[0] <= "z" and "1" <= text[1] <= "9"
            and (len(text) == 2 or "0" <= text[2] <= "9")):
        col = ord(text[0]) - 97
        row = int(text[1:]) - 1
        if col < width and 0 <= row < height:
            return row * width + col
        raise NotationError("cell %r is off the %dx%d grid"
                            % (text, width, height))
    raise NotationError("bad cell %r: a column letter and a row number, like b3"
                        % text)


def fmt_cell(index, width):
    return chr(97 + index % width) + str(index // width + 1)


def parse_grid(text, width, height):
    """Cells in reading order joined by ``/`` -> list of stacks (bytes)."""
    parts = text.split("/")
    if len(parts) != width * height:
        raise NotationError("grid has %d cells, expected %d (%dx%d)"
                            % (len(parts), width * height, width, height))
    out = []
    for i in range(len(parts)):
        try:
            out.append(parse_stack(parts[i]))
        except NotationError as e:
            raise NotationError("cell %s: %s" % (fmt_cell(i, width), e))
    return out


def fmt_grid(cells):
    return "/".join([fmt_stack(s) for s in cells])
