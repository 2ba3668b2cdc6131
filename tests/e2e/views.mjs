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
//   pass buttons step from one step's backward to the next;
// - the memory panel's header is one row at 1280x800 and at 390x844, its
//   icon buttons named for screen readers (heights printed, screenshots
//   views-memory-header-*.png);
// - the memory view and the training charts zoom as one: s in the memory
//   view shows that step in the charts, with the step's forward, backward
//   and no_grad marked once each; zooming the charts moves the memory view
//   to the same steps; 0 in either shows the whole run in both.
// Exits non-zero on any failure.
import { launch } from "./browser.mjs";
import { TIMEOUT, check, run, settings, waitReady, NAMED, MISMATCH } from "./page.mjs";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const { url, shots } = settings("views.mjs");


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

/// The memory panel's header: its height, its width and how far its
/// contents reach past it, and the vertical middle of each visible control
/// and of the title (one row: all within a few pixels).
const memoryHead = (page) => page.getByTestId("memory-head").evaluate((head) => {
  const box = head.getBoundingClientRect();
  const parts = [...head.querySelectorAll("h2, button")].filter((e) => e.getClientRects().length)
    .map((e) => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; });
  return { height: box.height, width: box.width, overflow: head.scrollWidth - head.clientWidth,
    spread: Math.max(...parts) - Math.min(...parts), controls: parts.length - 1 };
});

/// Checks that the memory header is one row at the page's width.
async function oneRowHeader(page, width) {
  const head = await memoryHead(page);
  console.log(`  measured: memory header at ${width} wide: ${head.height.toFixed(1)} px high, ` +
    `${head.width.toFixed(0)} px wide, ${head.controls} controls, middles within ${head.spread.toFixed(1)} px`);
  check(head.height <= 30 && head.spread <= 3, `the memory header is one row at ${width} (was 46.8 px, two rows of buttons)`);
  check(head.overflow <= 0, `nothing in it reaches past the panel (${head.overflow} px)`);
  await page.getByTestId("memory-head").screenshot({ path: join(shots, `views-memory-header-${width}.png`) });
}

