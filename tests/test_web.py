"""The browser page (tools/web.py, web/) in a real headless Chromium.

The site is built with ``tools/web.py build`` and served by ``tools/web.py
serve``; Debian's ``chromium`` is driven through its ``chromedriver`` by
selenium (pinned in requirements.txt; it never downloads a browser).

Same frames as the desktop: every key script is played once by
tools/simkit.py (the terminal simulator's core), which records the button
edges and the time it lets pass, and once by the page, stepped through
``window.pocket.replay`` on a manual clock; the LED colours are compared at
every token of the script, and at the end what the canvas drew is read
back too.

Without Chromium these tests are not collected, and the run says so once at
the end (tests/conftest.py) with the command that installs it; with
``CI=true`` a missing Chromium is a failure instead.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

# one test process builds and serves the site for every test here: two
# would run npm in web/ at once (make test runs with --dist loadgroup)
pytestmark = pytest.mark.xdist_group("web")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
INSTALL = "sudo apt-get install -y chromium chromium-driver"
GALLERY = os.path.join(ROOT, "docs", "gallery")


def _missing():
    """Why the browser tests cannot run here ('' when they can)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return "%s is not installed" % path
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (make setup installs requirements.txt)"
    if not shutil.which("npm") and not os.path.exists(os.path.join(
            ROOT, "web", "node_modules", "@micropython")):
        return "npm is not installed (it installs the page's interpreter once)"
    return ""


MISSING = _missing()
IN_CI = os.environ.get("CI", "").lower() == "true"
# read by tests/conftest.py's terminal summary
NOT_RUN = ("the browser tests (tests/test_web.py) did not run: %s; "
           "`%s` enables them" % (MISSING, INSTALL)) if MISSING and not IN_CI else ""


if MISSING and IN_CI:
    def test_chromium_is_installed():
        pytest.fail("CI must run the browser tests, but %s (.ci/run installs "
                    "it: %s)" % (MISSING, INSTALL))

