"""lib.save: two slots, CRC, torn writes at every byte, bit flips,
truncation, foreign data; only a whole valid game is ever resumed."""

import os
import zlib

import pytest
from hypothesis import given, strategies as st

from engine import registry
from lib import save as S
from lib.nvm_file import FileNVM


class PowerCut(Exception):
    pass


class TornNVM:
    """An nvm whose next write stops after ``cut`` bytes (power lost)."""

    def __init__(self, buf):
        self.buf = buf
        self.cut = None

    def __len__(self):
        return len(self.buf)

    def __getitem__(self, i):
        return self.buf[i]

    def __setitem__(self, sl, data):
        if self.cut is not None:
            k = self.cut
            self.cut = None
            self.buf[sl.start:sl.start + k] = data[:k]
            raise PowerCut()
        self.buf[sl] = data


def erased():
    return bytearray(b"\xff" * 4096)


def game(rolls):
    st = registry.new("dice", {"count": "3"})
    for i in range(rolls):
        if st.to_move() == -1:
            st.apply_action(st.chance_outcomes()[i % 3][0])
        else:
            st.apply_action(st.legal_actions()[-1])
    return st.serialize()


def test_roundtrip_and_alternating_slots():
    nvm = erased()
    s = S.Store(nvm)
    assert s.load_game() is None and s.status == S.EMPTY
    a, b, c = game(2), game(5), game(9)
    assert s.save_game(a) == S.OK
    assert s.save_game(b) == S.OK
    assert s.game.newest == 1
    assert s.save_game(c) == S.OK
    assert s.game.newest == 0 and s.game.seq == 3
    fresh = S.Store(nvm)                       # a reboot
    assert fresh.load_game() == c and fresh.status == S.OK
    st = fresh.resume()
    assert st.serialize() == c and fresh.notice() is None


def test_unchanged_save_spares_the_flash():
    s = S.Store(erased())
    p = game(4)
    assert s.save_game(p) == S.OK
    assert s.save_game(p) == S.UNCHANGED
    assert s.stats()[0] == 1


def test_too_big_is_refused_and_writes_nothing():
    nvm = erased()
    s = S.Store(nvm)
    before = bytes(nvm)
    assert s.save_game(b"x" * (s.capacity() + 1)) == S.TOO_BIG
    assert bytes(nvm) == before
    assert s.save_game(b"y" * s.capacity()) == S.OK


def test_clear_game_leaves_nothing_to_resume():
    nvm = erased()
    s = S.Store(nvm)
    s.save_game(game(3))
    s.clear_game()
    again = S.Store(nvm)
    assert again.load_game() is None and again.status == S.EMPTY
    assert again.resume() is None


def test_has_game_follows_saves_and_clears_without_copying_slots():
    nvm = erased()
    s = S.Store(nvm)
    assert s.has_game() is False                # blank
    s.save_game(game(2))
    assert s.has_game() is True
    s.clear_game()
    assert s.has_game() is False                # an empty record
    s.save_game(game(1))
    again = S.Store(nvm)
    assert again.has_game() is True             # read once from the NVM
    # asked again, it copies no slot: the answer comes from the header
    # the load kept (a board's menu asks it on every A)
    reads = []

    class Watched:
        def __getitem__(self, k):
            reads.append(k)
            return nvm[k]

        def __len__(self):
            return len(nvm)
    again.game.nvm = Watched()
    assert again.has_game() is True and reads == []


def test_torn_write_at_every_byte_keeps_the_older_save():
    old, new = game(4), game(12)
    base = erased()
    s = S.Store(base)
    s.save_game(game(1))
    s.save_game(old)            # slots: [first, old]; the next write hits slot 0
    rec_len = S.HEADER + len(new)
    for k in range(rec_len + 1):
        nvm = TornNVM(bytearray(base))
        st = S.Store(nvm)
        st.load_game()
        nvm.cut = k if k < rec_len else None
        try:
            st.save_game(new)
            complete = True
        except PowerCut:
            complete = False
        after = S.Store(nvm)
        got = after.load_game()
        if complete:
            assert got == new and after.status == S.OK
        else:
            assert got == old, "cut at %d resumed something else" % k
            assert after.status in (S.OK, S.RECOVERED)
            assert after.resume().serialize() == old
            # and the next save still works, into the damaged slot
            assert after.save_game(new) == S.OK
            assert S.Store(nvm).load_game() == new