/// The memory view's zoom (start, end) and the loss chart's step axis.
const memoryZoom = async (page) => (await page.getByTestId("memory-zoom").getAttribute("data-zoom")).split(",").map(Number);
const chartSteps = (page) => page.locator("[data-testid=loss-chart] [data-testid=charts-steps]").textContent();
/// How many ticks of a kind the memory view draws.
const marks = (page, kind) => page.locator(`[data-testid=marks-${kind}] path`)
  .evaluateAll((paths) => (paths[0]?.getAttribute("d") ?? "").split("M").length - 1);

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
  await waitReady(page);

  console.log("names on the graph:");
  check(await run(page, NAMED) === "finished", "the named program finished");
  const named = await boxes(page);
  console.log(named.map((b) => `    | ${b.node}: ${b.label} | ${b.status}`).join("\n"));
  const labelled = (node, name) => named.some((b) => b.node === node && b.label === name);
  check(labelled("AccumulateGrad", "x") && labelled("AccumulateGrad", "w"), "leaves' AccumulateGrad boxes say x and w");
  check(labelled("MmBackward0", "y") && labelled("MulBackward0", "z") && labelled("SumBackward0", "loss"),
    "op nodes say y, z and loss under their names");
  await page.getByTestId("graph-view").screenshot({ path: join(shots, "views-graph-names.png") });

  console.log("the memory header:");
  await oneRowHeader(page, 1280);
  const names = await page.locator("[data-testid=memory-head] button").evaluateAll((bs) =>
    bs.map((b) => b.textContent.trim()));
  check(["Pin", "SVG", "CSV", "events", "time"].every((n) => names.includes(n)),
    `its buttons keep their words for screen readers: ${names.join(", ")}`);

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

  console.log("one zoom for the memory view and the charts:");
  check(await chartSteps(page) === "steps 1–20" && JSON.stringify(await memoryZoom(page)) === "[0,1]",
    "both show the whole run at first");
  await page.getByTestId("memory-zoom").focus();
  await page.keyboard.press("s");
  await page.waitForTimeout(200);
  const [s0, s1] = await memoryZoom(page);
  check(s1 === 1 && s0 > 0.9, `s in the memory view shows the last step: ${s0.toFixed(4)} to ${s1}`);
  check(await chartSteps(page) === "step 20 of 20", `the charts show the same step: "${await chartSteps(page)}"`);
  const stepMarks = { forward: await marks(page, "forward"), backward: await marks(page, "backward"),
    noGrad: await page.locator("[data-testid=memory-chart] g.span.no-grad")
      .evaluateAll((gs) => gs.reduce((n, g) => n + Number(g.dataset.count), 0)) };
  check(stepMarks.forward === 1 && stepMarks.backward === 1 && stepMarks.noGrad === 1,
    `the step's phases are marked: ${JSON.stringify(stepMarks)}`);
  await page.screenshot({ path: join(shots, "views-zoom-step.png"), clip: { x: 0, y: (await page.locator(".panel.memory").boundingBox()).y, width: 1280, height: 270 } });
  await page.keyboard.press("0");
  await page.waitForTimeout(200);
  check(await chartSteps(page) === "steps 1–20", "0 in the memory view shows every step in the charts");
  await page.getByTestId("charts-zoom").focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press("+");
  await page.keyboard.press("ArrowLeft");
  await page.waitForTimeout(200);
  const charted = await chartSteps(page);
  const [firstShown, lastShown] = (/^steps (\d+)–(\d+) of 20$/.exec(charted) ?? []).slice(1).map(Number);
  const [c0, c1] = await memoryZoom(page);
  const shown = await marks(page, "forward");
  console.log(`  measured: charts "${charted}", memory ${c0.toFixed(4)} to ${c1.toFixed(4)}, ${shown} forward marks`);
  check(firstShown > 1 && lastShown < 20, `+ and ArrowLeft in the charts zoom them: "${charted}"`);
  check(c0 > 0 && c1 < 1, "and move the memory view");
  check(Math.abs(shown - (lastShown - firstShown + 1)) <= 1,
    `to the same steps: ${shown} forward passes in the memory view for ${lastShown - firstShown + 1} steps in the charts`);
  await page.keyboard.press("s");
  await page.waitForTimeout(200);
  check(await chartSteps(page) === "step 20 of 20" && (await memoryZoom(page))[1] === 1 && await marks(page, "forward") === 1,
    "s in the charts shows the cursor's step in both");
  // On the time axis the memory view shows the same step, by its times.
  await page.locator("[data-testid=memory-head] button", { hasText: "time" }).click();
  await page.waitForTimeout(200);
  const [t0, t1] = await memoryZoom(page);
  check(t1 === 1 && t0 > 0.5 && await chartSteps(page) === "step 20 of 20" && await marks(page, "forward") === 1,
    `on the time axis the memory view shows that step too: ${t0.toFixed(4)} to ${t1}`);
  await page.locator("[data-testid=memory-head] button", { hasText: "events" }).click();
  await page.waitForTimeout(200);
  await page.getByTestId("memory-zoom-whole").click();
  await page.waitForTimeout(200);
  check(await chartSteps(page) === "steps 1–20" && await page.getByTestId("charts-zoom-whole").count() === 0,
    "the memory view's whole-run button shows every step in the charts too");
  await page.getByTestId("memory-zoom").focus();
  await page.keyboard.press("+");
  await page.waitForTimeout(200);
  check((await memoryZoom(page))[0] > 0 && await chartSteps(page) !== "steps 1–20", "zoomed in again");
  check(await run(page, LOOP) === "finished", "the loop ran again");
  check(JSON.stringify(await memoryZoom(page)) === "[0,1]" && await chartSteps(page) === "steps 1–20",
    "a new run starts whole in both views");
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

  // A phone: the header stays one row.
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  phone.on("pageerror", (err) => problems.push(`phone page error: ${err.message}`));
  await phone.goto(url);
  await waitReady(phone);
  check(await run(phone, LOOP) === "finished", "the loop finished at 390x844");
  await oneRowHeader(phone, 390);
  await phone.close();
  check(problems.length === 0, `no page errors${problems.length ? `: ${problems.join("; ")}` : ""}`);
} catch (err) {
  failed = true;
  console.error(`FAILED: ${err.message}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
