// End-to-end: the learner's names on the graph, memory by program line,
// the graph at the error and node details with storage sharing, in
// Debian's headless Chromium.
//
// Env: GRADSCOPE_URL (the served site); GRADSCOPE_SHOTS (where the
// screenshots go; target/e2e by default). Checks that
// - graph boxes carry the program's names under PyTorch's node names
//   (`x` on AccumulateGrad, `y`, `z`, `loss`);
// - the memory view lists the live tensors largest first with category,
//   bytes, name and line, and choosing one puts the editor's cursor on
//   that line; the CSV export carries the same line and name columns;
// - a node's details mark a saved tensor that shares its storage with
//   another (`y * y` saves y twice: counted once), and give each saved
//   tensor's dtype, strides and version;
// - the graph saves as SVG (standalone: styles written into it) and PNG
//   (the SVG drawn on a canvas), and the trace as Perfetto JSON, each from
//   a button reached by Tab and Enter;
// - a shape mismatch draws a failed node linked to its input, with the
//   exception's message under the graph; a second backward marks the node
//   where it stopped;
// - after a 20-step training loop the graph draws one step's graph and
//   sums up the 19 before it; scrubbed back, fewer; in the widget, the
//   pass buttons step from one step's backward to the next.
// Exits non-zero on any failure.
import { launch } from "./browser.mjs";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const url = process.env.GRADSCOPE_URL;
if (!url) {
  console.error("views.mjs: set GRADSCOPE_URL");
  process.exit(2);
}
const shots = process.env.GRADSCOPE_SHOTS ?? "target/e2e";
mkdirSync(shots, { recursive: true });

const TIMEOUT = 90_000;

function check(condition, message) {
  if (!condition) throw new Error(message);
  console.log(`  ok: ${message}`);
}

const NAMED = `import torch
x = torch.ones(64, 32, requires_grad=True)
w = torch.ones(32, 16, requires_grad=True)
y = x @ w
z = y * y
loss = z.sum()
`;

const MISMATCH = `import torch
x = torch.ones(3, 4, requires_grad=True)
w = torch.ones(5, 2)
h = x * 2
z = h @ w
`;

const TWICE = `import torch
x = torch.ones(3, requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()
`;

const LOOP = readFileSync(new URL("../corpus/e2e_loop.py", import.meta.url), "utf8");

/// Presses the export button `testid` by keyboard (focus, then Enter) and
/// returns the download: its file name and bytes.
async function exported(page, testid) {
  await page.getByTestId(testid).focus();
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 15_000 }),
    page.keyboard.press("Enter"),
  ]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

const editor = (page) => page.locator(".editor-main:not([hidden]) .cm-content");

async function setCode(page, text) {
  await editor(page).click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}

async function run(page, text) {
  await setCode(page, text);
  await editor(page).click();
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction(() => {
    const s = document.querySelector("[data-testid=status]")?.textContent ?? "";
    return s === "finished" || s.startsWith("raised");
  }, null, { timeout: TIMEOUT });
  // The last frame's batch of events reaches the views.
  await page.waitForTimeout(300);
  return page.getByTestId("status").textContent();
}

/// Each drawn node box: its node name, status line and classes.
const boxes = (page) => page.locator("[data-testid=graph] g.node").evaluateAll((gs) =>
  gs.map((g) => ({ node: g.dataset.node, label: g.querySelector(".label")?.textContent ?? "",
    status: g.querySelector(".status")?.textContent ?? "", failed: g.classList.contains("failed") })));

