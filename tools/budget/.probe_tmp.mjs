// temporary probe (not committed): node .probe_tmp.mjs DIR "mod1,mod2" "line1|line2|..."
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
function mount(mp, dir, at) {
  for (const n of fs.readdirSync(dir)) {
    const s = path.join(dir, n), d = at + "/" + n;
    if (fs.statSync(s).isDirectory()) { mp.FS.mkdirTree(d); mount(mp, s, d); }
    else mp.FS.writeFile(d, fs.readFileSync(s));
  }
}
const [dir, mods, lines] = process.argv.slice(2);
const out = [];
const mp = await loadMicroPython({ heapsize: 1 << 20, stdout: (l) => out.push(l), stderr: (l) => out.push("E " + l) });
mp.FS.mkdirTree("/app"); mount(mp, dir, "/app");
mp.runPython("import sys, gc\nsys.path.insert(0,'/app')\ngc.collect()");
mp.runPython("gc.collect()");
mp.runPython("print(gc.mem_alloc())");
let base = Number(out.pop());
const res = [];
let prev = base;
for (const m of mods.split(",")) {
  mp.runPython("__import__('" + m + "')");
  mp.runPython("gc.collect()");
  mp.runPython("print(gc.mem_alloc())");
  const a = Number(out.pop());
  res.push(m + " +" + (a - prev)); prev = a;
}
console.log("imports:", res.join("  "), " total", prev - base);
mp.runPython("from engine.protocol import Session\nS = Session(1)\nA = ''\nR = 0\ndef st(l):\n    global A\n    a = gc.mem_alloc()\n    A = S.handle(l)\n    return gc.mem_alloc() - a\nst('to_move')");
mp.runPython("gc.collect()");
const T = [];
for (const l of (lines || "").split("|").filter(Boolean)) {
  mp.runPython("gc.collect()");
  mp.runPython("gc.collect()");
  mp.runPython("print(gc.mem_alloc())");
  const a0 = Number(out.pop());
  mp.runPython("R = st(" + JSON.stringify(l) + ")");
  mp.runPython("print(R)");
  const a1 = a0 + Number(out.pop());
  mp.runPython("gc.collect()");
  mp.runPython("print(gc.mem_alloc())");
  const a2 = Number(out.pop());
  mp.runPython("print(repr(A))");
  T.push(`${l.padEnd(28)} live-before ${a0 - base}  step-garbage ${a1 - a0}  after ${a2 - base}  ${out.pop().slice(0, 90)}`);
}
console.log(T.join("\n"));
