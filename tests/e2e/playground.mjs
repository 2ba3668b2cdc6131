// End-to-end: the playground page in Debian's headless Chromium.
//
// Env: GRADSCOPE_URL (the served site), GRADSCOPE_SCREENSHOT (the desktop
// screenshot's path; the others go beside it). Runs the example program on
// the Python runtime, checks the graph, memory and console, steps and scrubs
// back, runs a training loop of the learner's own, stops a runaway loop with
// Stop and with the time limit, switches device, keeps code across a reload,
// draws loss and gradient-norm charts (NaN marked), raises past a memory
// budget, makes and opens share links (and refuses bad ones), measures the
// main thread's frame times while a program trains, and checks that no panel
// overflows the window at 1280x800 and 390x844.
// Exits non-zero on any failure.
import { launch } from "./browser.mjs";
import { sameOutput } from "./compare.mjs";
import { pooled, startFrames, stopFrames } from "./frames.mjs";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";

const url = process.env.GRADSCOPE_URL;
const screenshot = process.env.GRADSCOPE_SCREENSHOT;
if (!url || !screenshot) {
  console.error("playground.mjs: set GRADSCOPE_URL and GRADSCOPE_SCREENSHOT");
  process.exit(2);
}
const shots = dirname(screenshot);
mkdirSync(shots, { recursive: true });

const TIMEOUT = 60_000;

// A program of the learner's own, and lines of what PyTorch prints for it.
const LOOP = readFileSync(new URL("../corpus/e2e_loop.py", import.meta.url), "utf8");
const LOOP_OUT = readFileSync(new URL("../corpus/e2e_loop.out", import.meta.url), "utf8").trim().split("\n");

function check(condition, message) {
  if (!condition) throw new Error(message);
  console.log(`  ok: ${message}`);
}

async function withBrowser(options, body) {
  const browser = await launch(options);
  try {
    await body(browser);
  } finally {
    await browser.close();
  }
}

/// A page at `viewport` that collects errors; `done()` asserts there were none.
async function open(browser, viewport, query) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  await page.goto(url + (query ?? ""));
  await waitReady(page);
  const done = () => check(problems.length === 0, `no page errors${problems.length ? ": " + problems.join("; ") : ""}`);
  return { page, done };
}

/// Waits for the engine; returns how long its worker took to make the
/// Python interpreter, as the status line reports it.
async function waitReady(page) {
  await page.waitForFunction(
    () => document.querySelector("[data-testid=status]")?.textContent.startsWith("ready"), null, { timeout: TIMEOUT },
  ).catch(async (err) => {
    throw new Error(`the engine never became ready: ${err.message}\npage text: ${await page.textContent("body")}`);
  });
  const status = await page.getByTestId("status").textContent();
  const ms = Number(/Python started in (\d+) ms/.exec(status)?.[1]);
  check(Number.isFinite(ms), `status reports the interpreter's start: "${status}"`);
  return ms;
}

/// Replaces the editor's text as a paste would (no auto-indent).
async function setCode(page, text) {
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}

async function waitStatus(page, text) {
  await page.waitForFunction(
    (want) => document.querySelector("[data-testid=status]")?.textContent === want, text, { timeout: TIMEOUT },
  ).catch(async (err) => {
    const body = await page.textContent("body");
    throw new Error(`status never became "${text}": ${err.message}\npage text: ${body}`);
  });
}

const nodes = (page) => page.locator("[data-testid=graph] g.node").evaluateAll(
  (gs) => gs.map((g) => ({ name: g.dataset.node, phase: g.dataset.phase, status: g.querySelector(".status").textContent })));
const code = (page) => page.locator(".cm-content").evaluate((el) => el.innerText);

/// Runs the program with Ctrl+Enter in the editor and waits for it to end.
async function runByKeyboard(page) {
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction(() => {
    const s = document.querySelector("[data-testid=status]")?.textContent ?? "";
    return s === "finished" || s.startsWith("raised");
  }, null, { timeout: TIMEOUT });
}

/// The memory chart draws each kind of span as one layer that says how many
/// spans of the trace it stands for and in how many stretches it draws them.
async function spanLayer(page, kind, attribute) {
  const layer = page.locator(`[data-testid=memory-chart] .span.${kind}`);
  return (await layer.count()) === 0 ? 0 : Number(await layer.getAttribute(attribute));
}
const spanCount = (page, kind) => spanLayer(page, kind, "data-count");
const spanStretches = (page, kind) => spanLayer(page, kind, "data-stretches");

/// No panel sticks out of the window (and, where the page is one screen, below it).
async function checkNoOverflow(page, label, { vertical }) {
  const out = await page.evaluate((vertical) => {
    const bad = [];
    const w = window.innerWidth, h = window.innerHeight;
    if (document.documentElement.scrollWidth > w) bad.push(`page scrolls sideways (${document.documentElement.scrollWidth} > ${w})`);
    for (const el of document.querySelectorAll(".panel, .transport, header.top")) {
      const r = el.getBoundingClientRect();
      const name = el.getAttribute("aria-label") ?? el.className;
      if (r.left < -0.5 || r.right > w + 0.5) bad.push(`${name}: x ${r.left}..${r.right} of ${w}`);
      if (vertical && (r.top < -0.5 || r.bottom > h + 0.5)) bad.push(`${name}: y ${r.top}..${r.bottom} of ${h}`);
      if (el.scrollWidth > el.clientWidth + 1 && !el.matches(".graph, .console")) bad.push(`${name} overflows itself`);
    }
    return bad;
  }, vertical);
  check(out.length === 0, `${label}: no panel overflows the window${out.length ? ": " + out.join("; ") : ""}`);
}

