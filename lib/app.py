"""The app shell: boot, menu, settings, and one game or table tool at a time.

Composition (code.py, tools/sim.py, tests)::

    app = App(display, buttons, store, clock=None, seed=None, sound=None)
    app.run()          # forever; or call app.step() once per loop pass

``display``, ``buttons``, ``store`` are the platform's objects (a
lib.display.Display, a lib.buttons.Buttons, a lib.save store). ``clock()``
returns milliseconds wrapping like ``supervisor.ticks_ms`` (default:
lib.buttons.ticks_ms; tests pass a fake); ``seed`` seeds the chance
generator (default: os.urandom, via engine.rng); ``sound`` is a
lib.sound.Sound on the board's piezo, or None for none.

Screen contract
===============

Every game and tool ``<id>`` of the catalog (engine/catalog.py) has one
module ``lib/screen_<id>.py``: a docstring with its controls and pictures,
its constants, any plain drawing functions, and one class, a subclass of
``lib.screens_common.Screen`` (lib/screen_dice.py is a short example). The
base declares every hook the app calls, with its default, so a screen
overrides only what it needs and the app never looks a hook up::

    class Screen(C.Screen):
        def __init__(self, app, state): ...   # call C.Screen.__init__ first
        def key(self, k): ...      # one button; True if the frame changed
        def tick(self, now): ...   # each loop pass, now in ms; True to redraw
        def draw(self, d): ...     # paint the whole frame; never call d.show()
        def close(self): ...       # leaving: drop big buffers
        def busy(self): ...        # True while an effect plays: a hand-off waits
        def shown(self): ...       # back on the panel after the app's hand-off
        def draw_handoff(self, d, p): ...   # the hand-off picture for seat p
        def save_view(self): ...   # the view (cursor, mode) as bytes, or None
        def load_view(self, data): ...      # put a saved view back

The base also keeps the effect clock (``since``, ``phase``, ``skip``,
``restart()``, ``elapsed()`` at ``app.speed``, ``blink(beat)``) and
``later`` (a picture owed to the next pass); ``lib.screens_common.Turn``
steps a device seat's ``think()`` a slice a pass and shows its move.

* ``state`` is the engine State, new or resumed from a save. Auto chance
  nodes (deals) are already resolved; a node the player rolls may be pending
  (resolve it with ``app.chance()`` when you like, e.g. in ``__init__``).
* ``save_view()`` returns a few bytes (at most 255; ``b""`` for none)
  that say what of the frame is not in the state: the cursor's place and
  the view mode. The app saves them with the game, and on a resume calls
  ``load_view(data)`` on the new screen with what was saved (``b""`` from
  a save that has none), so the game shows the frame it was saved with. A
  view that does not fit the state (damaged, or another version's) is
  ignored and changes nothing. The frame must follow from the state and
  the view alone.
* ``k`` is one of UP DOWN LEFT RIGHT A B (lib.buttons' constants, also
  importable from here). Direction keys repeat while held. A comes when
  pressed. B comes when it is released: holding B for about a second is
  the escape gesture (the app saves and returns to the menu), which
  screens never see.
* ``d`` is a lib.display.Display: ``width`` and ``height`` (8 or 16),
  ``fill(c)``, ``pixel(x, y, c)``, ``rect(x, y, w, h, c)`` where ``c`` is a
  lib.palette index (``palette.piece_code(p)`` for an engine piece). The
  app calls ``draw`` only after ``key`` or ``tick`` returned True (or a
  service asked for it), then shows the frame once. On 16x16 ``draw`` may
  call ``d.spread(C.SPREAD)``: rows the show leaves owed go up in the next
  passes without a redraw (Display.flush).
* Allocate in ``__init__``; ``key``/``tick``/``draw`` should build no lists,
  strings or tuples, so a long evening does not fragment the heap.
* Game logic lives in the engine: every move goes through ``app.play``.

App services for a screen:

``app.state``          the current State (read it; change it only via app).
``app.play(a)``        apply action ``a`` through ``state.apply_action``. If
                       illegal: a refusal flash, nothing changes, False.
                       Else: auto chance nodes are resolved with the app's
                       Rng, the game is marked for saving, and if another
                       player is now to move the hand-off screen shows
                       first. True.
``app.chance()``       resolve one pending chance node with the Rng; the
                       action taken, or -1 if the state is not at chance.
``app.undo()``         take back the last move and the chance outcomes after
                       it (State.undo_move; refusal flash if none).
``app.refuse()``       a visible "no" flash over the frame.
``app.handoff(p)``     show the hand-off screen for player ``p`` now.
``app.show_scores()``  the scores screen for the current state; B returns.
``app.exit_to_menu()`` save and leave (as the escape gesture does).
``app.restart(opts)``  replace the state by a new one of the same game with
                       these options (the dice tool's die and count);
                       ``restart(opts, False)`` leaves the redraw to the
                       screen (e.g. on the next pass).
``app.redraw()``       ask for a redraw outside key/tick.
``app.speed``          the ANIMATION SPEED setting, in quarters: an effect's
                       clock runs ``speed`` quarter-ms per ms (2 slow, 4
                       normal, 8 fast, 16 fastest). Scale an effect's
                       elapsed time by it, ``dt * app.speed >> 2`` (clamp
                       ``dt`` first, e.g. to 60000, so the product stays a
                       small int), rather than its constants.
                       Any key during an effect (a draw, a roll, a bot's
                       turn) skips it to its end: the key is not otherwise
                       acted on.
``app.tone(kind)``     a short tone on the piezo (lib.sound: MOVE, REFUSE,
                       ROLL, BUST, WIN) if the board has one and the sound
                       is on. ``play``, ``chance``, ``undo`` and ``refuse``
                       already sound MOVE, ROLL, MOVE and REFUSE, and a move
                       that ends the game WIN; a screen adds BUST and the
                       like.
``app.lone``           True when one person plays against the device's
                       seats: ``handoff`` then shows nothing.
``app.rng``, ``app.now`` (ms of this pass), ``app.settings`` (lib.settings),
``app.d`` (the display: its size for layouts made in ``__init__``).

The panel dims after a minute without a press or a protocol line and goes
dark after five; the press that wakes it reaches no screen (a line that
wakes it is answered as usual). Screens need do nothing for it.

Pass and play: in a game with ``num_players() > 1``, whenever ``to_move()``
becomes a player other than the one who moved last (after ``play``,
``chance`` or ``undo``, and when a game starts or resumes) the app shows the
hand-off screen for that seat (the game screen's ``draw_handoff``: by
default its number in ``State.seat_colour``, or the app's player colour);
A returns to the game screen. The app decides from the engine: no
hand-off to a seat the device plays (``State.is_bot``), none when
``app.lone``; while the game screen is ``busy()`` (a roll, a draw) the
hand-off waits for the effect's end. When
``to_move()`` becomes OVER the app records ``scores()`` for the scores
screen and stops offering the save; the screen decides when to call
``show_scores()``.

A game's modules (``engine.<id>`` and ``lib.screen_<id>``) are imported when
it is chosen, the engine first and the screen in the next loop pass, each
after a collection (so the two imports never share a pass, and each
compiles, from .py sources, in all the heap there is), and dropped from
``sys.modules`` when it is left, with the engine's helpers
(``engine/<id>_*.py``), so the next game gets their heap back. While a game
is in, the menu is dropped too (lib/menu.py and the icons it compiled) and
made again, on the same item, when the menu is next shown.
"""

