"""The README gallery shows what the simulator draws today: a screen change
that alters the pictures fails here until `python tools/gallery.py` is
re-run and the PNGs are committed."""


def test_gallery_pictures_are_current(capsys):
    # in this process, not a subprocess: the app's gc.collect() per screen
    # is cheap here (tests/conftest.py), and the gallery is many screens
    from tools import gallery
    assert gallery.main(["--check"]) == 0, capsys.readouterr().out
