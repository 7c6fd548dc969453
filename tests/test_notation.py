"""RULINGS "Notation": pieces, stacks, cells and grids, and their errors."""
import pytest
from hypothesis import given, settings, strategies as st

from engine import pieces
from harness import Tally
from engine.pieces import (NotationError, parse_piece, fmt_piece, parse_stack,
                           fmt_stack, parse_cell, fmt_cell, parse_grid, fmt_grid,
                           piece, colour_of, size_of, parse_colour)

LETTERS = "roygcbpwk"   # the RULINGS colour letters


def test_colour_letters_are_the_rulings_letters_in_rainbow_order():
    # Ice Stalks relies on r o y g c b p being consecutive codes
    assert pieces.COLOURS == LETTERS
    assert [parse_colour(ch) for ch in "roygcbp"] == list(range(7))
    assert pieces.NAMES[:7] == ("red", "orange", "yellow", "green", "cyan",
                                "blue", "purple")
    assert pieces.NAMES[7:] == ("clear", "black")


@pytest.mark.parametrize("colour", range(len(LETTERS)))
@pytest.mark.parametrize("size", (1, 2, 3))
def test_every_piece_round_trips(colour, size):
    text = LETTERS[colour] + str(size)
    p = parse_piece(text)
    assert p == piece(colour, size)
    assert colour_of(p) == colour and size_of(p) == size
    assert fmt_piece(p) == text
    assert p != pieces.NONE


def test_piece_codes_are_distinct_small_ints_and_none_is_not_one():
    codes = [parse_piece(c + s) for c in LETTERS for s in "123"]
    codes += [parse_piece(c, rock_ok=True) for c in LETTERS]
    assert len(set(codes)) == len(codes) == 36
    assert all(0 <= p < 256 for p in codes)     # fits a bytes stack
    assert pieces.NONE not in codes
    assert parse_piece("r", rock_ok=True) == 0   # why NONE is not 0


def test_examples_from_the_rulings():
    assert parse_piece("r3") == piece(0, 3)           # a red large
    assert pieces.SIZE_NAMES[size_of(parse_piece("r3"))] == "large"
    assert parse_stack("r3g2b1") == bytes([parse_piece("r3"), parse_piece("g2"),
                                           parse_piece("b1")])
    assert parse_stack("-") == b""
    assert parse_cell("b3", 8, 8) == 2 * 8 + 1        # column b, third row
    assert parse_cell("a1", 8, 8) == 0                # top left


def test_rocks_only_where_allowed():
    for i, ch in enumerate(LETTERS):
        r = parse_piece(ch, rock_ok=True)
        assert colour_of(r) == i and size_of(r) == 0
        assert fmt_piece(r) == ch
        with pytest.raises(NotationError):
            parse_piece(ch)
    # a rock is never a stack member
    with pytest.raises(NotationError):
        parse_stack("rg")


BAD_PIECES = ["", "r", "r0", "r4", "r9", "x1", "R3", "3r", "r33", " r3", "r3 ",
              "rr", "33", "\u00b2", "r\u00b3", "r\u0663", "w-", "k3\n", "-",
              "r3g2", "\x00", "\U0001F600"]


@pytest.mark.parametrize("text", BAD_PIECES)
def test_malformed_piece_is_a_notation_error(text):
    with pytest.raises(NotationError) as e:
        parse_piece(text)
    assert isinstance(e.value, ValueError)
    assert str(e.value)            # a message, not a bare exception


@pytest.mark.parametrize("text", ["", "rr", "r1x", "r0", "R", "1"])
def test_malformed_rock_is_a_notation_error(text):
    with pytest.raises(NotationError):
        parse_piece(text, rock_ok=True)


def test_piece_error_messages_say_what_is_wrong():
    with pytest.raises(NotationError, match="size"):
        parse_piece("r4")
    with pytest.raises(NotationError, match="colour"):
        parse_piece("x1")


@pytest.mark.parametrize("text,codes", [
    ("r3", ["r3"]),
    ("r3g2b1", ["r3", "g2", "b1"]),
    ("k1k1k1k1", ["k1"] * 4),
    ("w3p2", ["w3", "p2"]),
])
def test_stacks_are_bottom_first(text, codes):
    s = parse_stack(text)
    assert isinstance(s, bytes)
    assert [fmt_piece(p) for p in s] == codes
    assert fmt_stack(s) == text
    assert fmt_stack(bytearray(s)) == text      # games keep bytearrays too


def test_empty_stack_is_a_dash():
    assert fmt_stack(b"") == "-"
    assert fmt_stack(bytearray()) == "-"
    assert parse_stack("-") == b""


BAD_STACKS = ["", "r3g", "r3-", "--", "-r3", "r3 g2", "r3/g2", "r3,g2", "R3",
              "r3g0", "r3g4b1", "g2r", " ", "r3g2b1 "]


@pytest.mark.parametrize("text", BAD_STACKS)
def test_malformed_stack_is_a_notation_error(text):
    with pytest.raises(NotationError):
        parse_stack(text)


@pytest.mark.parametrize("width,height", [(8, 8), (4, 5), (5, 5), (1, 1),
                                          (26, 3), (3, 12)])
def test_every_cell_round_trips_in_reading_order(width, height):
    names = []
    for row in range(height):
        for col in range(width):
            names.append("abcdefghijklmnopqrstuvwxyz"[col] + str(row + 1))
    # reading order: a1, b1, c1 ... then a2 ...
    for index, name in enumerate(names):
        assert parse_cell(name, width, height) == index
        assert fmt_cell(index, width) == name


