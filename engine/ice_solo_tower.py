"""Ice Solo's towering phase (variant 4): line of sight, the move list and
the remix. Imported only while a game is towering (see
``engine.ice_solo._tw``) and dropped on a board when nesting begins, so the
5-colour game and the nesting phase never hold its code or its table.

Functions take the game ``g`` (an ``engine.ice_solo.Game``) as their first
argument; the game's methods of the same names (with a leading
underscore) call them.
"""

from engine.ice_solo import (NONE, CIX, PN, MEMO_MAX, P_REMIX, P_TOWER,
                             P_NEST, P_OVER, END, EMPTY, PLACE, TARGET, _drop)


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


# The cells whose interior the open segment between two cell centres
# crosses, for every offset: in the box spanned by the two cells, a byte
# per row (bit c: column c of the box), the ends left out, three rows to an
# int (small ints on a board). The block for the box |DX| = ax, |DY| = ay
# starts at (o * 8 + ax) * 15 + (0, 1, 2, 3, 5, 7, 9, 12)[ay] and has
# ay // 3 + 1 ints; o = 0 when the segment runs from the box's top left to
# its bottom right corner, 1 from top right to bottom left. 240 ints,
# written out so that importing costs no work. They were made by walking
# each segment cell by cell: the k-th side crossing of the columns comes
# at parameter (2k+1)/(2|DX|) and of the rows at (2k+1)/(2|DY|), compared
# exactly by cross-multiplying; a tie is a corner, where the segment goes
# on diagonally and skips the two cells that only touch it.
# tests/test_ice_solo.py checks every entry against :func:`clear_line`.
PATHS = (
    0, 0, 256, 65792, 0, 65792, 1, 65792, 257, 65792, 65793, 0, 65792,
    65793, 1, 0, 0, 768, 131328, 0, 196864, 2, 65792, 514, 65792, 131587, 0,
    65792, 131585, 2, 2, 514, 512, 393984, 0, 131840, 6, 131840, 1538,
    131328, 262658, 0, 196864, 393730, 4, 6, 1026, 263682, 262656, 0,
    393984, 12, 131840, 3076, 131840, 787462, 0, 131840, 263170, 12, 14,
    3078, 527874, 787970, 8, 262656, 8, 393984, 6156, 393984, 1575940, 0,
    131840, 527366, 24, 30, 6150, 1056258, 1574402, 16, 787970, 4120,
    262656, 4104, 393984, 3151884, 0, 393984, 1574916, 48, 62, 14350,
    2104322, 3673602, 32, 1836546, 8240, 787970, 2109464, 262656, 2101256,
    0, 393984, 3151884, 96, 126, 28686, 6306822, 7343618, 64, 1576450,
    16496, 787970, 4218928, 787970, 6303768, 64, 262656, 2101256, 64, 0, 0,
    256, 65792, 0, 65792, 1, 65792, 257, 65792, 65793, 0, 65792, 65793, 1,
    0, 0, 768, 66048, 0, 197120, 1, 131584, 257, 131584, 65795, 0, 131584,
    65794, 1, 2, 514, 512, 198144, 0, 132608, 3, 132608, 770, 132096, 66050,
    0, 394240, 197122, 1, 6, 516, 132612, 132096, 0, 396288, 3, 265216, 770,
    265216, 197126, 0, 265216, 131588, 3, 14, 1548, 134664, 396296, 2,
    264192, 2, 792576, 774, 792576, 198148, 0, 530432, 132620, 3, 30, 1560,
    138768, 399376, 2, 792592, 518, 528384, 516, 1585152, 198156, 0,
    1585152, 394248, 3, 62, 3640, 138272, 931872, 2, 1847328, 518, 1585184,
    132620, 1056768, 132104, 0, 3170304, 396312, 3, 126, 3696, 408672,
    946240, 2, 1601600, 526, 3170368, 132620, 3170368, 396312, 2, 2113536,
    264208, 2)


