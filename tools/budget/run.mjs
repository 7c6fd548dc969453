// The Node side of tools/budget.py: runs scenarios under MicroPython compiled
// to 32-bit WebAssembly and prints one JSON object with the raw figures.
//
//   node run.mjs job.json > result.json
//
// The job (written by budget.py) names the module trees to mount and the
// scenarios to run. Each scenario gets a fresh interpreter whose starting
// heap is the scenario's cap. Every step is one call from here into
// tools/budget/mp/harness.py; between steps we ask for a collection, which
// in this build only happens when control is back in JavaScript.
//
// Move choices come from a seeded xorshift32 on this side, so a playthrough
// is the same sequence of protocol lines on every run and in both load modes.

import fs from "node:fs";
import path from "node:path";
// the interpreter is imported when first needed, so ``--xorshift`` (run by
// make test, before make budget has installed node_modules) works without it


function now() {
  return Number(process.hrtime.bigint()) / 1e6; // ms
}

// Time of ``fn()`` in ms: the smaller of wall-clock time and this process's
// CPU time. On a busy machine the wall clock also counts the time we were
// switched out (often several ms); CPU time does not, and where V8's own
// helper threads add CPU time the wall clock is the smaller one.
function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = now();
  fn();
  const wall = now() - t0;
  const c = process.cpuUsage(c0);
  return Math.min(wall, (c.user + c.system) / 1000);
}

// ---- interpreter setup ---------------------------------------------------

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

// A fresh interpreter whose heap is ``cap`` for the project's code: the
// harness and the stand-ins (C modules on a board, so no heap there) are
// loaded first and the starting heap is enlarged by exactly what they
// hold, measured on a first interpreter. ``offboard`` is that amount.
async function boot(cap, trees, pre) {
  const probe = await bootRaw(cap, trees, pre);
  const off = probe.baseAlloc - probe.startAlloc;
  // the GC keeps its block table inside heapsize: scale the pad to match
  const pad = Math.ceil((off * cap) / probe.total / 16) * 16;
  const I = await bootRaw(cap + pad, trees, pre);
  I.offboard = I.baseAlloc - I.startAlloc;
  I.nominal = probe.total;
  return I;
}

async function bootRaw(cap, trees, pre) {
  const out = [];
  const err = [];
  const { loadMicroPython } = await import("@micropython/micropython-webassembly-pyscript");
  const mp = await loadMicroPython({
    heapsize: cap,
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
  });
  mp.FS.mkdirTree("/app");
  for (const t of trees) mountTree(mp, t, "/app");
  mp.runPython("import sys\nsys.path.insert(0, '/app')\nimport micropython\nmicropython.mem_info()");
  let total = null;
  let split = null;
  for (const l of out) {
    const m = /GC: total: (\d+),.*max new split: (\d+)/.exec(l);
    if (m) {
      total = Number(m[1]);
      split = Number(m[2]);
    }
  }
  if (total === null) throw new Error("no GC total in mem_info output: " + out.join("|"));
  out.length = 0;
  mp.runPython("import gc\ngc.collect()");
  mp.runPython("print(gc.mem_alloc())");
  const startAlloc = Number(out.pop());
  mp.runPython("import harness");
  const h = mp.pyimport("harness");
  const [t2, reserve] = h.calibrate(total).split(" ").map(Number);
  const live = () => h.live().split(" ").map(Number);
  // Touch every harness function once: the first time JavaScript looks one
  // up, a proxy reference (16 bytes) is kept on the Python heap, which
  // belongs in the baseline, not in the first step that uses it.
  for (const name of ["calibrate", "heap", "mark", "measured", "collect", "live",
                      "noop", "hold", "imp", "session", "step", "app_make", "app_index",
                      "app_step", "app_frame", "app_frame_cost"]) {
    if (typeof h[name] !== "function") throw new Error("harness." + name + " missing");
  }
  // stand-ins for C modules of the board go into the baseline
  for (const name of pre || []) h.imp(name);
  h.collect();
  const [baseAlloc, baseHeap] = live();
  return { mp, h, out, err, total, split, reserve, baseAlloc, baseHeap, live, startAlloc };
}

// A timed, measured call: the time (ms, JS clock), the peak during it and
// what stays live once garbage is collected.
function measure(I, fn) {
  let ret;
  let error = null;
  const ms = timed(() => {
    try {
      ret = fn();
    } catch (e) {
      error = String(e && e.message ? e.message : e).split("\n").slice(-3).join(" ");
    }
  });
  const [peak, heap] = I.h.measured().split(" ").map(Number);
  I.h.collect();
  const [live, heapAfter] = I.live();
  return { ms, peak, heap, live, heapAfter, ret, error };
}

