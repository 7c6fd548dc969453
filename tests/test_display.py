"""lib.display and lib.palette: LED maps, gamma once, one write per change,
the power limit measured on the bytes NeoPixel really sends (Blinka)."""

from hypothesis import given, strategies as st

from tools.simkit import Sim  # noqa: F401  (selects Blinka's board first)
from lib import display as D
from lib import palette as P
from lib import palette_rgb as G
from lib import font


class FakePixels:
    """Counts writes; stores what a NeoPixel would hold."""

    def __init__(self, n):
        self.buf = [0] * n
        self.shows = 0

    def __setitem__(self, i, v):
        self.buf[i] = v

    def show(self):
        self.shows += 1


def test_progressive_map_is_reading_order():
    assert list(D.led_map(8, 8)) == list(range(64))


def test_serpentine_map_reverses_odd_rows():
    m = D.led_map(8, 8, serpentine=True)
    assert m[0 * 8 + 0] == 0 and m[0 * 8 + 7] == 7
    assert m[1 * 8 + 0] == 15 and m[1 * 8 + 7] == 8
    assert m[2 * 8 + 0] == 16
    m16 = D.led_map(16, 16, serpentine=True)
    assert m16[1 * 16 + 0] == 31 and m16[15 * 16 + 0] == 255


def test_rotation_corners():
    # panel 8 wide, 4 high (as wired); logical top-left per rotation
    assert D.led_map(8, 4, rotation=0)[0] == 0
    assert D.led_map(8, 4, rotation=180)[0] == 31          # last LED
    m90 = D.led_map(8, 4, rotation=90)                     # logical 4x8
    assert m90[0] == 3 * 8 + 0        # panel's bottom-left comes to the top-left
    assert m90[3] == 0                # logical (3, 0): panel's first LED
    m270 = D.led_map(8, 4, rotation=270)
    assert m270[0] == 7               # panel's top-right LED
    d = D.Display(FakePixels(32), 8, 4, rotation=90)
    assert (d.width, d.height) == (4, 8)


@given(st.integers(1, 16), st.integers(1, 16), st.booleans(),
       st.sampled_from((0, 90, 180, 270)))
def test_every_map_is_a_bijection(w, h, serp, rot):
    m = D.led_map(w, h, serp, rot)
    assert sorted(m) == list(range(w * h))


def test_rotation_180_and_90_match_the_turned_panel():
    # a 5x3 panel: at 180 logical (x, y) is panel (w-1-x, h-1-y); at 90
    # (logical 3 wide, 5 high) logical (x, y) is panel (y, h-1-x)
    w, h = 5, 3
    m90 = D.led_map(w, h, rotation=90)
    m180 = D.led_map(w, h, rotation=180)
    for y in range(h):
        for x in range(w):
            assert m180[y * w + x] == (h - 1 - y) * w + (w - 1 - x)
    for y in range(w):
        for x in range(h):
            assert m90[y * h + x] == (h - 1 - x) * w + y


def test_bad_rotation_is_refused():
    try:
        D.led_map(8, 8, rotation=45)
    except ValueError as e:
        assert "rotation" in str(e)
    else:
        raise AssertionError("45 degrees accepted")


def test_gamma_is_applied_once_not_per_frame(monkeypatch):
    calls = [0]
    real = G.gamma

    def counting(v):
        calls[0] += 1
        return real(v)

    monkeypatch.setattr(G, "gamma", counting)
    pal = P.Palette()
    built = calls[0]
    assert built == 3 * (P.SIZE - 1)    # once per channel of each lit entry
    d = D.Display(FakePixels(64), 8, 8, palette=pal, brightness=200)
    for i in range(30):
        d.fill(i % P.SIZE)
        d.pixel(i % 8, 3, P.CURSOR)
        d.show()
    d.brightness = 17
    d.show()
    assert calls[0] == built
    pal.set(P.OK, 0, 10, 0)             # a changed entry is corrected once
    assert calls[0] == built + 3


