"""Ice Solo's text picture (the protocol's ``show``): the field, the grid
and a status line. A module of its own with no imports, loaded for one call
and forgotten on a board (see ``engine.ice_solo._text``), so a picture
costs little to load.
"""


def render(g):
    lines = []
    w = g.width
    if g.lo is not None:
        lines.append("field:")
        cells = g.field_text().split("/")     # names from the game's table
        for r in range(8):
            row = []
            for c in range(8):
                x = cells[r * 8 + c]
                if x == "-":
                    row.append("  .  ")
                elif len(x) == 2:
                    row.append("  %s " % x)
                else:
                    row.append(x + " ")
            lines.append("%d %s" % (r + 1, "".join(row)))
        lines.append("grid:")
    cells = g.grid_text().split("/")
    for r in range(5):
        lines.append("%d %s" % (r + 1, " ".join(
            ["%-7s" % cells[r * w + c] for c in range(w)])))
    b = g.breakdown()
    lines.append("%s  score %d  remixes %d  undos %d" % (
        g.phase_name(), b["total"], g.remixes, g.undos))
    return "\n".join(lines)
