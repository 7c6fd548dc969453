// The Node side of tools/compile_peak.py: runs calls into harness.py on
// MicroPython compiled to WebAssembly (the npm package pinned in
// web/package.json), each job on a fresh interpreter with a fixed starting
// heap, and prints one JSON list with the figures of every call.
//
//   node run.mjs jobs.json > results.json
//
// A job: {heap: bytes, trees: [folders mounted at /app], pre: [modules
// imported before the baseline], ops: [[harness function, args...], ...],
// stop_on_grow: true to stop at the first call that grew the heap}.
// Around each op: its peak (mem_alloc at its end: no collection runs inside
// a call), then a collection, then what stays live.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = path.join(HERE, "..", "..", "web", "node_modules", "@micropython",
  "micropython-webassembly-pyscript", "micropython.mjs");

function mountTree(mp, dir, at) {
  for (const name of fs.readdirSync(dir)) {
    const src = path.join(dir, name);
    const dst = at + "/" + name;
    if (fs.statSync(src).isDirectory()) {
      mp.FS.mkdirTree(dst);
      mountTree(mp, src, dst);
    } else {
      mp.FS.writeFile(dst, fs.readFileSync(src));
    }
  }
}

async function runJob(loadMicroPython, job) {
  const out = [];
  const mp = await loadMicroPython({ heapsize: job.heap, stdout: (l) => out.push(l),
                                     stderr: (l) => out.push(l) });
  mp.FS.mkdirTree("/app");
  for (const t of job.trees) mountTree(mp, t, "/app");
  mp.FS.writeFile("/app/compile_peak_harness.py",
                  fs.readFileSync(path.join(HERE, "harness.py")));
  mp.runPython("import sys\nsys.path.insert(0, '/app')\nimport micropython\nmicropython.mem_info()");
  const m = /GC: total: (\d+)/.exec(out.join(" "));
  const total = Number(m[1]);
  out.length = 0;
  mp.runPython("import compile_peak_harness");
  const h = mp.pyimport("compile_peak_harness");
  const live = () => { h.collect(); return h.live().split(" ").map(Number); };
  // touch every function once: JavaScript keeps a small proxy on the
  // Python heap for each, which belongs in the baseline
  for (const name of ["measured", "collect", "live", "imp", "start", "index",
                      "step", "where", "loaded", "squeeze", "run"]) {
    if (typeof h[name] !== "function") throw new Error("harness." + name + " missing");
  }
  for (const name of job.pre || []) h.imp(name);
  const [base] = live();
  const rows = [];
  let grew = false;
  for (const op of job.ops) {
    const [before] = live();
    let error = null;
    let ret = null;
    let args = op.slice(1);
    if (op[0] === "squeeze") {
      // the largest free block, in 16-byte blocks, as mem_info prints it
      out.length = 0;
      mp.runPython("import micropython\nmicropython.mem_info()");
      const f = /max free sz: (\d+)/.exec(out.join(" "));
      out.length = 0;
      args = [args[0], Number(f[1]) * 16];
      live();
    }
    try {
      ret = h[op[0]](...args);
    } catch (e) {
      error = String(e && e.message ? e.message : e).split("\n").slice(-3).join(" ");
    }
    const [peak, heapNow] = h.measured().split(" ").map(Number);
    const where = op[0] === "step" || op[0] === "start" ? h.where() : "";
    const [after, heapAfter] = live();
    const g = Math.max(heapNow, heapAfter) > total;
    grew = grew || g;
    rows.push({ op, before, peak, after, grew: g, error, where,
                ret: typeof ret === "number" || typeof ret === "string" ? ret : null });
    if (error || (g && job.stop_on_grow)) break;
  }
  let modules = null;
  if (job.modules) modules = h.loaded();
  return { heap: job.heap, total, base, grew, rows, modules, out: out.slice(-20) };
}

const jobs = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const { loadMicroPython } = await import(PACKAGE);
const results = [];
for (const job of jobs) results.push(await runJob(loadMicroPython, job));
process.stdout.write(JSON.stringify(results));