def test_palette_tables_are_forgotten_on_a_board(monkeypatch):
    """The colour tables are needed only while entries are made: on a board
    lib.palette_rgb leaves memory again, and the entries are the same."""
    import sys
    import types
    want = P.Palette().rgb
    monkeypatch.setitem(sys.modules, "lib.palette_rgb", G)   # restored after
    impl = dict(vars(sys.implementation), name="circuitpython")
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(**impl))
    pal = P.Palette()
    assert "lib.palette_rgb" not in sys.modules
    assert pal.rgb == want
    i = pal.add(10, 20, 30)
    assert "lib.palette_rgb" not in sys.modules
    assert pal.rgb[i] == G.pack(10, 20, 30) and pal.version == 1


def test_gamma_curve():
    assert G.gamma(0) == 0 and G.gamma(255) == 255
    vals = [G.gamma(v) for v in range(256)]
    assert vals == sorted(vals)
    assert all(v >= 1 for v in vals[1:])      # a lit level stays lit
    assert G.gamma(128) < 64                  # darker than linear mid-grey


def test_show_writes_once_and_only_on_change():
    px = FakePixels(64)
    d = D.Display(px, 8, 8)
    assert d.show() is True and px.shows == 1      # first frame always
    assert d.show() is False and px.shows == 1
    d.pixel(3, 4, P.OK)
    assert d.show() is True and px.shows == 2
    d.pixel(3, 4, P.OK)                            # same value again
    d.pixel(99, 4, P.OK)                           # off the panel: ignored
    assert d.show() is False and px.shows == 2
    d.frame[0] = P.REFUSE                          # direct writes count too
    assert d.show() is True and px.shows == 3
    d.brightness = d.brightness + 10
    assert d.show() is True and px.shows == 4
    d.palette.set(P.REFUSE, 200, 0, 0)
    assert d.show() is True and px.shows == 5
    d.invalidate()
    assert d.show() is True and px.shows == 6
    assert d.shows == 6


def test_pixels_land_on_mapped_leds():
    px = FakePixels(64)
    d = D.Display(px, 8, 8, serpentine=True, brightness=255, budget_ma=5000)
    d.pixel(0, 1, P.REFUSE)
    d.show()
    assert px.buf[15] == d.palette.rgb[P.REFUSE]
    assert sum(1 for v in px.buf if v) == 1


def test_an_index_past_the_palette_shows_off_instead_of_crashing():
    px = FakePixels(64)
    d = D.Display(px, 8, 8, brightness=255)
    d.fill(200)
    d.pixel(2, 0, P.OK)
    assert d.show()
    assert [i for i in range(64) if px.buf[i]] == [2]
    extra = d.palette.add(10, 20, 30)        # a screen's own colour
    d.pixel(3, 0, extra)
    d.show()
    assert px.buf[3] == d.palette.rgb[extra] != 0


def _all_white(board, brightness=255):
    sim = Sim(board=board, app=False)
    d = sim.display
    d.brightness = brightness
    d.fill(P.CURSOR)               # (255, 255, 255)
    assert d.show()
    return sim


def test_power_limit_all_white_8x8():
    sim = _all_white("pico_8x8")
    written = sim.last_bytes
    assert len(written) == 3 * 64
    ma = D.frame_ma(written)
    budget = sim.profile.BUDGET_MA
    assert ma <= budget
    assert ma >= budget - 40                  # limited, not needlessly dark
    assert ma == sim.display.last_ma
    # unlimited, the same frame would draw 64 * (3 * 20 + 1) mA
    assert D.frame_ma(bytes([255]) * 192) == 64 * 61
    assert len(set(written)) == 1             # still white, just dimmer


def test_power_limit_all_white_16x16():
    sim = _all_white("pico_16x16")
    ma = D.frame_ma(sim.last_bytes)
    assert sim.profile.BUDGET_MA - 40 <= ma <= sim.profile.BUDGET_MA


def test_under_budget_frames_keep_their_brightness():
    sim = Sim(board="pico_8x8", app=False)
    d = sim.display
    d.brightness = 255
    d.clear()
    d.pixel(0, 0, P.CURSOR)
    d.show()
    assert d.scale == 255
    assert sim.pixel(0, 0) == (255, 255, 255)


