"""Ice Solo's towering phase (variant 4): line of sight, the move list and
the remix. Imported when a game first towers (see ``engine.ice_solo._tw``),
so the 5-colour game never loads it.

Functions take the game ``g`` (an ``engine.ice_solo.Game``) as their first
argument; the game's methods of the same names (with a leading
underscore) call them.
"""

from engine.ice_solo import (NONE, CIX, PN, MEMO_MAX, P_REMIX, P_TOWER,
                             P_NEST, P_OVER, END, EMPTY, PLACE, TARGET, const)


def clear_line(s, t, targets):
    """Line of sight between field cells ``s`` and ``t`` (8-wide indices):
    False if the open segment between the centres passes through the
    interior of a cell in ``targets`` (other than ``t``). Exact integers:
    with deltas DX, DY from s to t (in cells), cell b's interior is crossed
    iff 2 * |DX * (br - sr) - DY * (bc - sc)| < |DX| + |DY| and b lies in
    the box spanned by s and t (the crossing is then inside the segment).
    Touching a corner gives equality, so it does not block."""
    sc = s & 7
    sr = s >> 3
    dx = (t & 7) - sc
    dy = (t >> 3) - sr
    lim = (dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)
    c0 = sc if dx > 0 else sc + dx
    c1 = c0 + (dx if dx > 0 else -dx)
    r0 = sr if dy > 0 else sr + dy
    r1 = r0 + (dy if dy > 0 else -dy)
    for b in targets:
        if b == t:
            continue
        bc = b & 7
        br = b >> 3
        if bc < c0 or bc > c1 or br < r0 or br > r1:
            continue
        x = dx * (br - sr) - dy * (bc - sc)
        if x < 0:
            x = -x
        if 2 * x < lim:
            return False
    return True


# Line of sight in a frame around the moving piece: the flags of three
# board rows packed into an int (a byte a row, nearest the piece first,
# going down the board for a target in the piece's row or below, up it
# for one above) and shifted left by 7 - the piece's column, so that a
# cell d columns right of the piece is bit 8 * i + 7 + d of its row i.
# Rows never collide: two cells of a row are less than 8 columns apart.
# MASKS holds, for each offset from the piece to a target, the cells the
# open segment between the centres crosses, in that frame: a block of
# |DY| // 3 + 1 ints, one per three rows. Blocks of one int come first
# (below _J1), then of two (below _J2), then of three; a row going up
# mirrors one going down, so both read the same block. JQ[q] is where the
# block for q = (DY + 7) * 15 + DX + 7 starts; T15[t] = row * 15 + column
# of cell t, so q is one add per pair. A crossed cell is never 7 columns
# from the piece (the segment's last column holds only the target when
# |DX| >= |DY|), so every int here is below 2 ** 30: a small int on a
# board. Written out so that importing costs no work; tests/test_ice_solo.py
# checks them against :func:`clear_line` for every pair of cells.
MASKS = (
    0, 64, 96, 112, 120, 124, 126, 256, 768, 1792, 3696, 3840, 6240, 7280,
    7936, 8256, 12384, 16128, 16384, 16448, 32768, 49152, 65536, 65792,
    98304, 131328, 276544, 393984, 408672, 555072, 787200, 1077312,
    1836800, 2121792, 3671808, 33751296, 67567872, 135201024, 269353216,
    807273216, 946240, 2, 1597504, 8, 1601600, 526, 1863744, 4, 2113536, 0,
    2113536, 16, 2113536, 2064, 3170368, 16, 3170368, 2072, 3170368,
    132620, 3170368, 265240, 3694656, 1036, 4227072, 0, 4243456, 96,
    4243456, 12320, 4243456, 24640, 6340608, 0, 6340608, 48, 6340608, 6192,
    8421376, 0, 8421376, 128, 8421376, 16448, 8421376, 32896, 8421376,
    65792, 12615680, 64, 16809984, 0, 16875520, 768, 16875520, 196864,
    16875520, 393728, 25198592, 256, 33619968, 0, 33619968, 1024, 33619968,
    525312, 50429952, 0, 50429952, 1536, 50429952, 787968, 100860160, 1024,
    100860160, 527360, 100860160, 270011392, 100860160, 540022784,
    201523456, 2048, 201785600, 2111488, 235077888, 1054720, 470221056,
    4096, 939983104, 8192, 2113536, 264208, 0, 2113536, 264208, 2, 3170368,
    396312, 2, 4227072, 2113600, 0, 4243456, 1060960, 24, 4243456, 2105408,
    48, 4243456, 3154016, 0, 6340608, 792624, 0, 6340608, 792624, 6,
    6340608, 1576992, 12, 6340608, 1585184, 0, 8421376, 4210816, 64,
    8421376, 4210880, 0, 8421376, 8421504, 0, 8421376, 8421504, 128,
    8421376, 16842880, 256, 8421376, 16843136, 0, 12615680, 6307904, 32,
    16809984, 33620224, 0, 16875520, 33685760, 1536, 16875520, 67502848,
    3072, 16875520, 100795136, 0, 25198592, 50397440, 512, 33619968,
    268960768, 0, 33619968, 268960768, 8192, 50429952, 201589248, 6144,
    50429952, 201720320, 0, 50429952, 403441152, 0, 50429952, 403441152,
    12288, 100860160, 806882304, 8192)
