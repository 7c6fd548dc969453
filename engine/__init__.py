"""Pocket Pyramids engine: pure game logic, no hardware, no I/O.

Runs unchanged on CircuitPython, MicroPython and CPython.
"""
