"""What the shell keeps loaded: names, icons, drawing helpers, the
hand-off screen, and the toolkit every game screen is made of (the
:class:`Screen` base with the contract's hooks and an effect clock, the
device's turn, :func:`num_right`). Screens used only outside games are in
lib.shell, loaded when needed.

Icons are 8x8 pictures (drawn 2x on a 16x16 panel). Each is written as one
64-character string (adjacent literals, joined by the compiler, so no
per-row strings are kept): a game's in engine/catalog.py, the shell's own
items' here. Each is compiled into 64 bytes of palette indices the first
time it is drawn.
"""

from lib import palette as P
from lib.palette import CODE
from lib import font
from lib.buttons import A, ticks_diff
from engine import catalog

# the shell's own menu items after the games (engine/catalog.py names and
# draws those): their names and icons, written as the catalog's are
SHELL_ITEMS = ("settings", "scores", "about")
SHELL_NAMES = ("SETTINGS", "SCORES", "ABOUT")
SHELL_ICONS = (
    (
        "........"
        "dddhdddd"
        "...h...."
        "........"
        "ddddddhd"
        "......h."
        "........"
        "dhdddddd"
    ),
    (
        "........"
        ".....3.."
        ".1...3.."
        ".1...3.."
        ".1.2.3.."
        ".1.2.3.4"
        ".1.2.3.4"
        "dddddddd"
    ),
    (
        "...tt..."
        "...tt..."
        "........"
        "..ttt..."
        "...tt..."
        "...tt..."
        "...tt..."
        "..tttt.."
    ),
)


# icon art's characters and their palette indices: pieces by colour
# (lower case large, upper case small), the four first players, then dim,
# text, highlight, OK and refuse ("." is off)
ART = "roygcbpwkROYGCBPWK1234dth+x"
ART_INK = bytes([P.piece(i, 3) for i in range(9)] +
                [P.piece(i, 1) for i in range(9)] +
                [P.player(i) for i in range(4)] +
                [P.DIM, P.TEXT, P.HILITE, P.OK, P.REFUSE])


def ink(ch):
    """The palette index of one character of icon art (engine/catalog.py)."""
    if ch == ".":
        return P.OFF
    i = ART.find(ch)
    if i < 0:
        raise ValueError("icon art has no colour %r" % ch)
    return ART_INK[i]


def compile_icon(art):
    out = bytearray(64)
    for i in range(64):
        ch = art[i]
        if ch != ".":       # (off is palette index 0, as the buffer starts)
            out[i] = ink(ch)
    return bytes(out)


# compiled icons by id, made when first drawn (a game a test adds to the
# catalog gets one too)
ICONS = {}


def icon(gid):
    """The compiled icon of a catalog entry or a shell item (blank if
    ``gid`` is neither)."""
    art = ICONS.get(gid)
    if art is None:
        if gid in SHELL_ITEMS:
            art = compile_icon(SHELL_ICONS[SHELL_ITEMS.index(gid)])
        else:
            entry = catalog.entry(gid)
            art = compile_icon(entry.icon) if entry else bytes(64)
        ICONS[gid] = art
    return art


def name(gid):
    """What the menu calls a catalog entry or a shell item."""
    if gid in SHELL_ITEMS:
        return SHELL_NAMES[SHELL_ITEMS.index(gid)]
    entry = catalog.entry(gid)
    return entry.name if entry else gid.upper()


def draw_icon(d, picture, x, y, scale, dim=False):
    """An 8x8 icon (from :func:`icon`) with its top-left at (x, y), each
    pixel a ``scale`` square; ``dim`` draws its lit pixels grey (a game not
    built yet)."""
    d.blit(picture, 8, 8, x, y, scale, P.DIM if dim else -1)


