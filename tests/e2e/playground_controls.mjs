// End-to-end: the playground's memory chart marks and transport replay, and
// the main thread's frame times while a training loop runs, in Debian's
// headless Chromium.
//
// Env: GRADSCOPE_URL (the served site). Checks that the memory chart marks
// forward, backward, step and zero_grad (one row each, labelled for
// assistive technology, told apart by more than colour), that replay steps
// through the trace a statement at a time at the speed chosen with the
// keyboard, and measures the frame times (frames.mjs, as playground.mjs
// does) while the e2e loop runs 20 and 1,000 steps, and while the digits
// lesson trains (wall time, and CPU time from a trace). Then,
// in a browser with WebGPU (SwiftShader, as engine.mjs runs it), that a run
// on the GPU offers the CPU's and the GPU's memory ledgers, chosen with the
// keyboard, the GPU's with its reserve drawn over the allocated bytes and
// model.zero_grad() marked.
// Exits non-zero on any failure.
import { launch, launchWithProfile } from "./browser.mjs";
import { cpuFrames, pooled, startFrames, stopFrames } from "./frames.mjs";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const url = process.env.GRADSCOPE_URL;
if (!url) {
  console.error("playground_controls.mjs: set GRADSCOPE_URL");
  process.exit(2);
}
const TIMEOUT = 60_000;
const LOOP = readFileSync(new URL("../corpus/e2e_loop.py", import.meta.url), "utf8");

// Three optimizer steps: each zero_grad, forward, backward, step.
const TRAIN = `import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 3)
y = torch.randn(8, 1)
for step in range(3):
    optimizer.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
print(round(loss.item(), 4))
`;

// Six statements, one a line.
const SHORT = `import torch
a = torch.ones(2, requires_grad=True)
b = a * 2
c = b.sum()
c.backward()
d = a.grad + 1
`;

// Tensors on both devices: a CPU tensor kept, a model and its batch on the
// default device (the GPU), model.zero_grad() each step, and the GPU's
// cached blocks given back at the end.
const GPU_TRAIN = `import torch
torch.manual_seed(0)
keep = torch.ones(32, 32, device="cpu")
model = torch.nn.Linear(64, 64)
x = torch.randn(32, 64)
for step in range(2):
    model.zero_grad()
    loss = model(x).relu().pow(2).mean()
    loss.backward()
print(model.weight.device.type, keep.device.type)
torch.webgpu.empty_cache()
`;

function check(condition, message) {
  if (!condition) throw new Error(message);
  console.log(`  ok: ${message}`);
}

async function setCode(page, text) {
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}

/// Runs the editor's program with Ctrl+Enter and waits for its end.
async function run(page) {
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction(() => {
    const s = document.querySelector("[data-testid=status]")?.textContent ?? "";
    return s === "finished" || s.startsWith("raised");
  }, null, { timeout: 120_000 });
  const status = await page.getByTestId("status").textContent();
  check(status === "finished", `the program finished (${status})`);
}

/// The transport's position: events shown, of how many, and the line.
async function position(page) {
  const text = await page.getByTestId("position").textContent();
  const m = /event (\d+) \/ (\d+)(?: · line (\d+))?/.exec(text);
  return { at: Number(m?.[1]), len: Number(m?.[2]), line: m?.[3] ? Number(m[3]) : null };
}

/// A 1280x800 page at the site's `query`, once its engine is ready, and the
/// page errors and console errors it reports from then on.
async function openReady(browser, query = "") {
  return openIn(await browser.newContext({ viewport: { width: 1280, height: 800 } }), query);
}

/// `openReady` in a browser context of the caller's (one with a profile),
/// traced from before navigation where a `tracer` (a Browser) is given. Also
/// returns when the engine was ready, in ms after navigation began.
async function openIn(context, query = "", { tracer = null, categories = [] } = {}) {
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  if (tracer) await tracer.startTracing(page, { categories });
  const start = Date.now();
  await page.goto(url + query);
  await page.waitForFunction(
    () => document.querySelector("[data-testid=status]")?.textContent.startsWith("ready"), null, { timeout: TIMEOUT });
  return { page, problems, readyMs: Date.now() - start };
}

