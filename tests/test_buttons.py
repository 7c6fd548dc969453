"""lib.buttons on Blinka's real keypad.Keys: repeat, long press, escape,
nothing lost or doubled when buttons are mashed, queue overflow."""

from hypothesis import given, settings, strategies as st

import tools.simkit  # noqa: F401  (selects Blinka's OS-agnostic board)
import board
import keypad
import boards
from lib import buttons as K


def make(max_events=64):
    pins = [getattr(board, p) for p in boards.DESKTOP_BUTTON_PINS]
    keys = keypad.Keys(pins, value_when_pressed=True, pull=True,
                       max_events=max_events)
    keys._interval = 3600.0   # the idle mock pins never change; let it sleep
    return keys, K.Buttons(keys)


def drain(b):
    out = []
    ev = b.get()
    while ev:
        out.append(ev)
        ev = b.get()
    return out


def run(b, keys, script, step=20, start=0):
    """script: list of (time_ms, button, pressed); polls every ``step``."""
    out = []
    t = start
    script = sorted(script, key=lambda e: e[0])
    i = 0
    end = script[-1][0] + 2000 if script else 2000
    while t <= end:
        while i < len(script) and script[i][0] <= t:
            keys.events.keypad_eventqueue_record(script[i][1], script[i][2])
            i += 1
        b.poll(t)
        out.extend([(t, e) for e in drain(b)])
        t += step
    return out


def names(evs):
    return [K.describe(e) for _, e in evs]


def test_tap_direction_gives_press_and_release_only():
    keys, b = make()
    evs = run(b, keys, [(0, K.LEFT, True), (100, K.LEFT, False)])
    assert names(evs) == ["press left", "release left"]


def test_held_direction_repeats_on_schedule():
    keys, b = make()
    evs = run(b, keys, [(0, K.RIGHT, True), (1000, K.RIGHT, False)])
    reps = [t for t, e in evs if K.kind_of(e) == K.REPEAT]
    # first after 400 ms, then every 140 ms, while held
    assert reps == [400, 540, 680, 820, 960]
    assert names(evs)[0] == "press right" and names(evs)[-1] == "release right"


def test_a_press_then_click_or_long():
    keys, b = make()
    evs = run(b, keys, [(0, K.A, True), (200, K.A, False)])
    assert names(evs) == ["press a", "release a", "click a"]
    keys, b = make()
    evs = run(b, keys, [(0, K.A, True), (1500, K.A, False)])
    assert names(evs) == ["press a", "long a", "release a"]
    assert [t for t, e in evs if K.kind_of(e) == K.LONG] == [K.LONG_MS]


def test_b_click_long_and_escape():
    keys, b = make()
    assert names(run(b, keys, [(0, K.B, True), (300, K.B, False)])) == [
        "press b", "release b", "click b"]
    keys, b = make()
    assert names(run(b, keys, [(0, K.B, True), (700, K.B, False)])) == [
        "press b", "release b", "long b"]
    keys, b = make()
    evs = run(b, keys, [(0, K.B, True), (3000, K.B, False)])
    assert names(evs) == ["press b", "escape b", "release b"]
    # the escape fires while B is still held, at ESCAPE_MS
    assert [t for t, e in evs if K.kind_of(e) == K.ESCAPE] == [K.ESCAPE_MS]


def test_escape_when_the_app_was_too_busy_to_see_the_hold():
    keys, b = make()
    keys.events.keypad_eventqueue_record(K.B, True)
    b.poll(0)
    keys.events.keypad_eventqueue_record(K.B, False)
    b.poll(2000)        # one long frame: the release arrives with the hold
    assert [K.describe(e) for e in drain(b)] == ["press b", "release b", "escape b"]


def test_idle_and_held_queries():
    keys, b = make()
    keys.events.keypad_eventqueue_record(K.UP, True)
    b.poll(100)
    assert b.held(K.UP) and b.any_held() and b.idle_ms(5000) == 0
    assert b.held_ms(K.UP, 350) == 250
    keys.events.keypad_eventqueue_record(K.UP, False)
    b.poll(400)
    assert not b.held(K.UP) and b.idle_ms(2400) == 2000