@pytest.mark.parametrize("text", ["i1", "a9", "a10", "z1", "h9"])
def test_cell_off_the_grid_is_refused(text):
    with pytest.raises(NotationError, match="off the 8x8 grid"):
        parse_cell(text, 8, 8)


BAD_CELLS = ["", "a", "1", "1a", "A1", "a0", "a01", "a-1", "a1.0", "a+1",
             "a 1", " a1", "a1 ", "ab1", "a\u00b2", "a\u0663", "\u00e11", "a100",
             "-", "a1/b1"]


@pytest.mark.parametrize("text", BAD_CELLS)
def test_malformed_cell_is_a_notation_error(text):
    with pytest.raises(NotationError):
        parse_cell(text, 26, 99)


def test_grid_is_cells_in_reading_order_joined_by_slashes():
    text = "r3g2b1/-/y1/-/k3/w2w1/-/p3p2p1"
    cells = parse_grid(text, 4, 2)
    assert cells == [parse_stack(t) for t in text.split("/")]
    assert cells[parse_cell("a2", 4, 2)] == parse_stack("k3")
    assert cells[parse_cell("d2", 4, 2)] == parse_stack("p3p2p1")
    assert fmt_grid(cells) == text


def test_grid_with_the_wrong_number_of_cells_is_refused():
    with pytest.raises(NotationError, match="expected 4"):
        parse_grid("-/-/-", 2, 2)
    with pytest.raises(NotationError, match="expected 4"):
        parse_grid("-/-/-/-/-", 2, 2)
    with pytest.raises(NotationError):
        parse_grid("", 2, 2)


def test_grid_error_names_the_bad_cell():
    with pytest.raises(NotationError, match="cell b2"):
        parse_grid("-/-/-/r4", 2, 2)
    with pytest.raises(NotationError, match="cell a1"):
        parse_grid("/-/-/-", 2, 2)


# ---- properties: anything accepted is canonical; anything else is refused --

ALPHABET = LETTERS + "123-/0489xRA *\u00b2\u0663"


def _canonical_or_refused(parse, fmt, text):
    """True if ``text`` is accepted (and is then the one spelling of its
    value), False if it is refused."""
    try:
        value = parse(text)
    except NotationError:
        return False
    assert fmt(value) == text      # one spelling per thing: no aliases
    return True


def _edited(args):
    text, at, ch, how = args
    at %= len(text) + 1
    if how == 0:
        return text[:at] + ch + text[at + 1:]       # a character changed
    if how == 1:
        return text[:at] + ch + text[at:]           # one inserted
    return text[:at] + text[at + 1:]                # one removed


def texts(alphabet, valid, max_size):
    """Random text, valid text, and valid text with one character edited:
    random text alone is almost always refused, valid text accepted."""
    edited = st.tuples(valid, st.integers(0, 40), st.sampled_from(alphabet),
                       st.integers(0, 2)).map(_edited)
    return st.text(alphabet=alphabet, max_size=max_size) | valid | edited


def check_canonical_or_refused(strategy, examples, *pairs):
    """Each generated text, through each (parse, fmt) pair; some must be
    accepted and some refused, or the property showed nothing."""
    tallies = [Tally() for _ in pairs]

    @settings(max_examples=examples)
    @given(strategy)
    def each(text):
        for (parse, fmt), tally in zip(pairs, tallies):
            tally("accepted" if _canonical_or_refused(parse, fmt, text) else "refused")

    each()
    for tally in tallies:
        tally.require("accepted", "refused")


PIECE_TEXT = st.builds(lambda c, z: c + z, st.sampled_from(LETTERS), st.sampled_from("123"))
STACK_TEXT = st.lists(PIECE_TEXT, min_size=1, max_size=4).map("".join) | st.just("-")
CELL_TEXT = st.builds(lambda c, r: c + str(r), st.sampled_from("abcdefgh"), st.integers(1, 10))
GRID_TEXT = st.lists(STACK_TEXT, min_size=4, max_size=4).map("/".join)


def test_piece_text_is_canonical_or_refused():
    check_canonical_or_refused(
        texts(ALPHABET, PIECE_TEXT | st.sampled_from(LETTERS), 4), 200,
        (parse_piece, fmt_piece), (lambda t: parse_piece(t, rock_ok=True), fmt_piece))


def test_stack_text_is_canonical_or_refused():
    check_canonical_or_refused(texts(ALPHABET, STACK_TEXT, 10), 200, (parse_stack, fmt_stack))


def test_cell_text_is_canonical_or_refused():
    check_canonical_or_refused(
        texts("abchiz0123456789 -\u00b2\u0663", CELL_TEXT, 4), 200,
        (lambda t: parse_cell(t, 8, 10), lambda i: fmt_cell(i, 8)))


@settings(max_examples=100)
@given(st.lists(st.lists(st.tuples(st.sampled_from(LETTERS),
                                   st.sampled_from("123")), max_size=4),
                min_size=6, max_size=6))
def test_random_grids_round_trip(cells):
    stacks = [bytes([piece(LETTERS.index(c), int(s)) for c, s in cell])
              for cell in cells]
    text = fmt_grid(stacks)
    assert text.count("/") == 5
    assert parse_grid(text, 3, 2) == stacks
    assert fmt_grid(parse_grid(text, 3, 2)) == text


def test_grid_text_is_canonical_or_refused():
    check_canonical_or_refused(texts(ALPHABET, GRID_TEXT, 24), 200,
                               (lambda t: parse_grid(t, 2, 2), fmt_grid))
