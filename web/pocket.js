// Pocket Pyramids in a browser: the device's code.py on MicroPython
// (WebAssembly), stepped once per animation frame, its LEDs drawn on a canvas.
//
// The Python side is device/pocket_web.py (the board's C modules are the
// device budget's stand-ins, with the page's additions there). This file
// only loads the interpreter and the device files, feeds it buttons and the
// clock, collects its heap between passes, draws the frames it shows and
// keeps its NVM in local storage.
//
// Page address options (all optional):
//   board=pico_8x8|pico_16x16   the board profile (also chosen on the page)
//   seed=N                      a fixed chance seed (default: a random one)
//   clock=manual                no animation loop: time moves only through
//                               window.pocket.advance/replay (scripted runs)
//   nvm=fresh                   an erased NVM, never read from or written to
//                               local storage
//
// window.pocket, for tests and the curious:
//   ready          a promise, resolved once the app runs (rejected on failure)
//   frame()        {width, height, scale, leds: [[r, g, b], ...]}: the last
//                  frame shown, as the LEDs got it, in reading order
//   view()         the colours drawn for it on the canvas
//   press(k, down) a button edge, k 0..5 = UP DOWN LEFT RIGHT A B
//   advance(ms)    (manual clock) let ms pass in 20 ms loop passes
//   replay(ops)    (manual clock) ops: ["d", k] down, ["u", k] up,
//                  ["a", ms] advance, ["f"] keep the frame; returns the kept
//                  frames, each "SCALE HEX" (6 hex digits a LED)
//   layout()       where the LEDs are on the canvas: {pad, pitch, width, height}
//   status()       {board, heapInUse, heapPeak, fps, notice, error}

const BOARDS = ["pico_8x8", "pico_16x16"];
const HEAP_BYTES = 256 * 1024;     // the start heap; this build grows it when full
const PASS_MS = 20;                // a manual-clock loop pass, as tools/simkit.py
const ESCAPE_HOLD_MS = 1200;       // Esc holds B this long (tools/sim.py does too)
const GAMMA = 2.5;
const KEYS = {
  arrowup: 0, w: 0, arrowdown: 1, s: 1, arrowleft: 2, a: 2, arrowright: 3, d: 3,
  z: 4, j: 4, x: 5, k: 5,
};

// Local storage may be switched off (or full): the console then runs with
// nothing kept between visits, and says so.
function kept(key) {
  try {
    return localStorage.getItem(key);
  } catch (e) {
    notice = "This browser keeps nothing for this page, so a game is not saved.";
    return null;
  }
}

function keep(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (e) {
    notice = "This browser would not keep the save: " + e.message;
  }
}

let notice = "";
const params = new URLSearchParams(location.search);
const board = BOARDS.includes(params.get("board")) ? params.get("board")
  : (BOARDS.includes(kept("pocket-pyramids.board"))
    ? kept("pocket-pyramids.board") : BOARDS[0]);
const manual = params.get("clock") === "manual";
const scratch = params.get("nvm") === "fresh";
const NVM_KEY = "pocket-pyramids.nvm." + board;
const NVM_HEX = 2 * 4096;

const canvas = document.getElementById("matrix");
const ctx = canvas.getContext("2d");
const statusLine = document.getElementById("status");
const noticeLine = document.getElementById("notice");

let py = null;            // device/pocket_web.py, as a proxy
let width = 8, height = 8;
let now = 0;              // the app's clock, ms
let shownCount = -1;      // frames shown by the app so far
let stale = false;        // it showed one that is not read yet
let drawn = false;        // the canvas shows the frame read last
let current = { width: 8, height: 8, scale: 0, hex: "" };
let heapInUse = 0, heapPeak = 0;
let passes = 0, fps = 0, fpsSince = 0;
let failed = null;
const holders = [0, 0, 0, 0, 0, 0];   // sources holding each button down
const releaseAt = [-1, -1, -1, -1, -1, -1];

function show(el, text) {
  el.textContent = text;
  el.hidden = !text;
}

// ---- the NVM in local storage -------------------------------------------
function storedNvm() {
  if (scratch) return "";
  const hex = kept(NVM_KEY);
  if (hex === null) return "";
  if (hex.length !== NVM_HEX || !/^[0-9a-f]*$/.test(hex)) {
    keep(NVM_KEY, null);
    notice = "The save kept in this browser was unreadable, so it was " +
      "dropped and the console started fresh.";
    return "";
  }
  return hex;
}

