#!/usr/bin/env python3
"""Play Pocket Pyramids in a terminal: the real code.py app on Blinka's
OS-agnostic board, LEDs drawn in 24-bit colour.

Keys (interactive):
  arrows or WASD    up / down / left / right (hold to auto-repeat)
  z or j            A        Z or J   long A
  x or k            B        X or K   long B
  Esc               the escape gesture (hold B): save and back to the menu
  q or Ctrl-C       quit (the game is saved in the NVM file, as on the board)

A terminal reports key presses but no releases: a key counts as held while
its auto-repeat keeps arriving, and released ~150 ms after the last one.

Headless: --keys "SCRIPT" plays a key script and prints the final frame as
text and the tones played (and --png FILE saves it as a picture). --png FILE
without --keys and without a terminal saves the first settled frame (the
menu, or the resume offer) and exits. The desktop has no piezo: the tones a
board would play (lib/sound.py) are printed instead, at the foot of the
screen when interactive. Script syntax:

%s
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools import simkit  # noqa: E402  (sets the Blinka board first)

HELD_MS = 150   # a key is released this long after its last repeat

_KEYMAP = {
    b"\x1b[A": ("up", 0), b"\x1b[B": ("down", 0), b"\x1b[D": ("left", 0),
    b"\x1b[C": ("right", 0), b"\x1bOA": ("up", 0), b"\x1bOB": ("down", 0),
    b"\x1bOD": ("left", 0), b"\x1bOC": ("right", 0),
    b"w": ("up", 0), b"s": ("down", 0), b"a": ("left", 0), b"d": ("right", 0),
    b"W": ("up", 0), b"S": ("down", 0), b"A": ("left", 0), b"D": ("right", 0),
    b"z": ("a", 0), b"j": ("a", 0), b"x": ("b", 0), b"k": ("b", 0),
    b"Z": ("a", simkit.LONG_HOLD_MS), b"J": ("a", simkit.LONG_HOLD_MS),
    b"X": ("b", simkit.LONG_HOLD_MS), b"K": ("b", simkit.LONG_HOLD_MS),
    b"\x1b": ("b", simkit.ESCAPE_HOLD_MS),
}
_ORDER = sorted(_KEYMAP, key=len, reverse=True)


def split_keys(data):
    """Raw terminal bytes -> list of (button, hold_ms) and a quit flag."""
    out = []
    quit_ = False
    i = 0
    while i < len(data):
        if data[i:i + 1] in (b"q", b"Q", b"\x03", b"\x04"):
            quit_ = True
            i += 1
            continue
        for seq in _ORDER:
            if data.startswith(seq, i):
                # a lone Esc is only Esc if no sequence follows it
                if seq == b"\x1b" and data[i + 1:i + 2] in (b"[", b"O"):
                    continue
                out.append(_KEYMAP[seq])
                i += len(seq)
                break
        else:
            if data[i:i + 1] == b"\x1b":   # an unknown sequence: skip it
                i += 1
                while i < len(data) and not (64 <= data[i] <= 126):
                    i += 1
            i += 1
    return out, quit_


def ansi_frame(sim, title=""):
    """The LED matrix as ANSI 24-bit colour lines."""
    w = sim.display.width
    colours = sim.view()
    lines = []
    for y in range(sim.display.height):
        row = []
        for x in range(w):
            r, g, b = colours[y * w + x]
            if r or g or b:
                row.append("\x1b[38;2;%d;%d;%dm\u25cf" % (r, g, b))
            else:
                row.append("\x1b[38;2;44;44;52m\u00b7")
        lines.append(" " + " ".join(row) + "\x1b[0m")
    return lines


def interactive(sim, args):
    import select
    import termios
    import tty
    fd = sys.stdin.fileno()
    if not os.isatty(fd):
        print("the interactive simulator needs a terminal; use --keys for a "
              "scripted run", file=sys.stderr)
        return 2
    old = termios.tcgetattr(fd)
    out = sys.stdout
    help_lines = [
        "arrows/WASD move   z/j A   x/k B   Z/J long A   X/K long B",
        "Esc: back to menu (hold B)   q: quit   board: %s" % sim.profile.NAME,
    ]
    held = {}   # button -> sim time to release it
    t0 = time.monotonic()
    base = sim.now
    shown = -1
    heard = 0
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?25l\x1b[2J")
        while True:
            r, _, _ = select.select([fd], [], [], sim.frame_ms / 1000.0)
            if r:
                data = os.read(fd, 256)
                keys, quit_ = split_keys(data)
                if quit_:
                    break
                for name, hold in keys:
                    if name not in held:
                        sim.down(name)
                    held[name] = sim.now + (hold or HELD_MS)
            sim.now = base + int((time.monotonic() - t0) * 1000)
            for name in [n for n, t in held.items() if t <= sim.now]:
                sim.up(name)
                del held[name]
            sim.step()
            if sim.writes != shown or len(sim.tones) != heard:
                shown = sim.writes
                heard = len(sim.tones)
                lines = ansi_frame(sim)
                lines.append("")
                lines.extend(help_lines)
                lines.append("modelled current %d mA of %d" % (
                    sim.modelled_ma(), sim.profile.BUDGET_MA))
                lines.append("tone: %s" % (sim.tones[-1] if sim.tones else "-"))
                out.write("\x1b[H" + "\x1b[K\n".join(lines) + "\x1b[K\n")
                out.flush()
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[0m\x1b[?25h\n")
        out.flush()
    return 0


def serve_headless(sim):
    """No terminal to play in: run the app in real time for the protocol
    port alone, until interrupted."""
    t0 = time.monotonic()
    base = sim.now
    try:
        while True:
            time.sleep(sim.frame_ms / 1000.0)
            sim.now = base + int((time.monotonic() - t0) * 1000)
            sim.step()
    except KeyboardInterrupt:
        return 0


SETTLED_MS = 300    # --png alone: no LED write for this long is a settled frame
SETTLE_LIMIT_MS = 10000


def first_settled(sim):
    """Run until the boot animation is over and the LEDs have rested
    SETTLED_MS (or SETTLE_LIMIT_MS have passed)."""
    last = sim.writes
    quiet = 0
    while sim.now < SETTLE_LIMIT_MS:
        sim.advance(sim.frame_ms)
        if sim.writes != last:
            last = sim.writes
            quiet = 0
        else:
            quiet += sim.frame_ms
        if quiet >= SETTLED_MS and type(sim.app.scr).__name__ != "Boot":
            return


def default_nvm_path(board):
    d = os.path.join(simkit.ROOT, ".venv")
    if not os.path.isdir(d):
        d = os.getcwd()
    return os.path.join(d, "sim-nvm-%s.bin" % board)


def main(argv=None):
    import boards
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1] % simkit.SCRIPT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="pico_8x8", choices=boards.PROFILES,
                    help="board profile (default pico_8x8)")
    ap.add_argument("--keys", metavar="SCRIPT",
                    help="play a key script headless, print the final frame")
    ap.add_argument("--png", metavar="FILE", help="save the final frame as a picture")
    ap.add_argument("--nvm", metavar="FILE",
                    help="NVM file (interactive default: .venv/sim-nvm-BOARD.bin; "
                         "--keys default: a fresh, erased NVM)")
    ap.add_argument("--seed", type=int, default=None,
                    help="chance seed (default: random; --keys default 1)")
    ap.add_argument("--serve", action="store_true",
                    help="answer the text protocol on a pseudo terminal, as a "
                         "board does on USB: tools/ptp.py --port PATH talks to it")
    args = ap.parse_args(argv)

    if args.keys is not None:
        try:
            # a bad script is refused with the usage, before anything starts
            simkit.parse_script(args.keys)
        except ValueError as e:
            ap.error(str(e))
    # no terminal and a picture asked for: the first settled frame, headless
    png_only = (args.keys is None and args.png is not None and not args.serve
                and not os.isatty(sys.stdin.fileno()))
    nvm = None
    if args.nvm or (args.keys is None and not png_only):
        from lib.nvm_file import FileNVM
        nvm = FileNVM(args.nvm or default_nvm_path(args.board))
    seed = args.seed
    if seed is None and args.keys is not None:
        seed = 1
    sim = simkit.Sim(board=args.board, nvm=nvm, seed=seed)
    if args.serve:
        port, path = simkit.open_pty_port()
        sim.serve(port)
        print("protocol: tools/ptp.py --port %s" % path, file=sys.stderr)
        if args.keys is None and not os.isatty(sys.stdin.fileno()):
            return serve_headless(sim)
    if args.keys is not None:
        try:
            sim.run_script(args.keys)
        except ValueError as e:     # e.g. menu:ID while the menu is not up
            print("sim.py: %s" % e, file=sys.stderr)
            return 2
        sim.advance(sim.frame_ms)
        print(sim.ascii())
        if sim.tones:
            print("tones: " + " ".join(sim.tones))
        rc = 0
    elif png_only:
        first_settled(sim)
        print(sim.ascii())
        rc = 0
    else:
        rc = interactive(sim, args)
    if args.png:
        sim.png(args.png)
        print("saved %s" % args.png)
    return rc


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:        # e.g. piped into head
        sys.stderr.close()
        sys.exit(0)
