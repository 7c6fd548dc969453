"""Seeded playthroughs for the native (64-bit) MicroPython second opinion.

    micropython -X heapsize=N native_play.py ROOT GAME "OPTS" SEEDS MAX_STEPS

Plays the same games as tools/budget/run.mjs (same chooser, same protocol
lines) with the engine found under ROOT, on an interpreter that collects
garbage whenever it must and raises MemoryError at its cap, as a board
does. Prints ``OK <steps>`` when every game ran without running out of
memory; anything else means the heap was too small.
"""

import sys


class XorShift:
    def __init__(self, seed):
        x = (seed ^ 0x9E3779B9) & 0xFFFFFFFF
        self.x = x or 1
        for _ in range(4):
            self.next()

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        return self.next() % n


def main(root, game, opts, seeds, max_steps):
    sys.path.insert(0, root)
    from engine.protocol import Session
    try:
        sess = Session(1, auto=False)   # one deal node per line, as run.mjs
    except TypeError:
        sess = Session(1)
    total = 0
    for seed in range(1, seeds + 1):
        rnd = XorShift(seed)
        n = [0]

        def send(line):
            a = sess.handle(line)
            n[0] += 1
            if a.startswith("? out of memory") or a.startswith("? internal error"):
                raise MemoryError("%s: %s" % (line, a.strip()))
            return a.startswith("="), a[2:].rstrip("\n")

        ok, text = send(("new %s seed=%d %s" % (game, seed, opts)).strip())
        if not ok:
            raise ValueError("new failed: " + text)
        since_undo = 0
        hints = None
        while n[0] < max_steps:
            tm = send("to_move")[1]
            if tm == "over":
                break
            if tm == "chance":
                send("sample")
            else:
                # a hint now and then, as run.mjs asks it
                if hints is None:
                    hints = send("hint")[0]
                elif hints and rnd.below(4) == 0:
                    send("hint")
                toks = [t for t in send("legal")[1].split(" ") if t]
                send("play " + toks[rnd.below(len(toks))])
            send("state")
            if rnd.below(4) == 0:
                send("show")
            since_undo += 1
            if since_undo > 3 and rnd.below(12) == 0:
                send("undo")
                since_undo = 0
        send("score")
        send("history")
        total += n[0]
    print("OK %d" % total)


main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