/// The complete trace events named `name` (each a span of CPU time).
function spans(events, name) {
  return events.filter((e) => e.name === name && e.ph === "X");
}

/// The CPU time of complete trace `events` added up, in milliseconds.
function cpuMs(events) {
  return events.reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0) / 1000, 0);
}

function checkNoPageErrors(problems) {
  check(problems.length === 0, `no page errors${problems.length ? ": " + problems.join("; ") : ""}`);
}

/// Runs the program while recording its frames (frames.mjs).
async function measuredRun(page, label) {
  await startFrames(page);
  await run(page);
  return stopFrames(page, label);
}

const browser = await launch();
try {
  const { page, problems } = await openReady(browser);

  console.log("memory chart marks");
  await setCode(page, TRAIN);
  await run(page);
  const marks = await page.locator("[data-testid=memory-markers] g.marks").evaluateAll((gs) => gs.map((g) => ({
    kind: g.getAttribute("class").replace("marks ", ""),
    count: Number(g.dataset.count),
    label: g.getAttribute("aria-label"),
    title: g.querySelector("title")?.textContent,
    text: g.querySelector("text")?.textContent,
    ticks: (g.querySelector("path")?.getAttribute("d") ?? "").split("M").length - 1,
    stroke: g.querySelector("path") ? getComputedStyle(g.querySelector("path")).stroke : null,
    y: g.querySelector("text")?.getAttribute("y"),
  })));
  check(JSON.stringify(marks.map((m) => [m.kind, m.count, m.ticks])) ===
    '[["forward",3,3],["backward",3,3],["step",3,3],["zero-grad",3,3]]',
    `three steps mark 3 of each: ${marks.map((m) => `${m.kind} ${m.count} (${m.ticks} ticks)`).join(", ")}`);
  check(marks.every((m) => m.label?.startsWith(`${m.text}: 3 × `) && m.title === m.label),
    `each row is labelled for assistive technology (${marks.map((m) => m.label).join("; ")})`);
  check(new Set(marks.map((m) => m.stroke)).size === 4 && new Set(marks.map((m) => m.y)).size === 4,
    `the kinds differ in colour and in row, and each row is named (${marks.map((m) => `${m.text} ${m.stroke}`).join("; ")})`);
  check((await page.getByTestId("memory-peak").textContent()).startsWith("peak "), "the peak is still marked");

  // The learner's loop has no optimizer: forward and backward only.
  await setCode(page, LOOP);
  await run(page);
  const counts = await page.locator("[data-testid=memory-markers] g.marks")
    .evaluateAll((gs) => gs.map((g) => `${g.getAttribute("class").replace("marks ", "")} ${g.dataset.count}`));
  check(counts.join(", ") === "forward 20, backward 20, step 0, zero-grad 0",
    `a loop without an optimizer marks forward and backward only (${counts.join(", ")})`);

  console.log("replay speed");
  await setCode(page, SHORT);
  await run(page);
  const replay = page.getByTestId("replay");
  const speed = page.getByTestId("speed");
  const end = await position(page);
  check(await page.getByLabel("speed").count() === 1, "the speed control is labelled");
  // Fastest, chosen with the keyboard.
  await speed.focus();
  await page.keyboard.press("End");
  check(await speed.inputValue() === "20", `End picks the fastest speed (${await speed.inputValue()} statements/s)`);
  await replay.focus();
  await page.keyboard.press("Enter");
  check(await replay.getAttribute("aria-pressed") === "true", "Enter on Replay starts it (pressed)");
  const fastStart = Date.now();
  await page.waitForFunction(() => document.querySelector("[data-testid=replay]").getAttribute("aria-pressed") === "false",
    null, { timeout: 10_000 });
  const fastMs = Date.now() - fastStart;
  const after = await position(page);
  check(after.at === end.len && after.len === end.len, `replay ran to the end (${after.at} / ${after.len})`);
  check(fastMs < 2000, `at 20 statements/s six statements replay in ${fastMs} ms`);
  // Slowest: after 1.5 s it is a statement or two in, and Space pauses it.
  await speed.focus();
  await page.keyboard.press("Home");
  check(await speed.inputValue() === "1", "Home picks the slowest speed");
  await replay.focus();
  await page.keyboard.press("Space");
  await page.waitForTimeout(1500);
  const slow = await position(page);
  check(slow.at > 0 && slow.at < end.len && slow.line !== null && slow.line <= 3,
    `at 1 statement/s, 1.5 s in, it shows line ${slow.line} (event ${slow.at} of ${slow.len})`);
  await page.keyboard.press("Space");
  check(await replay.getAttribute("aria-pressed") === "false", "Space pauses it");
  const paused = await position(page);
  await page.waitForTimeout(1200);
  check((await position(page)).at === paused.at, `paused, it stays at event ${paused.at}`);

  console.log("the console's limit");
  await setCode(page, "for i in range(2500):\n    print(i)\n");
  await run(page);
  const printed = await page.getByTestId("console").textContent();
  const kept = await page.locator("[data-testid=console] .lines > span").count();
  check(printed.startsWith("… 500 earlier lines not shown: the console keeps the newest 2000\n500\n") &&
    printed.trimEnd().endsWith("\n2499") && kept === 2000,
    `2,500 printed lines: the newest 2,000 kept, one element each, the rest counted (${kept} lines; starts ${JSON.stringify(printed.slice(0, 70))})`);

  console.log("frame times while a loop runs");
  await setCode(page, LOOP);
  const short = await measuredRun(page, "main thread while the loop trained 20 steps");
  await setCode(page, LOOP.replace("range(20)", "range(1000)"));
  const long = await measuredRun(page, "main thread while the loop trained 1,000 steps");
  check(short.work.n > 0 && long.work.n > 0, "frames were drawn while the loops ran");
  // Issue 7's figure is p95 16 ms (printed; frames.mjs says what it
  // measures); this bound catches a return of whole-trace redraws.
  const training = pooled("main thread while the loop trained 20 and 1,000 steps", short, long);
  check(training.work.p95 < 50, `frame time p95 under 50 ms while the loops trained (${training.work.p95.toFixed(1)} ms)`);

  checkNoPageErrors(problems);
} finally {
  await browser.close();
}