function keepNvm() {
  const hex = py.nvm_changed();
  if (hex && !scratch) keep(NVM_KEY, hex);
}

// ---- one pass of the app loop -------------------------------------------
function pass(at) {
  now = at;
  for (let k = 0; k < 6; k++) {
    if (releaseAt[k] >= 0 && now >= releaseAt[k]) {
      releaseAt[k] = -1;
      release(k);
    }
  }
  const shows = py.step(now);
  // the heap was collected before the pass: what it left is its peak
  heapPeak = Math.max(heapPeak, py.allocated());
  keepNvm();
  passes++;
  if (shows !== shownCount) {
    shownCount = shows;
    stale = true;
    // a scripted run draws once it has run (refresh), not every frame
    if (!manual) refresh();
  }
  // and collected between passes, after the page has read what it needs
  heapInUse = py.collect();
}

// The frame the app showed last, read from Python once per new frame.
function readFrame() {
  if (stale) {
    stale = false;
    const [scale, hex] = py.frame().split(" ");
    current = { width, height, scale: Number(scale), hex };
    drawn = false;
  }
}

function refresh() {
  readFrame();
  if (!drawn) {
    drawn = true;
    draw();
  }
}

// ---- drawing ------------------------------------------------------------
function ledColours() {
  const out = [];
  const hex = current.hex;
  for (let i = 0; i < width * height; i++) {
    const v = hex ? parseInt(hex.substr(6 * i, 6), 16) : 0;
    out.push([v >> 16, (v >> 8) & 255, v & 255]);
  }
  return out;
}

// A dim LED still reads on a monitor: undo the gamma and the brightness
// scale (tools/simkit.py's view() does the same for its pictures).
function perceived(v, scale) {
  if (!v) return 0;
  const x = Math.min(1, v / Math.max(1, scale));
  return Math.max(64, Math.round(255 * Math.pow(x, 1 / GAMMA)));
}

function viewColours() {
  const s = current.scale || 1;
  return ledColours().map(([r, g, b]) => [perceived(r, s), perceived(g, s), perceived(b, s)]);
}

function layout() {
  const pitch = Math.floor(canvas.width / (width + 1));
  const pad = Math.floor((canvas.width - pitch * width) / 2);
  return { pad, pitch, width, height };
}

function draw() {
  const { pad, pitch } = layout();
  ctx.fillStyle = "rgb(18,18,22)";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const colours = viewColours();
  const r = Math.floor(pitch * 0.38);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [cr, cg, cb] = colours[y * width + x];
      const cx = pad + x * pitch + pitch / 2;
      const cy = pad + y * pitch + pitch / 2;
      if (cr || cg || cb) {
        // a soft halo a quarter of the colour, then the LED
        ctx.fillStyle = `rgb(${18 + (cr >> 2)},${18 + (cg >> 2)},${18 + (cb >> 2)})`;
        disc(cx, cy, r + 3);
        ctx.fillStyle = `rgb(${cr},${cg},${cb})`;
      } else {
        ctx.fillStyle = "rgb(30,30,35)";
      }
      disc(cx, cy, r);
    }
  }
}

function disc(x, y, r) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fill();
}

function updateStatus(t) {
  if (t - fpsSince >= 1000) {
    fps = Math.round(passes * 1000 / (t - fpsSince));
    passes = 0;
    fpsSince = t;
  }
  const kb = (n) => (n / 1024).toFixed(1) + " KB";
  show(statusLine, failed ? "stopped: " + failed
    : `${board} · heap ${kb(heapInUse)} in use, peak ${kb(heapPeak)} · ` +
      (manual ? "manual clock" : `${fps} fps`));
  // what the app's save store said of the NVM it found, once it looked
  const found = py && !failed ? py.store_notice() : "";
  show(noticeLine, [notice, found ? "The console's save store says: " + found : ""]
    .filter(Boolean).join(" "));
}

// ---- buttons ---------------------------------------------------------------
function hold(k) {
  if (holders[k]++ === 0) {
    py.press(k, true);
    document.querySelector(`.key[data-key="${k}"]`).classList.add("held");
  }
}

function release(k) {
  if (holders[k] > 0 && --holders[k] === 0) {
    py.press(k, false);
    document.querySelector(`.key[data-key="${k}"]`).classList.remove("held");
  }
}

