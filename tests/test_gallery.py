"""The README gallery shows what the simulator draws today: a screen change
that alters the pictures fails here until `python tools/gallery.py` is
re-run and the PNGs are committed."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_gallery_pictures_are_current():
    res = subprocess.run([sys.executable, os.path.join("tools", "gallery.py"), "--check"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