def test_clock_wrap_is_handled():
    keys, b = make()
    start = (1 << 29) - 100            # supervisor.ticks_ms wraps at 2**29
    evs = run(b, keys, [(start, K.A, True), (start + 700, K.A, False)], start=start)
    wrapped = [(t & ((1 << 29) - 1), e) for t, e in evs]
    assert [K.describe(e) for _, e in wrapped] == ["press a", "long a", "release a"]
    assert K.ticks_diff(5, (1 << 29) - 5) == 10


@settings(max_examples=60)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 120),
                          st.integers(0, 1500)), min_size=1, max_size=80),
       st.integers(1, 90))
def test_mashing_loses_and_doubles_nothing(presses, poll_every):
    """Random presses (button, gap before it, hold) overlapping freely,
    polled at a random frame period: every press yields exactly one PRESS
    and one RELEASE, and A/B exactly one CLICK, LONG or ESCAPE."""
    keys, b = make()
    edges = []
    t = 0
    free_at = [0] * 6          # keypad never reports a key down twice
    for btn, gap, hold in presses:
        t += gap
        down = max(t, free_at[btn])
        edges.append((down, btn, True))
        edges.append((down + hold, btn, False))
        free_at[btn] = down + hold + 1
    evs = run(b, keys, edges, step=poll_every)
    want = [0] * 6
    for _, btn, pressed in edges:
        want[btn] += pressed
    for n in range(6):
        mine = [K.kind_of(e) for _, e in evs if K.button_of(e) == n
                and K.kind_of(e) != K.OVERFLOW]
        assert mine.count(K.PRESS) == want[n]
        assert mine.count(K.RELEASE) == want[n]
        edges_only = [k for k in mine if k in (K.PRESS, K.RELEASE)]
        assert edges_only == [K.PRESS, K.RELEASE] * want[n]
        if n >= K.A:
            outcomes = sum(mine.count(k) for k in (K.CLICK, K.LONG, K.ESCAPE))
            assert outcomes == want[n]
        else:
            assert K.CLICK not in mine and K.LONG not in mine
    assert b.overflows == 0 and b.presses == sum(want)


def test_a_burst_larger_than_the_ring_waits_in_keypad():
    keys, b = make()
    for i in range(30):                  # 60 edges between two frames
        keys.events.keypad_eventqueue_record(i % 4, True)
        keys.events.keypad_eventqueue_record(i % 4, False)
    seen = []
    for frame in range(10):
        b.poll(frame * 20)
        seen.extend(drain(b))
    assert sum(1 for e in seen if K.kind_of(e) == K.PRESS) == 30
    assert sum(1 for e in seen if K.kind_of(e) == K.RELEASE) == 30
    assert b.overflows == 0


def test_overflow_releases_held_buttons_and_recovers():
    keys, b = make(max_events=8)
    keys.events.keypad_eventqueue_record(K.A, True)
    b.poll(0)
    assert b.held(K.A)
    drain(b)
    for i in range(10):                  # more edges than keypad can queue
        keys.events.keypad_eventqueue_record(K.UP, i % 2 == 0)
    assert keys.events.overflowed
    b.poll(20)
    out = [K.describe(e) for e in drain(b)]
    assert out == ["release a", "overflow up"]     # no click for the lost A
    assert b.overflows == 1 and not b.any_held()
    assert not keys.events.overflowed
    evs = run(b, keys, [(100, K.DOWN, True), (150, K.DOWN, False)], start=40)
    assert names(evs) == ["press down", "release down"]


def test_a_stray_release_is_ignored():
    keys, b = make()
    keys.events.keypad_eventqueue_record(K.A, False)   # release never pressed
    b.poll(0)
    assert drain(b) == []


def test_event_codes_are_small_ints():
    for kind in (K.PRESS, K.RELEASE, K.REPEAT, K.CLICK, K.LONG, K.ESCAPE):
        for n in range(6):
            ev = kind | n
            assert 0 < ev < 64 and K.kind_of(ev) == kind and K.button_of(ev) == n