function wireInput() {
  const down = new Set();
  addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || !py || failed) return;
    const name = e.key.toLowerCase();
    if (name === "escape") {
      // the escape gesture: B held past the app's escape time
      e.preventDefault();
      if (releaseAt[5] < 0) {
        hold(5);
        releaseAt[5] = now + ESCAPE_HOLD_MS;
      }
      return;
    }
    if (!(name in KEYS)) return;
    e.preventDefault();
    if (down.has(name)) return;      // the keyboard's own repeat: still held
    down.add(name);
    hold(KEYS[name]);
  });
  addEventListener("keyup", (e) => {
    const name = e.key.toLowerCase();
    if (down.delete(name) && py) release(KEYS[name]);
  });
  addEventListener("blur", () => {
    for (const name of down) release(KEYS[name]);
    down.clear();
  });
  for (const el of document.querySelectorAll(".key")) {
    const k = Number(el.dataset.key);
    let pressed = false;
    const up = () => {
      if (pressed) {
        pressed = false;
        release(k);
      }
    };
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      if (!py || failed || pressed) return;
      pressed = true;
      el.setPointerCapture(e.pointerId);
      hold(k);
    });
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    el.addEventListener("lostpointercapture", up);
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  const select = document.getElementById("board");
  select.value = board;
  select.addEventListener("change", () => {
    keep("pocket-pyramids.board", select.value);
    const next = new URLSearchParams(location.search);
    next.set("board", select.value);
    location.search = next.toString();
  });
}

// ---- start -----------------------------------------------------------------
async function loadDevice(mp) {
  const files = await (await fetch("device/files.json")).json();
  const bodies = await Promise.all(files.map(async (name) => {
    const reply = await fetch("device/" + name);
    if (!reply.ok) throw new Error("device/" + name + ": " + reply.status);
    return new Uint8Array(await reply.arrayBuffer());
  }));
  files.forEach((name, i) => {
    const path = "/device/" + name;
    mp.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    mp.FS.writeFile(path, bodies[i]);
  });
}

function fail(e) {
  failed = (e && e.message ? e.message : String(e)).trim().split("\n").slice(-1)[0];
  console.error(e);
  updateStatus(performance.now());
}

function loop(t) {
  if (failed) return;
  try {
    pass(Math.max(now, Math.floor(t - started)));
  } catch (e) {
    fail(e);
    return;
  }
  updateStatus(t);
  requestAnimationFrame(loop);
}

let started = 0;

async function start() {
  const mod = await import("./micropython.mjs");
  const loadMicroPython = mod.loadMicroPython || globalThis.loadMicroPython;
  const mp = await loadMicroPython({
    heapsize: HEAP_BYTES,
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  });
  await loadDevice(mp);
  mp.runPython("import sys\nsys.path.insert(0, '/device')");
  py = mp.pyimport("pocket_web");
  const seed = params.has("seed") ? Number(params.get("seed"))
    : crypto.getRandomValues(new Uint32Array(1))[0] & 0x3fffffff;
  [width, height] = py.start(board, storedNvm(), seed).split(" ").map(Number);
  current = { width, height, scale: 0, hex: "" };
  wireInput();
  py.collect();                  // the passes' peaks count from here
  pass(0);                       // the first pass at time 0, as the simulator's
  if (manual) {
    refresh();
    updateStatus(0);
  } else {
    started = performance.now();
    fpsSince = started;
    requestAnimationFrame(loop);
  }
}

function advance(ms) {
  const end = now + ms;
  while (now < end) pass(Math.min(end, now + PASS_MS));
}

function replay(ops) {
  const kept = [];
  for (const op of ops) {
    if (op[0] === "d") py.press(op[1], true);
    else if (op[0] === "u") py.press(op[1], false);
    else if (op[0] === "a") advance(op[1]);
    else if (op[0] === "f") {
      readFrame();
      kept.push(current.scale + " " + current.hex);
    } else throw new Error("replay: unknown op " + JSON.stringify(op));
  }
  refresh();
  updateStatus(now);
  return kept;
}

const ready = start().catch((e) => {
  fail(e);
  throw e;
});

window.pocket = {
  ready,
  board,
  frame: () => {
    refresh();
    return { width, height, scale: current.scale, leds: ledColours() };
  },
  view: viewColours,
  layout,
  press: (k, down) => (down ? hold(k) : release(k)),
  advance: (ms) => {
    advance(ms);
    refresh();
    updateStatus(now);
  },
  replay,
  status: () => ({ board, heapInUse, heapPeak, fps, notice: noticeLine.textContent,
                   error: failed }),
};