import gc
import sys

from engine import registry
from engine import catalog
from lib import buttons
from lib import palette
# the keys are re-exported for screens (see the contract above)
from lib.buttons import UP, DOWN, LEFT, RIGHT, A, B, ticks_diff, ticks_ms  # noqa: F401
from engine.rng import Rng
from engine.state import CHANCE, OVER, IllegalMove, State, release

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

SAVE_IDLE_MS = const(2000)  # save a changed game once the buttons rest this long
DIM_MS = const(60000)       # the panel dims once the buttons rest this long
BLANK_MS = const(300000)    # and goes dark after this; any press wakes it
AWAKE = const(0)
DIMMED = const(1)
BLANK = const(2)
REFUSE_MS = const(450)
BOOT_MS = const(1200)

def playable():
    """Games and tools that can be entered: marked built in the catalog,
    with their engine module and their screen both installed (looked up as
    files, not imported: importing every game at boot just to see it is
    there would cost heap). One that fails to import anyway is refused when
    chosen."""
    games = [g for g in registry.available() if catalog.entry(g).built]
    screens = registry.installed("lib", ["screen_" + g for g in games])
    # listed now, once, rather than looked for in a game's passes
    AHEAD[:] = registry.installed("engine", [g + x for g in games
                                              for x in ("_deal", "_undo")])
    return [g for g in games if "screen_" + g in screens]


