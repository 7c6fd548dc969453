"""Ice Solo's ``history`` answer: every action's token, oldest first, in
one string. Loaded for the call and forgotten again on a board (see
``engine.ice_solo._text``).

The same tokens as ``Game.token``, without a method call and its chain of
comparisons per action: a deal takes about 150 chance nodes, so a history
is mostly pieces and checkpoints, and those are constants of :data:`TOK`
(no string made per token: slicing a str costs a board more than the
lookup); a move is one join of two of the game's cell names. No ``struct``
here: importing it searches the filesystem first, which costs more than
unpacking the history by hand. tests/test_ice_solo.py checks the answer
against ``Game.token`` on every kind of action.
"""

from engine.ice_solo import NAMES, TARGET, _CN, _name

# tokens of the actions 4096 (REMIX) .. 4165 (DEAL_REDO): the four words,
# the placed pieces by code (PLACE + code; "" where the size is 0, which is
# no piece), "" up to EMPTY, then EMPTY, DEAL_OK, DEAL_REDO (a list: its
# strings are interned names, cheaper to load than a constant tuple's)
TOK = [
    "remix", "end", "style-yes", "style-no", "", "=r1", "=r2", "=r3", "",
    "=o1", "=o2", "=o3", "", "=y1", "=y2", "=y3", "", "=g1", "=g2", "=g3", "",
    "=c1", "=c2", "=c3", "", "=b1", "=b2", "=b3", "", "=p1", "=p2", "=p3", "",
    "=w1", "=w2", "=w3", "", "=k1", "=k2", "=k3", "", "", "", "", "", "", "",
    "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
    "", "", "=-", "=ok", "=redo"]


def history(g):
    h = g.hist
    out = []
    add = out.append
    cn = _CN or NAMES       # all 64 names while towering, else rows 1-5
    m = len(cn)
    tok = TOK
    for i in range(0, len(h), 2):
        a = ((h[i] & 0x7F) << 8) | h[i + 1]
        if a < 4096:
            s = a >> 6
            t = a & 63
            if s < m and t < m:
                add("-".join((cn[s], cn[t])))
            else:                       # a field cell after towering
                add(_name(s) + "-" + _name(t))
        elif a < 4166:
            add(tok[a - 4096])
        else:
            add("@" + _name(a - TARGET))
    return " ".join(out)