JQ = (
    b"\x85\x9a\x9d\x8e\x91\xb5\xa3\xac\xaf\xc4\xbb\xbe\xcd\xd6\xca\x88"
    b"\x82\x97\xa0\x94\x8b\xa6\xa9\xb2\xb8\xc1\xd0\xd3\xc7\xd9\x3a\x3c"
    b"\x34\x4c\x44\x46\x52\x54\x56\x5e\x60\x6e\x68\x74\x76\x2c\x3e\x38"
    b"\x32\x4a\x42\x58\x50\x62\x5c\x6c\x66\x72\x7c\x7a\x28\x2e\x2a\x36"
    b"\x30\x48\x40\x4e\x5a\x6a\x64\x70\x78\x7e\x80\x1c\x1a\x1d\x1f\x21"
    b"\x12\x15\x14\x18\x16\x23\x24\x25\x26\x27\x0a\x0d\x0c\x10\x0f\x13"
    b"\x00\x00\x00\x17\x19\x1b\x1e\x20\x22\x06\x05\x04\x03\x02\x01\x00"
    b"\x00\x00\x07\x08\x09\x0b\x0e\x11\x0a\x0d\x0c\x10\x0f\x13\x00\x00"
    b"\x00\x17\x19\x1b\x1e\x20\x22\x1c\x1a\x1d\x1f\x21\x12\x15\x14\x18"
    b"\x16\x23\x24\x25\x26\x27\x28\x2e\x2a\x36\x30\x48\x40\x4e\x5a\x6a"
    b"\x64\x70\x78\x7e\x80\x2c\x3e\x38\x32\x4a\x42\x58\x50\x62\x5c\x6c"
    b"\x66\x72\x7c\x7a\x3a\x3c\x34\x4c\x44\x46\x52\x54\x56\x5e\x60\x6e"
    b"\x68\x74\x76\x88\x82\x97\xa0\x94\x8b\xa6\xa9\xb2\xb8\xc1\xd0\xd3"
    b"\xc7\xd9\x85\x9a\x9d\x8e\x91\xb5\xa3\xac\xaf\xc4\xbb\xbe\xcd\xd6"
    b"\xca")
_J1 = const(40)
_J2 = const(130)
# a loose piece's kind by its code (a medium of colour index i: i, a
# small: 4 + i)
KIND = (b"\x00\x04\x00\x00\x00\x00\x00\x00\x00\x05\x01\x00\x00\x06\x02\x00"
        b"\x00\x00\x00\x00\x00\x07\x03")
