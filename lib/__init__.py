"""The device layer: LED matrix, palette, font, buttons, saving, app shell.

Import modules as ``lib.display`` etc. Nothing is imported here, so a
screen or tool pulls in only what it uses.
"""