# Per offset from a piece to a target (dy, dx in -7..7; q = (dy + 7) * 15 +
# dx + 7): JB, the start of its block in PATHS; OB, where the box starts
# relative to the piece (bits 3-5: 7 + min(dy, 0), bits 0-2: 7 + min(dx, 0))
# and in bits 6-7 how many more ints of PATHS the box needs (|dy| // 3).
# T15[t] = row * 15 + column of cell t, so q is one add per pair. Written
# out (from PATHS' layout) so that importing costs no work.
JB = (
    b"\x75\x66\x57\x48\x39\x2a\x1b\x0c\x93\xa2\xb1\xc0\xcf\xde\xed\x72"
    b"\x63\x54\x45\x36\x27\x18\x09\x90\x9f\xae\xbd\xcc\xdb\xea\x70\x61"
    b"\x52\x43\x34\x25\x16\x07\x8e\x9d\xac\xbb\xca\xd9\xe8\x6e\x5f\x50"
    b"\x41\x32\x23\x14\x05\x8c\x9b\xaa\xb9\xc8\xd7\xe6\x6c\x5d\x4e\x3f"
    b"\x30\x21\x12\x03\x8a\x99\xa8\xb7\xc6\xd5\xe4\x6b\x5c\x4d\x3e\x2f"
    b"\x20\x11\x02\x89\x98\xa7\xb6\xc5\xd4\xe3\x6a\x5b\x4c\x3d\x2e\x1f"
    b"\x10\x01\x88\x97\xa6\xb5\xc4\xd3\xe2\xe1\xd2\xc3\xb4\xa5\x96\x87"
    b"\x00\x0f\x1e\x2d\x3c\x4b\x5a\x69\xe2\xd3\xc4\xb5\xa6\x97\x88\x01"
    b"\x10\x1f\x2e\x3d\x4c\x5b\x6a\xe3\xd4\xc5\xb6\xa7\x98\x89\x02\x11"
    b"\x20\x2f\x3e\x4d\x5c\x6b\xe4\xd5\xc6\xb7\xa8\x99\x8a\x03\x12\x21"
    b"\x30\x3f\x4e\x5d\x6c\xe6\xd7\xc8\xb9\xaa\x9b\x8c\x05\x14\x23\x32"
    b"\x41\x50\x5f\x6e\xe8\xd9\xca\xbb\xac\x9d\x8e\x07\x16\x25\x34\x43"
    b"\x52\x61\x70\xea\xdb\xcc\xbd\xae\x9f\x90\x09\x18\x27\x36\x45\x54"
    b"\x63\x72\xed\xde\xcf\xc0\xb1\xa2\x93\x0c\x1b\x2a\x39\x48\x57\x66"
    b"\x75")
OB = (
    b"\x80\x81\x82\x83\x84\x85\x86\x87\x87\x87\x87\x87\x87\x87\x87\x88"
    b"\x89\x8a\x8b\x8c\x8d\x8e\x8f\x8f\x8f\x8f\x8f\x8f\x8f\x8f\x50\x51"
    b"\x52\x53\x54\x55\x56\x57\x57\x57\x57\x57\x57\x57\x57\x58\x59\x5a"
    b"\x5b\x5c\x5d\x5e\x5f\x5f\x5f\x5f\x5f\x5f\x5f\x5f\x60\x61\x62\x63"
    b"\x64\x65\x66\x67\x67\x67\x67\x67\x67\x67\x67\x28\x29\x2a\x2b\x2c"
    b"\x2d\x2e\x2f\x2f\x2f\x2f\x2f\x2f\x2f\x2f\x30\x31\x32\x33\x34\x35"
    b"\x36\x37\x37\x37\x37\x37\x37\x37\x37\x38\x39\x3a\x3b\x3c\x3d\x3e"
    b"\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x38\x39\x3a\x3b\x3c\x3d\x3e\x3f"
    b"\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x38\x39\x3a\x3b\x3c\x3d\x3e\x3f\x3f"
    b"\x3f\x3f\x3f\x3f\x3f\x3f\x78\x79\x7a\x7b\x7c\x7d\x7e\x7f\x7f\x7f"
    b"\x7f\x7f\x7f\x7f\x7f\x78\x79\x7a\x7b\x7c\x7d\x7e\x7f\x7f\x7f\x7f"
    b"\x7f\x7f\x7f\x7f\x78\x79\x7a\x7b\x7c\x7d\x7e\x7f\x7f\x7f\x7f\x7f"
    b"\x7f\x7f\x7f\xb8\xb9\xba\xbb\xbc\xbd\xbe\xbf\xbf\xbf\xbf\xbf\xbf"
    b"\xbf\xbf\xb8\xb9\xba\xbb\xbc\xbd\xbe\xbf\xbf\xbf\xbf\xbf\xbf\xbf"
    b"\xbf")
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