// Issue 7's figure proper: while a lesson trains. The digits lesson trains
// a small MLP for 150 steps, on a fresh page as a learner meets it: its
// first run (the worker's code still being compiled), then a second, and a
// third traced for each frame's CPU time beside its wall time (see
// cpuFrames: on 2 cores the wall time holds waits for the worker's core).
const lessonBrowser = await launch();
try {
  console.log("frame times while a lesson trains (?lesson=digits)");
  const { page, problems } = await openReady(lessonBrowser, "?lesson=digits");
  // The page's warm-up (its rehearsal, and the graph's boxes made ahead)
  // happens while it idles after "ready", as it would while a learner reads.
  await page.waitForTimeout(5_000);
  // Traced for V8's optimising of wasm alone (a light category): on 2
  // cores, what it does during the run takes a core the frames need.
  await lessonBrowser.startTracing(page, { categories: ["v8.wasm"] });
  const first = await measuredRun(page, "main thread while the digits lesson trained, first run");
  const firstEvents = JSON.parse((await lessonBrowser.stopTracing()).toString()).traceEvents;
  const firstCompiles = spans(firstEvents, "wasm.TopTierCompilation");
  console.log(`  measured: ${cpuMs(firstCompiles).toFixed(0)} ms ` +
    `of top-tier wasm compiling (CPU, all threads) during the first run (${firstCompiles.length} units)`);
  const second = await measuredRun(page, "main thread while the digits lesson trained, second run");
  const lesson = pooled("main thread while the digits lesson trained, both runs", first, second);
  check(lesson.work.p95 < 50, `frame time p95 under 50 ms while the lesson trained (${lesson.work.p95.toFixed(1)} ms)`);
  const traced = await cpuFrames(lessonBrowser, page, "main thread while the digits lesson trained, third run", () => run(page));
  check(traced.cpu.n > 0 && traced.cpu.max <= traced.wall.max + 0.5,
    `the traced run's frames were found, CPU within wall (${traced.cpu.n} frames)`);
  checkNoPageErrors(problems);
} finally {
  await lessonBrowser.close();
}