const browser = await launch();
let failed = false;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  await page.goto(url);
  await page.waitForFunction(() => (document.querySelector("[data-testid=status]")?.textContent ?? "")
    .startsWith("ready"), null, { timeout: TIMEOUT });

  console.log("names on the graph:");
  check(await run(page, NAMED) === "finished", "the named program finished");
  const named = await boxes(page);
  console.log(named.map((b) => `    | ${b.node}: ${b.label} | ${b.status}`).join("\n"));
  const labelled = (node, name) => named.some((b) => b.node === node && b.label === name);
  check(labelled("AccumulateGrad", "x") && labelled("AccumulateGrad", "w"), "leaves' AccumulateGrad boxes say x and w");
  check(labelled("MmBackward0", "y") && labelled("MulBackward0", "z") && labelled("SumBackward0", "loss"),
    "op nodes say y, z and loss under their names");
  await page.getByTestId("graph-view").screenshot({ path: join(shots, "views-graph-names.png") });

  console.log("memory by line:");
  const live = await page.getByTestId("live-tensor").evaluateAll((bs) =>
    bs.map((b) => ({ name: b.dataset.name, line: Number(b.dataset.line), bytes: Number(b.dataset.bytes), text: b.textContent })));
  console.log(live.map((t) => `    | ${t.text}`).join("\n"));
  check(live.length >= 4, `${live.length} live tensors listed`);
  check(live.every((t, i) => i === 0 || live[i - 1].bytes >= t.bytes), "largest first");
  check(live[0].name === "x" && live[0].line === 2 && live[0].text.includes("8 KiB"),
    `the largest is x, 8 KiB, from line 2: "${live[0].text}"`);
  const y = live.find((t) => t.name === "y");
  check(y && y.line === 4 && y.text.includes("saved for backward"), `y is saved for backward, made on line 4: "${y?.text}"`);
  await page.locator("[data-testid=live-tensor][data-name=y]").click();
  await page.waitForFunction(() => document.querySelector(".editor-main:not([hidden]) .cm-activeLineGutter")
    ?.textContent === "4", null, { timeout: 5000 }).catch(() => {});
  const cursorLine = await page.evaluate(() =>
    document.querySelector(".editor-main:not([hidden]) .cm-activeLineGutter")?.textContent);
  check(cursorLine === "4", `choosing y puts the editor's cursor on line 4 (gutter says ${cursorLine})`);
  await page.locator(".panel.memory").screenshot({ path: join(shots, "views-memory-lines.png") });
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 10_000 }),
    page.getByTestId("export-memory-csv").click(),
  ]);
  const csv = readFileSync(await download.path(), "utf8").split("\n");
  check(download.suggestedFilename() === "memory.csv" && csv[0].endsWith(",total,reserved,line,name"),
    `the memory CSV downloads with line and name columns: ${csv[0]}`);
  check(csv.some((row) => row.endsWith(",2,x")) && csv.some((row) => row.endsWith(",4,y")),
    "its rows name x (line 2) and y (line 4)");

  console.log("node details with storage sharing:");
  await page.locator("[data-testid=graph] g.node[data-node=MulBackward0]").first().click();
  const details = await page.getByTestId("node-details").textContent();
  console.log(`    | ${details}`);
  check(details.startsWith("MulBackward0: holding saved") && details.includes("the program calls it z"),
    "the details name the node's tensor");
  check(details.includes("other (64, 16) float32 4 KiB, stride (16, 1), version 0, same storage as self (counted once)"),
    "y saved twice by y * y is marked as one storage, counted once");
  // torch 2.15's z.grad_fn._saved_other: float32, stride (16, 1), offset 0, _version 0.
  check(details.includes("self (64, 16) float32 4 KiB, stride (16, 1), version 0"),
    "each saved tensor shows its dtype, strides and version (offset 0 left out)");
  check(details.includes("storage: 4 KiB counted once"), "the node's saved bytes count y once");

  console.log("exports:");
  const svg = await exported(page, "export-graph-svg");
  const svgText = svg.bytes.toString("utf8");
  check(svg.name === "graph.svg" && svgText.startsWith("<svg") && svgText.includes('xmlns="http://www.w3.org/2000/svg"'),
    `the graph downloads as graph.svg (${svg.bytes.length} bytes)`);
  check(svgText.includes("MmBackward0") && /style="[^"]*fill:\s*rgb/.test(svgText) && !svgText.includes("spare"),
    "the SVG carries the boxes' names and their colours inline, no hidden spare boxes");
  // The file renders alone: drawn by the browser from nothing but itself.
  const alone = await context.newPage();
  await alone.setContent(`<img id="svg" src="data:image/svg+xml;base64,${svg.bytes.toString("base64")}">`);
  const drawnSize = await alone.evaluate(async () => {
    const img = document.getElementById("svg");
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  });
  await alone.screenshot({ path: join(shots, "views-graph-export-svg.png") });
  await alone.close();
  check(drawnSize[0] > 100 && drawnSize[1] > 100, `the SVG renders alone (${drawnSize.join(" x ")})`);
  const png = await exported(page, "export-graph-png");
  const pngSize = [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)];
  check(png.name === "graph.png" && png.bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    `the graph downloads as graph.png (${png.bytes.length} bytes)`);
  check(pngSize[0] === 2 * drawnSize[0] && pngSize[1] === 2 * drawnSize[1],
    `the PNG is the SVG at twice its size (${pngSize.join(" x ")})`);
  const trace = await exported(page, "export-trace-json");
  const perfetto = JSON.parse(trace.bytes.toString("utf8"));
  const phases = new Set(perfetto.traceEvents.map((e) => e.ph));
  check(trace.name === "gradscope-trace.json" && perfetto.traceEvents.some((e) => e.name === "MmBackward0" && e.ph === "i") &&
    phases.has("C") && phases.has("M"),
    `the trace downloads as Perfetto JSON (${perfetto.traceEvents.length} events: instants, memory counters)`);

  console.log("the graph at the error:");
  const status = await run(page, MISMATCH);
  check(status.startsWith("raised"), `the mismatch raised (status "${status}")`);
  const atError = await boxes(page);
  const failedBox = atError.find((b) => b.failed);
  check(failedBox?.node === "RuntimeError" && failedBox.label === "z = h @ w" && failedBox.status === "raised here",
    `a failed node for the statement: ${JSON.stringify(failedBox)}`);
  // h's MulBackward0 to x's AccumulateGrad, and the failed node to h's.
  const edges = await page.locator("[data-testid=graph] g.edges").getAttribute("data-edges");
  check(edges === "2", `the failed node is linked to its input's node (${edges} edges)`);
  const error = await page.getByTestId("graph-error").textContent();
  check(error.includes("h (3, 4) · w (5, 2)") && error.includes("mm: mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)"),
    `the message and input shapes under the graph: "${error}"`);
  await page.locator(".panel.graph").screenshot({ path: join(shots, "views-graph-error.png") });

  const twice = await run(page, TWICE);
  check(twice.startsWith("raised"), "backward twice raised");
  const stopped = (await boxes(page)).filter((b) => b.failed).map((b) => b.node);
  check(JSON.stringify(stopped) === JSON.stringify(["SumBackward0"]), `backward stopped at its root: ${stopped}`);
  await page.screenshot({ path: join(shots, "views-page.png") });

  console.log("one step of a loop:");
  check(await run(page, LOOP) === "finished", "the 20-step loop finished");
  // The summary, without the pass buttons a page may put beside it.
  const summary = page.locator("[data-testid=graph-passes] span");
  const passes = await summary.textContent();
  check(passes === "19 earlier graphs built and freed, identical in shape",
    `the earlier steps are summed up: "${passes}"`);
  const loopBoxes = await boxes(page);
  check(loopBoxes.length <= 12 && loopBoxes.filter((b) => b.node === "AccumulateGrad").length === 2,
    `one step's graph is drawn (${loopBoxes.map((b) => b.node).join(", ")})`);
  await page.locator(".panel.graph").screenshot({ path: join(shots, "views-graph-one-step.png") });
  // Scrubbed back to the middle of the run: fewer earlier steps.
  await page.getByTestId("scrub").evaluate((input) => {
    input.value = String(Math.floor(Number(input.max) / 2));
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await page.waitForFunction(() => {
    const text = document.querySelector("[data-testid=graph-passes] span")?.textContent ?? "";
    return /^\d+ earlier/.test(text) && !text.startsWith("19 ");
  }, null, { timeout: 5_000 }).catch(() => {});
  const middle = await summary.textContent();
  const earlier = Number(/^(\d+) earlier/.exec(middle)?.[1]);
  check(earlier >= 5 && earlier <= 14 && middle.endsWith("identical in shape"), `halfway through, "${middle}"`);

  // The widget steps from pass to pass: each stop is where a step's
  // backward begins, its graph built whole and holding what it saved.
  const widget = await context.newPage();
  widget.on("pageerror", (err) => problems.push(`widget page error: ${err.message}`));
  await widget.goto(`${url}embed.html?code=${encodeURIComponent(LOOP)}&panels=graph,memory&device=cpu`);
  const widgetStatus = (want) => widget.waitForFunction((want) =>
    (document.querySelector("[data-testid=status]")?.textContent ?? "").startsWith(want), want, { timeout: TIMEOUT });
  await widgetStatus("ready");
  await widget.getByTestId("run").click();
  await widgetStatus("finished");
  await widget.waitForTimeout(300);
  const at = async () => ({
    position: Number(/event (\d+)/.exec(await widget.getByTestId("position").textContent())?.[1]),
    summary: await widget.locator("[data-testid=graph-passes] span").textContent(),
    phases: await widget.locator("[data-testid=graph] g.node").evaluateAll((gs) => gs.map((g) => g.dataset.phase)),
  });
  const pass = async (testid) => {
    const before = (await at()).position;
    await widget.getByTestId(testid).focus();
    await widget.keyboard.press("Enter");
    await widget.waitForFunction((before) => !document.querySelector("[data-testid=position]")?.textContent
      .startsWith(`event ${before} `), before, { timeout: 5_000 }).catch(() => {});
    await widget.waitForTimeout(300);
    return at();
  };
  const end = await at();
  const last = await pass("previous-pass");
  check(last.position < end.position && last.summary === "19 earlier graphs built and freed, identical in shape" &&
    last.phases.includes("holding") && !last.phases.includes("freed"),
    `◀ pass steps back to the last step's backward (event ${last.position}): its graph whole, holding saved`);
  const before = await pass("previous-pass");
  check(before.position < last.position && before.summary === "18 earlier graphs built and freed, identical in shape",
    `and again to the step before (event ${before.position}): "${before.summary}"`);
  const again = await pass("next-pass");
  check(again.position === last.position, `pass ▶ steps forward to the last step again (event ${again.position})`);
  await widget.screenshot({ path: join(shots, "views-widget-pass.png") });
  await widget.close();
  check(problems.length === 0, `no page errors${problems.length ? `: ${problems.join("; ")}` : ""}`);
} catch (err) {
  failed = true;
  console.error(`FAILED: ${err.message}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
