#!/usr/bin/env python3
"""Pocket Pyramids in a web page: the real code.py on MicroPython compiled
to WebAssembly, the LED matrix drawn on a canvas.

    tools/web.py build              # -> dist/web/, a static site
    tools/web.py serve [--port N]   # serve dist/web/ on localhost
    make web                        # both

The site is static and self-contained (nothing from a CDN: it works from
any static host and offline):

* ``index.html``, ``pocket.js``, ``pocket.css``: the page (from web/);
* ``micropython.mjs``, ``micropython.wasm``: the interpreter, from the npm
  package pinned in web/package-lock.json (installed with ``npm ci``);
* ``device/``: the files a board gets (code.py, boards/ with every
  profile, engine/, lib/), lean as tools/build.py makes them, plus the
  device budget's stand-ins for the board's C modules
  (tools/budget/standins) and the page's additions to them
  (web/pocket_web.py); ``device/files.json`` lists them for the page;
* ``rules/``: the games' docs, one page each.

See docs/web.md.
"""

import argparse
import functools
import html
import http.server
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tools import build as drive  # noqa: E402

WEB = os.path.join(ROOT, "web")
OUT = os.path.join(ROOT, "dist", "web")
# the board's C modules the page stands in for, with the budget's files; no
# usb_cdc: a page has no USB data port, so code.py starts no serial link
STANDIN_MODULES = ("board", "keypad", "microcontroller", "neopixel", "supervisor")
PACKAGE = os.path.join(WEB, "node_modules", "@micropython",
                       "micropython-webassembly-pyscript")
INTERPRETER = ("micropython.mjs", "micropython.wasm")
PAGE = ("index.html", "pocket.js", "pocket.css", "favicon.svg")
RULES = os.path.join(ROOT, "docs", "games")


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def shown(path):
    """``path`` as a message names it: from the repository when inside it."""
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def install_interpreter():
    """``npm ci`` in web/ unless the pinned package is there already."""
    lock = os.path.join(WEB, "package-lock.json")
    with open(lock) as f:
        want = json.load(f)["packages"][
            "node_modules/@micropython/micropython-webassembly-pyscript"]["version"]
    have = None
    try:
        with open(os.path.join(PACKAGE, "package.json")) as f:
            have = json.load(f)["version"]
    except (OSError, ValueError, KeyError):
        pass
    if have == want and all(os.path.exists(os.path.join(PACKAGE, n)) for n in INTERPRETER):
        return want
    npm = shutil.which("npm")
    if not npm:
        raise SystemExit("web: npm is needed once to install the interpreter "
                         "(apt-get install npm)")
    log("installing MicroPython %s for the page (npm ci in web/)" % want)
    subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                   cwd=WEB, check=True)
    return want


def device_files():
    """(repo path, site path) of the files the page runs: a board's files
    (tools/build.py's list) with every board profile, the stand-ins and
    the page's additions."""
    import boards
    out = []
    for src, dst in drive.sources(boards.DEFAULT):
        if dst == "boot.py":      # USB and storage set-up: nothing for a page
            continue
        if dst.startswith("boards/") and dst != "boards/__init__.py":
            continue
        out.append((src, dst))
    for name in boards.PROFILES:
        out.append(("boards/%s.py" % name, "boards/%s.py" % name))
    for name in STANDIN_MODULES:
        out.append(("tools/budget/standins/%s.py" % name, "%s.py" % name))
    out.append(("web/pocket_web.py", "pocket_web.py"))
    return out


def rules_pages(out):
    """Each game's doc as a page of its own; ``[(title, href)]``."""
    links = []
    folder = os.path.join(out, "rules")
    os.makedirs(folder)
    for name in sorted(os.listdir(RULES)):
        if not name.endswith(".md"):
            continue
        with open(os.path.join(RULES, name), encoding="utf-8") as f:
            text = f.read()
        title = name[:-3]
        for line in text.splitlines():
            if line.startswith("# "):
                title = line[2:].strip()
                break
        href = "rules/%s.html" % name[:-3]
        with open(os.path.join(out, href), "w", encoding="utf-8") as f:
            f.write(RULES_PAGE % {"title": html.escape(title), "text": html.escape(text)})
        links.append((title, href))
    return links


RULES_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%(title)s - Pocket Pyramids</title>
<link rel="icon" href="../favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="../pocket.css"></head>
<body class="rules"><p><a href="../index.html">Back to the console</a></p>
<pre>%(text)s</pre></body></html>
"""


def build(out=OUT):
    """Write the site to ``out``; returns the list of device files."""
    version = install_interpreter()
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "device"))
    for name in INTERPRETER:
        shutil.copyfile(os.path.join(PACKAGE, name), os.path.join(out, name))
    files = []
    for src, dst in device_files():
        with open(os.path.join(ROOT, src), encoding="utf-8") as f:
            text = f.read()
        target = os.path.join(out, "device", dst)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(drive.lean_source(text))
        files.append(dst)
    with open(os.path.join(out, "device", "files.json"), "w") as f:
        json.dump(files, f, indent=0)
    links = rules_pages(out)
    items = "\n".join('      <li><a href="%s">%s</a></li>' % (href, html.escape(title))
                      for title, href in links)
    for name in PAGE:
        with open(os.path.join(WEB, name), encoding="utf-8") as f:
            text = f.read()
        if name == "index.html":
            text = text.replace("<!-- RULES -->", items).replace(
                "MICROPYTHON_VERSION", version)
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)
    log("built %s: the page, MicroPython %s (WebAssembly), %d device files" % (
        shown(out), version, len(files)))
    return files


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a module script and WebAssembly need,
    never cached (a rebuilt site shows at once), quiet."""

    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **{
        ".mjs": "text/javascript", ".js": "text/javascript",
        ".wasm": "application/wasm", ".json": "application/json",
        ".py": "text/plain; charset=utf-8", ".css": "text/css",
        ".html": "text/html; charset=utf-8", ".svg": "image/svg+xml"})

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, fmt, *args):
        pass


def serve(out=OUT, host="127.0.0.1", port=8000):
    if not os.path.exists(os.path.join(out, "index.html")):
        raise SystemExit("web: nothing built in %s; run tools/web.py build" % out)
    handler = functools.partial(Handler, directory=out)
    server = http.server.ThreadingHTTPServer((host, port), handler)
    print("serving %s at http://%s:%d/ (Ctrl-C stops)" % (
        shown(out), host, server.server_address[1]), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    sub = ap.add_subparsers(dest="what", required=True)
    bp = sub.add_parser("build", help="write the site to dist/web/")
    sp = sub.add_parser("serve", help="serve dist/web/ on localhost")
    for p in (bp, sp):
        p.add_argument("--out", default=OUT, help="the site's folder (default dist/web)")
    sp.add_argument("--port", type=int, default=8000, help="port (0: any free one)")
    sp.add_argument("--host", default="127.0.0.1")
    args = ap.parse_args(argv)
    out = os.path.abspath(args.out)
    if args.what == "build":
        build(out)
        return 0
    return serve(out, port=args.port, host=args.host)


if __name__ == "__main__":
    sys.exit(main())
