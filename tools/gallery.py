#!/usr/bin/env python3
"""Make the README gallery: pictures of the real app's screens on both
panel sizes, taken through the simulator harness (tools/simkit.py, the
same code path as ``tools/sim.py --keys ... --png``).

    python tools/gallery.py            # rewrite docs/gallery/*.png and its README
    python tools/gallery.py --check    # exit 1 if a picture is out of date

Every shot is a key script played on a freshly booted console with a fixed
seed, so re-running gives the same pictures until the screens change.
"""

import argparse
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tools import simkit  # noqa: E402  (sets the Blinka board first)

OUT = os.path.join(ROOT, "docs", "gallery")
BOARDS = (("pico_8x8", "8x8"), ("pico_16x16", "16x16"))
SEED = 3
BOOT = "wait:1500"

# Pointsettia: 18 moves of a two-person game, made with the buttons
PS_18 = ("menu:pointsettia a a right a a a right down a a right a a right*3 up a "
         "right*3 a a down*2 a right*2 a a up*2 a right*6 a a right*3 a right*3 a "
         "a right*2 down*2 a right*3 a a a right*2 up*2 a right*5 a a a right*3 a "
         "a right down*2 a a a right*3 up*2 a a a right*3 a right*5 a a right a a "
         "a right*2 a right*3 a right*2 a a down a right*3 a a a right*3 a right*3 "
         "a a right a right*3 a a a right*3 up a right*4 a")

# name, caption, key script after boot, and optionally a seed (SEED if
# not given); "menu:ID" moves the menu to an item (tools/sim.py --help), so
# a game added to the catalog moves no shot; "handoff:N" is not a key but
# asks the app for the hand-off screen of player N (the same for every game)
SHOTS = (
    ("menu", "Menu: one icon per game and tool (the name scrolls on 16x16)",
     "menu:dice wait:300"),
    ("dice", "Dice: three pyramid dice and their pip total",
     "menu:dice a down up up a a wait:900"),
    ("dice-d6", "Dice: six d6 (pages turn on 8x8)",
     "menu:dice a down right*3 up*5 a a wait:900"),
    ("bag", "Bag: what is left of the Bag of Ice bag, per colour and size",
     "menu:bag a a wait:700 a wait:700 a wait:700 a wait:700 b"),
    ("bag-draw", "Bag: the piece just drawn",
     "menu:bag a a wait:700"),
    ("bag-custom", "Bag: editing a custom bag of rocks",
     "menu:bag a up left a up up right down wait:100"),
    ("handoff", "Pass and play: player 2's turn", "menu:dice a handoff:1"),
    ("settings", "Settings: a value", "menu:settings a right wait:100"),
    # Bag of Ice, two players: past the roll-off and the hand-off, then
    # draws (an A on a two-size face takes the smaller size); the last
    # wait lets a 16x16 frame finish (it goes up a few rows a pass)
    ("bag-of-ice", "Bag of Ice: this turn's trees, the pieces left over, the value",
     "menu:bag_of_ice a wait:4000 a" + " a wait:2600" * 8 + " wait:100", 47),
    ("bag-of-ice-choice", "Bag of Ice: a two-size face: the sizes left in the bag",
     "menu:bag_of_ice a wait:4000 a a wait:2600 a wait:2600 right wait:100", 47),
    # Ice Stalks, two people: nine turns (A draws, A places the first legal
    # placement, A passes the hand-off), then the tenth rock drawn and the
    # cursor one stop on
    ("ice-stalks", "Ice Stalks: the stalks, the cursor on one, the other legal targets green",
     "menu:ice_stalks a a" + " a wait:1500 a wait:2000 a" * 9 +
     " a wait:1500 right wait:600"),
    # Pointsettia, two people: 18 moves (each a hand-off A, the kind, A,
    # the slot, A, and a power's choice), then the plant, and a clear
    # piece's power previewed (two up) before it is played
    ("pointsettia", "Pointsettia: the plant after 18 moves (the rim outside)",
     PS_18 + " a b wait:300"),
    ("pointsettia-power", "Pointsettia: a w2's power previewed: it takes the place two up",
     PS_18 + " a right a right*3 a right*2 wait:300"),
    # IceTowers, three people (the default): five caps build a six-high
    # tower in b2 and green passes (docs/games/icetowers.md spells the
    # keys out), then red picks up its large in d1: the larges it may
    # cap blink
    ("ice-towers", "IceTowers: a large in hand (magenta), the towers it may cap blinking",
     "menu:ice_towers a wait:2500 a a down right a a right*3 down a left*3 up"
     " a a up right*5 a left*5 down a a right down a left up a a right*4"
     " down*3 a up*3 left*4 a a b a a up right right a wait:100"),
)


def shoot(board, script, seed=SEED):
    """A booted console after ``script``; returns the Sim."""
    sim = simkit.Sim(board=board, seed=seed)
    sim.run_script(BOOT)
    for part in script.split():
        if part.startswith("handoff:"):
            sim.app.handoff(int(part[8:]))
            sim.advance(100)
        else:
            sim.run_script(part)
    return sim


