// End-to-end: the playground page in Debian's headless Chromium.
//
// Env: GRADSCOPE_URL (the served site), GRADSCOPE_SCREENSHOT (the desktop
// screenshot's path; the others go beside it). Runs the example program on
// the Python runtime, checks the graph, memory and console, steps and scrubs
// back, runs a training loop of the learner's own, stops a runaway loop with
// Stop and with the time limit, switches device, keeps code across a reload,
// and checks that no panel overflows the window at 1280x800 and 390x844.
// Exits non-zero on any failure.
import { chromium } from "playwright-core";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const url = process.env.GRADSCOPE_URL;
const screenshot = process.env.GRADSCOPE_SCREENSHOT;
if (!url || !screenshot) {
  console.error("playground.mjs: set GRADSCOPE_URL and GRADSCOPE_SCREENSHOT");
  process.exit(2);
}
const shots = dirname(screenshot);
mkdirSync(shots, { recursive: true });

const baseArgs = [
  "--headless=new", "--no-sandbox", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-quic", "--disable-dev-shm-usage",
];
const webgpuArgs = ["--enable-unsafe-webgpu", "--enable-webgpu-developer-features"];
const TIMEOUT = 60_000;

// A program of the learner's own, and lines of what PyTorch prints for it.
const LOOP = readFileSync(new URL("../corpus/e2e_loop.py", import.meta.url), "utf8");
const LOOP_OUT = readFileSync(new URL("../corpus/e2e_loop.out", import.meta.url), "utf8").trim().split("\n");

/// Splits printed text into tokens: numbers, object addresses, newlines, words.
function tokens(text) {
  const re = /(0x[0-9a-fA-F]+)|(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(\n)|([^\s\d.-]+|[.-])/g;
  const out = [];
  for (const m of text.matchAll(re)) {
    if (m[1]) out.push({ address: true });
    else if (m[2]) out.push({ number: Number(m[2]), text: m[2] });
    else if (m[3]) out.push({ newline: true });
    else if (m[4]) out.push({ text: m[4] });
  }
  return out;
}

/// Whether two outputs agree token by token, numbers within the corpus
/// test's tolerance (crates/python/tests/corpus.rs), addresses ignored.
function sameOutput(got, want) {
  const [a, b] = [tokens(got), tokens(want)];
  if (a.length !== b.length) return `${a.length} tokens, PyTorch printed ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    if (x.address && y.address) continue;
    if (x.newline && y.newline) continue;
    if (x.number !== undefined && y.number !== undefined) {
      const close = x.number === y.number || Math.abs(x.number - y.number) <= Math.max(1e-6, 1e-4 * Math.abs(y.number));
      if (close || (Number.isNaN(x.number) && Number.isNaN(y.number))) continue;
    }
    if (x.text !== undefined && x.text === y.text && x.number === undefined && y.number === undefined) continue;
    return `token ${i}: got ${JSON.stringify(x)}, PyTorch printed ${JSON.stringify(y)}`;
  }
  return null;
}

function check(condition, message) {
  if (!condition) throw new Error(message);
  console.log(`  ok: ${message}`);
}

async function withBrowser(args, body) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args, headless: true });
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

try {
  await withBrowser([...baseArgs, ...webgpuArgs], async (browser) => {
    console.log("desktop 1280x800, WebGPU:");
    const { page, done } = await open(browser, { width: 1280, height: 800 });
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      ready: performance.now(),
    }));
    const startup = Number(/(\d+) ms/.exec(await page.getByTestId("status").textContent())?.[1]);
    console.log(`  measured: first contentful paint ${timing.paint.toFixed(0)} ms, engine ready by ${timing.ready.toFixed(0)} ms, ` +
      `Python interpreter and torch made in ${startup} ms in the worker`);
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
    let graph = await nodes(page);
    const names = graph.map((n) => n.name).sort();
    check(JSON.stringify(names) === JSON.stringify(
      ["AccumulateGrad", "AddBackward0", "MeanBackward0", "MulBackward0", "MulBackward0"]), `graph: ${names.join(", ")}`);
    check(graph.filter((n) => n.name === "MulBackward0").every((n) => n.phase === "freed"),
      "after backward the MulBackward0 nodes have freed their saved tensors");
    check(graph.find((n) => n.name === "AccumulateGrad").status === ".grad set", "the leaf shows its .grad");
    check((await page.locator("[data-testid=graph] path.edge").count()) === 5, "graph has 5 edges");
    check((await page.locator("[data-testid=memory-chart] path.band").count()) >= 2, "memory chart has stacked bands");
    check((await page.getByTestId("memory-peak").textContent()).startsWith("peak "), "memory chart marks the peak");
    check((await page.locator("[data-testid=memory-chart] .span.backward").count()) === 1, "memory chart marks backward");

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
    check(details.startsWith("MulBackward0: holding saved") && /saved: \w+ \[.*\] \d+ B/.test(details),
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
    await page.screenshot({ path: screenshot });
    console.log(`  screenshot: ${screenshot}`);

    // WebGPU: the GPU backend's kernels run and agree with the CPU.
    await page.getByTestId("device").selectOption("webgpu");
    await page.getByTestId("run").click();
    await waitStatus(page, "finished");
    const notice = await page.getByTestId("console").textContent();
    check(notice.includes("max |GPU - CPU| = 0"), "on WebGPU the GPU kernels agree with the CPU");

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
    await runByKeyboard(page);
    await waitStatus(page, "finished");
    const loopOut = await page.getByTestId("console").textContent();
    check(LOOP_OUT.every((line) => loopOut.includes(line)), `the training loop prints what PyTorch prints (${LOOP_OUT.at(-1)})`);
    check((await page.locator("[data-testid=memory-chart] .span.backward").count()) === 20, "memory chart marks 20 backward passes");
    await page.screenshot({ path: join(shots, "playground-1280x800-loop.png") });

    // Part of the corpus, run in the page's worker, prints what PyTorch printed.
    const corpusDir = new URL("../corpus/", import.meta.url);
    // Named, with the reason, and printed: never skipped silently.
    const NOT_IN_BROWSER = {
      "fuzz_found_errors.py": "sizes past 2^32 elements: wasm32's usize is 32-bit, so these overflow " +
        "differently (and some dims truncate: a known bug); checked natively by the corpus test",
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

  await withBrowser(baseArgs, async (browser) => {
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

  await withBrowser(baseArgs, async (browser) => {
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

  await withBrowser(baseArgs, async (browser) => {
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