class Loading:
    """The pass after a game's engine is made: its screen is imported then
    (App.load_screen), so the two imports never share a pass. The menu's
    last frame stays up meanwhile."""

    def __init__(self, app, gid):
        self.app = app
        self.gid = gid
        self.armed = False

    def key(self, k):
        return False

    def tick(self, now):
        # the first tick comes in the very pass that made the engine
        if not self.armed:
            self.armed = True
            return False
        self.app.load_screen(self.gid)
        return True

    def draw(self, d):
        pass


class Dealing:
    """Shown while a new game is dealt, one chance node per loop pass: each
    node lights the next LED in reading order, in piece colours, so the wait
    reads as dealing, not as a hang.

    A game whose deal lives in a module of its own, ``engine/<id>_deal.py``
    (imported by the engine when the deal needs it), has it imported here
    in a pass before the first node, so that no pass both loads a module
    and deals."""

    def __init__(self, app, mod):
        self.app = app
        self.screen_module = mod
        self.dealt = 0        # nodes dealt
        self.shown = -1   # LEDs lit on the frame so far (-1: not drawn yet)
        self.module_due = True   # the deal module is still to be tried

    def key(self, k):
        return False

    def tick(self, now):
        app = self.app
        if self.module_due:
            self.module_due = False
            name = "engine." + app.game + "_deal"
            if name[7:] in AHEAD:
                # the pass is spent even when the module is in already
                # (compiled with the game from .py sources), so a deal
                # takes the same passes whatever the board runs
                if name not in sys.modules:
                    try:
                        __import__(name)
                    except (ImportError, MemoryError):
                        pass    # the engine's own import says why
                return False
        if app.deal_one():
            self.dealt += 1
            return True
        app.open_screen(self.screen_module)
        return True

    def draw(self, d):
        # only the newly dealt LED is painted; the frame is cleared when the
        # walk starts or wraps around the panel
        size = d.width * d.height
        if self.shown < 0 or self.dealt - self.shown >= size or self.dealt % size == 0:
            d.fill(palette.OFF)
            self.shown = self.dealt - self.dealt % size
        w = d.width
        while self.shown < self.dealt:
            i = self.shown % size
            d.pixel(i % w, i // w, palette.piece(_DEAL_HUES[i % 5], 3))
            self.shown += 1


_DEAL_HUES = b"\x00\x02\x03\x05\x06"   # r y g b p, as the pieces are dealt

# engine modules loaded ahead of need, each in a pass of its own, where
# installed (found by playable()): a game's deal (engine/<id>_deal.py,
# Dealing) and its save format (engine/<id>_undo.py, App.save)
AHEAD = []
# how far the idle save has got (App.save_stage)
SAVE_START = const(0)   # nothing done yet: is the game over?
SAVE_LOAD = const(1)    # not over: its save module to load
SAVE_PACK = const(2)    # loaded: to serialize
SAVE_WRITE = const(3)   # serialized (App.save_bytes): to write


class App:
    """Owns the display, the buttons, the store, the Rng and the one game."""

    def __init__(self, display, buttons, store=None, clock=None, seed=None,
                 sound=None):
        from lib.settings import Settings
        from lib import menu
        from lib import screens_common
        self.d = display
        self.buttons = buttons
        self.store = store
        self.clock = clock or ticks_ms
        self.rng = Rng(seed)
        self.now = self.clock()
        self.settings = Settings(store)
        # the piezo (a lib.sound.Sound, or None: silent, and lib/sound.py
        # never loaded), the effects' speed in quarters (lib.settings.SPEEDS)
        # and the mute: apply_settings
        self.sound = sound
        self.speed = 4
        self.apply_settings()
        self.sleep = AWAKE       # AWAKE, DIMMED or BLANK (idle, see step)
        self.swallow = 0         # buttons whose press woke the panel: a bit each
        self.lone = False        # one person against the device's seats
        self.common = screens_common
        self.state = None
        self.game = None         # id of the game or tool being played
        self.game_scr = None     # its Screen
        self.scr = None          # what gets keys now (game or shell screen)
        self.unsaved = False     # the game changed since the store got it
        self.save_stage = SAVE_START   # how far the idle save got (save)
        self.save_bytes = b""    # at SAVE_WRITE: the game, serialized
        self.view = b""          # a resumed game's saved view, for its screen
        self.saved_view = b""    # the view last written with the game
        self.looked = False      # a key changed the game screen's frame
        self.saves = 0           # records written (for tests and the budget)
        self.keep = False        # a tool while the slot holds something else: no saving
        self.errors = 0          # passes that raised (see run)
        self.link = None         # lib.link.Link: protocol lines over USB serial
        self.line_at = -1        # ms of the last protocol line, -1: none lately
        self._player = -1        # last human to move, for hand-offs
        self._owed = -1          # a hand-off waiting for an effect's end
        self._refuse_at = -1     # refusal flash start, or -1
        self._redraw = True
        self.playable = playable()
        self.menu = menu.Menu(self)
        self.menu_item = None    # what the menu was on when a game dropped it
        self.scr = self.shell("Boot")

    # ---- services for screens ----------------------------------------------
    def redraw(self):
        self._redraw = True

    def apply_settings(self):
        """Brightness, effect speed and sound from the settings (at boot and
        after each change on the settings screen)."""
        st = self.settings
        st.apply(self.d)
        self.speed = st.speed()
        if self.sound is not None:
            self.sound.on = st.sound_on()

    def tone(self, kind):
        """Play a lib.sound tone (MOVE, REFUSE, ROLL, BUST, WIN) if there
        is a piezo and the sound is on."""
        if self.sound is not None:
            self.sound.play(kind, self.now)

    def refuse(self):
        self._refuse_at = self.now
        self._redraw = True
        self.tone(1)     # lib.sound.REFUSE

    def play(self, a):
        st = self.state
        try:
            st.apply_action(a)
        except IllegalMove:
            self.refuse()
            return False
        self._after_move(0)     # lib.sound.MOVE
        return True

    def chance(self):
        st = self.state
        if st is None or st.to_move() != CHANCE:
            return -1
        outs = st.chance_outcomes()
        a = outs[self.rng.weighted([o[1] for o in outs])][0]
        st.apply_action(a)
        self._after_move(2)     # lib.sound.ROLL
        return a

    def undo(self):
        st = self.state
        if st is None:
            self.refuse()
            return False
        try:
            st.undo_move()
        except IllegalMove:
            self.refuse()
            return False
        self._after_move(0)
        return True

    def handoff(self, p):
        self._player = p
        self._redraw = True
        if self.lone:
            return      # one person against the device: nothing to hide
        self.scr = self.common.Handoff(self, p)

    def show_scores(self):
        if self.state is not None:
            self.scr = self.shell("Scores", self.game, self.state.scores(),
                                  self.scr)
            self._redraw = True

    def exit_to_menu(self):
        self._leave()
        self.to_menu()

    # ---- shell screens ---------------------------------------------------------
    def shell(self, name, *args):
        """A screen from lib.shell (imported now, dropped at the menu)."""
        mod = __import__("lib.shell", None, None, (name,))
        return getattr(mod, name)(self, *args)

    def to_menu(self):
        if self.menu is None:
            self._menu_back()
        self.scr = self.menu
        self.menu.wake()
        self._redraw = True
        self._drop_shell()

    def go(self, scr):
        """Show ``scr``; going to the menu or back into the game drops the
        shell module."""
        if scr is self.menu:
            self.to_menu()
            return
        self.scr = scr
        self._redraw = True
        if scr is self.game_scr:
            self._drop_shell()

    def _drop_menu(self):
        """A game is in: the menu, its module and the menu's compiled icons
        go, so the game's screen compiles in their heap (to_menu makes the
        menu again, on the same item)."""
        if self.menu is None:
            return
        self.menu_item = self.menu.current()
        self.menu = None
        release("lib.menu")
        self.common.ICONS.clear()

    def _menu_back(self):
        from lib import menu
        self.menu = menu.Menu(self)
        self.menu.select(self.menu_item)

    def _drop_shell(self):
        # the shell's screens are not needed in a game, which wants their heap
        if "lib.shell" in sys.modules:
            release("lib.shell")
            gc.collect()

    # ---- game lifecycle ------------------------------------------------------
    def deal_one(self):
        """Resolve one deal-like chance node; False if there is none."""
        st = self.state
        if st.to_move() != CHANCE or not st.auto_chance():
            return False
        outs = st.chance_outcomes()
        st.apply_action(outs[self.rng.weighted([o[1] for o in outs])][0])
        return True

    def _auto(self):
        """Resolve deal-like chance nodes at once (a move's re-scatter; a
        new game's deal goes through Dealing instead)."""
        n = 0
        while n < 10000 and self.deal_one():
            n += 1

    def _after_move(self, kind):
        self._auto()
        self.changed()
        self._redraw = True
        st = self.state
        p = st.to_move()
        if p == OVER:
            self.settings.record(self.game, st.scores(), st)
            kind = 4     # lib.sound.WIN
        elif p >= 0 and st.num_players() > 1 and p != self._player:
            self._hand_to(p)
        self.tone(kind)

    def _seats(self):
        """Is one person playing against the device's seats (``lone``)?
        Then no hand-off ever shows: there is nobody to hide the board from."""
        st = self.state
        n = st.num_players()
        humans = 0
        if n > 1:
            for p in range(n):
                if not st.is_bot(p):
                    humans += 1
        self.lone = humans == 1

    def _hand_to(self, p):
        """The hand-off to ``p``: none to a seat the device plays, none
        when one person plays alone against it; while the game screen is
        ``busy`` (an effect playing) it waits for the effect's end."""
        if self.state.is_bot(p):
            return
        if self.lone:
            self._player = p
            return
        g = self.game_scr
        if g is not None and g.busy():
            self._owed = p
            return
        self.handoff(p)

    def choose(self, gid):
        """The menu's A on a game or tool. The save slot holds one game:
        when it holds one, ``lib.shell.waiting`` (loaded only then) says
        what to do, so that nothing saved is overwritten unasked. False if
        ``gid`` cannot be played here."""
        w = None
        if gid in self.playable and self.store is not None and (
                self.store.has_game()):
            w = self.shell("waiting", gid)
        if w is None or w is False:     # a new one; False: a tool, unsaved
            self._drop_shell()
            if not self.enter(gid):
                return False
            self.keep = w is False
            return True
        if isinstance(w, State):        # the waiting game itself, resumed
            self._drop_shell()
            return self.enter(gid, w, self.store.view)
        self.go(w)                      # the resume offer first
        return True

    def enter(self, gid, state=None, view=b""):
        """Start (or, given a state, resume) a game or tool, and show a
        resumed one with the ``view`` saved with it (lib.save). False if it
        cannot be played here; the menu shows a refusal then."""
        if gid not in self.playable:
            return False
        # the engine compiles in this pass (from .py sources): what the
        # menu's pass left is collected first
        gc.collect()
        try:
            if state is None:
                self._deal_from(gid)
                state = self._new(gid)
        except (ValueError, ImportError, MemoryError):
            self._leave()
            return False
        self.game = gid
        self.state = state
        self.view = view
        self.saved_view = view
        self._player = -1
        self._owed = -1
        self._seats()
        self.saved()
        self.keep = False
        self._drop_shell()     # e.g. the resume offer that started this
        self._drop_menu()
        self._redraw = True
        self.game_scr = None
        # the screen loads in the next pass (Loading)
        self.scr = Loading(self, gid)
        return True

    def load_screen(self, gid):
        """The second half of :meth:`enter`: import the game's screen and
        put it up (after any deal). If it will not load, the game is
        dropped unsaved and the menu says no."""
        gc.collect()
        try:
            mod = __import__("lib.screen_" + gid, None, None, ("Screen",))
        except (ImportError, MemoryError):
            self.load_failed(gid)
            return
        st = self.state
        if st.to_move() == CHANCE and st.auto_chance():
            # a deal can be dozens of weighted draws: one per pass, so no
            # pass is long; the screen starts once the cards are down
            self.scr = Dealing(self, mod)
        else:
            self.open_screen(mod)

    def load_failed(self, gid):
        """The game's screen would not load: the game is dropped unsaved,
        with what loaded of its screen, and the menu says no."""
        self.state = None
        self._leave()
        gc.collect()
        self.to_menu()
        self.refuse()

    def open_screen(self, mod):
        """Put the game's screen up (after any deal)."""
        self.game_scr = mod.Screen(self, self.state)
        self.scr = self.game_scr
        self._redraw = True
        if self.view:
            self.game_scr.load_view(self.view)
            self.view = b""
        st = self.state
        p = st.to_move()
        if p >= 0 and st.num_players() > 1:
            self._hand_to(p)
        else:
            self._player = p

    def adopt(self, state):
        """Show a game that a protocol line (lib/link.py) changed or
        started. The same game gets its screen made anew on the new
        position; another game is entered as if it had been chosen. None
        when done; else, changing nothing, why not: a game this device
        cannot play, or a game that would take the save slot from one that
        is saved or being played (the buttons ask first; a line cannot)."""
        if state is self.state:
            self._auto()
            self.changed()
            scr = self.game_scr
            if scr is not None:
                scr.close()
                self.open_screen(sys.modules["lib.screen_" + self.game])
            self._redraw = True
            return None
        gid = state.GAME
        if gid not in self.playable:
            return "%s cannot be played on this device" % gid
        entry = catalog.entry(gid)
        if not entry.tool and not self.keep:
            playing = self.game is not None and not catalog.entry(self.game).tool
            if playing or (self.store is not None and self.store.has_game()):
                return ("a game is saved on the board: leave it and discard it "
                        "there first (hold B, then B at its resume offer)")
        if self.game is not None:
            self._leave()
        self._drop_shell()
        if not self.enter(gid, state):
            self.to_menu()
            return "%s could not start on this device" % gid
        # a tool opened while a game is saved runs unsaved, as from the menu
        self.keep = entry.tool and self.store is not None and self.store.has_game()
        self.changed()
        return None

    def _deal_from(self, gid):
        """A game whose deal can be dealt again (lib.settings REPLAYS): with
        its DEAL setting at SAME, the generator goes back to where it stood
        before the last deal of that game; else where it stands now is
        remembered for a replay."""
        from lib.settings import REPLAYS
        st = self.settings
        if gid not in REPLAYS:
            return
        rng = self.rng
        if not hasattr(rng, "getstate"):
            return          # a test's stand-in
        if st.get(gid + ".replay") == "same" and st.deal_game == gid:
            rng.hi = st.deal_seed >> 16
            rng.lo = st.deal_seed & 0xFFFF
        else:
            st.remember_deal(gid, rng.getstate())

    def _new(self, gid):
        """A new game of ``gid`` with the options the settings screen shows
        (lib.settings ``options``: only those that apply together, so the
        engine takes every combination)."""
        return registry.new(gid, self.settings.options(
            gid, registry.game_class(gid).OPTIONS))

    def restart(self, options, redraw=True):
        """Replace the current game with a new one of the same id and these
        options (the dice and bag tools change die or bag this way). Bad
        options are refused and the current state is returned. With
        ``redraw`` False the frame stays as it is in this pass: a screen
        that draws the new state on the next pass keeps the pass that
        builds it short."""
        try:
            st = registry.new(self.game, options)
        except ValueError:
            self.refuse()
            return self.state
        self.state = st
        self.changed()
        self._player = -1
        self._owed = -1
        self._seats()
        self._auto()
        if redraw:
            self._redraw = True
        return st

    def _leave(self):
        if self.state is not None:
            self.save()
        self.settings.flush()
        scr = self.game_scr
        if scr is not None:
            scr.close()
        gid = self.game
        self.game_scr = None
        self.state = None
        self.game = None
        if gid:
            release("lib.screen_" + gid)
            # and the game's helpers (engine/<id>_*.py: a phase's, the
            # save's, the hint's), whose heap the menu and the next game need
            helpers = "engine." + gid + "_"
            for name in [n for n in sys.modules if n.startswith(helpers)]:
                release(name)
            release("engine." + gid)
        gc.collect()

    # ---- saving --------------------------------------------------------------
    def changed(self):
        """The game changed: it is to be saved, and what an idle save had
        got to is dropped, so bytes that are no longer the game are never
        written."""
        self.unsaved = True
        self.save_stage = SAVE_START
        self.save_bytes = b""

    def saved(self):
        """Nothing of the game is left to save."""
        self.unsaved = False
        self.save_stage = SAVE_START
        self.save_bytes = b""

    def save(self, whole=True):
        """Write the game to the store if it changed; a finished game is
        cleared instead, so it is not offered at boot.

        The idle save (``whole`` False) does one thing a pass, so no pass
        is long: ``to_move`` (is the game over? a search for a move in
        some games), then the import of the game's save module if its save
        format lives in one loaded for the call (``engine/<id>_undo.py``,
        Ice Solo's), then ``serialize``, then the write; ``save_stage``
        says how far it got. Leaving saves whole, at once, whatever the
        idle save had got to."""
        if not self.unsaved or self.store is None or self.keep:
            self.saved()
            return
        st = self.state
        stage = self.save_stage
        if stage == SAVE_START:
            if st.to_move() == OVER:
                self.store.clear_game()
                self.settings.flush()
                self.saves += 1
                self.saved()
                return
            if not whole:
                self.save_stage = SAVE_LOAD
                return
        if stage == SAVE_LOAD and not whole:
            name = "engine." + self.game + "_undo"
            if name[7:] in AHEAD:
                # a pass of its own even when loaded already (as in Dealing)
                if name not in sys.modules:
                    try:
                        __import__(name)
                    except (ImportError, MemoryError):
                        pass    # serialize says why
                self.save_stage = SAVE_PACK
                return
        if stage == SAVE_WRITE:
            data = self.save_bytes
        else:
            data = st.serialize()
            if not whole:
                self.save_bytes = data     # written by the next pass
                self.save_stage = SAVE_WRITE
                return
        self.saved()
        scr = self.game_scr
        view = scr.save_view() if scr is not None else self.saved_view
        self.saved_view = view
        self.store.save_game(data, view)
        self.saves += 1

    def boot_done(self):
        """After the boot animation: offer the saved game, say if the record
        could not be used, or go to the menu."""
        st = None
        note = None
        if self.store is not None:
            st = self.store.resume()
            note = self.store.notice()
            if st is not None and (st.GAME not in self.playable or
                                   st.to_move() == OVER):
                gid = st.GAME
                st = None
                if gid not in self.playable:
                    note = "CANNOT RESUME " + self.common.name(gid)
                release("engine." + gid)
            if st is None and note:
                # write an empty record over what could not be used, so the
                # notice shows once, not at every boot
                self.store.save_game(b"")
        gc.collect()
        nxt = self.menu if st is None else self.shell("Prompt", st)
        if note:
            self.go(self.shell("Notice", note, nxt))
        else:
            self.go(nxt)

    def discard_save(self, gid):
        """The player chose not to resume: forget the record."""
        if self.store is not None:
            self.store.clear_game()
        if self.game is None:
            release("engine." + gid)
        gc.collect()

    def scores_screen(self):
        """The scores screen from the menu: the last result of each game,
        the latest first, then the remembered results of each game and
        option set, the latest played first (lib.settings' bests)."""
        st = self.settings
        games = []
        if st.last in st.results:
            games.append((st.last, st.results[st.last]))
        for g in st.results:
            if g != st.last:
                games.append((g, st.results[g]))
        keys = list(st.bests)
        for i in range(len(keys) - 1, -1, -1):
            key = keys[i]
            gid, _, opts = key.partition(" ")
            vals = st.bests[key]
            if len(vals) > 1:
                label = "WINS "
            elif gid == "bag_of_ice":
                label = "FEWEST TURNS "
            else:
                label = "BEST "
            games.append((gid, vals, label, "  " + opts.upper() if opts else ""))
        if not games:
            return self.shell("Scores", "", [], self.menu)
        return self.shell("Scores", games[0][0], games[0][1], self.menu, games)

    # ---- the loop --------------------------------------------------------------
    def key(self, k):
        """Deliver one key (UP..B) to the current screen."""
        if self.scr.key(k):
            self._redraw = True
            if self.scr is self.game_scr:
                self.looked = True

    def event(self, ev):
        """Route one lib.buttons event: presses and repeats of directions,
        A on press, B on click, escape to the menu."""
        kind = ev & 0xF8
        k = ev & 7
        if kind == buttons.PRESS:
            if k != B:
                self.key(k)
        elif kind == buttons.REPEAT:
            self.key(k)
        elif kind == buttons.CLICK or kind == buttons.LONG:
            if k == B:
                self.key(B)
        elif kind == buttons.ESCAPE:
            if self.game is not None:
                self.exit_to_menu()
            elif self.scr is not self.menu and self.scr.key(B):
                self._redraw = True

    def step(self):
        """One loop pass: read buttons, run timers, save when idle, draw."""
        now = self.clock()
        self.now = now
        b = self.buttons
        b.poll(now)
        ev = b.get()
        while ev:
            if self.sleep or self.swallow:
                self._wake(ev)
            else:
                self.event(ev)
            ev = b.get()
        if self.sound is not None:
            self.sound.tick(now)
        idle = b.idle_ms(now)
        if self.line_at >= 0:
            quiet = ticks_diff(now, self.line_at)
            if quiet >= BLANK_MS:
                self.line_at = -1    # forgotten before the clock wraps
            elif quiet < idle:
                idle = quiet
        if idle >= DIM_MS and self.sleep != BLANK:
            self._doze(idle)
        if self.link is not None:
            self.link.poll()
        if self.scr.tick(now):
            self._redraw = True
        if (self._owed >= 0 and self.scr is self.game_scr and
                not self.scr.busy()):
            p = self._owed
            self._owed = -1
            if self.state.to_move() == p:
                self.handoff(p)
        if self._refuse_at >= 0 and ticks_diff(now, self._refuse_at) >= REFUSE_MS:
            self._refuse_at = -1
            self._redraw = True
        if self.state is not None and b.idle_ms(now) >= SAVE_IDLE_MS:
            if self.looked:
                # the cursor or the view may have moved: saved with the
                # game if so (one look a rest, not one a pass)
                self.looked = False
                scr = self.game_scr
                if (not self.unsaved and scr is not None and
                        scr.save_view() != self.saved_view):
                    self.changed()
            if self.unsaved:
                self.save(False)
        if self._redraw and self.sleep != BLANK:
            self._redraw = False
            d = self.d
            self.scr.draw(d)
            if self._refuse_at >= 0:
                self.common.refusal(d)
            d.show()
        elif self.d.owed and self.sleep != BLANK:
            # the rest of a frame spread over passes (Display.spread)
            self.d.flush()

    def activity(self):
        """A protocol line came (lib.link): like a press, it puts off the
        dimming, and it wakes a dimmed or dark panel; unlike a press it is
        not swallowed, so the frame it causes is shown at once."""
        self.line_at = self.now
        if self.sleep:
            self.sleep = AWAKE
            self.settings.apply(self.d)
            self.d.invalidate()
            self._redraw = True

    def _doze(self, idle):
        """The buttons and the serial line have rested a minute: dim the
        panel; five: blank it (the game goes on underneath; nothing is
        drawn until a press or a line)."""
        d = self.d
        if idle >= BLANK_MS:
            self.sleep = BLANK
            d.fill(palette.OFF)
            d.show()
            if self.sound is not None:
                self.sound.stop()
        elif self.sleep == AWAKE:
            self.sleep = DIMMED
            d.brightness = max(2, d.brightness // 4)
            self._redraw = True

    def _wake(self, ev):
        """A button event while the panel dozes, or from the press that
        woke it. A dimmed panel can still be read, so a press there wakes
        it and acts as usual. A dark panel cannot: the press only wakes
        it, and the rest of that press (repeats, its release, click, long
        or escape) is dropped too, up to the button's next press."""
        k = ev & 7
        kind = ev & 0xF8
        if kind == buttons.PRESS:
            if self.sleep:
                dark = self.sleep == BLANK
                self.sleep = AWAKE
                self.settings.apply(self.d)
                self.d.invalidate()
                self._redraw = True
                if dark:
                    self.swallow |= 1 << k
                    return
            if self.swallow >> k & 1:
                self.swallow &= ~(1 << k)
            self.event(ev)
            return
        if kind == buttons.OVERFLOW:
            self.swallow = 0
            return
        if not self.swallow >> k & 1:
            self.event(ev)

    def run(self, more=None):
        """The device loop (``more()`` returning False ends it, for tests).

        A bug in a game must not leave the player at a REPL: an exception
        from a pass is printed, the game is dropped without saving (its
        state may be half-changed; the last save stays), an "ERROR" notice
        shows and the menu follows. Three in a row and it is re-raised."""
        fails = 0
        while more is None or more():
            try:
                self.step()
                fails = 0
            except Exception as e:   # noqa: BLE001 - anything, see above
                fails += 1
                if fails >= 3:
                    raise
                self._recover(e)

    def _recover(self, e):
        """After a pass raised: drop the game unsaved (the last save stays
        as it was, so it still loads), say what happened, go to the menu."""
        if type(e) is MemoryError:
            gc.collect()     # the garbage of the failed pass, before printing
        try:
            import traceback   # CPython and CircuitPython
            traceback.print_exception(e)
        except Exception:   # noqa: BLE001 - MicroPython, or no memory to print
            pass
        self.saved()
        try:
            self._leave()
        except Exception:   # noqa: BLE001 - already failing; just let go
            self.game_scr = self.state = self.game = None
        self.errors += 1
        gc.collect()
        text = "OUT OF MEMORY" if type(e) is MemoryError else "ERROR"
        try:
            if self.menu is None:
                self._menu_back()
            self.go(self.shell("Notice", text, self.menu))
        except Exception:   # noqa: BLE001 - e.g. no memory for the notice
            self.to_menu()