T15 = (
    b"\x00\x01\x02\x03\x04\x05\x06\x07\x0f\x10\x11\x12\x13\x14\x15\x16"
    b"\x1e\x1f\x20\x21\x22\x23\x24\x25\x2d\x2e\x2f\x30\x31\x32\x33\x34"
    b"\x3c\x3d\x3e\x3f\x40\x41\x42\x43\x4b\x4c\x4d\x4e\x4f\x50\x51\x52"
    b"\x5a\x5b\x5c\x5d\x5e\x5f\x60\x61\x69\x6a\x6b\x6c\x6d\x6e\x6f\x70")


# The cells' names: constant strings, shared rather than made per use
# (engine.ice_solo's Game.token and history use them while this module is
# loaded: rows 6-8 are field cells only). A list, not a tuple: a list's
# strings are interned names (shared, ~8 B each), a constant tuple's are
# string objects (~40 B each): 64 names cost ~0.7 KB of a board's heap
# instead of 2.5 KB.
CELLN = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2",
    "e2", "f2", "g2", "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3",
    "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5",
    "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8",
    "e8", "f8", "g8", "h8"]
# ... and with the dash of a move's source: a towering move's token is one
# concatenation (the join of two names makes a tuple too: a legal list of
# ~140 moves makes ~2 KB less garbage this way, for ~0.8 KB of names)
CELLD = [
    "a1-", "b1-", "c1-", "d1-", "e1-", "f1-", "g1-", "h1-", "a2-", "b2-",
    "c2-", "d2-", "e2-", "f2-", "g2-", "h2-", "a3-", "b3-", "c3-", "d3-",
    "e3-", "f3-", "g3-", "h3-", "a4-", "b4-", "c4-", "d4-", "e4-", "f4-",
    "g4-", "h4-", "a5-", "b5-", "c5-", "d5-", "e5-", "f5-", "g5-", "h5-",
    "a6-", "b6-", "c6-", "d6-", "e6-", "f6-", "g6-", "h6-", "a7-", "b7-",
    "c7-", "d7-", "e7-", "f7-", "g7-", "h7-", "a8-", "b8-", "c8-", "d8-",
    "e8-", "f8-", "g8-", "h8-"]


def targets(g, p):
    """Field cells a loose piece ``p`` could land on (size and colour)."""
    lo = g.lo
    hi = g.hi
    c = p >> 2
    out = []
    if p & 3 == 2:
        for t in range(64):
            q = lo[t]
            if q != NONE and q & 3 == 3 and hi[t] == NONE and q >> 2 != c:
                out.append(t)
    elif p & 3 == 1:
        for t in range(64):
            q = hi[t]
            if q != NONE and q & 3 == 2 and q >> 2 != c:
                out.append(t)
    return out