@given(st.lists(st.integers(0, P.SIZE - 1), min_size=64, max_size=64),
       st.integers(0, 255), st.integers(70, 600))
def test_no_frame_exceeds_the_budget(frame, bright, budget):
    px = FakePixels(64)
    d = D.Display(px, 8, 8, brightness=bright, budget_ma=budget)
    d.frame[:] = bytes(frame)
    d.show()
    raw = bytearray()
    for v in px.buf:
        raw += bytes((v >> 16, (v >> 8) & 255, v & 255))
    assert D.frame_ma(raw) <= budget
    assert D.frame_ma(raw) == d.last_ma
    assert d.scale <= bright
    if d.scale < bright:                 # limited: one step brighter won't fit
        units = d._scale_to(d.scale + 1)
        assert (units * D.MA_CHANNEL + 254) // 255 + 64 * D.IDLE_MA > budget


def test_piece_colours_are_distinct_and_sizes_step_up():
    pal = P.Palette()

    def rgb(i):
        v = pal.rgb[i]
        return (v >> 16, (v >> 8) & 255, v & 255)

    larges = set()
    for c in range(9):
        s1, s2, s3 = [sum(rgb(P.piece(c, s))) for s in (1, 2, 3)]
        assert 0 < s1 < s2 < s3, "colour %d sizes not in steps" % c
        # apart, though a size is read from its shape (the visual language,
        # tests/test_visual_language.py): brightness is the second cue
        assert 10 * s2 >= 14 * s1 and 10 * s3 >= 14 * s2 or c == 8
        larges.add(rgb(P.piece(c, 3)))
    assert len(larges) == 9
    # the seven coloured pieces: hues (as perceived, gamma undone) at least
    # 20 degrees apart; clear is the one unsaturated bright colour
    import colorsys
    hsv = []
    for c in range(9):
        r, g, b = [(v / 255) ** (1 / 2.5) for v in rgb(P.piece(c, 3))]
        hsv.append(colorsys.rgb_to_hsv(r, g, b))
    for i in range(7):
        assert hsv[i][1] > 0.8, "colour %d washed out" % i
        for j in range(i):
            d = abs(hsv[i][0] - hsv[j][0]) * 360
            assert min(d, 360 - d) >= 20, "colours %d and %d look alike" % (i, j)
    assert hsv[7][1] < 0.5 and hsv[7][2] > 0.9
    # black reads as a dim warm stand-in: lit, below a medium clear, and
    # warm (red over blue) where clear is cool
    assert sum(rgb(P.piece(8, 3))) < sum(rgb(P.piece(7, 2)))
    assert all(sum(rgb(P.piece(8, s))) > 0 for s in (1, 2, 3))
    for s in (2, 3):
        k, w = rgb(P.piece(8, s)), rgb(P.piece(7, s))
        assert k[0] > k[2] and w[2] > w[0]
    # the steps survive dimming: at brightness 64 (a quarter) every colour's
    # sizes still come out as three different LED levels
    for c in range(9):
        lv = []
        for sz in (1, 2, 3):
            v = pal.rgb[P.piece(c, sz)]
            lv.append(sum(D._dim(x, 64) for x in (v >> 16, (v >> 8) & 255, v & 255)))
        assert 10 * lv[1] >= 13 * lv[0] and 10 * lv[2] >= 13 * lv[1], (c, lv)
    assert P.piece(0, 0) == P.piece(0, 2)       # a rock shows as a medium
    assert P.piece_code(6 << 2 | 1) == P.piece(6, 1)


