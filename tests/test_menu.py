"""The menu on the LEDs: on 16x16 a new item goes up a few rows a pass,
and the name scrolls under an icon drawn once."""
from harness import boot
from lib import menu as M
from lib import screens_common as C
from lib.display import Display


class _NoLeds:
    def __setitem__(self, i, v):
        pass

    def show(self):
        pass


def shown_rows(sim):
    d = sim.display
    return [bytes(d._shown[y * d.width:(y + 1) * d.width]) for y in range(d.height)]


def fresh_frame(sim):
    menu = sim.app.menu
    d = Display(_NoLeds(), sim.display.width, sim.display.height)
    menu.base_key = -1          # drawn from scratch
    menu.draw(d)
    return bytes(d.frame)


def test_16x16_a_new_item_goes_up_over_a_few_passes_and_ends_whole():
    sim = boot("pico_16x16")
    assert sim.app.scr is sim.app.menu
    for _ in range(3):
        rows = shown_rows(sim)
        sim.down("right")
        passes = []
        for _ in range(5):
            sim.advance(20)
            now = shown_rows(sim)
            passes.append(sum(a != b for a, b in zip(rows, now)))
            rows = now
        sim.up("right")
        assert max(passes) <= M.SPREAD
        assert sum(passes) > M.SPREAD, "icon and name: most rows changed"
        assert passes[-1] == 0 and not sim.display.owed
        assert bytes(sim.display._shown) == fresh_frame(sim)
        sim.advance(100)


def test_16x16_the_name_scrolls_under_an_icon_drawn_once(monkeypatch):
    sim = boot("pico_16x16")
    assert sim.app.scr is sim.app.menu
    calls = []
    real = C.draw_icon
    monkeypatch.setattr(C, "draw_icon", lambda *a: (calls.append(a[2:4]), real(*a)))
    sim.press("right")
    assert not sim.app.menu.text.fits(), "a name that scrolls"
    sim.advance(200)
    assert len(calls) == 1
    del calls[:]
    icon = shown_rows(sim)[:8]
    texts = set()
    for _ in range(40):
        sim.advance(80)
        texts.add(b"".join(shown_rows(sim)[10:15]))
        assert shown_rows(sim)[:8] == icon
    assert len(texts) > 5, "the name moved"
    assert calls == [], "the icon was not drawn again"
    assert bytes(sim.display._shown) == fresh_frame(sim)


def test_8x8_menu_is_drawn_whole_each_time():
    sim = boot("pico_8x8")
    assert sim.app.scr is sim.app.menu
    sim.down("right")
    sim.advance(20)
    sim.up("right")
    assert not sim.display.owed
    assert bytes(sim.display._shown) == fresh_frame(sim)


def test_16x16_the_menu_lets_go_of_its_frame_copy_in_a_game():
    sim = boot("pico_16x16")
    assert sim.app.scr is sim.app.menu
    menu = sim.app.menu
    assert menu.base is not None and len(menu.base) == 256
    while menu.current() != "dice":
        sim.press("right")
    sim.press("a")
    assert sim.app.game == "dice" and menu.base is None
    sim.escape()
    sim.advance(300)
    # the game dropped the menu; the one made on leaving shows the same item
    assert sim.app.scr is sim.app.menu and sim.app.menu.current() == "dice"
    assert not sim.display.owed
    assert bytes(sim.display._shown) == fresh_frame(sim)