def tower_moves(g, first, only, klo, khi, line=None):
    """Legal towering moves in reading order; with ``first`` stop at the
    first one; with ``only`` >= 0 just the moves of the piece on that
    cell; only pieces of kinds ``klo`` to ``khi - 1`` (a kind: a medium of
    colour index i is kind i, a small is kind 4 + i). Given a bytearray
    ``line``, each move's token and a space are written into it instead
    (see :func:`legal_text`).

    One pass over the field finds the loose pieces and each kind's
    targets (which are also what blocks its line of sight). The first
    time a piece of a kind comes up, the kind's targets are flagged by
    row (bit c: column c) and the rows packed three to an int, down and
    up the board; a piece shifts the ints of its rows into its own frame
    (see MASKS) and each (piece, target) pair is then a look-up or two
    and an and (inlined: this is the game's hottest loop; tests/
    test_ice_solo.py holds it against :func:`clear_line` for every pair
    of cells)."""
    lo = g.lo
    hi = g.hi
    # the targets by kind, in reading order: a medium's are the bare larges
    # not of its colour, a small's the larges whose medium is not of its
    k0 = bytearray()
    k1 = bytearray()
    k2 = bytearray()
    k3 = bytearray()
    k4 = bytearray()
    k5 = bytearray()
    k6 = bytearray()
    k7 = bytearray()
    srcs = bytearray()
    cix = CIX
    for s in range(64):
        p = lo[s]
        if p & 3 != 3:          # a loose piece (NONE & 3 is 3)
            srcs.append(s)
            continue
        if p == 255:            # NONE
            continue
        h = hi[s]
        if h == 255:
            c = cix[p >> 2]
            if c != 0:
                k0.append(s)
            if c != 1:
                k1.append(s)
            if c != 2:
                k2.append(s)
            if c != 3:
                k3.append(s)
        else:
            c = cix[h >> 2]
            if c != 0:
                k4.append(s)
            if c != 1:
                k5.append(s)
            if c != 2:
                k6.append(s)
            if c != 3:
                k7.append(s)
    tls = [k0, k1, k2, k3, k4, k5, k6, k7]
    if klo or khi < 8:
        for kind in range(8):
            if kind < klo or kind >= khi:
                tls[kind] = b""         # no moves for this kind
    if only >= 0:
        p = lo[only]
        srcs = (only,) if p & 3 != 3 else ()
    masks = MASKS
    jq = JQ
    t15 = T15
    kd = KIND
    cn = CELLN
    wr = line is not None
    ws = [None] * 8             # per kind: its rows packed, once worked out
    rk = bytearray(64)          # per kind: its targets by row (8 * kind + r)
    out = []
    add = out.append
    for s in srcs:
        kind = kd[lo[s]]
        tl = tls[kind]
        if not tl:
            continue
        w = ws[kind]
        if w is None:
            # w[r]: rows r, r + 1, r + 2 (down the board); w[14 + r]:
            # rows r, r - 1, r - 2 (up it); rows off the board are 0
            w = [0] * 22
            a = kind * 8
            for t in tl:                # its targets by row
                rk[a + (t >> 3)] |= 1 << (t & 7)
            b = 0
            o = 0
            for r in range(8):
                # (masked first: a small int on a board)
                b = (b & 0xFFFF) << 8 | rk[a + r]
                w[14 + r] = b
                o = (o & 0xFFFF) << 8 | rk[a + 7 - r]
                w[7 - r] = o
            ws[kind] = w
        # the piece's frame (see MASKS): shift its rows' ints left by
        # sh = 7 - column; a column-7 cell three rows on never matters
        # (the 7 columns away a crossed cell never is) and is dropped
        # where it would make the int too big for a small int
        r = s >> 3
        sh = 7 - (s & 7)
        cm = 0x7FFFFF if sh == 7 else 0xFFFFFF
        a0 = (w[14 + r] & cm) << sh     # targets above the piece's row
        a1 = (w[11 + r] & cm) << sh
        a2 = (w[8 + r] & cm) << sh
        rs = s & 56                     # from here on, the frame goes down
        q0 = 112 - r * 15 - (s & 7)     # (7 - row) * 15 + 7 - col
        hs = s << 6
        src = CELLD[s]          # this piece's "a1-"
        for t in tl:
            if t >= rs:
                rs = 64
                a0 = (w[r] & cm) << sh
                a1 = (w[3 + r] & cm) << sh
                a2 = (w[6 + r] & cm) << sh
            j = jq[q0 + t15[t]]
            if a0 & masks[j] or (j >= _J1 and (
                    a1 & masks[j + 1] or
                    (j >= _J2 and a2 & masks[j + 2]))):
                continue
            if wr:
                line += src
                line += cn[t]
                line += b" "
            else:
                add(hs | t)
            if first:
                return out
    return out


def legal_text(g):
    """The protocol's ``legal`` answer while a towering move or the remix
    is legal, written in one piece: the names go into one buffer rather
    than into a new string per move (~140 of them; making a string first
    looks it up among the interned ones, which on a board costs about as
    much as the line of sight, and leaves ~5 KB of garbage). None where a
    bytearray takes no str in (CPython), or where nothing is legal: the
    protocol's own way there."""
    b = bytearray(768)
    try:
        b[:] = b""  # room for ~130 moves made once: less regrowth per token
        tower_moves(g, False, -1, 0, 8, b)
    except TypeError:
        return None
    # whether a move is legal, as to_move would find it (so the protocol
    # need not ask it first)
    g._any_move = 1 if b else 0
    if not b:
        if not can_remix(g):
            return None         # over: the protocol answers
        b += b"remix "          # the tokens of REMIX and END
    b += b"end"
    return b.decode()


