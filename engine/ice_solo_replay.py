"""Ice Solo's positions rebuilt by replaying actions: undo by replay (a
chance outcome, a remix, or back into the deal or scatter) and reading a
save (the format: engine/ice_solo_undo.py, whose ``undo`` and ``unpack``
come here). The game's own code holds the direct undos."""

from engine.ice_solo import P_DEAL, P_SCATTER, P_NEST, P_TOWER, MEMO_MAX
from engine.state import State


def undo(g, n):
    """Replay the first ``n`` actions (all but the last) from the start,
    or from the position kept after the opening deal or scatter."""
    h = g.hist
    if not h[-2] & 0x80:
        g.undos += 1
    hist = h[:-2]
    memo = set_memo_aside(g)
    g.hist = bytearray()
    g._init()
    i = 0
    if g._base is not None and g._base_n <= n:
        _restore_base(g)
        i = g._base_n
    else:
        g._base = None
    while i < n:
        was = g.phase
        g._apply(((hist[2 * i] << 8) | hist[2 * i + 1]) & 0x7FFF)
        i += 1
        if was != P_NEST and g.phase == P_NEST:
            g._nest_at = i
        if g._base is None and (was == P_DEAL or was == P_SCATTER) and \
                (g.phase == P_NEST or g.phase == P_TOWER):
            _keep_base(g, i)
    g.hist = bytearray(hist)
    restore_memo(g, memo)


def set_memo_aside(g):
    """Before a replay: the remix memo, set aside, and a fresh one in its
    place. A replayed remix lands as its history says, so the replay
    learns nothing new; remembering its remixes again would reorder the
    memo and could drop outcomes it holds (of remixes since undone)."""
    memo = g.memo
    g.memo = []
    return memo


def restore_memo(g, memo):
    """After a replay: the memo as it was before. A remix still under way
    goes on with the outcomes the memo remembers for it."""
    replayed = g.memo
    g.memo = memo
    force = g.force
    if force is None:
        return
    for k, f in replayed:
        if f is force:
            for k2, f2 in memo:
                if k2 == k:
                    g.force = f2
                    return
            # a save whose memo lacks the remix under way: remember it now
            memo.append((k, force))
            if len(memo) > MEMO_MAX:
                memo.pop(0)
            return


def _keep_base(g, n):
    """Remember the position right after the opening deal or scatter (the
    first ``n`` actions), so later undos replay only the moves."""
    if g.phase == P_TOWER:
        g._base = bytes(g.lo)
    else:
        out = bytearray()
        for st in g.grid:
            out.append(len(st))
            out.extend(st)
        g._base = bytes(out)
    g._base_n = n


def _restore_base(g):
    b = g._base
    g.pos = 0
    g.left = None
    if len(b) == 64 and g.lo is not None:
        for j in range(64):
            g.lo[j] = b[j]
        g.phase = P_TOWER
        return
    i = 0
    for c in range(len(g.grid)):
        k = b[i]
        g.grid[c] = bytearray(b[i + 1:i + 1 + k])
        i += 1 + k
    g.layer = 3
    g.order = None
    g.phase = P_NEST
    g._nest_at = g._base_n


def unpack(g, body):
    n = len(body)
    if n < 3:
        raise ValueError("ice_solo save is truncated")
    undos = (body[0] << 8) | body[1]
    m = body[2]
    i = 3
    memo = []
    for _ in range(m):
        if i + 5 > n or i + 5 + body[i + 4] > n:
            raise ValueError("ice_solo save is truncated")
        k = bytes(body[i:i + 4])
        f = bytearray(body[i + 5:i + 5 + body[i + 4]])
        for t in f:
            if t >= 64:
                raise ValueError("ice_solo save has a bad remix cell")
        memo.append((k, f))
        i += 5 + len(f)
    if m > MEMO_MAX:
        raise ValueError("ice_solo save has too many remix memos")
    g.memo = []
    State._unpack(g, body[i:])
    restore_memo(g, memo)
    g.undos = undos