// A returning visit: a browser with a profile, as a learner's is, opens the
// lesson, runs it and closes it, then opens it again. The server answers
// the second visit's requests with 304s (ETags), so Chromium's HTTP cache
// entry for the worker's module stands, and with it V8's cache of the code
// it optimised on the first visit: the trace must show the module
// deserialised. Measured on each visit: when the engine was ready after
// navigation, the CPU spent compiling wasm at the top tier (TurboFan), and
// the frames while the lesson ran.
const profile = mkdtempSync(join(tmpdir(), "gradscope-e2e-profile-"));
const withProfile = await launchWithProfile(profile);
try {
  console.log("a returning visit (?lesson=digits, a browser with a profile)");
  const compiles = async () => {
    const events = JSON.parse((await withProfile.browser().stopTracing()).toString()).traceEvents;
    return {
      deserialised: events.filter((e) => e.name === "wasm.Deserialize").length,
      topTier: cpuMs(spans(events, "wasm.TopTierCompilation")),
      // worker.js marks each extra round of the engine's warm-up.
      rounds: events.filter((e) => e.name === "gradscope-warm-up-round" && e.ph !== "e").length,
    };
  };
  const visits = [];
  for (const label of ["first visit", "second visit"]) {
    const { page, problems, readyMs } = await openIn(withProfile, "?lesson=digits",
      { tracer: withProfile.browser(), categories: ["v8.wasm", "disabled-by-default-v8.wasm.detailed", "blink.user_timing"] });
    await page.waitForTimeout(5_000);
    await measuredRun(page, `main thread while the digits lesson trained, ${label}`);
    // V8 writes its cache a moment after the code it optimised passes a
    // size; the first visit stays open long enough for that.
    await page.waitForTimeout(5_000);
    const { deserialised, topTier, rounds } = await compiles();
    console.log(`  measured: ${label}: engine ready ${readyMs} ms after navigation; ` +
      `${topTier.toFixed(0)} ms of top-tier wasm compiling (CPU, all threads); module deserialised ${deserialised} times`);
    // MORE_ROUNDS in crates/webworker/src/program.rs: run while the page
    // idled after its rehearsal, before the learner's run.
    check(rounds === 10, `${label}: the worker ran its warm-up 10 more times while the page idled (${rounds})`);
    checkNoPageErrors(problems);
    visits.push({ deserialised });
    await page.close();
  }
  check(visits[0].deserialised === 0 && visits[1].deserialised >= 1,
    `the second visit loaded the worker's compiled code from the browser's cache (first ${visits[0].deserialised}, ` +
    `second ${visits[1].deserialised} deserialisations)`);
} finally {
  await withProfile.close();
  rmSync(profile, { recursive: true, force: true });
}

