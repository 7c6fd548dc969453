"""The engine's message texts, numbered (the number of a text is its line
in :data:`_ALL`, counting from 0; a caller names the text in a comment).

Loaded for one message and forgotten again on a board
(:func:`engine.state.fail`): a text in a resident module would cost heap for
as long as the game runs, and one long string loads as one object.
"""

from engine.state import IllegalMove

_ALL = """\
line too long (over %d characters)
unknown command %r (try help)
unexpected %r
no game: start one with new <id>
chance weights must be positive
usage: new <id> [key=value ...]
seed=%s: expected a whole number
seed=%d: expected 0..4294967295
usage: play <token>
not a chance node (to_move is %s)
nothing to undo
cannot write %r as JSON
unknown token %r: dice moves are roll and the faces %s
the dice are still rolling: sample the next die
no die is rolling: roll first
dice state is truncated or malformed
dice state does not fit count=%d
dice state has a bad face
contents: %s
contents: bad count in %r (use like r3*2)
contents: at most %d items in a bag
give preset= or contents=, not both
preset=%s: choose one of %s
unknown token %r: bag moves are draw, return, and at a draw the item drawn (like r3 or r)
a draw is under way: sample it first
no %s is left in the bag
the bag is empty: return the drawn items first
nothing has been drawn
draw first
bag state is truncated or malformed
bag state draws more items than the bag holds
bag state draws an item the bag never held
bag state does not match its contents
bag state is drawing from an empty bag
unknown colour %r (use one of %s)
bad size in %r: sizes are 1, 2, 3
bad piece %r: a colour letter (%s) and a size 1-3
bad stack %r: pieces like r3g2b1, or - for empty
cell %r is off the %dx%d grid
bad cell %r: a column letter and a row number, like b3
grid has %d cells, expected %d (%dx%d)
cell %s: %s
the game is over
game %s is not built yet
%s offers no hint
bots=%s: expected seats 1..%d, separated by commas, each once
unknown token %r: Bag of Ice moves are draw, stop, size1, size2, size3; the die faces S M L SM SL ML; pieces like y2
the die is rolling or a pyramid is being drawn: play the outcome or sample it
nothing is drawn yet: a turn starts with draw
no size to choose now: draw first
choose a size first: size%d or size%d
it is a player's turn to decide, not chance's
a pyramid is being drawn, not a die rolled
the die is rolling: play a face (S M L SM SL ML) or sample it
the die shows %s: draw a pyramid of size %d
no %s is left in the bag
bag_of_ice state is malformed"""


def text(n):
    """Message ``n``."""
    i = 0
    while n:
        i = _ALL.index("\n", i) + 1
        n -= 1
    j = _ALL.find("\n", i)
    return _ALL[i:] if j < 0 else _ALL[i:j]


def fail(n, args=(), cls=ValueError):
    """Raise ``cls`` with message ``n`` formatted by ``args`` (a tuple)."""
    raise cls(text(n) % args)


def refusal(st, a):
    """Raise IllegalMove for action ``a``, refused by state ``st``."""
    # the action may come from a corrupt save, where no token names it
    # and why_illegal/token may index out of range: the refusal must
    # still be an IllegalMove, never an IndexError
    try:
        msg = st.why_illegal(a) or "%s is not legal now" % st.token(a)
        if not isinstance(msg, str):   # (n, args): message n
            msg = text(msg[0]) % msg[1]
    except Exception:
        msg = "action %d is not legal now" % a
    raise IllegalMove(msg)
