"""Saving the running game and the settings in the board's NVM.

Layout of ``microcontroller.nvm`` (4096 bytes on a Pico)::

    [settings slot 0][settings slot 1][game slot 0][game slot 1]
      256 bytes        256 bytes        rest/2       rest/2

Each region holds two slots, written alternately; the newer valid record
(by a 16-bit sequence number) wins. A record::

    0  'P' 'R'       magic
    2  version       1
    3  kind          1 game, 2 settings
    4  seq           u16, big-endian, +1 per write (wraps)
    6  length        u16, payload bytes
    8  crc32         over bytes 2..7 and the payload
    12 payload

A write goes to the slot not holding the record that loads, in one slice
assignment, so if the power dies half way the other slot still has it. The
record that loads is the newest whole one the engine accepts: when the
newest is refused (``accept`` said no: its CRC is right but the game will
not load) and the older one loads, the next write goes over the refused
one, numbered after the one that loads, never over the only good game. The
refusal is remembered, so a later load without ``accept`` (the menu reading
the waiting game's id) skips that record too; load with ``accept`` first
(``Store.resume``) for a store to know which record the engine takes.
Whatever cannot be a whole record (torn, bit rot, another program's data,
another format version) is ignored and reported in ``status`` so the app
can say so, never loaded.

A game record's payload is the engine's ``State.serialize`` bytes, which
begin ``PP``; or, carrying the screen's view with the game (its cursor and
view mode, from the screen's ``save_view``, so a resumed game shows the
frame it was saved with), ``PV``, the view's length (a byte), the view,
then those bytes. A payload of the first kind (saved before views were)
loads with an empty view.

``status`` is RECOVERED ("OLDER SAVE") only when what loaded may not be the
latest save: a newer record was refused, or the other slot is damaged and
its sequence number (bytes 4-5, read as they are) does not show it older.
Damage to the older slot alone, with the newest record loaded, is OK.

Caveat: on the RP2040 the whole nvm is one 4 KB flash sector that the
firmware erases and reprograms on every write; a power cut in that window
can lose both slots. The store then reports it and starts empty.

Desktop: pass a :class:`lib.nvm_file.FileNVM` (or any bytearray).
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from binascii import crc32
except ImportError:   # a port built without it
    crc32 = None

# status codes (load/save results); status_text() gives a short message
OK = const(0)
EMPTY = const(1)      # nothing saved
RECOVERED = const(2)  # a damaged record was skipped; an older one loaded
CORRUPT = const(3)    # data there, but no whole valid record
FOREIGN = const(4)    # records of another program or format version
INVALID = const(5)    # a whole record the engine refused
TOO_BIG = const(6)    # the payload does not fit a slot
UNCHANGED = const(7)  # save skipped: same as the newest record
_TEXT = ("OK", "NO SAVE", "OLDER SAVE", "SAVE CORRUPT", "SAVE FOREIGN",
         "SAVE INVALID", "SAVE TOO BIG", "OK")

GAME = const(1)
SETTINGS = const(2)
HEADER = const(12)
VERSION = const(1)
SETTINGS_SLOT = const(256)
_MAGIC0 = const(0x50)  # 'P'
_MAGIC1 = const(0x52)  # 'R'
_SEQ_HALF = const(0x8000)


def status_text(code):
    """A short upper-case message for the 3x5 font."""
    if 0 <= code < len(_TEXT):
        return _TEXT[code]
    return "SAVE ?"


_NIBBLES = None


def crc32_soft(data, crc=0):
    """CRC-32 (zlib's) with a 16-entry table: for ports without
    ``binascii.crc32``. Same results, including the running ``crc``."""
    global _NIBBLES
    if _NIBBLES is None:
        t = []
        for i in range(16):
            c = i
            for _ in range(4):
                c = (c >> 1) ^ (0xEDB88320 if c & 1 else 0)
            t.append(c)
        _NIBBLES = tuple(t)
    t = _NIBBLES
    c = crc ^ 0xFFFFFFFF
    for b in data:
        c ^= b
        c = (c >> 4) ^ t[c & 15]
        c = (c >> 4) ^ t[c & 15]
    return c ^ 0xFFFFFFFF


if crc32 is None:
    crc32 = crc32_soft


def _blank(data):
    """True if ``data`` is all erased (0xFF) or zero bytes. ``strip`` runs
    in C, where a byte loop in Python would be slow on a board."""
    try:
        return not bytes(data).strip(b"\x00\xff")
    except (AttributeError, TypeError):   # a port without bytes.strip(chars)
        for b in data:
            if b != 0xFF and b != 0:
                return False
        return True


def _newer(a, b):
    """Sequence ``a`` is after ``b`` (16-bit, wrapping)."""
    return a != b and ((a - b) & 0xFFFF) < _SEQ_HALF


class Region:
    """Two alternating record slots of ``slot`` bytes at ``base``."""

    __slots__ = ("nvm", "base", "slot", "kind", "seq", "newest", "status",
                 "writes", "loaded", "head", "refused")

    def __init__(self, nvm, base, slot, kind):
        self.nvm = nvm
        self.base = base
        self.slot = slot
        self.kind = kind
        self.seq = 0        # seq of the record that loads (see load)
        self.newest = -1    # its slot, -1 if none; the next write goes
                            # into the other slot
        self.status = EMPTY
        self.writes = 0
        self.loaded = False  # load() ran: newest < 0 then means none valid
        self.head = None    # the header of the record that loads, as read
                            # or written; None when none loads
        self.refused = ()   # headers of records accept() refused

    def capacity(self):
        return self.slot - HEADER

    def _check(self, i):
        """Slot ``i``: (state, seq, payload, header). state is OK, EMPTY
        (blank), FOREIGN or CORRUPT."""
        at = self.base + i * self.slot
        head = bytes(self.nvm[at:at + HEADER])
        if head[0] != _MAGIC0 or head[1] != _MAGIC1:
            if _blank(self.nvm[at:at + self.slot]):
                return EMPTY, 0, None, head
            # our first byte alone is a record torn in its header
            return (CORRUPT if head[0] == _MAGIC0 else FOREIGN), 0, None, head
        if head[2] != VERSION or head[3] != self.kind:
            # an erased byte here is a header torn short, not another format
            if head[2] == 0xFF or head[3] == 0xFF:
                return CORRUPT, 0, None, head
            return FOREIGN, 0, None, head
        seq = (head[4] << 8) | head[5]
        n = (head[6] << 8) | head[7]
        if n > self.slot - HEADER:
            return CORRUPT, seq, None, head
        payload = bytes(self.nvm[at + HEADER:at + HEADER + n])
        want = (head[8] << 24) | (head[9] << 16) | (head[10] << 8) | head[11]
        if crc32(payload, crc32(head[2:8])) & 0xFFFFFFFF != want:
            return CORRUPT, seq, None, head
        return OK, seq, payload, head

    def load(self, accept=None):
        """The payload of the record that loads (bytes; may be empty) or
        None; sets ``status``. That record is the newest whole one that
        ``accept(payload)`` takes (returns True); a refused record is
        skipped for the older slot, and remembered: a later load without
        ``accept`` skips it too, so loads agree on which record is the
        game and saves never go over it."""
        s0, q0, p0, h0 = self._check(0)
        s1, q1, p1, h1 = self._check(1)
        order = (0, 1) if s1 != OK or (s0 == OK and _newer(q0, q1)) else (1, 0)
        states = (s0, s1)
        seqs = (q0, q1)
        payloads = (p0, p1)
        heads = (h0, h1)
        remembered = self.refused
        if accept is not None:
            self.refused = ()
        self.loaded = True
        self.newest = -1
        self.seq = 0
        self.head = None
        refused = False
        for i in order:
            if states[i] != OK:
                continue
            p = payloads[i]
            if p:
                if accept is None:
                    skip = heads[i] in remembered
                else:
                    skip = not accept(p)
                    if skip:
                        self.refused += (heads[i],)
                if skip:
                    if self.newest < 0:
                        # nothing loads yet: the next write goes after
                        # this record, into the other slot
                        self.newest = i
                        self.seq = seqs[i]
                    refused = True
                    continue
            # this record loads: the next write goes into the other slot,
            # numbered after this one, whatever the other slot holds
            self.newest = i
            self.seq = seqs[i]
            self.head = heads[i]
            if refused or self._maybe_newer(1 - i, states, seqs[i]):
                self.status = RECOVERED if p else (INVALID if refused else EMPTY)
            else:
                self.status = OK if p else EMPTY
            return p
        damaged = s0 in (CORRUPT, FOREIGN) or s1 in (CORRUPT, FOREIGN)
        if refused:
            self.status = INVALID
        elif FOREIGN in states and CORRUPT not in states:
            self.status = FOREIGN
        elif damaged:
            self.status = CORRUPT
        else:
            self.status = EMPTY
        return None

    def _maybe_newer(self, i, states, seq):
        """Slot ``i`` is damaged and may have held a record newer than
        ``seq``: its sequence bytes, read as they are, are not before it.
        (A flip in those bytes themselves can fool this either way; a
        record's other bytes cannot.)"""
        if states[i] != CORRUPT and states[i] != FOREIGN:
            return False
        at = self.base + i * self.slot + 4
        other = (self.nvm[at] << 8) | self.nvm[at + 1]
        return not _newer(seq, other)

    def save(self, payload):
        """Write ``payload`` as the new newest record. Returns OK,
        UNCHANGED (identical to the newest: flash spared) or TOO_BIG."""
        n = len(payload)
        if n > self.slot - HEADER:
            return TOO_BIG
        if not self.loaded:
            self.load()
        nvm = self.nvm
        if self.newest >= 0:
            if self._same(payload):
                return UNCHANGED
            # beside the record that loads, numbered after it: whatever the
            # other slot held (older, torn, refused) it is not the game
            target = 1 - self.newest
            seq = (self.seq + 1) & 0xFFFF
        else:
            target = 0
            seq = 1
        # one buffer, checked as it is (no copies of the payload: a save
        # runs inside one of the app's loop passes)
        rec = bytearray(HEADER + n)
        rec[0] = _MAGIC0
        rec[1] = _MAGIC1
        rec[2] = VERSION
        rec[3] = self.kind
        rec[4] = seq >> 8
        rec[5] = seq & 255
        rec[6] = n >> 8
        rec[7] = n & 255
        rec[HEADER:] = payload
        c = crc32(payload, crc32(rec[2:8])) & 0xFFFFFFFF
        rec[8] = c >> 24
        rec[9] = (c >> 16) & 255
        rec[10] = (c >> 8) & 255
        rec[11] = c & 255
        at = self.base + target * self.slot
        nvm[at:at + len(rec)] = rec
        self.newest = target
        self.seq = seq
        self.head = bytes(rec[:HEADER])
        self.writes += 1
        return OK

    def _same(self, payload):
        """The newest record is still whole and holds ``payload``: its
        header as last read or written, the same bytes after it, and its
        CRC right for them. (A whole re-check would copy the record
        twice.)"""
        head = self.head
        n = len(payload)
        if head is None or ((head[6] << 8) | head[7]) != n:
            return False
        at = self.base + self.newest * self.slot
        nvm = self.nvm
        if nvm[at:at + HEADER] != head or nvm[at + HEADER:at + HEADER + n] != payload:
            return False
        want = (head[8] << 24) | (head[9] << 16) | (head[10] << 8) | head[11]
        return crc32(payload, crc32(head[2:8])) & 0xFFFFFFFF == want


class Store:
    """The game and settings records in one NVM.

    The app decides when to save; this keeps writes whole and rare::

        store.save_game(state.serialize(), view)   # OK / UNCHANGED / TOO_BIG
        data = store.load_game()             # bytes, or None
        store.has_game()                     # one waits? (no copying)
        store.status, store.notice()         # what load_game found
        store.clear_game()                   # finished: nothing to resume
        st = store.resume()                  # a State or None (checked by
                                             # engine.registry.deserialize)
        store.view                           # and the view saved with it
        store.save_settings(b"...")          # lib.settings' record
        store.load_settings()
    """

    __slots__ = ("nvm", "game", "settings", "status", "view")

    def __init__(self, nvm, settings_slot=SETTINGS_SLOT):
        size = len(nvm)
        if size < 4 * HEADER + 2 * settings_slot:
            raise ValueError("nvm too small: %d bytes" % size)
        self.nvm = nvm
        self.settings = Region(nvm, 0, settings_slot, SETTINGS)
        rest = size - 2 * settings_slot
        self.game = Region(nvm, 2 * settings_slot, rest // 2, GAME)
        self.status = EMPTY
        self.view = b""      # the view saved with the game resume() loaded

    # ---- game --------------------------------------------------------------
    def save_game(self, payload, view=b""):
        """Write the game (``State.serialize`` bytes) with the screen's
        ``view`` (at most 255 bytes; empty: none)."""
        if view:
            if len(view) > 255:
                raise ValueError("a view is at most 255 bytes (%d)" % len(view))
            payload = VIEW + bytes((len(view),)) + view + payload
        return self.game.save(payload)

    def load_game(self, accept=None):
        """The newest whole game record, or None (empty, cleared or
        unusable; ``status`` says which)."""
        p = self.game.load(accept)
        self.status = self.game.status
        return p if p else None

    def has_game(self):
        """Whether a game record waits (not cleared), from the header the
        last load or write saw: no slot is copied, so the menu can ask on
        every A without making garbage."""
        g = self.game
        if not g.loaded:
            g.load()
        h = g.head
        return h is not None and (h[6] or h[7]) != 0

    def clear_game(self):
        """Mark the game finished: an empty record, written like any other
        so a power cut cannot resurrect half of it."""
        if not self.game.loaded:
            self.game.load()
        if self.game.newest < 0:
            return OK
        return self.game.save(b"")

    def resume(self):
        """The saved game as an engine State, or None; ``status`` says why
        not. A record the engine refuses is skipped for the older one."""
        from engine import registry
        box = [None, b""]

        def accept(p):
            try:
                view, game = split_game(bytes(p))
                box[0] = registry.deserialize(game)
                box[1] = view
                return True
            except Exception:   # any refusal, even a bug: never crash at boot
                return False
        self.load_game(accept)
        ok = self.status in (OK, RECOVERED)
        self.view = box[1] if ok else b""
        return box[0] if ok else None

    def notice(self):
        """Text to show after a load, or None when all was well."""
        if self.status in (OK, EMPTY, UNCHANGED):
            return None
        return status_text(self.status)

    def capacity(self):
        """Largest game payload in bytes."""
        return self.game.capacity()

    # ---- settings ----------------------------------------------------------
    def save_settings(self, payload):
        return self.settings.save(payload)

    def load_settings(self):
        p = self.settings.load()
        return p if p else None

    def stats(self):
        """(game writes, settings writes, game capacity) this session."""
        return self.game.writes, self.settings.writes, self.game.capacity()


VIEW = b"PV"     # a game payload that carries its screen's view first


def split_game(payload):
    """A game record's payload -> ``(view, State.serialize bytes)``; the
    view is empty in a payload without one. ValueError if a view's length
    runs past the payload."""
    if payload[:2] != VIEW:
        return b"", payload
    if len(payload) < 3 or len(payload) < 3 + payload[2]:
        raise ValueError("game record: the view runs past its end")
    n = payload[2]
    return bytes(payload[3:3 + n]), payload[3 + n:]


def default_nvm():
    """The board's ``microcontroller.nvm``; on a desktop a file named by
    ``POCKET_NVM`` (default ``pocket-nvm.bin`` in the current directory)."""
    try:
        import microcontroller
        nvm = getattr(microcontroller, "nvm", None)
    except ImportError:
        nvm = None
    if nvm is not None:
        return nvm
    import os
    from lib.nvm_file import FileNVM
    return FileNVM(os.getenv("POCKET_NVM") or "pocket-nvm.bin")
