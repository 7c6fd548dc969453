"""Kept for tests/test_generic.py, which imports ``to_json`` from here,
until it imports it from engine/protocol.py, where the whole protocol now
is. Remove this module then."""

from engine.protocol import to_json  # noqa: F401