def path_clear(s, t, w3, k):
    """Line of sight from ``s`` to ``t`` (8-wide indices), as
    :func:`clear_line` decides it: False if a cell the segment crosses is
    flagged in ``w3``, where ``w3[k + r]`` holds the flags of board rows r,
    r + 1 and r + 2 (a byte each, bit c: column c), as the towering move
    list packs its targets. The move list does exactly this inline, so the
    tests of this function are tests of its tables."""
    q = 112 - (s >> 3) * 15 - (s & 7) + T15[t]
    o = OB[q]
    j = JB[q]
    k += (s >> 3) - 7 + (o >> 3 & 7)
    c0 = (s & 7) - 7 + (o & 7)
    for i in range((o >> 6) + 1):
        if w3[k + 3 * i] & (PATHS[j + i] << c0):
            return False
    return True


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

    One pass over the field flags the larges (row bytes, bit c: column c)
    by what a loose piece could land on, per colour and in all. A kind's
    targets (which are also what blocks its line of sight) are the flagged
    cells not of its own colour, worked out the first time a piece of that
    kind comes up and packed three rows to an int; each (piece, target)
    pair then reads the cells its segment crosses from PATHS, as
    :func:`path_clear` does (inlined: this is the game's hottest loop)."""
    lo = g.lo
    hi = g.hi
    # rows: bare larges by colour index (8 * i + row), all bare larges
    # (32 + row); larges with a medium by the medium's colour (40 + ...),
    # all of them (72 + row)
    rows = bytearray(80)
    bare = bytearray()
    topped = bytearray()
    for s in range(64):
        p = lo[s]
        if p == NONE or p & 3 != 3:
            continue
        h = hi[s]
        r = s >> 3
        if h == NONE:
            rows[CIX[p >> 2] * 8 + r] |= 1 << (s & 7)
            rows[32 + r] |= 1 << (s & 7)
            bare.append(s)
        else:
            rows[40 + CIX[h >> 2] * 8 + r] |= 1 << (s & 7)
            rows[72 + r] |= 1 << (s & 7)
            topped.append(s)
    paths = PATHS
    jb = JB
    ob = OB
    t15 = T15
    tls = [None] * 8            # per kind: its targets, once worked out
    w3 = [0] * 64               # per kind: its targets, 3 rows an int
    out = []
    add = out.append
    for s in range(64) if only < 0 else (only,):
        p = lo[s]
        if p == NONE or p & 3 == 3:
            continue
        kind = CIX[p >> 2] + (0 if p & 3 == 2 else 4)
        if kind < klo or kind >= khi:
            continue
        tl = tls[kind]
        k0 = kind * 8
        if tl is None:
            a = 0 if kind < 4 else 40
            o = a + (kind & 3) * 8      # its own colour's rows
            tl = bytearray()
            for t in (bare if kind < 4 else topped):
                if not rows[o + (t >> 3)] & (1 << (t & 7)):
                    tl.append(t)
            tls[kind] = tl
            if tl:
                b = 0
                for r in (7, 6, 5, 4, 3, 2, 1, 0):
                    # rows r to r + 2 (masked first: a small int on a board)
                    b = (b & 0xFFFF) << 8 | rows[a + 32 + r] - rows[o + r]
                    w3[k0 + r] = b
        if not tl:
            continue
        q0 = 112 - (s >> 3) * 15 - (s & 7)      # (7 - row) * 15 + 7 - col
        kb = k0 + (s >> 3) - 7
        cb = (s & 7) - 7
        hi = s << 6
        src = CELLD[s]          # this piece's "a1-"
        for t in tl:
            q = q0 + t15[t]
            o = ob[q]
            j = jb[q]
            k = kb + (o >> 3 & 7)
            c0 = cb + (o & 7)
            if w3[k] & (paths[j] << c0) or (o > 63 and (
                    w3[k + 3] & (paths[j + 1] << c0) or
                    (o > 127 and w3[k + 6] & (paths[j + 2] << c0)))):
                continue
            if line is not None:
                line += src
                line += CELLN[t]
                line += b" "
            else:
                add(hi | t)
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
    b = bytearray()
    try:
        tower_moves(g, False, -1, 0, 8, b)
    except TypeError:
        return None
    # whether a move is legal, as to_move would find it (so the protocol
    # need not ask it first)
    g._mv = 1 if b else 0
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
    """A 4-byte fingerprint of the towering position (the memo key)."""
    h1 = 1
    h2 = 2
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
    g.pend = pend
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
    g.lo[t] = g.pend[g.pos]
    f = g.force
    if f is not None and g.pos == len(f):
        f.append(t)    # a newly revealed outcome joins the memo
    g.pos += 1
    if g.pos == len(g.pend):
        g.phase = P_TOWER
        g.pend = None
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
        _drop(0)


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
    g._mv = -1
    g._bd = None
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
