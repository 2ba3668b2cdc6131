// End-to-end: comparing two runs (issue 27 item 3) and the memory view's
// SVG export, in Debian's headless Chromium.
//
// Env: GRADSCOPE_URL (the served site); GRADSCOPE_SHOTS (where the
// screenshots go; target/e2e by default). Checks that
// - the memory panel's Pin button, reached from the keyboard, pins the
//   finished run, and says what it waits for while that run is shown;
// - the same program wrapped in torch.no_grad(), run next, draws beside
//   it: the pinned run's outline, both peaks marked, the change written
//   as "peak A → B, -N%" with A and B the two runs' own peaks, and the
//   counts side by side (the no_grad run records no node and saves
//   nothing for backward);
// - Unpin takes it all away;
// - two training runs with different learning rates overlay their loss
//   curves in the charts panel, over the longer run's steps;
// - the SVG button downloads memory.svg: the panel's own chart with its
//   styles written on its elements, the comparison included;
// - the memory view zooms to one training step (s), closer (+), pans
//   (arrows, a drag), zooms about the pointer under the wheel, and goes
//   back to the whole run (0, the whole-run button).
// - a run pinned and the same loop run again at once, with no pause, four
//   times (twice with gc.collect() as the programs' first line): the
//   events count is the same, and no event of the new run frees or
//   recategorises a storage it did not allocate (the last program's
//   tensors held by a cycle were freed by the collector inside the next
//   run: 40 events at its start, "events 1249 → 1289, +3%").
// Exits non-zero on any failure.
import { launch } from "./browser.mjs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  check, compareCounts as counts, mlp, run, settings, trainingLoop as train, TIMEOUT, FORWARD, NO_GRAD,
} from "./page.mjs";

const { url, shots } = settings("compare_runs.mjs");


/// Keeps, in the page, the events of each run the page sends its worker
/// (`window.__runs`, one list a run, as the worker posted them): a page
/// script, so it sees what the views were given.
function keepRunEvents() {
  const Base = window.Worker;
  window.__runs = [];
  window.Worker = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        const run = window.__runs.at(-1);
        // Long replies come as UTF-8 bytes (protocol.rs, SMALL_REPLY_BYTES).
        const text = typeof e.data === "string" ? e.data : new TextDecoder().decode(e.data);
        if (!run || !text.startsWith('{"type":"events"')) return;
        for (const event of JSON.parse(text).events) run.push(event);
      });
    }

    postMessage(message, ...rest) {
      if (typeof message === "string" && JSON.parse(message).type === "run_program") window.__runs.push([]);
      super.postMessage(message, ...rest);
    }
  };
}

/// The last run's events about a storage it did not allocate, and how many
/// events it had.
async function foreignEvents(page) {
  const events = await page.evaluate(() => window.__runs.at(-1) ?? []);
  const allocated = new Set();
  const foreign = [];
  for (const e of events) {
    const kind = e.kind ?? e;
    if (kind.type === "storage_allocated") allocated.add(kind.storage);
    if ((kind.type === "storage_freed" || kind.type === "storage_recategorised") && !allocated.has(kind.storage)) {
      foreign.push(e);
    }
  }
  return { foreign, events: events.length, firstSeq: events[0]?.seq };
}

/// The memory chart's own peak label (`peak 72 KiB`) as its bytes label.
async function ownPeak(page) {
  const text = await page.locator("[data-testid=memory-peak] text").textContent();
  return text.replace(/^peak /, "");
}