def has_move(g):
    """Whether any towering move is legal, without a line of sight: a
    cell inside the box spanned by a piece and a target (the only cells
    that can block it) is strictly nearer the piece in |rows| + |columns|
    than the target is, so a piece's nearest target is never blocked. A
    move exists exactly when some loose piece has a target at all: a
    loose medium and a bare large of another colour, or a loose small and
    a medium (on a large) of another colour. One pass, colour bit sets."""
    lo = g.lo
    hi = g.hi
    med = 0         # colours of loose mediums, of bare larges, of loose
    bare = 0        # smalls, of mediums on larges
    sm = 0
    top = 0
    for s in range(64):
        p = lo[s]
        if p == NONE:
            continue
        z = p & 3
        b = 1 << (p >> 2)
        if z == 3:
            q = hi[s]
            if q == NONE:
                bare |= b
            else:
                top |= 1 << (q >> 2)
        elif z == 2:
            med |= b
        else:
            sm |= b
    # some pair of different colours: fails only when both sets are the
    # same single colour (or either is empty)
    return ((med and bare and not (med == bare and med & (med - 1) == 0)) or
            (sm and top and not (sm == top and sm & (sm - 1) == 0)))


def remix_pieces(g):
    """The pieces a remix takes apart, in order, without changing
    anything: the last grid row holding towers (slot order, each
    bottom to top), or if the grid is empty every partly built tower
    on the field (reading order, large then medium)."""
    w = g.width
    for r in range(4, -1, -1):
        row = bytearray()
        for i in range(r * w, r * w + w):
            row.extend(g.grid[i])
        if row:
            return row
    out = bytearray()
    for s in range(64):
        if g.hi[s] != NONE:
            out.append(g.lo[s])
            out.append(g.hi[s])
    return out


def can_remix(g):
    if g.towers():
        return True
    for s in range(64):
        if g.hi[s] != NONE:
            return True
    return False

def key(g):
    """A 4-byte fingerprint of the towering position (the memo key). The
    remix count is part of it: undo brings a position back with its count,
    but play can only bring one back through a remix, one count later, and
    a remix from there is a new one, as random as any."""
    h1 = 1 + g.remixes
    h2 = 2 + g.remixes
    for b in g.lo:
        h1 = (h1 * 257 + b) % 32749
        h2 = (h2 * 263 + b) % 32719
    for b in g.hi:
        h1 = (h1 * 257 + b) % 32749
        h2 = (h2 * 263 + b) % 32719
    for st in g.grid:
        h1 = (h1 * 257 + 200 + len(st)) % 32749
        h2 = (h2 * 263 + 200 + len(st)) % 32719
        for b in st:
            h1 = (h1 * 257 + b) % 32749
            h2 = (h2 * 263 + b) % 32719
    return bytes((h1 >> 8, h1 & 255, h2 >> 8, h2 & 255))


def remix(g):
    here = key(g)
    force = None
    for k, f in g.memo:
        if k == here:
            force = f
            break
    if force is None:
        force = bytearray()
        g.memo.append((here, force))
        if len(g.memo) > MEMO_MAX:
            g.memo.pop(0)
    pend = remix_pieces(g)
    if g.towers():
        w = g.width
        for r in range(4, -1, -1):
            if any_in(g.grid, r * w, w):
                for i in range(r * w, r * w + w):
                    g.grid[i] = bytearray()
                break
    else:
        for s in range(64):
            if g.hi[s] != NONE:
                g.lo[s] = NONE
                g.hi[s] = NONE
    g.remixes += 1
    g.pending_pieces = pend
    g.force = force
    g.pos = 0
    g.phase = P_REMIX


def any_in(cells, start, n):
    for i in range(start, start + n):
        if cells[i]:
            return True
    return False


# ---- the Game's towering and scatter steps (engine.ice_solo delegates) ----