def _legend_colour(index):
    """A palette index as the pictures show it (full brightness, gamma
    undone, as Sim.view does)."""
    from lib import palette as P
    rgb = _PALETTE[0] if _PALETTE else None
    if rgb is None:
        rgb = P.Palette().rgb
        _PALETTE.append(rgb)
    if not index:
        return (0, 0, 0)
    v = rgb[index]
    return tuple(simkit._perceived(x, 255) for x in (v >> 16, (v >> 8) & 255, v & 255))


_PALETTE = []
LEGENDS = ("legend-16x16.png", "legend-8x8.png")


def legends(out_dir):
    """The visual language's legend (docs/visual-language.md), drawn by
    lib.screens_common's own helpers: on 16x16 a column per colour
    (r o y g c b p w k) and a row per kind (small, medium, large, rock,
    clean nest, nest on a pile; then an empty cell, a medium on a large,
    a finished tower and a medium on a covered nest); on 8x8 time running right, a dot a beat: the
    cursor's blink code for y1, y2, y3, a yellow rock and y2 on r3, then
    a cell of the grid: a loose large, a clean nest, a nest on a pile, a
    large on a covered nest."""
    from lib import screens_common as C
    from lib import palette as P
    W, H = 26, 20
    f = bytearray(W * H)
    for c in range(9):
        x = 3 * c
        for row, size in enumerate((1, 2, 3, 0)):
            C.put_piece(f, 3 * row * W + x, W, c << 2 | size)
        nest = bytes((c << 2 | 3, c << 2 | 2, c << 2 | 1))
        C.put_stack(f, 12 * W + x, W, nest, 3)
        C.put_stack(f, 15 * W + x, W, bytes((c << 2 | 2,)) + nest, 4)
    C.put_empty(f, 18 * W, W)
    C.put_tower(f, 18 * W + 3, W, 0 << 2 | 3, 2 << 2 | 2)
    C.put_tree(f, 18 * W + 6, W, 0 << 2 | 3, 2 << 2 | 2, 5 << 2 | 1)
    C.put_stack(f, 18 * W + 9, W, bytes((15, 14, 13, 10)), 4)
    simkit.save_png(os.path.join(out_dir, LEGENDS[0]),
                    [_legend_colour(i) for i in f], W, H)
    W, H = 24, 10
    f = bytearray(W * H)
    stacks = (bytes((9,)), bytes((10,)), bytes((11,)), bytes((8,)),
              bytes((3, 10)))
    for row in range(5):
        st = stacks[row]
        for b in range(W):
            f[row * W + b] = C.flash(b, st, len(st))
    for row, kind in ((6, C.LOOSE), (7, C.NEST), (8, C.NEST_ON_PILE),
                      (9, C.COVERED)):
        for b in range(W):
            f[row * W + b] = P.piece(2, 3) if C.nest_lit(kind, b) else P.OFF
    simkit.save_png(os.path.join(out_dir, LEGENDS[1]),
                    [_legend_colour(i) for i in f], W, H)
    return list(LEGENDS)


def build(out_dir):
    """Write every picture and the index into ``out_dir``; returns names."""
    names = legends(out_dir)
    for shot in SHOTS:
        name, script = shot[0], shot[2]
        seed = shot[3] if len(shot) > 3 else SEED
        for board, size in BOARDS:
            fn = "%s-%s.png" % (name, size)
            shoot(board, script, seed).png(os.path.join(out_dir, fn))
            names.append(fn)
    lines = ["# Gallery", "",
             "The app's screens as the simulator draws them, on both panel",
             "sizes. Made by `python tools/gallery.py`; re-run it after",
             "changing a screen and commit the pictures.", "",
             "| screen | 8x8 | 16x16 |", "|---|---|---|"]
    for shot in SHOTS:
        name, caption = shot[0], shot[1]
        lines.append("| %s | ![%s 8x8](%s-8x8.png) | ![%s 16x16](%s-16x16.png) |"
                     % (caption, name, name, name, name))
    lines.append("")
    with open(os.path.join(out_dir, "README.md"), "w") as f:
        f.write("\n".join(lines))
    return names


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with docs/gallery instead of writing")
    args = ap.parse_args(argv)
    if not args.check:
        os.makedirs(OUT, exist_ok=True)
        for fn in build(OUT):
            print(os.path.join("docs", "gallery", fn))
        return 0
    from PIL import Image, ImageChops
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        for fn in build(tmp) + ["README.md"]:
            new = os.path.join(tmp, fn)
            old = os.path.join(OUT, fn)
            if not os.path.exists(old):
                stale.append(fn)
            elif fn.endswith(".png"):
                a = Image.open(new).convert("RGB")
                b = Image.open(old).convert("RGB")
                if a.size != b.size or ImageChops.difference(a, b).getbbox():
                    stale.append(fn)
            elif open(new).read() != open(old).read():
                stale.append(fn)
    for fn in stale:
        print("out of date: docs/gallery/%s (run python tools/gallery.py)" % fn)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
