"""A file-backed stand-in for ``microcontroller.nvm`` on a desktop.

Behaves like the board's ``nvm`` ``ByteArray``: fixed length, indexing and
slices read ``bytes``/ints, and a slice assignment must keep the length.
Every write goes straight to the file, so a simulator session resumes where
the last one stopped, just like the device after a power cut.
"""

SIZE = 4096  # a Raspberry Pi Pico's CircuitPython nvm


class FileNVM:
    """``nvm`` persisted in ``path`` (created erased, all 0xFF, like new
    flash)."""

    def __init__(self, path, size=SIZE):
        self.path = path
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            data = b""
        if len(data) != size:
            # missing or another size: start erased, keep what fits
            data = (data + b"\xff" * size)[:size]
            with open(path, "wb") as f:
                f.write(data)
        self._buf = bytearray(data)

    def __len__(self):
        return len(self._buf)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytes(self._buf[index])
        return self._buf[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self._buf))
            if step != 1:
                raise ValueError("nvm slices must be contiguous")
            value = bytes(value)
            if len(value) != stop - start:
                raise ValueError("nvm slice assignment must keep the length")
        else:
            start = index if index >= 0 else len(self._buf) + index
            if not 0 <= start < len(self._buf):
                raise IndexError("nvm index out of range")
            value = bytes((value,))
        self._buf[start:start + len(value)] = value
        with open(self.path, "r+b") as f:
            f.seek(start)
            f.write(value)
