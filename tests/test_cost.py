"""The budget's deterministic time measure (tools/budget/cost.py): what it
counts, that it counts the same every run, and its conversion to board ms."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "budget"))
sys.path.insert(0, ROOT)

import cost  # noqa: E402


def add(a, b):
    x = a + b
    return x


def total(n):
    s = 0
    for i in range(n):
        s += i
    return s


def pair():
    yield 1
    yield 2


def only(fn):
    return cost.Counter(lambda code: code is fn.__code__)


def test_straight_line_function_counts_each_instruction():
    # LOAD_FAST LOAD_FAST BINARY_OP STORE_FAST LOAD_FAST RETURN_VALUE (the
    # RESUME that opens every CPython function has no MicroPython twin and
    # is not an opcode event)
    c = only(add)
    assert c.run(add, 2, 3) == 5
    assert sum(c.take().values()) == 6


def test_loop_counts_grow_by_the_loop_body():
    c = only(total)
    c.run(total, 3)
    three = sum(c.take().values())
    c.run(total, 10)
    ten = sum(c.take().values())
    # FOR_ITER STORE_FAST LOAD_FAST LOAD_FAST BINARY_OP STORE_FAST JUMP_BACKWARD
    assert ten - three == 7 * 7
    assert three == 31


def test_generator_slices_count_apart():
    c = only(pair)
    it = pair()
    assert c.run(next, it) == 1
    assert sum(c.take().values()) == 2       # LOAD_CONST YIELD_VALUE
    assert c.run(next, it) == 2
    assert sum(c.take().values()) == 3       # POP_TOP LOAD_CONST YIELD_VALUE


def test_take_resets():
    c = only(add)
    c.run(add, 1, 1)
    assert c.take()
    assert c.take() == {}


def test_device_files():
    assert cost.is_device_file(os.path.join(ROOT, "lib", "display.py"))
    assert cost.is_device_file(os.path.join(ROOT, "engine", "state.py"))
    assert cost.is_device_file(os.path.join(ROOT, "boards", "pico_8x8.py"))
    assert cost.is_device_file(os.path.join(ROOT, "code.py"))
    assert not cost.is_device_file(os.path.join(ROOT, "tools", "simkit.py"))
    assert not cost.is_device_file(os.path.join(ROOT, "tools", "budget", "standins",
                                                "neopixel.py"))
    assert not cost.is_device_file(os.path.join(ROOT, "libx", "display.py"))
    assert not cost.is_device_file(__file__)


def test_only_device_frames_are_counted():
    from lib.display import led_map

    def host_side():
        # tool code around a device call: only the device call counts
        out = led_map(4, 4, True)
        return sorted(out, key=lambda v: -v)
    led_map(4, 4, True)     # its first call imports a helper: not twice
    alone = cost.Counter()
    alone.run(led_map, 4, 4, True)
    want = alone.take()
    c = cost.Counter()
    c.run(host_side)
    got = c.take()
    assert got == want
    assert want and all(cost.is_device_file(code.co_filename) for code in got)


def test_conversion():
    # a board of 700 pystones/s runs 700 pystones of instructions in 1 s
    assert cost.to_ms(497 * 700, 0, 497) == 1000.0
    assert cost.to_ms(497 * 890, 0, 497, 890) == 1000.0
    # a 256-LED transfer at 30 us an LED, whatever the instructions
    assert abs(cost.to_ms(0, 256, 497) - 7.68) < 1e-9
    assert abs(cost.to_ms(4970, 64, 497) - (10 / 0.7 + 1.92)) < 1e-9


def test_pystone_count_is_fixed():
    a = cost.pystone_instructions(50)
    b = cost.pystone_instructions(100)
    assert a == b
    assert 200 < a < 2000


def test_app_measure_is_deterministic_and_sees_frames():
    first = cost.measure_app("pico_8x8", "dice", seed=3, presses=3)
    second = cost.measure_app("pico_8x8", "dice", seed=3, presses=3)
    assert first == second
    assert len(first) > 100
    shown = [r for r in first if r["frame"]]
    assert shown and all(r["leds"] % 64 == 0 and r["leds"] for r in shown)
    assert all(r["leds"] == 0 for r in first if not r["frame"])
    assert any(r["key"] for r in first) and any(r["load"] for r in first)
    for r in first:
        listed = sum(c for _, c in r["top"])
        assert listed <= r["instructions"]
        if len(r["top"]) < 12:
            assert listed == r["instructions"]
        assert all(name.split(":")[0].startswith(("lib/", "engine/", "boards/", "code.py"))
                   for name, _ in r["top"])


def test_bot_measure_counts_slices():
    turns = cost.measure_bots("ice_stalks", "players=2 bots=2", steps=6)
    assert turns
    for t in turns:
        assert t["slices"] and all(s > 0 for s in t["slices"])
        assert t["move"] > 0