// The cost of a measured call that does nothing, in this interpreter: the
// call itself and harness.mark(), whose gc.mem_alloc()/mem_free() walk the
// heap's whole allocation table, so it grows with the heap (about 0.1 ms
// here for an app-sized heap, against 0.02 ms for the self-test's 16 KB).
// Subtracted from every step of the scenario: the harness's bookkeeping is
// not the game's work, and a board does none of it.
function callOverhead(I) {
  const ov = [];
  for (let i = 0; i < 200; i++) ov.push(timed(() => I.h.noop("play r3")));
  I.h.collect();
  return Math.min(...ov);
}

// ---- seeded choices --------------------------------------------------------

class XorShift {
  constructor(seed) {
    let x = (seed ^ 0x9e3779b9) >>> 0;
    this.x = x || 1;
    for (let i = 0; i < 4; i++) this.next();
  }
  next() {
    let x = this.x;
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    this.x = x;
    return x;
  }
  below(n) {
    return this.next() % n;
  }
}

// ``node run.mjs --xorshift SEED N``: the chooser's first N draws, so the
// CPython mirror in budget.py can be tested against this one.
if (process.argv[2] === "--xorshift") {
  const r = new XorShift(Number(process.argv[3]));
  const out = [];
  for (let i = 0; i < Number(process.argv[4]); i++) out.push(r.next());
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}
// ---- scenarios -----------------------------------------------------------

async function pystone(sc) {
  const I = await bootRaw(sc.cap, job.trees.harness);
  I.mp.runPython("import pystone");
  I.out.length = 0;
  I.mp.runPython("import sys\nprint(sys.version)");
  const version = I.out.join(" ").trim();
  const ps = I.mp.pyimport("pystone");
  ps.run(sc.loops); // warm-up: lets the wasm engine tier up first
  const runs = [];
  for (let k = 0; k < sc.runs; k++) {
    const tn = timed(() => ps.null_loop(sc.loops));
    const tb = timed(() => ps.run(sc.loops));
    runs.push({ loops: sc.loops, ms: tb, null_ms: tn, pystones: sc.loops / ((tb - tn) / 1000) });
  }
  return { runs, version };
}

async function selftest(sc) {
  const I = await bootRaw(sc.cap, job.trees.harness);
  const r = { cap: sc.cap, total: I.total, reserve: I.reserve, max_new_split: I.split,
              base_alloc: I.baseAlloc, base_heap: I.baseHeap, checks: [] };
  for (const n of sc.holds) {
    const m = measure(I, () => I.h.hold(n));
    I.h.hold(0);
    I.h.collect();
    const [relAlloc, relHeap] = I.live();
    r.checks.push({ hold: n, peak: m.peak, heap: m.heap, live: m.live, heap_held: m.heapAfter,
                    released_alloc: relAlloc, released_heap: relHeap, error: m.error });
  }
  // the call overhead subtracted from every step
  const ov = [];
  for (let i = 0; i < sc.overhead_calls; i++) {
    ov.push(timed(() => I.h.noop("play r3")));
  }
  ov.sort((a, b) => a - b);
  r.overhead_ms = { min: ov[0], median: ov[ov.length >> 1] };
  return r;
}

function answerOf(s) {
  // "= text\n\n" -> {ok, text}
  const ok = s.startsWith("=");
  return { ok, text: s.slice(2).replace(/\n\n$/, "") };
}

const READ_ONLY = new Set(["to_move", "legal", "state", "show", "score", "history", "hint"]);