def draw_full_icon(d, gid, dim=False):
    """The icon of ``gid`` filling an 8x8 panel, or 2x on 16x16."""
    scale = d.width // 8
    draw_icon(d, icon(gid), (d.width - 8 * scale) // 2, 0, scale, dim)


def piece_glyph(d, p, cx, bottom, s):
    """A piece seen from the side, centred on column ``cx`` with its base
    on row ``bottom``: a pyramid 2, 3 or 4 rows high by size; a rock (size
    0) is a round blob. ``s`` scales it. (The bag and Bag of Ice.)"""
    c = CODE[p]
    size = p & 3
    if size == 0:
        d.rect(cx - s, bottom - 2 * s + 1, 2 * s, s, c)
        d.rect(cx - 2 * s, bottom - s + 1, 4 * s, s, c)
        d.rect(cx - s, bottom - 3 * s + 1, 2 * s, s, c)
        return
    h = size + 1
    for r in range(h):
        half = r * s       # row r from the top: 2r+1 dots wide
        d.rect(cx - half, bottom - (h - r) * s + 1, 2 * half + s, s, c)


SPREAD = 6    # 16x16: changed rows a whole new frame sends per pass

# ---- the visual language for pieces and stacks (docs/visual-language.md) ----
# One piece or stack per cell: 2x2 pixels on a 16x16 panel, a pattern per
# size; 1 pixel on 8x8, where the size under the cursor is a blink code
# (flash) or a side gauge (put_gauge). Every helper writes palette indices
# straight into a frame-sized bytearray ``f`` (the display's frame or a
# screen's kept copy) at index ``j`` of the cell's top-left pixel, rows
# ``W`` wide: no object is made per call.

# what a nesting stack shows as (stack_kind)
EMPTY = 0
LOOSE = 1           # its top piece can move: drawn as that piece
NEST = 2            # a clean nest: exactly large, medium, small of a colour
NEST_ON_PILE = 3    # a full nest on top of other pieces (locked, not clean)
COVERED = 4         # a loose top over a full nest buried in the stack

# 2x2 patterns by size (index: size, 0 a rock): bit 8 top-left, 4
# top-right, 2 bottom-left, 1 bottom-right. A small is one dot, a medium
# the bottom row, a large the whole cell; a rock the cell less its
# top-left. (Empty: one grey dot top-left; nests: see put_stack.)
GLYPHS = b"\x07\x02\x03\x0f"


def stack_kind(stack, n):
    """EMPTY, LOOSE, NEST, NEST_ON_PILE or COVERED for a stack of ``n``
    piece codes (``stack[0]`` the bottom): a full nest is a large, a
    medium and a small of one colour, upwards; at the top of the stack it
    is a nest, further down it is covered by the pieces on it."""
    if not n:
        return EMPTY
    top = stack[n - 1]
    if (n >= 3 and top & 3 == 1 and stack[n - 2] == top + 1 and
            stack[n - 3] == top + 2):
        return NEST if n == 3 else NEST_ON_PILE
    for i in range(n - 3):
        p = stack[i + 2]
        if p & 3 == 1 and stack[i + 1] == p + 1 and stack[i] == p + 2:
            return COVERED
    return LOOSE


def put_cell(f, j, W, bits, c, rest=0):
    """A 2x2 cell at ``f[j]``: colour ``c`` where ``bits`` (see GLYPHS) is
    set, ``rest`` elsewhere."""
    f[j] = c if bits & 8 else rest
    f[j + 1] = c if bits & 4 else rest
    f[j + W] = c if bits & 2 else rest
    f[j + W + 1] = c if bits & 1 else rest


def put_piece(f, j, W, p):
    """One piece (engine code ``p``) in a 2x2 cell by its size's pattern:
    small a dot bottom-left, medium the bottom row, large the whole cell,
    rock all but the top-left."""
    put_cell(f, j, W, GLYPHS[p & 3], CODE[p])


def put_empty(f, j, W):
    """An empty cell: a grey dot top-left (2x2)."""
    put_cell(f, j, W, 8, P.DIM)


def put_stack(f, j, W, stack, n):
    """A nesting stack (``n`` piece codes, bottom first) in a 2x2 cell:
    empty a grey dot; a loose stack its top piece (put_piece: what can
    move, and where it may land, is the top's colour and size), with a
    grey dot top-left when a full nest lies covered under it; a clean
    nest a diagonal pair in its colour; a full nest on top of other
    pieces the same pair and a grey dot under it, bottom-left. The whole
    stack under the cursor is the side gauge's (put_gauge). Returns the
    kind."""
    k = stack_kind(stack, n)
    if k == EMPTY:
        put_cell(f, j, W, 8, P.DIM)
    elif k == LOOSE or k == COVERED:
        put_piece(f, j, W, stack[n - 1])
        if k == COVERED:
            f[j] = P.DIM
    else:
        put_cell(f, j, W, 9, CODE[stack[n - 1] | 3])
        if k == NEST_ON_PILE:
            f[j + W] = P.DIM
    return k


def put_tower(f, j, W, bottom, top):
    """Towering: a piece alone (``top`` < 0 or 255) by its pattern, or a
    tower being built, ``top`` on ``bottom`` (pieces of different
    colours): the top row the top piece, the bottom row the bottom."""
    if top < 0 or top == 255:
        put_piece(f, j, W, bottom)
        return
    c = CODE[top]
    f[j] = c
    f[j + 1] = c
    c = CODE[bottom]
    f[j + W] = c
    f[j + W + 1] = c


def put_tree(f, j, W, large, medium, small):
    """A finished tower or tree of three pieces in a 2x2 cell: small
    top-left, medium top-right, large along the bottom."""
    f[j] = CODE[small]
    f[j + 1] = CODE[medium]
    c = CODE[large]
    f[j + W] = c
    f[j + W + 1] = c


def put_gauge(f, right, p, wide):
    """One row of a side gauge (a stack seen from the side, a row a
    piece): piece ``p`` as a bar ending at ``f[right]``, as wide as its
    size (small 1, medium 2, large 3; a rock 2), plus ``wide`` (1 on
    16x16). The caller clears the row first."""
    c = CODE[p]
    for x in range(right - (p & 3 or 2) - wide + 1, right + 1):
        f[x] = c


def flash_length(stack, n):
    """Beats in one cycle of :func:`flash` for these pieces."""
    k = 3
    for i in range(n):
        k += 2 * (stack[i] & 3) + (3 if not stack[i] & 3 else 0) + (1 if i else 0)
    return k


def flash(beat, stack, n):
    """The 8x8 cursor's blink code: the palette index its pixel shows at
    ``beat`` (a count of equal steps, e.g. now // 300). One cycle: a
    white beat, two dark beats, then each piece of the stack bottom first,
    flashed in its colour once per size step (small once, medium twice,
    large three times; a rock one long flash), a dark beat between
    pieces. (The long dark gap marks the start even where a piece's
    colour is near white: the count reads the same for a black.)"""
    k = beat % flash_length(stack, n)
    if k == 0:
        return P.CURSOR
    k -= 3
    for i in range(n):
        if i:
            if k == 0:
                return P.OFF
            k -= 1
        p = stack[i]
        m = 2 * (p & 3)
        if not m:
            if 0 <= k < 3:
                return CODE[p] if k < 2 else P.OFF
            k -= 3
            continue
        if 0 <= k < m:
            return P.OFF if k & 1 else CODE[p]
        k -= m
    return P.OFF


def nest_lit(kind, beat):
    """8x8: whether a one-pixel cell of this stack kind is lit at ``beat``:
    a clean nest winks (three beats on, one off), a full nest on a pile
    blinks (one on, one off), a loose top over a covered nest blinks
    slowly (two on, two off), anything else is steady. Never dimmed: the
    dark beats are off, so a nest never looks like a small."""
    if kind == NEST:
        return beat & 3 != 3
    if kind == NEST_ON_PILE:
        return not beat & 1
    if kind == COVERED:
        return not beat & 2
    return True


def border(d, c, t=1):
    """A frame ``t`` pixels thick around the panel."""
    w = d.width
    h = d.height
    d.rect(0, 0, w, t, c)
    d.rect(0, h - t, w, t, c)
    d.rect(0, 0, t, h, c)
    d.rect(w - t, 0, t, h, c)


def refusal(d):
    """The refusal flash drawn over a frame: a red frame on 8x8; on 16x16 a
    red bar along the top and the bottom, because show() pays per changed
    row and a frame round the sides changes all 16 (flash on and off would
    be two whole-panel passes)."""
    if d.width <= 8:
        border(d, P.REFUSE)
        return
    w = d.width
    d.rect(0, 0, w, 2, P.REFUSE)
    d.rect(0, d.height - 2, w, 2, P.REFUSE)


def cross(d, x, y, n, c):
    """An X ``n`` pixels square."""
    for i in range(n):
        d.pixel(x + i, y + i, c)
        d.pixel(x + n - 1 - i, y + i, c)


def centre_number(d, n, y, c):
    font.draw_number(d, n, (d.width - font.number_width(n)) // 2, y, c)


def centre_text(d, text, y, c):
    font.draw(d, text, (d.width - font.width(text)) // 2, y, c)


def num_right(d, n, right, y, c):
    """``n`` ending at column ``right``; on 8x8 a number of 100 or more
    shows its hundreds as a bar left of the last two digits."""
    if n >= 100 and d.width <= 8:
        d.rect(right - 7, y, 1, 5, c)
        font.draw_number(d, n // 10 % 10, right - 6, y, c)
        font.draw_number(d, n % 10, right - 2, y, c)
        return
    font.draw_number(d, n, right + 1 - font.number_width(n), y, c)


def seat_ink(state, p):
    """Seat ``p``'s colour: its pieces' (a large's), where the game gives
    its seats colours (State.seat_colour), else the app's player colour."""
    c = state.seat_colour(p) if state is not None else -1
    return P.piece(c, 3) if c >= 0 else P.player(p)


def handoff_picture(d, c, n):
    """Player number ``n`` framed in colour ``c``, on a dark panel."""
    d.fill(P.OFF)
    if d.width <= 8:
        if n < 10:
            border(d, c, 1)
        else:
            d.rect(0, 0, 8, 1, c)
            d.rect(0, 7, 8, 1, c)
        centre_number(d, n, 1, c)
    else:
        border(d, c, 2)
        x = (d.width - font.ADVANCE - font.number_width(n)) // 2
        font.draw_char(d, "P", x, 5, c)
        font.draw_number(d, n, x + font.ADVANCE, 5, c)


class Screen:
    """The screen contract (lib/app.py): every hook a screen may have,
    with its default, and the effect clock. Every game screen is one."""

    def __init__(self, app, state):
        self.app = app
        self.state = state
        self.since = app.now    # the effect clock: when it started (ms)
        self.phase = -1         # its beat when last drawn (blink)
        self.skip = False       # a key asked to skip the effect to its end
        self.later = False      # drawn in the next pass, not this one

    # ---- the contract's hooks ---------------------------------------------
    def key(self, k):
        """One button (UP..B); True if the frame changed."""
        return False

    def tick(self, now):
        """Each loop pass; True to redraw."""
        return False

    def draw(self, d):
        """Paint the whole frame (never d.show())."""

    def close(self):
        """Leaving: drop big buffers."""

    def busy(self):
        """An effect is playing: the app's hand-off waits for its end."""
        return False

    def shown(self):
        """Back on the panel after the app's hand-off."""

    def draw_handoff(self, d, p):
        """The hand-off picture for seat ``p``: its number in its colour."""
        handoff_picture(d, seat_ink(self.app.state, p), p + 1)

    def save_view(self):
        """What of the view (cursor, mode) a resumed game gets back: bytes
        for lib.save, or None."""
        return None

    def load_view(self, data):
        """Put back a view from :meth:`save_view` (bad data: ignored)."""

    # ---- the effect clock --------------------------------------------------
    def restart(self):
        """Start the effect clock now (``skip`` stays: a key that came
        before an effect's showing still skips it)."""
        self.since = self.app.now
        self.phase = -1

    def elapsed(self):
        """The effect's ms so far at the ANIMATION SPEED setting."""
        dt = ticks_diff(self.app.now, self.since)
        if dt > 60000:
            dt = 60000
        return dt * self.app.speed >> 2

    def blink(self, p):
        """True when beat ``p`` (e.g. ms since // a period) is new: a
        redraw is due."""
        if p == self.phase:
            return False
        self.phase = p
        return True


class Turn:
    """A device seat's turn: its ``think()`` a slice a pass, then its move
    shown for ``show_ms`` (at the speed setting) before it is played; a
    key skips the showing (the screen's ``skip``)."""

    __slots__ = ("gen", "action")

    def __init__(self):
        self.gen = None      # the engine's think()
        self.action = -1     # the move chosen, once it is

    def reset(self):
        self.gen = None
        self.action = -1

    def slice(self, state):
        """One slice: the move once chosen (``action``), else None while
        thinking; -1 when think() ended without one (a new one starts
        at the next slice)."""
        if self.gen is None:
            self.gen = state.think()
        try:
            a = next(self.gen)
        except StopIteration:
            self.gen = None
            return -1
        if a is not None:
            self.action = a
            self.gen = None
        return a

    def due(self, scr, show_ms):
        """The move chosen has been shown long enough on screen ``scr``
        (its clock restarted when the move was chosen), or skipped."""
        return scr.skip or scr.elapsed() >= show_ms


class Handoff:
    """Pass-and-play: whose turn it is, in their colour, hiding the board
    until they press A (the game screen's ``draw_handoff``)."""

    def __init__(self, app, player):
        self.app = app
        self.player = player

    def key(self, k):
        if k == A:
            app = self.app
            app.scr = app.game_scr
            app.game_scr.shown()
            return True
        return False

    def tick(self, now):
        return False

    def draw(self, d):
        if d.width > 8:
            d.spread(SPREAD)
        g = self.app.game_scr
        if g is not None:
            g.draw_handoff(d, self.player)
            return
        handoff_picture(d, P.player(self.player), self.player + 1)
