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
//   another (`y * y` saves y twice: counted once);
// - a shape mismatch draws a failed node linked to its input, with the
//   exception's message under the graph; a second backward marks the node
//   where it stopped.
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
  check(details.includes("other (64, 16) 4 KiB, same storage as self (counted once)"),
    "y saved twice by y * y is marked as one storage, counted once");
  check(details.includes("storage: 4 KiB counted once"), "the node's saved bytes count y once");

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
  check(problems.length === 0, `no page errors${problems.length ? `: ${problems.join("; ")}` : ""}`);
} catch (err) {
  failed = true;
  console.error(`FAILED: ${err.message}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