def test_font_digits_fit_and_scroller_moves_without_new_state():
    px = FakePixels(64)
    d = D.Display(px, 8, 8)
    end = font.draw_number(d, 42, 0, 1, P.TEXT)
    assert end == 8 and font.number_width(42) == 7
    lit = [i for i in range(64) if d.frame[i]]
    assert lit and all(1 <= i // 8 <= 5 for i in lit)
    d.clear()
    font.draw_number(d, -7, 0, 0, P.TEXT)
    assert d.get(1, 2) == P.TEXT                 # the minus sign
    s = font.Scroller(8, y=1, colour=P.TEXT, step_ms=100, pause_ms=300)
    s.set("SCORE 12", now_ms=0)
    assert not s.tick(200)                        # still pausing
    assert s.tick(300) and s.pos == -1
    moved = sum(1 for t in range(400, 10000, 100) if s.tick(t))
    assert moved > 30 and s.passes >= 1
    short = font.Scroller(8)
    short.set("12", 0)
    assert short.done and not short.tick(5000)
    assert font.glyph("a") == font.glyph("A") and font.glyph("~") == font.glyph("?")


def _fresh_bytes(frame, w, h, serp, bright, budget):
    """What a new Display (nothing remembered) sends for ``frame``."""
    px = FakePixels(w * h)
    d = D.Display(px, w, h, serpentine=serp, brightness=bright, budget_ma=budget)
    d.frame[:] = frame
    d.show()
    return px.buf, d.scale


def test_incremental_frames_send_what_a_fresh_display_sends():
    # show() remembers what it sent (scaled colours, the scale in use) and
    # writes only changed rows; across any sequence of edits, brightness
    # changes and invalidations the LEDs must hold exactly what a display
    # starting from nothing would send for the same frame (so the power
    # limit still holds, and lifts again when the frame gets darker)
    import random
    rnd = random.Random(11)
    colours = (0, 0, 0, 1, 9, P.CURSOR, P.TEXT, P.player(3), 60)
    dimmed = 0
    for _ in range(150):
        serp = rnd.random() < 0.5
        budget = rnd.randint(70, 900)
        px = FakePixels(64)
        d = D.Display(px, 8, 8, serpentine=serp, brightness=48, budget_ma=budget)
        for _ in range(8):
            for _ in range(rnd.choice((0, 1, 3, 20, 64))):
                d.frame[rnd.randrange(64)] = rnd.choice(colours)
            if rnd.random() < 0.2:
                d.fill(rnd.choice(colours))
            if rnd.random() < 0.2:
                d.brightness = rnd.randint(0, 255)
            if rnd.random() < 0.1:
                d.invalidate()
            d.show()
            want, scale = _fresh_bytes(d.frame, 8, 8, serp, d.brightness, budget)
            assert px.buf == want
            assert d.scale == scale
            # the channel totals show() keeps per row match the frame
            f = d.frame
            for y in range(8):
                assert d._rowu[y] == sum(d._units[c] for c in f[y * 8:y * 8 + 8])
            assert d._total == sum(d._rowu)
            dimmed += scale < d.brightness
    assert dimmed > 50     # the power limit was really exercised


def _ma(buf):
    raw = bytearray()
    for v in buf:
        raw += bytes((v >> 16, (v >> 8) & 255, v & 255))
    return D.frame_ma(raw)


def test_a_spread_frame_goes_up_a_few_rows_a_show_and_ends_whole():
    # spread(k): one show() changes at most k rows on the LEDs (unless the
    # power limit sets a new scale, which rewrites them all), ``owed`` says
    # whether more are to come, and the LEDs never draw more than the
    # budget, even holding half of one frame and half of the next; shown
    # to the end, the LEDs hold what a fresh display sends for the frame,
    # on every wiring and rotation (a serpentine panel turned 90 degrees
    # has rows that do not run evenly along its LEDs)
    import random
    rnd = random.Random(5)
    colours = (0, 0, 1, 9, P.CURSOR, P.TEXT, P.player(3), P.REFUSE)
    limited = partial = 0
    for _ in range(160):
        pw, ph = rnd.choice(((8, 8), (8, 4), (5, 3), (16, 16)))
        serp = rnd.random() < 0.5
        rot = rnd.choice((0, 90, 180, 270))
        n = pw * ph
        budget = n + rnd.randint(20, 700 if n <= 64 else 2500)
        bright = rnd.choice((32, 48, 120))
        px = FakePixels(n)
        d = D.Display(px, pw, ph, serpentine=serp, rotation=rot,
                      brightness=bright, budget_ma=budget)
        w, h = d.width, d.height
        m = d.map
        for _ in range(6):
            for _ in range(rnd.choice((1, 3, 20, n))):
                d.frame[rnd.randrange(n)] = rnd.choice(colours)
            k = rnd.randint(1, 3)
            shows = 0
            while True:
                before = list(px.buf)
                scale = d.scale
                d.spread(k)
                d.show()
                shows += 1
                assert _ma(px.buf) <= budget
                changed = sum(1 for y in range(h)
                              if any(px.buf[m[y * w + x]] != before[m[y * w + x]]
                                     for x in range(w)))
                if changed > k:
                    # only a new scale, or a mix of two frames over the
                    # budget (then the frame is finished at once)
                    assert d.scale != scale or not d.owed
                    limited += 1
                assert d.owed == (bytes(d.frame) != bytes(d._shown))
                # the running totals count the rows as the LEDs have them
                sh = d._shown
                for y in range(h):
                    assert d._rowu[y] == sum(d._units[c] for c in sh[y * w:y * w + w])
                assert d._total == sum(d._rowu)
                if not d.owed:
                    break
                partial += 1
                assert shows <= h
            fresh = FakePixels(n)
            f = D.Display(fresh, pw, ph, serpentine=serp, rotation=rot,
                          brightness=bright, budget_ma=budget)
            f.frame[:] = d.frame
            f.show()
            assert px.buf == fresh.buf and d.scale == f.scale
            assert d.last_ma == f.last_ma == _ma(px.buf)
    assert partial > 100 and limited > 10   # both paths were exercised


def test_without_spread_a_show_sends_the_whole_frame():
    px = FakePixels(256)
    d = D.Display(px, 16, 16, serpentine=True, brightness=32, budget_ma=1500)
    d.show()
    d.spread(2)
    d.fill(P.DIM)
    d.show()
    assert d.owed
    d.show()                       # the limit was for one show only
    assert not d.owed and bytes(d._shown) == bytes(d.frame)
    assert len(set(px.buf)) == 1 and px.buf[0] != 0


def test_mask_and_blit_match_pixel_by_pixel_drawing():
    # the one-call helpers draw what the per-pixel loops they replace drew,
    # clipped at every edge and scaled
    import random
    rnd = random.Random(5)
    for _ in range(200):
        w, h = rnd.randint(1, 5), rnd.randint(1, 5)
        bits = rnd.getrandbits(w * h)
        pic = bytes(rnd.choice((0, 0, 3, 7, 30)) for _ in range(w * h))
        x, y = rnd.randint(-6, 17), rnd.randint(-6, 17)
        s = rnd.choice((1, 1, 2, 3))
        ink = rnd.choice((-1, -1, P.DIM))
        a = D.Display(FakePixels(256), 16, 16)
        b = D.Display(FakePixels(256), 16, 16)
        a.mask(bits, w, h, x, y, P.OK, s)
        a.blit(pic, w, h, x + 1, y - 1, s, ink)
        bit = 1 << (w * h - 1)
        for r in range(h):
            for cc in range(w):
                if bits & bit:
                    for dy in range(s):
                        for dx in range(s):
                            b.pixel(x + cc * s + dx, y + r * s + dy, P.OK)
                bit >>= 1
        for r in range(h):
            for cc in range(w):
                c = pic[r * w + cc]
                if c:
                    for dy in range(s):
                        for dx in range(s):
                            b.pixel(x + 1 + cc * s + dx, y - 1 + r * s + dy,
                                    c if ink < 0 else ink)
        assert a.frame == b.frame, (w, h, x, y, s)


def test_glyph_table_covers_ascii_like_the_character_list():
    # glyph() reads a table built at import; it must agree with _CHARS
    for k in range(32, 127):
        ch = chr(k)
        i = font._CHARS.find(ch.upper())
        want = 0 if ch == " " else font._GLYPHS[i if i >= 0 else font._QUESTION]
        assert font.glyph(ch) == want, ch
    assert font.glyph("\u00e9") == font.glyph("?")