def chance(g):
    """The scatter's or a remix's chance outcomes."""
    left = g.left
    if g.phase != P_REMIX:
        out = []
        for k in range(12):
            if left[k]:
                out.append((PLACE + ((g.cols[k // 3] << 2) | (k % 3 + 1)), left[k]))
        if left[12]:
            out.append((EMPTY, left[12]))
        return out
    i = g.pos
    lo = g.lo
    f = g.force
    if f is not None and i < len(f) and lo[f[i]] == NONE:
        return [(TARGET + f[i], 1)]
    return [(TARGET + t, 1) for t in range(64) if lo[t] == NONE]


def apply_chance(g, a):
    """A scatter cell's piece (or hole), or where a remixed piece lands."""
    if g.phase != P_REMIX:
        if a == EMPTY:
            g.left[12] -= 1
        else:
            p = a - PLACE
            g.left[CIX[p >> 2] * 3 + (p & 3) - 1] -= 1
            g.lo[g.pos] = p
        g.pos += 1
        if g.pos == 64:
            g.phase = P_TOWER
            g.left = None
            g.pos = 0
        return
    t = a - TARGET
    g.lo[t] = g.pending_pieces[g.pos]
    f = g.force
    if f is not None and g.pos == len(f):
        f.append(t)    # a newly revealed outcome joins the memo
    g.pos += 1
    if g.pos == len(g.pending_pieces):
        g.phase = P_TOWER
        g.pending_pieces = None
        g.force = None
        g.pos = 0


def loose(g, s):
    """The piece at field cell ``s`` if it can move (a lone small or
    medium; larges never move, a medium on a large stays put)."""
    p = g.lo[s]
    if p == NONE or g.hi[s] != NONE or p & 3 == 3:
        return NONE
    return p


def move_ok(g, s, t):
    p = loose(g, s)
    if p == NONE:
        return False
    tg = targets(g, p)
    return t in tg and clear_line(s, t, tg)


def apply_move(g, a):
    """A towering move; a small finishes its tower, which goes to the
    grid's first free slot (nesting begins with the twentieth)."""
    s = a >> 6
    t = a & 63
    lo = g.lo
    p = lo[s]
    lo[s] = NONE
    if p & 3 == 2:
        g.hi[t] = p
        return
    tower = bytes((lo[t], g.hi[t], p))
    lo[t] = NONE
    g.hi[t] = NONE
    grid = g.grid
    for i in range(len(grid)):
        if not grid[i]:
            grid[i] = bytearray(tower)
            break
    if g.towers() == 20:
        g.phase = P_NEST
        g.lo = None
        g.hi = None


def undo(g, a):
    """Take back an end played while towering, or a towering move that did
    not finish the last tower, directly; False for anything else (the
    caller replays). A medium comes off its large, or the newest tower
    (finished towers always fill the grid from its first slot, as a remix
    empties a whole last row) goes back to the field."""
    h = g.hist
    if h[-2] & 0x80:
        return False
    if a == END and g.phase == P_OVER:
        g.phase = P_TOWER    # ended while towering (nesting is above)
    elif g.phase == P_TOWER and a < 4096:
        s = a >> 6
        t = a & 63
        if g.hi[t] != NONE:
            g.lo[s] = g.hi[t]
            g.hi[t] = NONE
        else:
            i = g.towers() - 1
            tw = g.grid[i]
            g.lo[t] = tw[0]
            g.hi[t] = tw[1]
            g.lo[s] = tw[2]
            g.grid[i] = bytearray()
    else:
        return False
    g.undos += 1
    g._any_move = -1
    g._breakdown = None
    g.hist = h[:-2]
    return True


def field_text(g):
    lo = g.lo
    hi = g.hi
    pn = PN
    out = []
    for s in range(64):
        p = lo[s]
        if p == NONE:
            out.append("-")
        elif hi[s] == NONE:
            out.append(pn[p])         # constant names: no string per piece
        else:
            out.append(pn[p] + pn[hi[s]])
    return "/".join(out)