/// Zooms and drags the graph view about (wheel, drag, wheel) while the
/// frames are measured; prints the frames per second and returns the
/// frame-time figures.
async function measurePan(page, label) {
  await page.getByTestId("graph-view").focus();
  await page.keyboard.press("0");
  const view = await page.getByTestId("graph-view").boundingBox();
  const [bx, by] = [view.x + view.width / 2, view.y + view.height / 2];
  await page.mouse.move(bx, by);
  await startFrames(page);
  const started = Date.now();
  for (let i = 0; i < 8; i++) await page.mouse.wheel(0, -100);
  await page.mouse.down();
  for (let i = 1; i <= 60; i++) await page.mouse.move(bx + 4 * i * (i % 2 ? 1 : 0.5), by + 2 * i, { steps: 1 });
  await page.mouse.up();
  for (let i = 0; i < 8; i++) await page.mouse.wheel(0, 100);
  const seconds = (Date.now() - started) / 1000;
  const figures = await stopFrames(page, label);
  console.log(`  measured: ${label}: ${((figures.interval.n + 1) / seconds).toFixed(0)} frames per second for ${seconds.toFixed(1)} s`);
  return figures;
}

/// A share link as another program would write it: the settings as JSON,
/// raw DEFLATE (node's zlib, not the page's), base64url: the format is the
/// standard one, not just what the page reads back from itself.
function shareLink(settings, raw) {
  const json = raw ?? Buffer.from(JSON.stringify(settings));
  return `${url}#v1=${deflateRawSync(json).toString("base64url")}`;
}

/// The refusal message a link gets, read after opening it in a fresh page.
async function openRefused(browser, link) {
  const { page, done } = await open(browser, { width: 1280, height: 800 }, link.slice(url.length));
  const notice = page.getByTestId("link-notice");
  const text = await notice.textContent();
  check(await notice.evaluate((el) => el.classList.contains("refused")) &&
    text.startsWith("This share link could not be opened:"), `refused: ${text}`);
  check((await code(page)).startsWith("import torch"), "and the page shows its own code instead");
  done();
  await page.context().close();
  return text;
}