def test_torn_first_save_is_no_save_at_all():
    p = game(6)
    for k in range(S.HEADER + len(p)):
        nvm = TornNVM(erased())
        nvm.cut = k
        try:
            S.Store(nvm).save_game(p)
        except PowerCut:
            pass
        s = S.Store(nvm)
        assert s.load_game() is None
        assert s.status in (S.EMPTY, S.CORRUPT)
        assert s.resume() is None


def test_every_bit_flip_in_the_newest_record_is_caught():
    older, newest = game(3), game(8)
    base = erased()
    s = S.Store(base)
    s.save_game(older)
    s.save_game(newest)
    at = s.game.base + s.game.newest * s.game.slot
    for bit in range((S.HEADER + len(newest)) * 8):
        nvm = bytearray(base)
        nvm[at + bit // 8] ^= 1 << (bit % 8)
        st = S.Store(nvm)
        got = st.load_game()
        assert got == older, "flip of bit %d loaded %r" % (bit, got)
        seq = (nvm[at + 4] << 8) | nvm[at + 5]
        if 32 <= bit < 48 and S._newer(1, seq):
            # the flip made the sequence number itself read as older (2 of
            # its 16 bits here): nothing says a newer save was lost
            assert st.status == S.OK, bit
        else:
            assert st.status == S.RECOVERED and st.notice() == "OLDER SAVE", bit


def test_damage_to_the_older_record_alone_is_not_an_older_save():
    older, newest = game(3), game(8)
    base = erased()
    s = S.Store(base)
    s.save_game(older)
    s.save_game(newest)
    at = s.game.base + (1 - s.game.newest) * s.game.slot
    said = 0
    for bit in range((S.HEADER + len(older)) * 8):
        nvm = bytearray(base)
        nvm[at + bit // 8] ^= 1 << (bit % 8)
        st = S.Store(nvm)
        state = st.resume()
        assert state is not None and state.serialize() == newest, bit
        if 32 <= bit < 48:
            # a flipped sequence number may read as newer than the one that
            # loaded: then it may have been a newer save, and is said
            seq = (nvm[at + 4] << 8) | nvm[at + 5]
            newer = S._newer(seq, 2)
            assert st.status == (S.RECOVERED if newer else S.OK), bit
            said += newer
        else:
            assert st.status == S.OK and st.notice() is None, bit
    assert said < 16
    # a torn older slot, or another program's bytes there: the same
    for junk in (b"P", b"PR\x01", bytes(range(1, 5)) + bytes(2) + bytes(range(7, 90))):
        nvm = bytearray(base)
        nvm[at:at + s.game.slot] = b"\xff" * s.game.slot
        nvm[at:at + len(junk)] = junk
        st = S.Store(nvm)
        assert st.load_game() == newest and st.notice() is None, junk


def test_both_slots_damaged_loads_nothing():
    base = erased()
    s = S.Store(base)
    s.save_game(game(2))
    s.save_game(game(5))
    for slot in (0, 1):
        base[s.game.base + slot * s.game.slot + 20] ^= 0x40
    st = S.Store(base)
    assert st.load_game() is None and st.status == S.CORRUPT
    assert st.notice() == "SAVE CORRUPT" and st.resume() is None


def test_truncated_nvm_file(tmp_path):
    path = str(tmp_path / "nvm.bin")
    s = S.Store(FileNVM(path))
    older, newest = game(3), game(10)
    s.save_game(older)
    s.save_game(newest)
    full = open(path, "rb").read()
    newest_at = s.game.base + s.game.newest * s.game.slot
    for cut in range(newest_at, newest_at + S.HEADER + len(newest) + 1):
        with open(path, "wb") as f:
            f.write(full[:cut])
        st = S.Store(FileNVM(path))          # pads with erased bytes
        got = st.load_game()
        if cut == newest_at + S.HEADER + len(newest):
            assert got == newest
        else:
            assert got == older


def test_foreign_and_blank_nvm():
    assert S.Store(bytearray(4096)).load_game() is None        # all zeros
    s = S.Store(bytearray(b"\xff" * 4096))
    assert s.load_game() is None and s.status == S.EMPTY
    junk = bytearray(os.urandom(4096))
    junk[0:2] = b"xx"
    s = S.Store(junk)
    assert s.load_game() is None and s.status in (S.FOREIGN, S.CORRUPT)
    assert s.notice() is not None and s.resume() is None
    # a record of a future format version is foreign, not loaded
    base = erased()
    s = S.Store(base)
    s.save_game(game(2))
    base[s.game.base + 2] = S.VERSION + 1
    s = S.Store(base)
    assert s.load_game() is None and s.status == S.FOREIGN


def test_crc_valid_garbage_is_refused_by_the_engine():
    base = erased()
    s = S.Store(base)
    good = game(5)
    s.save_game(good)
    s.save_game(b"PP\x01\x04dice\x00\x07count=3\x00\xff\xff\xff")   # CRC fine, game bad
    st = S.Store(base)
    state = st.resume()
    assert state is not None and state.serialize() == good
    assert st.status == S.RECOVERED
    only_bad = erased()
    s = S.Store(only_bad)
    s.save_game(b"PP\x01\x07nothing\x00\x00")
    st = S.Store(only_bad)
    assert st.resume() is None and st.status == S.INVALID


def test_sequence_numbers_wrap():
    base = erased()
    s = S.Store(base)
    s.save_game(b"a")
    s.game.seq = 0xFFFE            # as if after 65534 saves
    for i in range(4):
        s.save_game(bytes([65 + i]) * 3)
    st = S.Store(base)
    assert st.load_game() == b"DDD" and st.game.seq == 2


def test_settings_live_apart_from_the_game():
    base = erased()
    s = S.Store(base)
    s.save_game(game(4))
    s.save_settings(b"PS\x01bright=3")
    s.save_settings(b"PS\x01bright=5")
    s.save_game(game(7))
    st = S.Store(base)
    assert st.load_settings() == b"PS\x01bright=5"
    assert st.load_game() == game(7)
    # damaging the settings leaves the game alone
    base[5] ^= 1
    base[256 + 5] ^= 1
    st = S.Store(base)
    assert st.load_settings() is None and st.load_game() == game(7)


@given(st.binary(max_size=300), st.integers(0, 0xFFFFFFFF))
def test_portable_crc_matches_zlib(data, start):
    assert S.crc32_soft(data) == zlib.crc32(data)
    assert S.crc32_soft(data, start) == zlib.crc32(data, start)


def test_file_nvm_persists_and_behaves_like_the_board(tmp_path):
    path = str(tmp_path / "n.bin")
    n = FileNVM(path)
    assert len(n) == 4096 and n[0] == 0xFF
    n[10:13] = b"abc"
    n[20] = 7
    m = FileNVM(path)
    assert m[10:13] == b"abc" and m[20] == 7
    for bad in (lambda: m.__setitem__(slice(0, 3), b"ab"),
                lambda: m.__setitem__(slice(0, 4, 2), b"ab")):
        try:
            bad()
        except ValueError:
            pass
        else:
            raise AssertionError("bad nvm write accepted")
    assert FileNVM(path)[10:13] == b"abc"


def test_unchanged_is_judged_on_the_record_as_it_now_is():
    # a save identical to the newest record writes nothing; once that
    # record has changed in the flash (a bit flipped, or another program
    # wrote there) the same save is written again
    nvm = erased()
    s = S.Store(nvm)
    p = bytes(range(40))
    assert s.save_game(p) == S.OK
    for where in (5, S.HEADER + 7, S.HEADER + 39, 9):   # seq, payload, crc
        assert s.save_game(p) == S.UNCHANGED
        g = s.game
        nvm[g.base + g.newest * g.slot + where] ^= 0x10
        assert s.save_game(p) == S.OK, where
        assert S.Store(nvm).load_game() == p
    assert s.stats()[0] == 5
    again = S.Store(nvm)        # judged after a load too
    assert again.load_game() == p and again.save_game(p) == S.UNCHANGED
    assert again.save_game(p + b"!") == S.OK
    assert S.Store(nvm).load_game() == p + b"!"


# ---- records written before the catalog ---------------------------------------
# tests/vectors/nvm-before-catalog.bin is a board's NVM as the code before
# engine/catalog.py left it (settings stored by position, version 1): the
# brightness at 7, Ice Solo with 4 colours, Bag of Ice for 3 with the device
# on 1 seat, three dice, a custom bag of 1..8 rocks, the results of an
# IceTowers game and then of a Bag of Ice game, and a Bag of Ice game left
# by the escape gesture.
OLD_IMAGE = os.path.join(os.path.dirname(__file__), "vectors", "nvm-before-catalog.bin")


def test_settings_written_before_the_catalog_still_load():
    from lib.settings import Settings
    store = S.Store(bytearray(open(OLD_IMAGE, "rb").read()))
    settings = Settings(store)
    assert settings.get("bright") == "7"
    assert settings.get("ice_solo.variant") == "4"
    assert settings.get("ice_solo.quick") == "0"
    assert settings.get("bag_of_ice.players") == "3"
    assert settings.get("bag_of_ice.bots") == "1"
    assert settings.get("bag_of_ice.target") == "60"
    assert settings.get("dice.count") == "3"
    assert settings.get("bag.preset") == "custom"
    assert bytes(settings.custom) == bytes(range(1, 9))
    assert settings.results == {"bag_of_ice": [61, 20, 33], "ice_towers": [12, -3, 40]}
    assert settings.last == "bag_of_ice"
    # written again, in the keyed format, it reads back the same
    again = Settings()
    assert again.decode(settings.encode())
    assert bytes(again.values) == bytes(settings.values)
    assert again.results == settings.results and again.last == "bag_of_ice"
    assert bytes(again.custom) == bytes(settings.custom)


def test_a_game_saved_before_the_catalog_is_resumed():
    from tools.simkit import Sim
    sim = Sim(board="pico_8x8", nvm=bytearray(open(OLD_IMAGE, "rb").read()))
    saved = bytes(sim.store.load_game())
    sim.advance(1500)
    assert type(sim.app.scr).__name__ == "Prompt", "the resume offer"
    sim.press("a")
    sim.advance(200)
    assert sim.app.game == "bag_of_ice"
    assert sim.app.state.serialize() == saved
    assert sim.app.settings.get("bright") == "7"


def test_settings_are_keyed_by_id_not_by_position():
    from engine import catalog
    from lib.settings import Settings
    settings = Settings()
    settings.set("ice_towers.ghost", "1")
    settings.set("bag_of_ice.target", "80")
    settings.record("dice", [3])
    record = settings.encode()
    # each game's id, then its options by name (a name ends at the character
    # with its top bit set)
    assert b"ice_tower\xf3\x01ghos\xf4\x01" in record
    assert b"bag_of_ic\xe5\x01targe\xf4\x04" in record, "80 is choice 4"
    # a game put in front of the others, and a game's settings in another
    # order, shift no value
    first = catalog.Entry("first", "FIRST", (1, 1), False, "." * 64,
                          (catalog.Setting("mode", ("x", "y"), "x", "FIRST"),))
    saved = catalog.GAMES
    bag_of_ice = catalog.entry("bag_of_ice")
    turned = catalog.Entry("bag_of_ice", "BAG OF ICE", (1, 12), True, "." * 64,
                           tuple(reversed(bag_of_ice.settings)))
    catalog.GAMES = [first] + [turned if e is bag_of_ice else e for e in saved]
    try:
        moved = Settings()
        assert moved.decode(record)
        assert moved.get("ice_towers.ghost") == "1"
        assert moved.get("bag_of_ice.target") == "80"
        assert moved.get("bag_of_ice.players") == "2"
        assert moved.get("first.mode") == "x"
        assert moved.results == {"dice": [3]}
    finally:
        catalog.GAMES = saved


def every_setting_changed():
    """Settings with every value off its default (its last choice, or the
    first where the last is the default)."""
    from lib.settings import Settings
    settings = Settings()
    for i in range(len(settings.items)):
        setting = settings.items[i].setting
        last = len(setting.choices) - 1
        settings.values[i] = 0 if setting.choices[last] == setting.default else last
        assert settings.label(i) != setting.default or setting.labels
    return settings


def test_a_full_settings_record_still_fits_its_slot():
    from engine import catalog
    from lib.settings import MAX_RECORD, Settings
    assert MAX_RECORD == S.SETTINGS_SLOT - S.HEADER
    settings = every_setting_changed()
    for gid in catalog.ids():
        settings.record(gid, list(range(-6, 6)))
    record = settings.encode()
    assert len(record) <= S.SETTINGS_SLOT - S.HEADER
    again = Settings()
    assert again.decode(record)
    assert bytes(again.values) == bytes(settings.values)
    assert again.last == catalog.ids()[-1], "the latest result is kept"


def test_the_worst_record_keeps_every_setting_the_deal_and_the_latest_result():
    """Every setting changed, a custom bag, the deal, remembered results of
    many option sets and the results of every game, the latest of twelve
    seats with scores past a byte: the settings and the deal always fit,
    and so does the latest result; the rest gives way oldest first."""
    from engine import catalog
    from lib.settings import Settings
    settings = every_setting_changed()
    assert settings.encode()[3 + 8] == len(catalog.ids()) + 1, (
        "a group of settings per game and one for the app's own")
    settings.set_custom(bytes([8] * 8))
    settings.remember_deal("ice_solo", 0xFEDCBA98)

    class Done:
        options = ""
        turns = 30
    for n in range(40):
        Done.options = "players=%d" % (n % 12 + 1)
        settings.record("bag_of_ice", [1000 + n, -1000, 7], Done)
    for gid in catalog.ids()[1:]:
        settings.record(gid, [-300 + k for k in range(12)])
    settings.record("bag_of_ice", [-32768] + [32767] * 11)

    def saved_and_loaded():
        record = settings.encode()
        assert len(record) <= S.SETTINGS_SLOT - S.HEADER
        store = S.Store(erased())
        assert store.save_settings(record) == S.OK
        again = Settings(store)
        assert bytes(again.values) == bytes(settings.values)
        assert bytes(again.custom) == bytes(settings.custom)
        assert (again.deal_game, again.deal_seed) == ("ice_solo", 0xFEDCBA98)
        assert again.last == settings.last
        assert again.results[again.last] == settings.results[settings.last]
        kept = list(again.bests)
        assert kept == list(settings.bests)[len(settings.bests) - len(kept):]
        for key in kept:
            assert again.bests[key] == settings.bests[key]
        # what is left is too little for the next remembered result
        latest_other = list(settings.bests)[-1 - len(kept)]
        assert len(record) + len(latest_other) + 1 + 2 * 3 > S.SETTINGS_SLOT - S.HEADER
        return again
    again = saved_and_loaded()
    assert again.results == {"bag_of_ice": [-32768] + [32767] * 11}
    # a shorter latest result leaves room for remembered results, the
    # latest first, then for other results
    settings.record("dice", [6])
    again = saved_and_loaded()
    assert again.bests and list(again.results)[0] == "dice"


# A version 2 record as the code before version 3 wrote it: brightness 3,
# Bag of Ice for 5, the treehouse die, pace 4, sound off, Ice Solo's SAME
# deal, a custom bag of 0..7, the results of a five-seat Bag of Ice game and
# then of an Ice Solo game, both remembered, and Ice Solo's deal.
V2_RECORD = bytes.fromhex(
    "505302000102030405060706066272696768740133126261675f6f665f6963652e706c"
    "6179657273013508646963652e6469650974726565686f7573650470616365013405"
    "736f756e6401300f6963655f736f6c6f2e7265706c61790473616d6502086963655f"
    "736f6c6f0100390a6261675f6f665f696365050028fffe0007012c0000021a696365"
    "5f736f6c6f20717569636b3d302076617269616e743d35010039146261675f6f665f"
    "69636520706c61796572733d350500000000000000010000086963655f736f6c6f12"
    "345678")


def test_a_version_2_record_still_loads():
    from lib.settings import Settings
    store = S.Store(erased())
    store.save_settings(V2_RECORD)
    settings = Settings(store)
    changed = {"bright": "3", "bag_of_ice.players": "5", "dice.die": "treehouse",
               "pace": "4", "sound": "0", "ice_solo.replay": "same"}
    for item in settings.items:
        want = changed.get(item.key, item.setting.default)
        assert settings.get(item.key) == want, item.key
    assert bytes(settings.custom) == bytes(range(8))
    assert settings.results == {"ice_solo": [57], "bag_of_ice": [40, -2, 7, 300, 0]}
    assert settings.last == "ice_solo"
    assert list(settings.bests.items()) == [
        ("bag_of_ice players=5", [0, 0, 0, 1, 0]),
        ("ice_solo quick=0 variant=5", [57])]
    assert (settings.deal_game, settings.deal_seed) == ("ice_solo", 0x12345678)
    # written again, as version 3, it reads back the same and is smaller
    record = settings.encode()
    assert record[2] == 3 and len(record) < len(V2_RECORD)
    again = Settings()
    assert again.decode(record)
    assert bytes(again.values) == bytes(settings.values)
    assert bytes(again.custom) == bytes(settings.custom)
    assert again.results == settings.results and again.last == "ice_solo"
    assert list(again.bests.items()) == list(settings.bests.items())
    assert (again.deal_game, again.deal_seed) == ("ice_solo", 0x12345678)


def test_a_version_3_record_cut_short_or_naming_nothing_known_leaves_defaults():
    from lib.settings import Settings
    settings = every_setting_changed()
    settings.record("dice", [4, 5])
    record = settings.encode()
    for n in range(3, len(record) - 6):       # cut inside what must be there
        fresh = Settings()
        assert not fresh.decode(record[:n]), n
        assert bytes(fresh.values) == fresh.defaults
    # a game or option no longer in the catalog, or a choice past its
    # choices, is skipped; the rest loads
    record = (b"PS\x03" + bytes(8) + b"\x02" + b"gon\xe5\x01mod\xe5\x01"
              + b"dic\xe5\x02di\xe5\x09coun\xf4\x02" + b"\x00")
    fresh = Settings()
    assert fresh.decode(record)
    assert fresh.get("dice.die") == "pyramid" and fresh.get("dice.count") == "3"


# ---- a record the engine refuses ---------------------------------------------
def record(seq, payload, kind=S.GAME, version=S.VERSION):
    """A whole record as lib.save writes it, with sequence number ``seq``."""
    head = bytes([0x50, 0x52, version, kind, seq >> 8, seq & 255,
                  len(payload) >> 8, len(payload) & 255])
    crc = zlib.crc32(payload, zlib.crc32(head[2:])) & 0xFFFFFFFF
    return head + crc.to_bytes(4, "big") + payload


REFUSED = b"PP\x01\x07nothing\x00\x00"        # CRC fine; no such game


def image(slot0, slot1):
    """An erased NVM with ``slot0`` and ``slot1`` (bytes or None) written
    at the game region's two slots."""
    nvm = erased()
    g = S.Store(nvm).game
    for i, data in enumerate((slot0, slot1)):
        if data is not None:
            at = g.base + i * g.slot
            nvm[at:at + len(data)] = data
    return nvm


def offered(nvm):
    """What a boot offers from ``nvm``: the resumed game's record, or None."""
    st = S.Store(bytearray(nvm)).resume()
    return None if st is None else st.serialize()


def save_cut_at(nvm, payload, k):
    """Boot a store from ``nvm`` (as the app does: resume first), then save
    ``payload`` with the power lost after ``k`` bytes of the record (None:
    no cut). Returns the NVM image as it is then."""
    torn = TornNVM(bytearray(nvm))
    store = S.Store(torn)
    store.resume()
    torn.cut = k
    try:
        store.save_game(payload)
    except PowerCut:
        pass
    return torn.buf


def test_a_refused_newest_record_does_not_send_the_next_save_over_the_good_one():
    # the newest record's CRC is right but the engine
    # refuses it; the older one is good, and is offered
    old, new = game(4), game(9)
    nvm = image(record(1, old), record(2, REFUSED))
    assert offered(nvm) == old
    for k in range(S.HEADER + len(new) + 1):
        after = save_cut_at(nvm, new, k)
        got = offered(after)
        assert got in (old, new), "cut at byte %d: %r offered" % (k, got)
    assert offered(save_cut_at(nvm, new, None)) == new


def test_a_refused_record_stays_refused_for_a_load_without_the_engine():
    # the menu reads the waiting game's id with load_game() (no engine
    # check) after the boot resumed the older game: it must see that one,
    # and a save after it must still spare the good slot
    old, new = game(4), game(9)
    nvm = image(record(7, REFUSED), record(6, old))
    torn = TornNVM(bytearray(nvm))
    store = S.Store(torn)
    assert store.resume().serialize() == old
    assert store.load_game() == old and store.has_game()
    torn.cut = 5
    try:
        store.save_game(new)
    except PowerCut:
        pass
    assert offered(torn.buf) == old


# the slot states of the walk below: (name, the slot's bytes made from a
# sequence number, None for erased). "good" and "other good" both load.
def slot_states():
    good, other = game(3), game(7)

    def flipped(q):
        rec = bytearray(record(q, good))
        rec[S.HEADER + 2] ^= 0x08
        return bytes(rec)
    return [
        ("erased", lambda q: None),
        ("torn", lambda q: record(q, good)[:S.HEADER + 5]),
        ("torn header", lambda q: b"P"),
        ("bit flip", flipped),
        ("foreign", lambda q: b"\x13\x37" + bytes(range(200))),
        ("future format", lambda q: record(q, good, version=S.VERSION + 1)),
        ("good", lambda q: record(q, good)),
        ("other good", lambda q: record(q, other)),
        ("refused", lambda q: record(q, REFUSED)),
        ("refused id", lambda q: record(q, b"PP\x01\x04dice\x00\x07count=3\x00\xff\xff\xff")),
        ("cleared", lambda q: record(q, b"")),
    ]


SEQUENCES = ((1, 2), (2, 1), (0xFFFF, 0), (5, 5 + 0x7FFF), (40, 40))


def check_slot_pairs(stride):
    """Every pair of slot states, the power cut after every ``stride``-th
    byte of the next record (its last byte too) and not at all."""
    new = game(11)
    rec_len = S.HEADER + len(new)
    pairs = 0
    for name0, make0 in slot_states():
        for name1, make1 in slot_states():
            for q0, q1 in SEQUENCES:
                nvm = image(make0(q0), make1(q1))
                before = offered(nvm)
                pairs += 1
                for k in sorted(set(range(0, rec_len, stride)) | {rec_len - 1}) + [None]:
                    got = offered(save_cut_at(nvm, new, k))
                    where = "%s(%d) / %s(%d), cut at %s" % (name0, q0, name1, q1, k)
                    if k is None:
                        assert got == new, where
                    elif before is not None:
                        assert got in (before, new), where + ": the old game was lost"
                    else:
                        assert got in (None, new), where
    assert pairs == 11 * 11 * len(SEQUENCES)


def test_no_save_is_lost_for_any_pair_of_slot_states_and_a_spread_of_power_cuts():
    check_slot_pairs(5)


@pytest.mark.bench
def test_no_save_is_lost_for_any_pair_of_slot_states_and_any_power_cut():
    check_slot_pairs(1)


def past_notice(sim):
    """Let the boot's notice (if any) scroll by."""
    for _ in range(500):
        if type(sim.app.scr).__name__ not in ("Boot", "Notice"):
            return
        sim.advance(20)


def check_power_cut_after_a_refused_record(cuts):
    # end to end: the app offers the older game, it is played and left,
    # and the power goes while that save is written
    from tools.simkit import Sim
    old = game(4)
    nvm = image(record(1, old), record(2, REFUSED))
    new = None
    for k in cuts:
        torn = TornNVM(bytearray(nvm))
        sim = Sim(board="pico_8x8", nvm=torn)
        sim.press("up")                   # skips the boot animation
        assert sim.app.store.notice() == "OLDER SAVE"
        past_notice(sim)                       # the notice, then the offer
        assert type(sim.app.scr).__name__ == "Prompt"
        assert sim.app.scr.state.serialize() == old
        sim.press("a")
        sim.advance(300)
        torn.cut = k                      # the power goes in the next write
        try:
            sim.press("a")                # roll the dice
            sim.advance(1000)             # they land
            new = sim.app.state.serialize()
            assert new != old
            sim.advance(2500)             # the idle save
            sim.escape()
        except PowerCut:
            pass
        after = Sim(board="pico_8x8", nvm=bytearray(torn.buf))
        after.press("up")
        past_notice(after)
        scr = after.app.scr
        assert type(scr).__name__ == "Prompt", "cut at %s: nothing offered" % k
        assert scr.state.serialize() in (old, new), k
        if k is None:
            assert scr.state.serialize() == new


def test_the_app_keeps_the_good_game_through_a_power_cut_after_a_refused_record():
    check_power_cut_after_a_refused_record([0, 7, 19, 33, None])


@pytest.mark.bench
def test_the_app_keeps_the_good_game_through_any_power_cut_after_a_refused_record():
    check_power_cut_after_a_refused_record(list(range(0, S.HEADER + 40)) + [None])