/// What the memory chart shows now: its ledger, the ledgers offered, the
/// reserve's line and legend, the peak.
async function ledger(page) {
  return page.evaluate(() => {
    const chart = document.querySelector("[data-testid=memory-chart]");
    const line = chart.querySelector("[data-testid=memory-reserved] path")?.getAttribute("d") ?? null;
    // The reserve is a step line, "M x,y" then H and V strokes: its heights
    // are the start's y and each V's.
    const ys = line ? [...line.matchAll(/(?:M[-\d.]+,|V)([-\d.]+)/g)].map((m) => Number(m[1])) : [];
    return {
      device: chart.dataset.device,
      buttons: [...document.querySelectorAll("[data-testid=memory-ledger] button")]
        .map((b) => ({ text: b.textContent, device: b.dataset.device, pressed: b.getAttribute("aria-pressed") })),
      group: document.querySelector("[data-testid=memory-ledger]")?.getAttribute("aria-label") ?? null,
      line, top: Math.min(...ys), last: ys.at(-1),
      legend: document.querySelector("[data-testid=memory-reserved-legend]")?.textContent ?? null,
      peak: document.querySelector("[data-testid=memory-peak]")?.textContent ?? null,
      bands: chart.querySelectorAll("path.band").length,
      zeroGrads: Number(document.querySelector("[data-testid=marks-zero-grad]")?.dataset.count),
    };
  });
}

console.log("memory ledgers on the GPU");
const gpuBrowser = await launch({ webgpu: true });
try {
  const { page, problems } = await openReady(gpuBrowser);
  await page.waitForFunction(() => document.querySelector("[data-testid=device] option[value=webgpu]")?.disabled === false,
    null, { timeout: TIMEOUT });
  await page.getByTestId("device").selectOption("webgpu");
  await setCode(page, GPU_TRAIN);
  await run(page);
  const printed = await page.getByTestId("console").textContent().catch(() => "");
  check(printed.includes("webgpu cpu"), `the model ran on the GPU, one tensor on the CPU (${JSON.stringify(printed.trim())})`);
  const gpu = await ledger(page);
  console.log(`  measured: ledgers ${gpu.buttons.map((b) => `${b.text} (${b.device})`).join(", ")}; ` +
    `GPU ${gpu.peak}, ${gpu.legend}`);
  check(gpu.group !== null && gpu.buttons.length === 2 && gpu.buttons[0].text === "CPU" && gpu.buttons[1].text === "GPU",
    `the panel offers the CPU and GPU ledgers in a labelled group (${JSON.stringify(gpu.buttons)})`);
  check(gpu.device !== "cpu" && gpu.buttons.find((b) => b.pressed === "true")?.device === gpu.device,
    `a GPU run shows the GPU's ledger first (${gpu.device})`);
  check(gpu.line !== null && gpu.legend?.startsWith("reserved "),
    `the GPU ledger draws the reserve, named in the legend (${gpu.legend})`);
  check(gpu.top < 92 && gpu.last > gpu.top,
    `the reserve rose above zero and fell after empty_cache (highest y ${gpu.top}, last ${gpu.last})`);
  check(gpu.peak?.startsWith("peak ") && gpu.bands >= 1, `the GPU ledger has its bands and peak (${gpu.peak})`);
  check(gpu.zeroGrads === 2, `model.zero_grad() is marked, twice (${gpu.zeroGrads})`);
  // The CPU's, with the keyboard.
  await page.locator("[data-testid=memory-ledger] button[data-device=cpu]").focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("[data-testid=memory-chart]")?.dataset.device === "cpu",
    null, { timeout: 5_000 });
  const cpu = await ledger(page);
  check(cpu.buttons.find((b) => b.pressed === "true")?.device === "cpu", "Enter on CPU picks the CPU's ledger (pressed)");
  check(cpu.line === null && cpu.legend === null, "the CPU ledger has no reserve");
  check(cpu.peak?.startsWith("peak ") && cpu.peak !== gpu.peak, `each ledger has its own peak (CPU ${cpu.peak}, GPU ${gpu.peak})`);
  checkNoPageErrors(problems);
} finally {
  await gpuBrowser.close();
}