// One seeded playthrough as protocol lines; returns the lines and answers.
function playthrough(I, game, opts, seed, maxSteps, steps, record) {
  const rnd = new XorShift(seed);
  const lines = [];
  const answers = [];
  let over = false;
  const send = (line) => {
    const m = measure(I, () => I.h.step(line));
    if (m.error) throw new Error("step " + JSON.stringify(line) + " raised " + m.error);
    // A query changes nothing, so asking it again right away times the
    // same work: the fastest of a few shrugs off the machine's hiccups.
    if (READ_ONLY.has(line)) {
      for (let k = 1; k < (job.reissue || 1); k++) {
        const again = measure(I, () => I.h.step(line));
        if (again.ret !== m.ret) throw new Error(line + " answered differently when asked again");
        m.ms = Math.min(m.ms, again.ms);
      }
    }
    lines.push(line);
    answers.push(canonical(m.ret));
    record(line, m);
    return answerOf(m.ret);
  };
  const first = send(("new " + game + " seed=" + seed + " " + opts).trim());
  if (!first.ok) throw new Error("new failed: " + first.text);
  let sinceUndo = 0;
  // a front end asks for a hint now and then (a bot's thinking is a step
  // too): at the first player turn, and then at one in four for games
  // that answered it (budget.py and native_play.py mirror this)
  let hints = null;
  while (lines.length < maxSteps) {
    const tm = send("to_move").text;
    if (tm === "over") { over = true; break; }
    if (tm === "chance") {
      send("sample");
    } else {
      if (hints === null) hints = send("hint").ok;
      else if (hints && rnd.below(4) === 0) send("hint");
      const legal = send("legal");
      const toks = legal.text.split(" ").filter((t) => t);
      if (!toks.length) throw new Error("no legal moves but to_move is " + tm);
      const tok = toks[rnd.below(toks.length)];
      const a = send("play " + tok);
      if (!a.ok) throw new Error("play " + tok + " refused: " + a.text);
    }
    // what a front end asks after a move, and now and then a take-back
    send("state");
    if (rnd.below(4) === 0) send("show");
    sinceUndo++;
    if (sinceUndo > 3 && rnd.below(12) === 0) {
      send("undo");
      sinceUndo = 0;
    }
  }
  send("score");
  send("history");
  return { lines, answers, over };
}

// How many more names can be interned before MicroPython opens its next
// pool of them, and that pool's size: pools double and are never freed, so
// a game near the end of one pays KBs for a few more names. Run after all
// measuring (it interns names, and keeps them). The count is from
// qstr_info before and after, so the snippet's own names count too.
function namesLeft(I) {
  const count = () => {
    I.out.length = 0;
    I.mp.runPython("import micropython\nmicropython.qstr_info()");
    const m = /n_qstr=(\d+)/.exec(I.out.join(" "));
    return m ? Number(m[1]) : null;
  };
  const n0 = count();
  I.h.collect();
  I.out.length = 0;
  I.mp.runPython([
    "def _zq():",
    "    import gc",
    "    o = object()",
    "    p = gc.mem_alloc()",
    "    for i in range(5000):",
    "        getattr(o, 'zq%d' % i, None)",
    "        a = gc.mem_alloc()",
    "        if a - p > 1024:",
    "            return a - p",
    "        p = a",
    "    return 0",
    "print('POOL', _zq())",
  ].join("\n"));
  const m = /POOL (\d+)/.exec(I.out.join(" "));
  const n1 = count();
  if (n0 === null || n1 === null || !m || Number(m[1]) === 0) return null;
  return { left: n1 - n0 - 1, pool: Number(m[1]) };
}

async function engine(sc) {
  const I = await boot(sc.cap, [...job.trees[sc.mode], ...job.trees.harness]);
  const r = { game: sc.game, opts: sc.opts, mode: sc.mode, cap: sc.cap, total: I.total,
              reserve: I.reserve, base_alloc: I.baseAlloc, start_alloc: I.startAlloc,
              offboard: I.offboard, nominal: I.nominal, imports: [], playthroughs: [] };
  let worstHeap = I.baseHeap;
  for (const name of sc.imports) {
    const m = measure(I, () => I.h.imp(name));
    if (m.error) throw new Error("import " + name + " raised " + m.error);
    r.imports.push({ name, ms: m.ms, peak: m.peak, heap: m.heap, live: m.live });
    worstHeap = Math.max(worstHeap, m.heap);
  }
  const ms0 = measure(I, () => I.h.session(1));
  worstHeap = Math.max(worstHeap, ms0.heap);
  r.overhead_ms = callOverhead(I);
  // Each seed is replayed ``repeats`` times, in passes over all seeds so a
  // burst of load on the machine hits different repeats of a step; per step
  // the fastest time counts. Heap figures must match across repeats (the
  // transcript is compared) so the first pass's are kept.
  const refs = sc.seeds.map(() => null);
  const times = sc.seeds.map(() => []);
  for (let rep = 0; rep < sc.repeats; rep++) {
    sc.seeds.forEach((seed, k) => {
      const steps = [];
      const p = playthrough(I, sc.game, sc.opts, seed, sc.max_steps, steps, (line, m) => {
        steps.push({ line, ms: m.ms, peak: m.peak, heap: m.heap, live: m.live });
      });
      const h2 = hash(p.answers.join(""));
      if (refs[k] === null) {
        refs[k] = { seed, over: p.over, steps, transcript_hash: h2 };
      } else if (h2 !== refs[k].transcript_hash) {
        throw new Error("seed " + seed + " is not reproducible");
      }
      times[k].push(steps.map((s) => s.ms));
    });
  }
  refs.forEach((ref, k) => {
    ref.steps.forEach((s, i) => {
      s.ms = Math.min(...times[k].map((t) => t[i]));
      if (job.keep_times) s.all = times[k].map((t) => t[i]);
    });
    for (const s of ref.steps) worstHeap = Math.max(worstHeap, s.heap);
    r.playthroughs.push(ref);
  });
  r.worst_heap = worstHeap;
  r.stderr = I.err.slice(-5);
  r.names_left = namesLeft(I);
  return r;
}

