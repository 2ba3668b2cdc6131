// End-to-end: the skeleton page in Debian's headless Chromium.
//
// Env: GRADSCOPE_URL (the served site), GRADSCOPE_SCREENSHOT (PNG path).
// Loads the page twice: with WebGPU (SwiftShader), where the GPU kernel must
// run and agree with the CPU, and without, where the page must say WebGPU is
// unavailable and still show the CPU result. Exits non-zero on any failure.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

const url = process.env.GRADSCOPE_URL;
const screenshot = process.env.GRADSCOPE_SCREENSHOT;
if (!url || !screenshot) {
  console.error("skeleton.mjs: set GRADSCOPE_URL and GRADSCOPE_SCREENSHOT");
  process.exit(2);
}

const baseArgs = [
  "--headless=new", "--no-sandbox", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-quic", "--disable-dev-shm-usage",
];
const webgpuArgs = ["--enable-unsafe-webgpu", "--enable-webgpu-developer-features"];

function check(condition, message) {
  if (!condition) throw new Error(message);
  console.log(`  ok: ${message}`);
}

async function visit(args, label, onPage) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const problems = [];
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
    await page.goto(url);
    console.log(`${label}:`);
    await page.getByTestId("out").waitFor({ timeout: 60_000 }).catch(async (err) => {
      const body = await page.textContent("body");
      throw new Error(`${err.message}\npage text: ${body}\n${problems.join("\n")}`);
    });
    check((await page.getByTestId("out").textContent()) === "out = tensor(27.)", "out = tensor(27.)");
    const grad = await page.getByTestId("x-grad").textContent();
    check(grad.includes("tensor([[4.5000, 4.5000],") && grad.includes("[4.5000, 4.5000]])"),
      "x.grad is 4.5 everywhere, printed as PyTorch prints it");
    const names = await page.locator("[data-testid=graph] g.node").evaluateAll(
      (nodes) => nodes.map((n) => n.getAttribute("data-node")));
    for (const name of ["AddBackward0", "MulBackward0", "MeanBackward0", "AccumulateGrad"]) {
      check(names.includes(name), `graph shows ${name}`);
    }
    check(names.length === 5, `graph has 5 nodes (got ${names.length})`);
    check((await page.locator("[data-testid=graph] line.edge").count()) === 5, "graph has 5 edges");
    await onPage(page);
    check(problems.length === 0, `no page errors${problems.length ? ": " + problems.join("; ") : ""}`);
  } finally {
    await browser.close();
  }
}

try {
  await visit([...baseArgs, ...webgpuArgs], "with WebGPU", async (page) => {
    await page.locator("[data-testid=gpu-result], [data-testid=gpu-unavailable]").first()
      .waitFor({ timeout: 60_000 });
    const unavailable = await page.getByTestId("gpu-unavailable").count();
    if (unavailable) throw new Error(await page.getByTestId("gpu-unavailable").textContent());
    const adapter = await page.getByTestId("gpu-adapter").textContent();
    check(adapter.startsWith("WebGPU adapter: "), adapter);
    const result = await page.getByTestId("gpu-result").textContent();
    check(result.includes("tensor([[27., 27.],") && result.endsWith("= 0"), `GPU kernel agrees: ${result}`);
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`  screenshot: ${screenshot}`);
  });
  await visit(baseArgs, "without WebGPU", async (page) => {
    await page.getByTestId("gpu-unavailable").waitFor({ timeout: 60_000 });
    const notice = await page.getByTestId("gpu-unavailable").textContent();
    check(notice.includes("WebGPU is not available") && notice.includes("runs on the CPU"), notice);
  });
  console.log("e2e: passed");
} catch (err) {
  console.error(`e2e: FAILED: ${err.message}`);
  process.exit(1);
}