if not MISSING:
    from tools import simkit

    BOARDS = ("pico_8x8", "pico_16x16")
    SEED = 1
    UP, DOWN, LEFT, RIGHT, A, B = range(6)

    # ---- the simulator's side: frames and the edges it pressed ----------
    class RecordingSim(simkit.Sim):
        """A Sim that notes each button edge and each stretch of time, so
        the page can be given exactly the same."""

        def __init__(self, *args, **kwargs):
            self.ops = []
            super().__init__(*args, **kwargs)

        def down(self, name):
            self.ops.append(["d", simkit.button(name)])
            super().down(name)

        def up(self, name):
            self.ops.append(["u", simkit.button(name)])
            super().up(name)

        def advance(self, ms):
            if self.ops and self.ops[-1][0] == "a":
                self.ops[-1][1] += ms
            else:
                self.ops.append(["a", ms])
            super().advance(ms)

        def keep(self):
            """Mark a frame to compare (the page keeps its own there)."""
            self.ops.append(["f"])
            self.kept.append(frame_text(self))

    def frame_text(sim):
        """The last frame as the page reports it: ``"SCALE HEX"``."""
        data = bytes(v for rgb in sim.frame() for v in rgb)
        return "%d %s" % (sim.last_scale, data.hex())

    # a short game of each: presses of every kind, time for animations and
    # bots, an idle save and the escape
    PLAY = ("a wait:300 right a wait:300 down a left a wait:300 B up a right*2 a "
            "hold:down:700 a wait:2200 esc wait:300")
    DEAL_MS = 8000      # the longest a game may take to show its screen

    def enter(sim, gid):
        """Open ``gid`` from the menu and let its deal run until its screen
        (or the hand-off to the first player) is up: Ice Solo deals one
        chance node a pass, about 4 s."""
        from lib.app import Dealing, Loading
        sim.run_script("menu:%s a" % gid, on_token=lambda tok: sim.keep())
        for _ in range(DEAL_MS // 100):
            if sim.app.game_scr is not None and not isinstance(sim.app.scr, (Dealing, Loading)):
                break
            sim.advance(100)
        assert sim.app.game == gid and sim.app.game_scr is not None, (
            "the script did not open %s" % gid)
        sim.keep()

    def play(script, board, nvm=None, game=None):
        """Run ``script`` in the simulator from boot (after opening ``game``
        when named), keeping the frame before every token and at the end
        (as tools/sim.py --keys ends, one pass later)."""
        sim = RecordingSim(board=board, seed=SEED, nvm=nvm)
        sim.kept = []
        if game:
            enter(sim, game)
        sim.run_script(script, on_token=lambda tok: sim.keep())
        sim.advance(sim.frame_ms)
        sim.keep()
        return sim

    # ---- the page's side ----------------------------------------------------
    @pytest.fixture(scope="module")
    def built(tmp_path_factory):
        """The site as tools/web.py builds it, in a folder of this run's own
        (another run's build of dist/web/ cannot pull it away)."""
        out = str(tmp_path_factory.mktemp("web"))
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "web.py"), "build",
                        "--out", out], check=True, cwd=ROOT, capture_output=True)
        return out

    @pytest.fixture(scope="module")
    def site(built):
        """The site served by tools/web.py serve, its address."""
        server = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, "tools", "web.py"), "serve", "--port", "0",
             "--out", built], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()
            assert " at http://127.0.0.1:" in line, line
            yield line.split(" at ")[1].split()[0]
        finally:
            server.terminate()
            server.wait(10)

    @pytest.fixture(scope="module")
    def browser():
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        os.environ["SE_OFFLINE"] = "true"   # selenium never looks for a driver online
        profile = tempfile.mkdtemp(prefix="pocket-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--window-size=900,1200", "--user-data-dir=" + profile):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        driver.set_script_timeout(90)
        try:
            yield driver
        finally:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)

    def console_problems(driver):
        """Errors and warnings the page logged since the last look."""
        return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]

    def wait_ready(driver):
        got = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "window.pocket.ready.then(() => done('ok'), (e) => done('failed: ' + e));")
        assert got == "ok", got

    def open_page(driver, site, query):
        driver.get(site + "index.html?" + query)
        wait_ready(driver)

    def page_frame(driver):
        f = driver.execute_script("return window.pocket.frame()")
        return [tuple(c) for c in f["leds"]]

    def canvas_colours(driver):
        """The colour at the centre of every LED drawn on the canvas."""
        return driver.execute_script("""
            const c = document.getElementById('matrix');
            const img = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const {pad, pitch, width, height} = window.pocket.layout();
            const out = [];
            for (let y = 0; y < height; y++)
              for (let x = 0; x < width; x++) {
                const px = Math.floor(pad + x * pitch + pitch / 2);
                const py = Math.floor(pad + y * pitch + pitch / 2);
                const at = 4 * (py * c.width + px);
                out.push([img[at], img[at + 1], img[at + 2]]);
              }
            return out;""")

    def replay(driver, sim):
        return driver.execute_script("return window.pocket.replay(arguments[0])", sim.ops)

    def assert_same_frames(sim, got, what):
        assert len(got) == len(sim.kept)
        for i, (want, have) in enumerate(zip(sim.kept, got)):
            if have.split(" ")[1] == "":
                have = "%s %s" % (have.split(" ")[0], "0" * len(want.split(" ")[1]))
            assert have == want, "%s: frame %d of %d differs from the simulator's" % (
                what, i, len(sim.kept))

    def assert_canvas_shows(driver, sim):
        drawn = canvas_colours(driver)
        want = sim.view()
        assert len(drawn) == len(want)
        for i, (d, w) in enumerate(zip(drawn, want)):
            off = (30, 30, 35)   # an unlit LED
            expect = off if w == (0, 0, 0) else w
            assert all(abs(a - b) <= 1 for a, b in zip(d, expect)), (
                "LED %d drawn %s, the simulator shows %s" % (i, d, expect))

    def keep_screenshot(driver, name):
        """The console as the page shows it, for the README's gallery."""
        from selenium.webdriver.common.by import By
        # without the status line: its heap figures move with every change
        # to the device code, the picture only when a screen changes
        driver.execute_script("document.getElementById('status').style.display = 'none'")
        png = driver.find_element(By.CSS_SELECTOR, ".console").screenshot_as_png
        driver.execute_script("document.getElementById('status').style.display = ''")
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        path = os.path.join(GALLERY, name)
        old = None
        if os.path.exists(path):
            with open(path, "rb") as f:
                old = f.read()
        if old != png:
            with open(path, "wb") as f:
                f.write(png)

    def catalog_built():
        from engine import catalog
        return catalog.built()

    @pytest.mark.parametrize("board", BOARDS)
    def test_every_game_and_tool_shows_the_simulators_frames(site, browser, board):
        """For each built game and tool: the same key script, pixel for
        pixel the same LEDs at every token, and the canvas draws them."""
        games = catalog_built()
        assert games
        for gid in games:
            sim = RecordingSim(board=board, seed=SEED)
            sim.kept = []
            enter(sim, gid)
            sim.run_script(PLAY, on_token=lambda tok: sim.keep())
            sim.advance(sim.frame_ms)
            sim.keep()
            open_page(browser, site, "board=%s&seed=%d&clock=manual&nvm=fresh" % (board, SEED))
            got = replay(browser, sim)
            assert_same_frames(sim, got, "%s on %s" % (gid, board))
            assert page_frame(browser) == sim.frame()
            assert_canvas_shows(browser, sim)
            assert console_problems(browser) == []
            if gid == "ice_solo":
                # a frame mid-game for the gallery (deterministic: manual clock)
                mid = RecordingSim(board=board, seed=SEED)
                mid.kept = []
                enter(mid, gid)
                mid.run_script("a wait:600 right a wait:600")
                open_page(browser, site, "board=%s&seed=%d&clock=manual&nvm=fresh" % (
                    board, SEED))
                replay(browser, mid)
                assert page_frame(browser) == mid.frame()
                keep_screenshot(browser, "web-%s.png" % board.split("_")[1])

    def stored_nvm(driver, board):
        hexed = driver.execute_script(
            "return localStorage.getItem('pocket-pyramids.nvm.' + arguments[0])", board)
        return bytes.fromhex(hexed) if hexed else None

    def test_a_reload_resumes_the_saved_game(site, browser):
        board = "pico_8x8"
        query = "board=%s&seed=%d&clock=manual" % (board, SEED)
        open_page(browser, site, query)
        browser.execute_script("localStorage.clear()")
        open_page(browser, site, query)
        first = play("b a a wait:2500", board, game="ice_solo")   # the hint, played
        assert first.app.game == "ice_solo"
        assert_same_frames(first, replay(browser, first), "the game to save")
        # the page kept exactly the NVM the simulator's run wrote
        saved = stored_nvm(browser, board)
        assert saved is not None and saved == bytes(first.nvm)
        assert first.store.has_game()

        browser.refresh()
        wait_ready(browser)
        again = play("wait:1500 a wait:600", board, nvm=bytearray(saved))
        assert again.app.game == "ice_solo", "the simulator did not resume it"
        assert again.app.state.serialize() == first.app.state.serialize()
        assert_same_frames(again, replay(browser, again), "after the reload")
        assert_canvas_shows(browser, again)
        assert console_problems(browser) == []

    def test_a_corrupt_save_is_refused_and_the_game_starts_fresh(site, browser):
        board = "pico_8x8"
        query = "board=%s&seed=%d&clock=manual" % (board, SEED)
        key = "pocket-pyramids.nvm." + board
        fresh = play("wait:1500 a wait:600", board)

        # not an NVM at all: the page drops it and starts on an erased one
        open_page(browser, site, query)
        browser.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                               key, "this is not a save" * 3)
        open_page(browser, site, query)
        assert "unreadable" in browser.execute_script("return window.pocket.status().notice")
        assert browser.execute_script("return localStorage.getItem(arguments[0])", key) is None
        assert_same_frames(fresh, replay(browser, fresh), "after an unreadable save")

        # an NVM whose game records are damaged: lib/save refuses them
        saved = bytearray(play("b a a wait:2500", board, game="ice_solo").nvm)
        damaged = 0
        for at in (512, 512 + (4096 - 512) // 2):
            if saved[at:at + 2] == b"PR":
                saved[at + 12] ^= 0x5A     # the payload, under the record's crc32
                damaged += 1
        assert damaged
        browser.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                               key, saved.hex())
        open_page(browser, site, query)
        after = play("wait:1500 a wait:600", board, nvm=bytearray(saved))
        assert after.store.notice(), "the simulator took the damaged save"
        assert_same_frames(after, replay(browser, after), "after a damaged save")
        assert after.store.notice() in browser.execute_script(
            "return window.pocket.status().notice")
        assert console_problems(browser) == []

    def wait_for_frame(driver, want, what, timeout=10):
        end = time.monotonic() + timeout
        got = None
        while time.monotonic() < end:
            got = page_frame(driver)
            if got == want:
                return
            time.sleep(0.05)
        raise AssertionError("the page never showed %s" % what)

    def test_on_screen_buttons_and_keys_play_on_the_live_clock(site, browser):
        """The page on its own animation loop: the on-screen buttons, the
        keyboard and Esc move the app as the simulator's presses do."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        board = "pico_8x8"
        open_page(browser, site, "board=%s&seed=%d&nvm=fresh" % (board, SEED))
        sim = simkit.Sim(board=board, seed=SEED)
        sim.advance(3000)
        wait_for_frame(browser, sim.frame(), "the menu")
        status = browser.execute_script("return window.pocket.status()")
        assert status["error"] is None and status["heapInUse"] > 0
        assert status["heapPeak"] >= status["heapInUse"]

        browser.find_element(By.CSS_SELECTOR, '.key[data-key="%d"]' % RIGHT).click()
        sim.press("right")
        sim.advance(500)
        wait_for_frame(browser, sim.frame(), "the menu's next item after a click")

        ActionChains(browser).send_keys("d").perform()
        sim.press("right")
        sim.advance(500)
        wait_for_frame(browser, sim.frame(), "the item after that after 'd'")

        ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
        sim.press("left")
        sim.advance(500)
        wait_for_frame(browser, sim.frame(), "the item before after an arrow")

        # into the game under the cursor with A on screen, out with Esc
        browser.find_element(By.CSS_SELECTOR, '.key[data-key="%d"]' % A).click()
        sim.press("a")
        sim.advance(2000)
        opened = sim.app.game
        assert opened
        time.sleep(2.5)
        assert page_frame(browser) != simkit.Sim(board=board, seed=SEED).frame()
        ActionChains(browser).send_keys(Keys.ESCAPE).perform()
        sim.escape()
        sim.advance(1500)
        assert sim.app.game is None or sim.app.scr is sim.app.menu
        wait_for_frame(browser, sim.frame(), "the menu after Esc")
        status = browser.execute_script("return window.pocket.status()")
        assert status["fps"] > 5
        assert console_problems(browser) == []

    def test_the_board_is_chosen_on_the_page(site, browser):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select
        open_page(browser, site, "board=pico_8x8&clock=manual&seed=1&nvm=fresh")
        frame = browser.execute_script("return window.pocket.frame()")
        assert (frame["width"], frame["height"]) == (8, 8)
        Select(browser.find_element(By.ID, "board")).select_by_value("pico_16x16")
        end = time.monotonic() + 10
        while "board=pico_16x16" not in browser.current_url:
            assert time.monotonic() < end, "choosing the 16x16 board did not reload the page"
            time.sleep(0.05)
        wait_ready(browser)
        frame = browser.execute_script("return window.pocket.frame()")
        assert (frame["width"], frame["height"]) == (16, 16)
        assert "pico_16x16" in browser.find_element(By.ID, "status").text
        links = [a.get_attribute("href") for a in
                 browser.find_elements(By.CSS_SELECTOR, ".rules-list a")]
        assert any(h.endswith("rules/ice-solo.html") for h in links)
        browser.get(links[0])
        assert "Back to the console" in browser.page_source
        assert console_problems(browser) == []

    def test_the_site_is_static_and_self_contained(built):
        out = built
        for name in ("index.html", "pocket.js", "pocket.css", "micropython.mjs",
                     "micropython.wasm", "device/code.py", "device/pocket_web.py",
                     "device/keypad.py", "device/boards/pico_16x16.py"):
            assert os.path.exists(os.path.join(out, name)), name
        for name in ("index.html", "pocket.js", "pocket.css"):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                text = f.read()
            assert "http://" not in text and "https://" not in text, name
        # the stand-ins are the budget's own files (lean), not a second copy
        from tools import build
        with open(os.path.join(ROOT, "tools", "budget", "standins", "keypad.py")) as f:
            want = build.lean_source(f.read())
        with open(os.path.join(out, "device", "keypad.py")) as f:
            assert f.read() == want