// An answer with any JSON object's keys sorted (budget.py ``canonical``):
// MicroPython's dict keeps no insertion order, so ``state`` lists the same
// fields in another order than CPython does.
// (written out by hand: JSON.stringify puts integer-like keys first)
function sortedJson(v) {
  if (Array.isArray(v)) return "[" + v.map(sortedJson).join(",") + "]";
  if (v && typeof v === "object") {
    const keys = Object.keys(v).sort();
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + sortedJson(v[k])).join(",") + "}";
  }
  return JSON.stringify(v);
}

function canonical(answer) {
  if (!answer.startsWith("= {")) return answer;
  return "= " + sortedJson(JSON.parse(answer.slice(2))) + "\n\n";
}

function hash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

// Run python source under MicroPython and return what it printed.
async function script(sc) {
  const extra = (sc.extra || []).flatMap((name) => job.trees[name] || []);
  const I = await bootRaw(sc.cap, [...job.trees[sc.mode], ...extra, ...job.trees.harness]);
  I.out.length = 0;
  let error = null;
  try {
    I.mp.runPython(sc.source);
  } catch (e) {
    error = String(e && e.message ? e.message : e);
  }
  return { out: I.out.slice(), err: I.err.slice(), error };
}

// The app on stand-in board modules, one game, driven by button edges.
const KEY = { up: 0, down: 1, left: 2, right: 3, a: 4, b: 5 };

// The whole session ``repeats`` times, each on a fresh interpreter; per step
// the fastest time counts (the frames shown must match every time).
async function app(sc) {
  let ref = null;
  for (let rep = 0; rep < (sc.repeats || 1); rep++) {
    const r = await appOnce(sc);
    if (ref === null) {
      ref = r;
      continue;
    }
    if (r.transcript_hash !== ref.transcript_hash || r.steps.length !== ref.steps.length) {
      throw new Error("the app session is not reproducible");
    }
    r.steps.forEach((s, i) => {
      if (job.keep_times) (ref.steps[i].all = ref.steps[i].all || [ref.steps[i].ms]).push(s.ms);
      ref.steps[i].ms = Math.min(ref.steps[i].ms, s.ms);
    });
    ref.make.ms = Math.min(ref.make.ms, r.make.ms);
    ref.gc_ms = Math.min(ref.gc_ms, r.gc_ms);
    ref.frame_ms = Math.min(ref.frame_ms, r.frame_ms);
    ref.overhead_ms = Math.min(ref.overhead_ms, r.overhead_ms);
  }
  return ref;
}

