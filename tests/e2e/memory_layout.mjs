// End-to-end: the memory panel's words and rows in a pinned comparison
// (issue 27), at the sizes the README's pictures and most laptops use and
// in the widget at its default height:
// - no two labels on the plot print over each other: the pinned run's
//   peak label ("pinned 117.9 KiB"), this run's ("peak 32.4 KiB"), the
//   change written over the plot and the span labels ("no_grad");
// - every row of the category legend lies inside the panel, not cut off
//   at its bottom (the second row, optimizer state and saved for
//   backward, was, at 1280x800 and 1600x1000); the page's budget control
//   after it is in the panel or a scroll away.
// The program is the README's: a two-layer model trained 3 steps with
// Adam (whose step runs under no_grad) at batch 256, pinned, then at 64.
// Screenshots of the panels go to GRADSCOPE_SHOTS (target/e2e).
import { launch } from "./browser.mjs";
import { join } from "node:path";
import { check, mlp, run, settings, waitReady } from "./page.mjs";

const { url, shots } = settings("memory_layout.mjs");


/// The boxes the check reads, in CSS pixels: the memory panel's, its
/// legend items', and the plot's labels' (each with its words).
const boxes = (page) => page.evaluate(() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return { x0: r.left, y0: r.top, x1: r.right, y1: r.bottom };
  };
  const panel = document.querySelector(".panel.memory");
  const labels = (selector, kind) => [...panel.querySelectorAll(selector)]
    .filter((e) => e.textContent.trim() !== "")
    .map((e) => ({ kind, text: e.textContent, ...box(e) }));
  return {
    viewport: window.innerHeight,
    panel: box(panel),
    chart: box(panel.querySelector("[data-testid=memory-chart]")),
    // The categories' entries (and the reserve's, on a GPU), not the budget control.
    legend: [...panel.querySelectorAll("[data-testid=memory-legend] > li:not(.budget-control)")]
      .map((e) => ({ text: e.textContent, ...box(e) })),
    labels: [
      ...labels("[data-testid=pinned-peak] text", "pinned"),
      ...labels("[data-testid=memory-peak] text", "peak"),
      ...labels("[data-testid=compare-peak]", "change"),
      ...labels(".span text", "span"),
    ],
  };
});

/// The memory chart's least height in the page, plot and its marks and axis
/// together (a plot of about 100 px).
const MIN_CHART = 170;

const meets = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
const fmt = (b) => `"${b.text}" [${b.x0.toFixed(0)},${b.y0.toFixed(0)} ${b.x1.toFixed(0)},${b.y1.toFixed(0)}]`;

/// Checks the comparison on `page` (a run pinned, another shown), `where`.
async function checkPanel(page, where, minChart = 0) {
  await page.getByTestId("compare-peak").waitFor({ timeout: 10_000 });
  await page.waitForTimeout(500);
  const { viewport, panel, chart, legend, labels } = await boxes(page);
  check(panel.y1 <= viewport, `${where}: the panel ends in the window (${panel.y1.toFixed(0)} of ${viewport})`);
  // The legend must not fit by squeezing the chart to nothing: a 40-pixel
  // plot was what the 270-pixel row left at 1280x800.
  await page.locator(".panel.memory").screenshot({ path: join(shots, `memory-layout-${where}.png`) });
  const chartHeight = chart.y1 - chart.y0;
  check(chartHeight >= minChart, `${where}: the chart ${chartHeight.toFixed(0)} px tall (at least ${minChart})`);
  const pinned = labels.filter((l) => l.kind === "pinned");
  const spans = labels.filter((l) => l.kind === "span");
  check(pinned.length === 1 && spans.length > 0,
    `${where}: the pinned peak's label and ${spans.length} span labels drawn (${labels.map(fmt).join(", ")})`);
  for (let i = 0; i < labels.length; i++) {
    for (const b of labels.slice(i + 1)) {
      if (meets(labels[i], b)) throw new Error(`${where}: ${fmt(labels[i])} prints over ${fmt(b)}`);
    }
  }
  check(true, `${where}: no two of the plot's ${labels.length} labels meet`);
  const last = legend[legend.length - 1];
  const rows = new Set(legend.map((l) => Math.round(l.y0))).size;
  check(legend.length >= 5 && legend.every((l) => l.y1 <= panel.y1 - 1 && l.y0 >= panel.y0),
    `${where}: all ${rows} rows of the category legend inside the panel (last ${fmt(last)}, panel bottom ${panel.y1.toFixed(0)})`);
  // The page's budget control after them: in the panel, or a scroll away in it.
  const control = page.locator("[data-testid=memory-legend] > li.budget-control");
  if (await control.count()) {
    await control.scrollIntoViewIfNeeded();
    check(await control.isVisible(), `${where}: the budget control is reachable in the panel`);
    await page.locator(".panel.memory").evaluate((p) => p.scrollTo(0, 0));
  }
  await page.locator(".panel.memory").screenshot({ path: join(shots, `memory-layout-${where}.png`) });
}

/// On `page`: the program at batch 256 pinned, then at 64.
async function pinnedPair(page) {
  check(await run(page, mlp(256)) === "finished", "batch 256 finished");
  await page.getByTestId("pin-run").click();
  // As readme_shots.mjs: a learner takes seconds to change the batch.
  await page.waitForTimeout(2000);
  check(await run(page, mlp(64)) === "finished", "batch 64 finished beside it");
}

const browser = await launch();
let failed = false;
try {
  for (const [width, height, scale] of [[1280, 800, 1], [1600, 1000, 1.25]]) {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale });
    const page = await context.newPage();
    await page.goto(url);
    await waitReady(page);
    await pinnedPair(page);
    await checkPanel(page, `${width}x${height}`, MIN_CHART);
    await context.close();
  }
  // The widget's frame at its default height (480), with its default panels
  // (code and console on the left, graph and memory on the right).
  const context = await browser.newContext({ viewport: { width: 760, height: 480 } });
  const page = await context.newPage();
  await page.goto(new URL(`embed.html?device=cpu&code=${encodeURIComponent(mlp(256))}`, url).href);
  await waitReady(page);
  await pinnedPair(page);
  await checkPanel(page, "widget-760x480");
} catch (err) {
  failed = true;
  console.error(`FAILED: ${err.message}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
