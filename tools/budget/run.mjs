// The WebAssembly side of tools/budget.py: one scenario of tools/budget/driver.py
// under MicroPython's WebAssembly build (the npm package pinned in web/), in a
// heap of a given size.
//
//   node run.mjs FOLDER HEAP_BYTES MODULE [ARG ...]
//
// FOLDER (a staged CIRCUITPY drive with the stand-ins and driver) is laid
// into the interpreter's file system at /drive. MODULE is driver (ARGs: KIND
// BOARD GAME SEED PRESSES) or soak (tools/budget/soak.py); its start(ARG ...,
// heap size) sets the run up, step() runs a pass, finish() prints RESULT.
// Other lines it prints go straight through. The RESULT line gets what this
// side adds: the heap's usable size ("total"), the
// interpreter's version, and per pass ("passes_seen": [wall-clock ms, flags,
// bytes in use at its end]); the wall-clock time is a figure for the report,
// never a gate.
//
// This build adds heap instead of raising MemoryError, and collects only when
// a call from JavaScript returns. So every pass is its own call; the driver
// asks for a collection in each, and reports a pass after which the heap had
// grown past its starting size: in a fixed heap that pass raises MemoryError.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = path.join(HERE, "..", "..", "web", "node_modules", "@micropython",
                          "micropython-webassembly-pyscript", "micropython.mjs");
const DONE = 16;
const GREW = 8;

function layTree(mp, dir, at) {
  mp.FS.mkdirTree(at);
  for (const name of fs.readdirSync(dir).sort()) {
    const src = path.join(dir, name);
    if (fs.statSync(src).isDirectory()) layTree(mp, src, at + "/" + name);
    else mp.FS.writeFile(at + "/" + name, fs.readFileSync(src));
  }
}

const [folder, heapArg, module, ...rest] = process.argv.slice(2);
if (!folder || !module) {
  process.stderr.write("usage: node run.mjs FOLDER HEAP_BYTES MODULE [ARG ...]\n");
  process.exit(2);
}
const args = rest.map((a) => (/^-?\d+$/.test(a) ? Number(a) : a));
const out = [];
let live = false;     // once the run is under way its lines go straight out
const take = (l) => {
  if (live && !l.startsWith("RESULT ")) process.stdout.write(l + "\n");
  else out.push(l);
};
const { loadMicroPython } = await import(PACKAGE);
const mp = await loadMicroPython({
  heapsize: Number(heapArg),
  stdout: take,
  stderr: take,
});
layTree(mp, folder, "/drive");
mp.runPython("import sys\nsys.path.insert(0, '/drive')\nimport micropython\nmicropython.mem_info()\n" +
             "print(sys.version)");
const version = out.pop();
const total = Number(/GC: total: (\d+)/.exec(out.join("\n"))[1]);
out.length = 0;
let result = null;
let failure = null;
const wall = [];
try {
  mp.runPython("import " + module);
  const driver = mp.pyimport(module);
  live = true;
  driver.start(...args, total);
  const step = driver.step;
  for (;;) {
    const t0 = performance.now();
    const flags = step();
    const ms = performance.now() - t0;
    if (flags & DONE) break;
    wall.push([Math.round(ms * 1000) / 1000, flags & 7, (flags >> 5) * 16]);
    if (flags & GREW) break;      // a fixed heap fails here: no need to go on
  }
  driver.finish();
  const line = out.find((l) => l.startsWith("RESULT "));
  if (line) result = JSON.parse(line.slice(7));
} catch (e) {
  failure = String(e && e.message ? e.message : e);
}
if (result === null) {
  // no RESULT: the run failed; its last lines say how
  process.stdout.write(out.slice(-8).concat(failure ? [failure] : []).join("\n") + "\n");
  process.exit(1);
}
result.passes_seen = wall;
result.total = total;
result.version = version;
process.stdout.write("RESULT " + JSON.stringify(result) + "\n");