async function appOnce(sc) {
  const I = await boot(sc.cap, [...job.trees[sc.mode], ...job.trees.standins,
                                ...job.trees.harness], sc.pre);
  const r = { game: sc.game, mode: sc.mode, profile: sc.profile, cap: sc.cap,
              total: I.total, base_alloc: I.baseAlloc, start_alloc: I.startAlloc,
              offboard: I.offboard, nominal: I.nominal, imports: [], steps: [] };
  let worstHeap = I.baseHeap;
  for (const name of sc.imports) {
    const m = measure(I, () => I.h.imp(name));
    if (m.error) throw new Error("import " + name + " raised " + m.error);
    r.imports.push({ name, ms: m.ms, peak: m.peak, heap: m.heap, live: m.live });
    worstHeap = Math.max(worstHeap, m.heap);
  }
  const mk = measure(I, () => I.h.app_make(sc.profile, sc.seed));
  if (mk.error) throw new Error("make_app raised " + mk.error);
  r.make = { ms: mk.ms, peak: mk.peak, heap: mk.heap, live: mk.live };
  r.playable = mk.ret.split(" ").filter((x) => x);
  r.overhead_ms = callOverhead(I);
  worstHeap = Math.max(worstHeap, mk.heap);
  if (!r.playable.includes(sc.game)) throw new Error(sc.game + " is not playable: " + mk.ret);
  const index = I.h.app_index(sc.game);
  let t = 0;
  let last = "";
  let booting = true;
  const answers = [];
  const stepApp = (what, key, pressed) => {
    const m = measure(I, () => I.h.app_step(t, key, pressed));
    if (m.error) throw new Error("app step (" + what + ") at " + t + " ms raised " + m.error);
    const game = m.ret;
    m.ret = I.h.app_frame();
    I.h.collect(); // its string must not count in the next step
    // what kind of pass: boot (until the menu first shows), enter (the
    // game's modules load), leave (save and drop them), play, menu
    const was = last.split(" ")[0];
    // entering takes two passes: the engine, then (screen Loading) the
    // game's screen modules
    const loading = last.split(" ")[3] === "Loading";
    let phase = game !== "-" ? (was === "-" || loading ? "enter" : "play")
      : (was !== "-" ? "leave" : (booting ? "boot" : "menu"));
    if (booting && m.ret.endsWith(" Menu")) booting = false;
    r.steps.push({ what, t, ms: m.ms, peak: m.peak, heap: m.heap, live: m.live,
                   game, phase });
    worstHeap = Math.max(worstHeap, m.heap);
    last = m.ret;
    answers.push(m.ret);
  };
  const advance = (ms) => {
    const end = t + ms;
    while (t < end) {
      t += sc.frame_ms;
      stepApp("tick", -1, 0);
    }
  };
  const press = (name, hold) => {
    t += sc.frame_ms;
    stepApp("press " + name, KEY[name], 1);
    advance(hold || 60);
    t += sc.frame_ms;
    stepApp("release " + name, KEY[name], 0);
    advance(100);
  };
  last = "- 0 0 Boot";
  // (each answer: game, frames shown, pixel checksum, screen)
  advance(1500);                       // boot animation, then the menu
  for (let i = 0; i < index; i++) press("right");
  press("a");                          // enter the game
  if (last.split(" ")[0] !== sc.game) throw new Error("did not enter " + sc.game + ": " + last);
  r.live_in_game = r.steps[r.steps.length - 1].live;
  const rnd = new XorShift(sc.seed);
  const keys = ["up", "down", "left", "right", "up", "down", "left", "right", "a", "a", "a", "b"];
  for (let n = 0; n < sc.presses; n++) {
    if (last.split(" ")[0] === "-") press("a"); // left somehow: go back in
    else press(keys[rnd.below(keys.length)]);
    if (n % 40 === 39) advance(2500);   // rest: the app saves the game
  }
  // hold B: the escape gesture saves and returns to the menu
  t += sc.frame_ms;
  stepApp("press b (escape)", KEY.b, 1);
  advance(1200);
  t += sc.frame_ms;
  stepApp("release b", KEY.b, 0);
  advance(300);
  r.left_to = last;
  I.h.collect();
  r.live_after_exit = I.live()[0];
  // what one full collection costs here (a board pays it too, mid-step)
  const gcms = [];
  for (let k = 0; k < 5; k++) {
    I.h.hold(0);
    gcms.push(timed(() => I.h.collect()));
  }
  r.gc_ms = Math.min(...gcms);
  // one full-frame update through lib.display (fill + show), fastest of 5
  const fr = [];
  for (let k = 0; k < 5; k++) fr.push(measure(I, () => I.h.app_frame_cost(k)).ms);
  r.frame_ms = Math.min(...fr);
  r.transcript_hash = hash(answers.join("|"));
  r.worst_heap = worstHeap;
  return r;
}

