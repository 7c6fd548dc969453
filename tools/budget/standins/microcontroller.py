"""Stand-in for CircuitPython's ``microcontroller``: a 4 KB NVM (the
Pico's size) as a bytearray, erased (0xFF) like fresh flash."""

nvm = bytearray(b"\xff" * 4096)
