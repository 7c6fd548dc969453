"""What the Settings screen shows is what starts: every combination of every
catalog entry's remembered settings, read off the screen as a player reads
it (each row's value, and whether it is struck through), starts exactly
that game, and never the defaults."""
import itertools

import pytest

from engine import catalog, registry
from lib import palette as P
from lib import settings as S
from tools.simkit import Sim

BOOT_MS = 1500


@pytest.fixture(scope="module")
def sim():
    s = Sim(board="pico_8x8", seed=3)
    s.advance(BOOT_MS)
    return s


def game_items(st, gid):
    return [i for i in range(len(st.items)) if st.items[i].gid == gid]


def combinations(st, gid):
    """Every value of every setting of ``gid``, as kept (so values a later
    setting holds back, e.g. more device seats than players, come too)."""
    items = game_items(st, gid)
    ranges = [range(len(st.items[i].setting.choices)) for i in items]
    for values in itertools.product(*ranges):
        yield list(zip(items, values))


def screen_rows(app, gid):
    """(setting, text shown, struck through) for each of ``gid``'s rows on
    the Settings screen."""
    scr = app.shell("SettingsScreen")
    out = []
    for r in range(len(scr.rows)):
        i = scr.rows[r][0]
        if app.settings.items[i].gid != gid:
            continue
        scr._show(r)
        out.append((app.settings.items[i].setting, scr.shown, scr.off))
    return out


def expected_from_screen(gid, rows, entry):
    """The engine's options as the player reads them off the screen."""
    opts = {}
    shown = {setting.option: text for setting, text, off in rows}
    players = int(shown.get("players", entry.players[1]))
    accepted = registry.game_class(gid).OPTIONS
    for setting, text, off in rows:
        if off or setting.option not in accepted:
            continue
        if setting.seats == catalog.COUNT:
            if text != "none":
                k = int(text)
                assert 0 < k < players, "the screen offers every seat to the device"
                opts["bots"] = ",".join(str(p) for p in range(players - k + 1, players + 1))
        elif setting.seats == catalog.NAMED:
            if text != "none":
                opts["bots"] = text
        else:
            labels = setting.labels or setting.choices
            opts[setting.option] = setting.choices[labels.index(text)]
    return opts


def canonical(opts):
    return " ".join("%s=%s" % (k, opts[k]) for k in sorted(opts))


def test_every_combination_starts_what_the_settings_screen_shows(sim):
    app = sim.app
    st = app.settings
    saved = bytes(st.values)
    walked = 0
    try:
        for entry in catalog.GAMES:
            gid = entry.gid
            if gid not in app.playable:
                continue
            for combo in combinations(st, gid):
                for i, v in combo:
                    st.values[i] = v
                rows = screen_rows(app, gid)
                state = app._new(gid)
                if rows:
                    want = expected_from_screen(gid, rows, entry)
                else:
                    # a tool's choices are made in the tool: they start as kept
                    want = {}
                    for i, v in combo:
                        want[st.items[i].setting.option] = st.items[i].setting.choices[v]
                    if want.get("preset") == "custom":
                        del want["preset"]
                        want["contents"] = S.custom_contents(st.custom)
                assert state.options == canonical(want), (gid, combo, rows)
                if "players" in want:
                    assert state.num_players() == int(want["players"])
                if gid == "ice_towers":
                    assert state.ghost == (want.get("ghost") == "1")
                if "bots" in want or gid in ("bag_of_ice", "ice_stalks", "ice_towers",
                                             "pointsettia"):
                    seats = want.get("bots", "")
                    names = {"green": "1", "red": "2"} if gid == "pointsettia" else {}
                    seats = [int(names.get(w, w)) - 1 for w in seats.split(",") if w]
                    n = state.num_players()
                    assert [p for p in range(n) if state.is_bot(p)] == seats
                    assert len(seats) < n, "the device plays every seat unasked"
                walked += 1
    finally:
        st.values[:] = saved
    # every entry's combinations: Bag of Ice alone has 12 x 6 x 12
    assert walked > 12 * 6 * 12


def set_game(st, gid, **values):
    for option, value in values.items():
        st.set(gid + "." + option, value)


def test_four_players_with_the_ghost_on_start_four_players_and_no_ghost():
    sim = Sim(board="pico_8x8", seed=5)
    sim.advance(BOOT_MS)
    st = sim.app.settings
    set_game(st, "ice_towers", players="4", ghost="1", bots="2")
    assert sim.app.choose("ice_towers")
    sim.advance(2000)
    state = sim.app.state
    assert state.GAME == "ice_towers"
    assert state.num_players() == 4 and not state.ghost
    assert [p for p in range(4) if state.is_bot(p)] == [2, 3]
    # and with two players the ghost plays
    sim.app.exit_to_menu()
    sim.app.discard_save("ice_towers")
    set_game(st, "ice_towers", players="2")
    assert sim.app.choose("ice_towers")
    sim.advance(2000)
    assert sim.app.state.ghost and sim.app.state.num_players() == 2
    assert [p for p in range(2) if sim.app.state.is_bot(p)] == [1]


def test_device_plays_stops_short_of_every_seat():
    st = S.Settings()
    i = st.index("ice_stalks.bots")
    set_game(st, "ice_stalks", players="2")
    assert st.step(i, 1) and st.label(i) == "1"
    assert not st.step(i, 1) and st.label(i) == "1"
    # a count kept from a bigger table shows, and plays, as one seat less
    set_game(st, "ice_stalks", players="4", bots="3")
    set_game(st, "ice_stalks", players="3")
    assert st.label(i) == "2"
    assert st.options("ice_stalks", ("players", "bots"))["bots"] == "2,3"
    assert st.step(i, -1) and st.label(i) == "1"
    # one player of Bag of Ice leaves the device nothing to play
    set_game(st, "bag_of_ice", players="1", bots="3")
    j = st.index("bag_of_ice.bots")
    assert not st.applies(j) and st.label(j) == "none"
    assert "bots" not in st.options("bag_of_ice", ("players", "target", "bots"))


@pytest.mark.parametrize("board", ["pico_8x8", "pico_16x16"])
def test_a_setting_that_does_not_apply_is_struck_through(board):
    sim = Sim(board=board, seed=2)
    sim.advance(BOOT_MS)
    app = sim.app
    set_game(app.settings, "ice_towers", players="3", ghost="1")
    scr = app.shell("SettingsScreen")
    r = [k for k in range(len(scr.rows))
         if app.settings.items[scr.rows[k][0]].key == "ice_towers.ghost"][0]
    d = app.d

    def drawn(players):
        app.settings.set("ice_towers.players", players)
        scr._show(r)
        scr.naming = False
        scr.draw(d)
        return bytes(d.frame)

    struck = drawn("3")
    y = scr.value.y + 2
    w = d.width
    assert scr.off
    assert P.REFUSE in struck[y * w:(y + 1) * w]
    assert P.DIM in struck and P.OK not in struck
    plain = drawn("2")
    assert not scr.off
    assert P.REFUSE not in plain and P.OK in plain