try {
  await withBrowser({ webgpu: true }, async (browser) => {
    console.log("desktop 1280x800, WebGPU:");
    const { page, done } = await open(browser, { width: 1280, height: 800 });
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      ready: performance.now(),
    }));
    const startup = Number(/(\d+) ms/.exec(await page.getByTestId("status").textContent())?.[1]);
    console.log(`  measured: first contentful paint ${timing.paint.toFixed(0)} ms, engine ready by ${timing.ready.toFixed(0)} ms, ` +
      `Python interpreter and torch made in ${startup} ms in the worker`);
    // The views rehearse on the worker's warm-up trace, unseen, as a
    // learner reads the page (components/rehearsal.rs): it ends with a
    // Performance API mark.
    const rehearsed = await page.waitForFunction(() => {
      const [mark] = performance.getEntriesByName("gradscope-rehearsed");
      return mark && mark.startTime;
    }, null, { timeout: TIMEOUT }).then((h) => h.jsonValue()).catch(() => NaN);
    check(Number.isFinite(rehearsed), `the views rehearsed on the warm-up trace, by ${rehearsed.toFixed(0)} ms`);
    check((await page.locator(".cm-editor .cm-lineNumbers").count()) === 1, "the editor shows line numbers");
    check((await code(page)).startsWith("import torch"), "the editor holds the example program");
    check((await page.locator(".cm-line span").count()) > 3, "Python is highlighted");
    await page.waitForFunction(() => document.querySelector("[data-testid=device] option[value=webgpu]")
      ?.textContent.startsWith("WebGPU ·"), null, { timeout: TIMEOUT });
    const adapter = await page.locator("[data-testid=device] option[value=webgpu]").textContent();
    check(true, `device menu offers ${adapter}`);

    await runByKeyboard(page);
    await waitStatus(page, "finished");
    const console_ = await page.getByTestId("console").textContent();
    check(console_.includes("tensor(27., grad_fn=<MeanBackward0>)"), "console: print(out) as PyTorch prints it");
    check(console_.includes("tensor([[4.5000, 4.5000],") && console_.includes("[4.5000, 4.5000]])"),
      "console: print(x.grad) as PyTorch prints it");
    check(await page.locator("[data-testid=graph]").count() === 1 && await page.locator("[data-testid=memory-chart]").count() === 1,
      "one graph and one memory chart in the document: the rehearsal's were never in it");
    let graph = await nodes(page);
    const names = graph.map((n) => n.name).sort();
    check(JSON.stringify(names) === JSON.stringify(
      ["AccumulateGrad", "AddBackward0", "MeanBackward0", "MulBackward0", "MulBackward0"]), `graph: ${names.join(", ")}`);
    check(graph.filter((n) => n.name === "MulBackward0").every((n) => n.phase === "freed"),
      "after backward the MulBackward0 nodes have freed their saved tensors");
    check(graph.find((n) => n.name === "AccumulateGrad").status === ".grad set", "the leaf shows its .grad");
    // The edges are drawn as one path of curves and one of arrowheads:
    // count their subpaths.
    const subpaths = async (cls) => ((await page.locator(`[data-testid=graph] path.${cls}`).getAttribute("d")) ?? "")
      .split("M").length - 1;
    check(await subpaths("edge") === 5 && await subpaths("arrowheads") === 5, "graph has 5 edges, each with its arrowhead");
    check((await page.locator("[data-testid=memory-chart] path.band").count()) >= 2, "memory chart has stacked bands");
    check((await page.getByTestId("memory-peak").textContent()).startsWith("peak "), "memory chart marks the peak");
    check(await spanCount(page, "backward") === 1, "memory chart marks backward");

    // Step back one statement: to just before backward().
    await page.getByRole("button", { name: "back one statement" }).click();
    graph = await nodes(page);
    check(graph.filter((n) => n.name === "MulBackward0").every((n) => n.phase === "holding"),
      "stepped back before backward: MulBackward0 holds its saved tensors");
    check(graph.find((n) => n.name === "AccumulateGrad").status === ".grad None", "and x.grad is None");
    check((await page.getByTestId("graph-title").textContent()).includes("saved"), "graph title sums saved bytes");
    check((await page.locator(".cm-line[data-mark=current]").count()) === 1, "the editor marks the current line");
    check(/line 6$/.test(await page.getByTestId("position").textContent()), "position shows line 6 (z.mean())");
    await page.locator("[data-testid=graph] g.node[data-node=MulBackward0]").first().click();
    const details = await page.getByTestId("node-details").textContent();
    check(details.startsWith("MulBackward0: holding saved") && /saved: \w+ \[.*\] (\w+ )?\d+ B/.test(details),
      `clicking a node shows its saved tensors: ${details}`);
    await page.screenshot({ path: join(shots, "playground-1280x800-stepped.png") });

    // One op into backward: MeanBackward0 runs first.
    await page.getByRole("button", { name: "forward one op" }).click();
    const running = (await nodes(page)).filter((n) => n.phase === "running").map((n) => n.name);
    check(JSON.stringify(running) === '["MeanBackward0"]', `backward starts at MeanBackward0 (running: ${running})`);
    await page.getByRole("button", { name: "back one op" }).click();

    // Scrub to the start, then step forward one op.
    await page.getByTestId("scrub").fill("0");
    check((await nodes(page)).length === 0, "scrubbed to 0: no graph");
    await page.getByRole("button", { name: "forward one op" }).click();
    const afterOne = await nodes(page);
    check(afterOne.length >= 1 && afterOne.length < 5, `one op forward: ${afterOne.length} node(s)`);
    await page.getByTestId("scrub").fill(await page.getByTestId("scrub").getAttribute("max"));
    check((await nodes(page)).length === 5, "scrubbed to the end: whole graph again");
    await checkNoOverflow(page, "1280x800", { vertical: true });

    // The graph view pans and zooms: labelled buttons, keys, wheel and drag.
    const scale = async () => Number(await page.getByTestId("graph").getAttribute("data-scale"));
    const translate = async () => (await page.locator("[data-testid=graph] g.content").getAttribute("transform"))
      .match(/translate\(([-\d.]+),([-\d.]+)\)/).slice(1).map(Number);
    // The scale "fit" gives, read after pressing it: read before, it could
    // be a frame older than the view's own fit to the scrubbed graph.
    await page.getByRole("button", { name: "fit the graph to the view" }).click();
    const fitted = await scale();
    await page.getByRole("button", { name: "zoom in" }).click();
    const zoomedIn = await scale();
    check(zoomedIn > fitted, `the zoom in button enlarges the graph (scale ${fitted} to ${zoomedIn})`);
    await page.getByRole("button", { name: "zoom out" }).click();
    await page.getByRole("button", { name: "zoom out" }).click();
    check(await scale() < fitted, `zoom out shrinks it (${await scale()})`);
    await page.getByRole("button", { name: "fit the graph to the view" }).click();
    check(await scale() === fitted, "fit shows the whole graph again");
    await page.getByTestId("graph-view").focus();
    await page.keyboard.press("+");
    check(await scale() > fitted, "+ zooms in from the keyboard");
    await page.keyboard.press("-");
    check(Math.abs(await scale() - fitted) < 1e-3, "- zooms back out");
    const [x0] = await translate();
    await page.keyboard.press("ArrowRight");
    check((await translate())[0] < x0, "the arrow keys pan");
    await page.keyboard.press("0");
    check(await scale() === fitted && (await translate())[0] === x0, "0 fits the graph again");
    const viewBox = await page.getByTestId("graph-view").boundingBox();
    const [cx, cy] = [viewBox.x + viewBox.width / 2, viewBox.y + viewBox.height - 10];
    await page.mouse.move(cx, cy);
    await page.mouse.wheel(0, -100);
    await page.waitForFunction((f) => Number(document.querySelector("[data-testid=graph]").dataset.scale) > f, fitted);
    check(true, `the wheel zooms about the pointer (scale ${await scale()})`);
    const [wx, wy] = await translate();
    await page.mouse.down();
    await page.mouse.move(cx + 80, cy - 30, { steps: 5 });
    await page.mouse.up();
    const [dx, dy] = (await translate()).map((v, i) => v - [wx, wy][i]);
    check(Math.abs(dx - 80) < 1 && Math.abs(dy + 30) < 1, `dragging pans by the pointer's move (${dx}, ${dy})`);
    await page.keyboard.press("0");
    check(await scale() === fitted, "and 0 fits it again");
    await page.screenshot({ path: screenshot });
    console.log(`  screenshot: ${screenshot}`);

    // WebGPU: the program's tensors live on the GPU, and it prints what it
    // printed on the CPU (no notice of a fallback in the console).
    const onCpu = await page.getByTestId("console").textContent();
    await page.getByTestId("device").selectOption("webgpu");
    await page.getByTestId("run").click();
    await waitStatus(page, "finished");
    const onGpu = await page.getByTestId("console").textContent();
    const gpuDiffers = sameOutput(onGpu, onCpu);
    check(gpuDiffers === null, `on WebGPU the program prints what it printed on the CPU${gpuDiffers ? ` (${gpuDiffers}): ${onGpu}` : ""}`);
    check((await nodes(page)).length === 5, "the WebGPU run shows the graph");

    // A program that raises: the console shows a traceback, and the editor
    // marks the line when the runtime reports it.
    const raising = 'raise ValueError("boom")';
    await page.locator(".cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(`\n${raising}`);
    await runByKeyboard(page);
    const status = await page.getByTestId("status").textContent();
    check(status.startsWith("raised "), `the program raised (${status})`);
    const traceback = await page.getByTestId("traceback").textContent();
    check(traceback.length > 0, `console shows the traceback: ${traceback.trim().split("\n").pop()}`);
    if (status === "raised ValueError") {
      const marked = await page.locator(".cm-line[data-mark=error]").textContent();
      check(marked === raising, "the editor marks the failing line");
    }

    // The learner's own program: a training loop on plain tensors, with
    // output identical to PyTorch's (recorded: tests/corpus/e2e_loop.out).
    await page.getByTestId("device").selectOption("cpu");
    await setCode(page, LOOP);
    await startFrames(page);
    await runByKeyboard(page);
    await waitStatus(page, "finished");
    const loopFrames = await stopFrames(page, "main thread while the training loop ran");
    check(loopFrames.work.n > 0, "frames were drawn while the training loop ran");
    const loopOut = await page.getByTestId("console").textContent();
    check(LOOP_OUT.every((line) => loopOut.includes(line)), `the training loop prints what PyTorch prints (${LOOP_OUT.at(-1)})`);
    check(await spanCount(page, "backward") === 20 && await spanStretches(page, "backward") === 20,
      "memory chart marks 20 backward passes, each its own stretch");
    // Charts: loss and gradient norms, one point per backward.
    check((await page.getByTestId("charts-title").textContent()) === "Charts · 20 steps", "charts count 20 steps");
    const lossPath = await page.locator("[data-testid=loss-chart] .series > path").first().getAttribute("d");
    check(lossPath.startsWith("M") && lossPath.split("L").length === 20, "the loss chart has a line through 20 steps");
    const legend = await page.locator("[data-testid=charts-legend] li").allTextContents();
    // Parameters go by the program's names for them (named_parameters()
    // names for a module's), in the order they first got a gradient.
    check(JSON.stringify(legend) === '["joint norm","b [1]","w [1, 1]"]',
      `the gradient chart's legend: joint norm and one line per parameter (${legend.join(", ")})`);
    check((await page.locator("[data-testid=grad-chart] .series").count()) === 3, "the gradient chart draws 3 lines");
    const dashes = await page.locator("[data-testid=grad-chart] .series > path:first-child")
      .evaluateAll((ps) => ps.map((p) => `${p.getAttribute("stroke")} ${p.getAttribute("stroke-dasharray") ?? ""}`));
    check(new Set(dashes).size === 3 && new Set(dashes.map((d) => d.split(" ")[1])).size === 3,
      `lines differ in colour and in dash (${dashes.join("; ")})`);
    const linearTicks = await page.locator("[data-testid=loss-chart] .tick text").allTextContents();
    await page.getByRole("group", { name: "value scale" }).getByRole("button", { name: "log" }).click();
    const logTicks = await page.locator("[data-testid=loss-chart] .tick text").allTextContents();
    check(logTicks.join() !== linearTicks.join() && logTicks.every((t) => /^(1|10+|0\.0*1|1e-?\d+)$/.test(t)),
      `log scale: powers of ten (${logTicks.join(", ")}; linear was ${linearTicks.join(", ")})`);
    await page.getByRole("group", { name: "value scale" }).getByRole("button", { name: "linear" }).click();
    await page.screenshot({ path: join(shots, "playground-1280x800-loop.png") });

    // The same loop for 1,000 steps: over 100,000 events. The views keep
    // up (old freed passes are not drawn; narrow spans join) and the frame
    // times are measured while it trains.
    await setCode(page, LOOP.replace("range(20)", "range(1000)"));
    await startFrames(page);
    await runByKeyboard(page);
    await waitStatus(page, "finished");
    const longFrames = await stopFrames(page, "main thread while the loop trained 1,000 steps");
    const events = Number(/event (\d+) \//.exec(await page.getByTestId("position").textContent())?.[1]);
    check(events > 100_000, `the trace holds ${events} events`);
    check(longFrames.interval.max < 1000, `the page kept drawing: no frame took a second (longest ${longFrames.interval.max.toFixed(0)} ms)`);
    // Issue 7's target: the main thread's frame time p95 at most 16 ms
    // while a program trains, over both runs' frames (the figure is
    // printed; frames.mjs says what it measures). A timing on a shared
    // 2-core machine is not a pass or fail, so the check only catches a
    // return of the whole-trace redraws (p95 of 200 ms and more).
    const training = pooled("main thread while the loop trained 20 and 1,000 steps", loopFrames, longFrames);
    check(training.work.p95 < 50, `frame time p95 under 50 ms while the loops trained (${training.work.p95.toFixed(1)} ms)`);
    check((await page.getByTestId("graph-title").textContent()).includes("freed by earlier passes not drawn") &&
      (await page.locator("[data-testid=graph] g.node").count()) <= 160, "the graph draws the recent passes only");
    check(await spanCount(page, "backward") === 1000 && await spanStretches(page, "backward") < 100 &&
      await spanStretches(page, "no-grad") < 100,
      "the memory chart joins its narrow spans");
    check((await page.getByTestId("charts-title").textContent()) === "Charts · 1000 steps", "the charts count 1000 steps");

    // 500 nodes stay usable: a graph of 501 nodes (one leaf, 249 products
    // and their exp, a stack and a sum), drawn whole, then zoomed and
    // dragged about while the frames are measured.
    await setCode(page, "import torch\nx = torch.ones(3, requires_grad=True)\n" +
      "ys = [(x * float(i + 1)).exp() for i in range(249)]\nloss = torch.stack(ys).sum()\n");
    await runByKeyboard(page);
    await waitStatus(page, "finished");
    check((await page.locator("[data-testid=graph] g.node").count()) === 501 &&
      (await page.getByTestId("graph-title").textContent()).startsWith("Autograd graph · 501 nodes"), "a 501-node graph is drawn whole");
    const plainFps = await measurePan(page, "graph of 501 nodes while zoomed and dragged");
    check(plainFps.interval.p95 < 34, `with 501 nodes the view keeps at least 30 frames per second (p95 interval ${plainFps.interval.p95.toFixed(1)} ms)`);
    await page.keyboard.press("0");

    // Large graphs group their nodes by nn.Module. A small model's groups
    // start open: frames around its nodes, whose headers collapse them.
    const model = (blocks) => "import torch\nfrom torch import nn\n" +
      `model = nn.Sequential(*[m for _ in range(${blocks}) for m in (nn.Linear(4, 4), nn.Tanh())])\n` +
      "loss = model(torch.ones(2, 4)).sum()\n";
    const graphCount = (selector) => page.locator(`[data-testid=graph] ${selector}`).count();
    // The view redraws on the next frame after a toggle: wait for it.
    const untilCount = (selector, n) => page.waitForFunction(([s, n]) =>
      document.querySelectorAll(`[data-testid=graph] ${s}`).length === n, [selector, n], { timeout: 5_000 }).catch(() => {});
    await setCode(page, model(2));
    await runByKeyboard(page);
    await waitStatus(page, "finished");
    check(await graphCount("g.group") === 0 && await graphCount("g.node") === 11 &&
      await graphCount("g.group-frame") === 5, "a small model's 11 nodes are drawn in open module frames (Sequential and its 4 modules)");
    const header = page.locator('[data-testid=graph] g.group-frame[data-group="0 (Linear)"] g.group-header');
    check((await header.getAttribute("aria-expanded")) === "true" &&
      (await header.getAttribute("aria-label")).startsWith("module 0 (Linear): 4 nodes, open"), "an open group's header is a labelled button");
    await header.click();
    await untilCount("g.group", 1);
    check(await graphCount('g.group[data-group="0 (Linear)"]') === 1 && await graphCount("g.node") === 7,
      "clicking its header collapses 0 (Linear) into one box");

    // Over 150 nodes, the modules inside the outermost start collapsed: a
    // Sequential of 100 Linear and Tanh blocks (501 nodes) is 200 boxes.
    await setCode(page, model(100));
    await runByKeyboard(page);
    await waitStatus(page, "finished");
    const title = await page.getByTestId("graph-title").textContent();
    check(title.startsWith("Autograd graph · 501 nodes") && title.includes("200 modules collapsed") &&
      await graphCount("g.group") === 200 && await graphCount("g.node") === 1,
      `a 501-node model is drawn as 200 module boxes and its SumBackward0 (${title})`);
    const box = page.locator('[data-testid=graph] g.group[data-group="2 (Linear)"]');
    check((await box.getAttribute("aria-expanded")) === "false" && (await box.getAttribute("data-nodes")) === "4" &&
      (await box.getAttribute("aria-label")).startsWith("module 2 (Linear): 4 nodes"), "a collapsed group is a labelled button");
    const groupedFps = await measurePan(page, "501-node model, modules collapsed, while zoomed and dragged");
    check(groupedFps.interval.p95 < 34, `with its modules collapsed the view keeps at least 30 frames per second (p95 interval ${groupedFps.interval.p95.toFixed(1)} ms)`);
    await page.keyboard.press("0");
    // Opening one by keyboard shows its nodes in a frame.
    await box.focus();
    await page.keyboard.press("Enter");
    await untilCount("g.group", 199);
    const opened = await nodes(page);
    check(await graphCount("g.group") === 199 && opened.length === 5 &&
      opened.filter((n) => n.name === "AccumulateGrad").length === 2 && opened.some((n) => n.name === "AddmmBackward0") &&
      await graphCount('g.group-frame[data-group="2 (Linear)"]') === 1,
      `Enter on 2 (Linear) opens it: ${opened.map((n) => n.name).join(", ")}`);
    await page.locator('[data-testid=graph] g.group-frame[data-group="2 (Linear)"] g.group-header').focus();
    await page.keyboard.press("Enter");
    await untilCount("g.group", 200);
    check(await graphCount("g.group") === 200, "and Enter on its header collapses it again");
    await page.keyboard.press("0");

    // A loss that turns NaN is marked, not dropped.
    await setCode(page, "import torch\nw = torch.ones(2, requires_grad=True)\nfor i in range(4):\n" +
      "    loss = (w * (float('nan') if i == 2 else 2.0)).sum()\n    loss.backward()\n");
    await runByKeyboard(page);
    await waitStatus(page, "finished");
    const lossMarks = await page.locator("[data-testid=loss-chart] [data-testid=off-mark]").evaluateAll(
      (gs) => gs.map((g) => `${g.dataset.step}:${g.textContent}`));
    check(JSON.stringify(lossMarks) === '["3:NaN"]', `the NaN loss of step 3 is marked (${lossMarks})`);
    const gradMarks = await page.locator("[data-testid=grad-chart] [data-testid=off-mark]").count();
    check(gradMarks >= 2, `NaN gradient norms from step 3 on are marked (${gradMarks} marks)`);
    check((await page.getByTestId("loss-chart").getAttribute("aria-label")).includes("not finite"),
      "the chart's label tells assistive technology about them");

    // The memory budget: a run past it raises torch.OutOfMemoryError, and
    // the chart draws the budget.
    await page.getByTestId("budget-input").fill("1");
    await page.getByTestId("budget-input").press("Enter");
    await page.getByTestId("budget-input").blur();
    await setCode(page, "import torch\nsmall = torch.zeros(200_000)\nbig = torch.zeros(1024, 1024)\n");
    await runByKeyboard(page);
    check((await page.getByTestId("status").textContent()) === "raised OutOfMemoryError",
      "past a 1 MiB budget the program raises torch.OutOfMemoryError");
    const oom = await page.getByTestId("traceback").getAttribute("data-message");
    check(oom.includes("Tried to allocate 4.00 MiB") && oom.includes("budget is 1.00 MiB"), `the message: ${oom}`);
    check((await page.locator(".cm-line[data-mark=error]").textContent()).startsWith("big = "), "the editor marks the allocating line");
    const budgetLine = page.locator("[data-testid=memory-budget]");
    check((await budgetLine.locator("line").count()) === 1 && (await budgetLine.textContent()) === "budget 1 MiB",
      "the memory chart draws the budget as a line");
    await page.getByTestId("budget-input").fill("");
    await page.getByTestId("budget-input").blur();
    await runByKeyboard(page);
    await waitStatus(page, "finished");
    check((await page.locator("[data-testid=memory-budget]").count()) === 0, "with the budget cleared the same program runs (1 GiB default)");

    // Part of the corpus, run in the page's worker, prints what PyTorch printed.
    const corpusDir = new URL("../corpus/", import.meta.url);
    // Named, with the reason, and printed: never skipped silently.
    const NOT_IN_BROWSER = {
      "fuzz_found_errors.py": "view(0, 10**12, 10**12) is a valid size-0 shape in 64-bit PyTorch, " +
        "which wasm32's 32-bit sizes cannot hold: the page raises a RuntimeError there instead; " +
        "every other line matches, and the corpus test checks it all natively",
      "bad_sizes.py": "its sizes past 2**32 (2**40, 2**62), which 64-bit PyTorch accepts or refuses " +
        "with its own message, cannot be held by wasm32's 32-bit sizes: the page raises " +
        "'size ... is past the largest size this 32-bit build can hold' for those lines instead; " +
        "the corpus test checks the program natively",
      "meta_device.py": "its meta tensors' sizes pass 2**32 (a 65536x65536 image, rows of 8589934592 " +
        "elements), which 64-bit PyTorch holds and wasm32's 32-bit sizes cannot: the page raises " +
        "PyTorch's numel overflow there instead; the corpus test checks it natively",
    };
    const programs = readdirSync(corpusDir).filter((f) => f.endsWith(".py") && f !== "record.py"
      && existsSync(new URL(f.replace(/\.py$/, ".out"), corpusDir)) && !(f in NOT_IN_BROWSER)).sort();
    for (const [file, why] of Object.entries(NOT_IN_BROWSER)) console.log(`  not run in the browser: ${file}: ${why}`);
    const failures = [];
    let seconds = 0;
    for (const file of programs) {
      const want = readFileSync(new URL(file.replace(/\.py$/, ".out"), corpusDir), "utf8");
      await setCode(page, readFileSync(new URL(file, corpusDir), "utf8"));
      const started = Date.now();
      await runByKeyboard(page).catch((err) => { throw new Error(`corpus ${file}: ${err.message}`); });
      seconds += (Date.now() - started) / 1000;
      const status = await page.getByTestId("status").textContent();
      let got = (await page.locator("[data-testid=console] .stdout").allTextContents()).join("");
      if (status.startsWith("raised ")) {
        const traceback = page.getByTestId("traceback");
        const [kind, message] = [await traceback.getAttribute("data-kind"), await traceback.getAttribute("data-message")];
        got += `=== raised ${kind} ===\n${message}\n`;
      }
      const differs = sameOutput(got, want);
      if (differs) failures.push(`${file}: ${differs}`);
    }
    check(failures.length === 0,
      `${programs.length} corpus programs print in the browser what PyTorch printed (${seconds.toFixed(1)} s)` +
      (failures.length ? `; differ: ${failures.join("; ")}` : ""));

    // Issue 6's speed figure, in the browser: the chain written in Python.
    await setCode(page, readFileSync(new URL("../bench/chain.py", import.meta.url), "utf8"));
    await runByKeyboard(page);
    const chainLine = (await page.getByTestId("console").textContent()).match(/chain: .*/)?.[0];
    check(chainLine !== undefined, `measured in the page's worker: ${chainLine}`);

    // Stop ends a runaway loop at once and keeps the code.
    await setCode(page, "x = 0\nwhile True:\n    x += 1\n");
    await page.getByTestId("run").click();
    await waitStatus(page, "running");
    await page.waitForTimeout(300);
    await page.getByTestId("stop").click();
    await waitStatus(page, "stopped");
    check((await code(page)).startsWith("x = 0\nwhile True:"), "Stop keeps the code");
    await setCode(page, "print(sum(range(10)))\n");
    await runByKeyboard(page);
    check((await page.getByTestId("console").textContent()).includes("45"), "after Stop the next program runs");

    // Code and device survive a reload.
    await setCode(page, `print(1)\n${raising}\n`);
    await page.getByTestId("device").selectOption("webgpu");
    await page.reload();
    await waitReady(page);
    check((await code(page)).includes(raising), "reload keeps the code");
    check((await page.getByTestId("device").inputValue()) === "webgpu", "reload keeps the device");
    await page.getByRole("button", { name: "Reset" }).click();
    const reset = await code(page);
    check(reset.startsWith("import torch") && !reset.includes(raising), "Reset puts the example back");
    done();
  });

  await withBrowser({}, async (browser) => {
    console.log("a lesson (?lesson=forgot-zero-grad):");
    const { page, done } = await open(browser, { width: 1280, height: 800 }, "?lesson=forgot-zero-grad");
    const panel = page.getByTestId("lesson-panel");
    check((await panel.locator("h2").textContent()).startsWith("Lesson 3 ·"), "the address opens lesson 3");
    check((await code(page)).includes("ZERO_GRAD = True"), "the editor holds the lesson's program");
    check((await page.getByTestId("lesson").inputValue()) === "forgot-zero-grad", "the lesson menu shows it");
    const claimsDone = () => page.waitForFunction(
      () => / claims hold, as measured$/.test(document.querySelector("[data-testid=claims-summary]")?.textContent ?? ""),
      null, { timeout: 120_000 });
    await runByKeyboard(page);
    await claimsDone();
    const summary = await page.getByTestId("claims-summary").textContent();
    const [held, all] = summary.match(/\d+/g).map(Number);
    check(all >= 3 && held === all, `the engine checked the claims in the browser: ${summary}`);
    check((await page.locator("[data-testid=figures] dt").count()) > 0, "the lesson shows its measured figures");
    check((await page.getByTestId("charts-title").textContent()) === "Charts · 5 steps",
      "the charts count the lesson's 5 backward() steps, not its autograd.grad calls");
    await page.screenshot({ path: join(shots, "playground-lesson-1280x800.png") });
    // The checkbox rewrites the program's line and runs it again.
    await page.locator("[data-control=ZERO_GRAD] input").uncheck();
    await page.waitForFunction(() => document.querySelector("[data-testid=status]")?.textContent === "finished",
      null, { timeout: TIMEOUT });
    check((await code(page)).includes("ZERO_GRAD = False"), "unchecking ZERO_GRAD rewrites its line");
    await claimsDone();
    check(!(await code(page)).includes("ZERO_GRAD = True"), "and only that line");
    await checkNoOverflow(page, "lesson 1280x800", { vertical: true });
    await page.getByTestId("lesson").selectOption("");
    check((await page.getByTestId("lesson-panel").count()) === 0, "free play closes the lesson");
    check(!page.url().includes("lesson="), "and takes it out of the address");
    done();
  });

  await withBrowser({}, async (browser) => {
    console.log("share links:");
    const { page, done } = await open(browser, { width: 1280, height: 800 });
    const SHARED = "import torch\nprint('shared', torch.ones(3).sum().item())\n";
    const MINE = "print('mine')\n";
    await setCode(page, SHARED);
    await page.getByTestId("budget-input").fill("64");
    await page.getByTestId("budget-input").blur();
    await page.getByTestId("share").click();
    const link = await page.getByTestId("share-url").inputValue();
    check(link.startsWith(url + "#v1=") && /^[A-Za-z0-9_-]+$/.test(link.slice(url.length + 4)),
      `Share makes a versioned base64url link (${link.length} bytes)`);
    check(page.url() === link, "and puts it in the address bar");
    const settings = JSON.parse(inflateRawSync(Buffer.from(link.slice(url.length + 4), "base64url")).toString());
    check(settings.code === SHARED && settings.device === "cpu" && settings.budget_mib === 64,
      `the link holds raw DEFLATE of the settings (${JSON.stringify(settings).length} bytes of JSON)`);
    // The reader's own work, saved locally, then the link opened.
    await setCode(page, MINE);
    await page.getByTestId("budget-input").fill("");
    await page.getByTestId("budget-input").blur();
    check(!page.url().includes("#v1="), "editing takes the stale link out of the address");
    await page.goto("about:blank");
    await page.goto(link);
    await waitReady(page);
    check((await code(page)).trimEnd() === SHARED.trimEnd(), "the link opens with its code");
    check((await page.getByTestId("budget-input").inputValue()) === "64", "and its memory budget");
    check((await page.getByTestId("link-notice").textContent()).includes("has not run"), "the page says it has not run");
    await page.waitForTimeout(300);
    check(!(await page.getByTestId("console").textContent()).includes("shared"), "and it has not run");
    check((await page.evaluate(() => localStorage.getItem("gradscope.source"))) === MINE,
      "the reader's saved code is kept while the link is only open");
    await page.getByTestId("run").click();
    await waitStatus(page, "finished");
    check((await page.getByTestId("console").textContent()).includes("shared 3.0"), "Run runs the shared program");
    check((await page.evaluate(() => localStorage.getItem("gradscope.source"))) === SHARED,
      "once run, it is saved as the reader's code");
    check(!page.url().includes("#v1="), "and the link leaves the address, so a reload keeps it");

    // A link names a lesson, its controls (lines of its program) and the device.
    const lessonProgram = (await (await fetch(url + "embed-lessons.json")).json())
      .lessons.find((l) => l.slug === "forgot-zero-grad").program;
    const lessonLink = shareLink({ code: lessonProgram.replace("ZERO_GRAD = True", "ZERO_GRAD = False"),
      device: "cpu", lesson: "forgot-zero-grad" });
    await page.goto("about:blank");
    await page.goto(lessonLink);
    await waitReady(page);
    check((await page.getByTestId("lesson-panel").locator("h2").textContent()).startsWith("Lesson 3 ·"),
      "a link written by zlib opens its lesson");
    check(!(await page.locator("[data-control=ZERO_GRAD] input").isChecked()), "with its control as shared (ZERO_GRAD off)");
    check((await page.getByTestId("status").textContent()).startsWith("ready"), "and nothing ran");
    done();
    await page.context().close();

    // Links that cannot be read: a message, the page's own code, no error.
    const refusals = {
      "another version": `${url}#v2=AAAA`,
      "bad base64": `${url}#v1=ab/cd`,
      "bad deflate": `${url}#v1=${Buffer.from('{"code":"x","device":"cpu"}').toString("base64url")}`,
      "oversize": `${url}#v1=${"A".repeat(9000)}`,
      "bad JSON": shareLink(null, Buffer.from("not json")),
      "unknown lesson": shareLink({ code: "x", device: "cpu", lesson: "no-such-lesson" }),
    };
    const expect = {
      "another version": "another version of gradscope (v2)", "bad base64": "is not base64url",
      "bad deflate": "does not decompress", "oversize": "over the 8 KB", "bad JSON": "the link is damaged",
      "unknown lesson": "no-such-lesson",
    };
    for (const [what, bad] of Object.entries(refusals)) {
      const text = await openRefused(browser, bad);
      check(text.includes(expect[what]), `${what}: the message says so`);
    }

    // Share refuses to make a link past 8 KB, and says so.
    const { page: page2, done: done2 } = await open(browser, { width: 1280, height: 800 });
    let seed = 7;
    const noise = Array.from({ length: 12_000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return String.fromCharCode(97 + (seed >> 16) % 26);
    }).join("");
    await setCode(page2, `s = "${noise}"\n`);
    await page2.getByTestId("share").click();
    const refused = await page2.getByTestId("link-notice").textContent();
    check(refused.startsWith("No link made:") && refused.includes("over the 8 KB"), `a long program: ${refused}`);
    check(!page2.url().includes("#v1="), "and the address is left alone");
    done2();
  });

  await withBrowser({}, async (browser) => {
    console.log("time limit (?time_limit=2):");
    const { page, done } = await open(browser, { width: 1280, height: 800 }, "?time_limit=2");
    await setCode(page, "while True:\n    pass\n");
    await page.getByTestId("run").click();
    await page.waitForFunction(() => document.querySelector("[data-testid=status]")?.textContent.startsWith("raised"),
      null, { timeout: TIMEOUT });
    check((await page.getByTestId("status").textContent()) === "raised ExecutionLimitExceeded", "a runaway loop is stopped by the time limit");
    check((await page.getByTestId("console").textContent()).includes("time limit of 2 s"), "the console says why");
    await setCode(page, "print(6 * 7)\n");
    await runByKeyboard(page);
    check((await page.getByTestId("console").textContent()).includes("42"), "the fresh worker runs the next program");
    done();
  });

  await withBrowser({}, async (browser) => {
    console.log("phone 390x844, no WebGPU:");
    const { page, done } = await open(browser, { width: 390, height: 844 });
    await page.getByTestId("webgpu-unavailable").waitFor({ timeout: TIMEOUT });
    const note = await page.getByTestId("webgpu-unavailable").textContent();
    check(note.includes("WebGPU is not available") && note.includes("run on the CPU"), note);
    await page.getByTestId("run").click();
    await waitStatus(page, "finished");
    check((await nodes(page)).length === 5, "the CPU run shows the graph");
    await checkNoOverflow(page, "390x844", { vertical: false });
    const phone = join(shots, "playground-390x844.png");
    await page.screenshot({ path: phone, fullPage: true });
    console.log(`  screenshot: ${phone}`);
    done();
  });
  console.log("e2e: passed");
} catch (err) {
  console.error(`e2e: FAILED: ${err.message}`);
  process.exit(1);
}