const browser = await launch();
let failed = false;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  await context.addInitScript(keepRunEvents);
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  await page.goto(url);
  await page.waitForFunction(() => (document.querySelector("[data-testid=status]")?.textContent ?? "")
    .startsWith("ready"), null, { timeout: TIMEOUT });

  console.log("pin a run:");
  check(await run(page, FORWARD) === "finished", "the forward program finished");
  const withGraph = await ownPeak(page);
  const pin = page.getByTestId("pin-run");
  check(await pin.textContent() === "Pin" && await pin.isEnabled(), "a finished run can be pinned");
  // The keyboard's path: the button takes focus and Enter presses it.
  await pin.focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() =>
    document.querySelector("[data-testid=pin-run]")?.textContent === "Unpin", null, { timeout: 5000 });
  check(true, "Enter on the focused Pin button pins the run; it now says Unpin");
  const note = await page.getByTestId("compare-note").textContent();
  check(/^Pinned this run \(\d+ events\)/.test(note), `while the pinned run is shown: "${note}"`);
  check(await page.getByTestId("pinned-overlay").count() === 0, "nothing is overlaid on the run pinned");

  console.log("the next run beside it:");
  check(await run(page, NO_GRAD) === "finished", "the no_grad program finished");
  const withoutGraph = await ownPeak(page);
  check(await page.getByTestId("pinned-overlay").count() === 1, "the pinned run is overlaid on the memory chart");
  const outline = await page.locator("[data-testid=pinned-overlay] path.outline").getAttribute("d");
  check(outline && outline.startsWith("M0.0,"), `the pinned run's outline is drawn (${outline?.length} characters)`);
  const pinnedPeak = await page.locator("[data-testid=pinned-peak] text").textContent();
  check(pinnedPeak === `pinned ${withGraph}`, `the pinned peak is marked with the first run's own peak: "${pinnedPeak}"`);
  check(await page.getByTestId("memory-peak").count() === 1, `this run's peak is marked: peak ${withoutGraph}`);
  const peakText = await page.getByTestId("compare-peak").textContent();
  const match = peakText.match(/^peak (.+) → (.+), (-\d+%)$/);
  check(match && match[1] === withGraph && match[2] === withoutGraph,
    `the difference is written with both peaks, smaller under no_grad: "${peakText}"`);
  const table = await counts(page);
  console.log(Object.entries(table).map(([k, v]) => `    | ${k}: ${v.join(" | ")}`).join("\n"));
  check(table["peak"][0] === withGraph && table["peak"][1] === withoutGraph, "the counts' peaks are the charts'");
  check(Number(table["graph nodes"][0]) >= 5 && table["graph nodes"][1] === "0" && table["graph nodes"][2] === "-100%",
    `graph nodes side by side: ${table["graph nodes"]}`);
  check(table["saved for backward"][0] !== "0 B" && table["saved for backward"][1] === "0 B",
    `saved for backward side by side: ${table["saved for backward"]}`);
  await page.locator(".panel.memory").screenshot({ path: join(shots, "compare-memory.png") });
  await page.screenshot({ path: join(shots, "compare.png") });

  console.log("memory as SVG:");
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 10_000 }),
    page.getByTestId("export-memory-svg").click(),
  ]);
  const svg = readFileSync(await download.path(), "utf8");
  check(download.suggestedFilename() === "memory.svg", `the download is memory.svg (${svg.length} bytes)`);
  check(svg.startsWith("<svg") && svg.includes('xmlns="http://www.w3.org/2000/svg"'), "it is a standalone SVG document");
  check(svg.includes(peakText) && svg.includes(`pinned ${withGraph}`), "it carries the comparison");
  // Parsed as a document of its own, without the page's stylesheet.
  const styles = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const style = (selector) => doc.querySelector(selector)?.getAttribute("style") ?? "";
    return { band: style("path.band.other"), outline: style(".pinned-run path.outline") };
  }, svg);
  check(/fill:\s*rgb\(86, 180, 233\)/.test(styles.band), `the bands' colours are written on them: "${styles.band.slice(0, 60)}..."`);
  check(/stroke-dasharray:\s*4px,? 3px/.test(styles.outline), `the pinned outline keeps its dashes: "${styles.outline.slice(0, 80)}..."`);
  // Rendered alone, as an image, it draws.
  const drawn = await page.evaluate(async (text) => {
    const img = new Image();
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  }, svg);
  check(drawn[0] > 100 && drawn[1] > 100, `it renders alone as an image, ${drawn[0]}×${drawn[1]}`);

  console.log("unpin:");
  await page.getByTestId("pin-run").click();
  await page.waitForFunction(() => !document.querySelector("[data-testid=pinned-overlay]"), null, { timeout: 5000 });
  check(await page.getByTestId("compare-counts").count() === 0 && await page.getByTestId("compare-peak").count() === 0,
    "Unpin takes the overlay, the difference and the counts away");
  check(await page.getByTestId("pin-run").textContent() === "Pin", "the button says Pin again");

  console.log("loss curves overlaid:");
  check(await run(page, train(0.05, 6)) === "finished", "a 6-step training run finished");
  await page.getByTestId("pin-run").click();
  check(await run(page, train(0.2, 10)) === "finished", "a 10-step run with a higher learning rate finished");
  check(await page.getByTestId("pinned-loss").count() === 1, "the pinned run's loss is drawn in the loss chart");
  const legend = await page.getByTestId("pinned-loss-legend").textContent();
  check(legend.includes("pinned run's loss"), `the legend names it: "${legend.trim()}"`);
  const axis = await page.locator("[data-testid=loss-chart] .axis.end").textContent();
  check(axis === "steps 1–10", `both on the longer run's steps: "${axis}"`);
  const loss = await counts(page);
  check(loss["steps"][0] === "6" && loss["steps"][1] === "10", `steps side by side: ${loss["steps"]}`);
  check(loss["last loss"] && loss["last loss"][2].endsWith("%"), `last losses side by side: ${loss["last loss"]}`);
  await page.locator(".panel.charts").screenshot({ path: join(shots, "compare-loss.png") });

  console.log("memory zoom:");
  const zoomOf = async () => (await page.getByTestId("memory-zoom").getAttribute("data-zoom")).split(",").map(Number);
  const startLabel = () => page.locator("[data-testid=memory-chart] .axis.start").textContent();
  check(JSON.stringify(await zoomOf()) === "[0,1]" && await startLabel() === "0", "the whole run at first");
  await page.getByTestId("memory-zoom").focus();
  await page.keyboard.press("s");
  const [s0, s1] = await zoomOf();
  // The tenth step, forward mark to the run's end: about a tenth of it.
  check(s1 === 1 && s1 - s0 > 0.05 && s1 - s0 < 0.2, `s shows the last training step: ${s0.toFixed(3)} to ${s1}`);
  check(/^event \d+$/.test(await startLabel()), `its left edge is labelled: "${await startLabel()}"`);
  const forwardMarks = await page.locator("[data-testid=marks-forward] path").getAttribute("d");
  check(forwardMarks && forwardMarks.match(/M/g).length === 1, `one forward mark in the step: ${forwardMarks}`);
  await page.screenshot({ path: join(shots, "compare-zoom-step.png"), clip: await page.locator(".panel.memory").boundingBox() });
  await page.keyboard.press("+");
  const [p0, p1] = await zoomOf();
  check(p1 - p0 < (s1 - s0) * 0.7, `+ zooms closer: width ${(p1 - p0).toFixed(4)}`);
  await page.keyboard.press("ArrowLeft");
  const [l0] = await zoomOf();
  check(l0 < p0, `ArrowLeft pans left: ${p0.toFixed(4)} -> ${l0.toFixed(4)}`);
  await page.keyboard.press("0");
  check(JSON.stringify(await zoomOf()) === "[0,1]", "0 shows the whole run again");
  const box = await page.getByTestId("memory-chart").boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.4);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction(() => document.querySelector("[data-testid=memory-zoom]").dataset.zoom !== "0.000000,1.000000",
    null, { timeout: 5000 });
  const [w0, w1] = await zoomOf();
  check(w1 - w0 < 1, `the wheel zooms in about the pointer: ${w0.toFixed(3)} to ${w1.toFixed(3)}`);
  check(await page.evaluate(() => window.scrollY) === 0, "the page did not scroll under the wheel");
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4, { steps: 4 });
  await page.mouse.up();
  const [d0] = await zoomOf();
  check(d0 > w0, `dragging left shows what lies to the right: ${w0.toFixed(3)} -> ${d0.toFixed(3)}`);
  await page.getByTestId("memory-zoom-whole").click();
  check(JSON.stringify(await zoomOf()) === "[0,1]" && await page.getByTestId("memory-zoom-whole").count() === 0,
    "the whole-run button goes back to the whole run, and goes");

  console.log("a pinned run, and the same loop run again at once:");
  // The collector ran inside a run when that run had allocated enough, so
  // the page showed the last run's frees in 2 of 4 tries: rounds 3 and 4
  // run it first thing, where the old engine put 40 such events each time.
  const collecting = (batch) => `import gc\ngc.collect()\n${mlp(batch)}`;
  for (let round = 1; round <= 4; round += 1) {
    const program = round <= 2 ? mlp : collecting;
    check(await run(page, program(256)) === "finished",
      `round ${round}: the loop at batch 256 finished${round > 2 ? ", gc.collect() first" : ""}`);
    const pinButton = page.getByTestId("pin-run");
    if (await pinButton.textContent() === "Unpin") await pinButton.click();
    await pinButton.click();
    // No pause: Run follows Pin as fast as the editor takes the program.
    check(await run(page, program(64)) === "finished", `round ${round}: pinned, and run at batch 64 at once`);
    const pair = await counts(page);
    const { foreign, events, firstSeq } = await foreignEvents(page);
    check(foreign.length === 0,
      `round ${round}: no event frees or recategorises a storage the run did not allocate${foreign.length
        ? `: ${foreign.length}, the first ${JSON.stringify(foreign.slice(0, 3))}` : ""}`);
    check(pair.events[2] === "same" && Number(pair.events[1]) === events && firstSeq === 0,
      `round ${round}: the same number of events (${pair.events.join(" ")}; the worker posted ${events} from seq ${firstSeq})`);
  }
  check(problems.length === 0, `no page errors${problems.length ? `: ${problems.join("; ")}` : ""}`);
} catch (err) {
  failed = true;
  console.error(`FAILED: ${err.message}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
