// End-to-end: the playground page in Debian's headless Chromium.
//
// Env: GRADSCOPE_URL (the served site), GRADSCOPE_SCREENSHOT (the desktop
// screenshot's path; the others go beside it). Runs the example program,
// checks the graph, memory and console, steps and scrubs back, switches
// device, keeps code across a reload, and checks that no panel overflows the
// window at 1280x800 and 390x844. Exits non-zero on any failure.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
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
async function open(browser, viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  await page.goto(url);
  await waitStatus(page, "ready");
  const done = () => check(problems.length === 0, `no page errors${problems.length ? ": " + problems.join("; ") : ""}`);
  return { page, done };
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
    console.log(`  measured: first contentful paint ${timing.paint.toFixed(0)} ms, engine ready by ${timing.ready.toFixed(0)} ms`);
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

    // Code and device survive a reload.
    await page.reload();
    await waitStatus(page, "ready");
    check((await code(page)).includes(raising), "reload keeps the code");
    check((await page.getByTestId("device").inputValue()) === "webgpu", "reload keeps the device");
    await page.getByRole("button", { name: "Reset" }).click();
    check(!(await code(page)).includes("# kept"), "Reset puts the example back");
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