// What each engine module holds on the heap by itself: a fresh interpreter
// per module (interned names are never freed, so one interpreter would
// charge a name to whichever module came first), the protocol's own imports
// and the module's engine imports loaded first, one per call, then the
// module in one measured call. ``held`` is what stays once garbage is
// collected: its code, tables, interned names and its entry in sys.modules;
// ``peak`` adds the call's garbage (from .py, the compiler's parse tree).
async function modules(sc) {
  const rows = [];
  let shared = null;
  const loaded = (I) => {
    I.out.length = 0;
    I.mp.runPython("import sys\nprint(' '.join(sorted(sys.modules)))\ndel sys");
    I.h.collect();
    return I.out.join(" ").trim().split(/\s+/);
  };
  // bytes of interned names (pools and their strings), from qstr_info()
  const names = (I) => {
    I.out.length = 0;
    I.mp.runPython("import micropython\nmicropython.qstr_info()\ndel micropython");
    I.h.collect();
    const m = /n_total_bytes=(\d+)/.exec(I.out.join(" "));
    return m ? Number(m[1]) : null;
  };
  const boot1 = () => bootRaw(sc.cap, [...job.trees[sc.mode], ...job.trees.harness]);
  // Compiling from .py, the parser frees its tree before the import
  // returns, so no figure taken after the call shows it. The room an import
  // needs is found instead: the smallest heap (to 1 KB) in which importing
  // ``order`` never grows the heap. A module's own need shows only where
  // it is more than what loading the modules before it needs; ``room`` is
  // then the smallest heap less what was live just before the module.
  const smallest = async (order) => {
    const fits = async (size) => {
      const I = await bootRaw(size, [...job.trees[sc.mode], ...job.trees.harness]);
      let before = 0;
      for (let k = 0; k < order.length; k++) {
        const [a] = I.live();
        before = a;
        const x = measure(I, () => I.h.imp(order[k]));
        if (x.error || x.heap > I.total) return null;
      }
      return I.total - before;
    };
    let lo = 8;
    let hi = sc.cap >> 10;
    let best = await fits(hi << 10);
    if (best === null) return null;
    let at = hi;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      const r = await fits(mid << 10);
      if (r === null) lo = mid;
      else {
        hi = mid;
        best = r;
        at = mid;
      }
    }
    return { kb: at, room: best };
  };
  const need = new Map();       // order (joined) -> smallest heap, in KB
  const room = async (order) => {
    const key = order.slice(0, -1).join(" ");
    if (!need.has(key)) need.set(key, await smallest(order.slice(0, -1)));
    const pre = need.get(key);
    const own = await smallest(order);
    if (own === null || pre === null) return null;
    return own.kb > pre.kb + 1 ? own.room : 0;
  };
  // the interned names of the protocol's modules, in an interpreter of
  // their own (a query before an import moves its figure by a few bytes)
  const J = await boot1();
  loaded(J);
  const n0 = names(J);
  for (const s of sc.shared) J.h.imp(s);
  const n1 = names(J);
  const sharedNames = n0 === null || n1 === null ? null : n1 - n0;
  for (const m of sc.modules) {
    const I = await boot1();
    const steps = [];
    const order = [...sc.shared, ...m.pre, m.name];
    let had = [];
    let q0 = null;
    for (let k = 0; k < order.length; k++) {
      if (k === sc.shared.length) {
        if (shared === null) shared = steps.slice();
        // the queries' own names and dict slots go into the baseline
        loaded(I);
        names(I);
      }
      if (k === order.length - 1) {
        had = loaded(I);
        q0 = names(I);
      }
      const [before] = I.live();
      const x = measure(I, () => I.h.imp(order[k]));
      if (x.error) throw new Error("import " + order[k] + " raised " + x.error);
      steps.push({ name: order[k], held: x.live - before, peak: x.peak - before,
                   grew: x.heap > I.total });
    }
    const q1 = names(I);
    steps[steps.length - 1].names = q0 === null || q1 === null ? null : q1 - q0;
    // what its import brought in besides itself (or, if an earlier import
    // had brought it in already, nothing: its figure is then 0)
    const also = loaded(I).filter((n) => n.startsWith("engine") && n !== m.name &&
                                         !had.includes(n));
    const row = { ...steps[steps.length - 1], pre: m.pre, already: had.includes(m.name), also };
    if (sc.room && !row.already) row.room = await room(order);
    rows.push(row);
  }
  return { shared, shared_names: sharedNames, rows };
}

const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const kinds = { pystone, selftest, engine, script, app, modules };
const results = [];
for (const sc of job.scenarios) {
  const t0 = now();
  try {
    const res = await kinds[sc.kind](sc);
    results.push({ kind: sc.kind, name: sc.name, ok: true, wall_ms: now() - t0, ...res });
  } catch (e) {
    results.push({ kind: sc.kind, name: sc.name, ok: false, wall_ms: now() - t0,
                   error: String(e && e.stack ? e.stack : e) });
  }
  if (job.progress) process.stderr.write(".");
}
if (job.progress) process.stderr.write("\n");
process.stdout.write(JSON.stringify({ node: process.version, results }));
