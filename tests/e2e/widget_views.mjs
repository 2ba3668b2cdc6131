// End-to-end: what the page's views do, done in the widget, framed by a
// course page on another origin, in Debian's headless Chromium.
//
// Env: GRADSCOPE_URL (the served site); GRADSCOPE_SHOTS (where the
// screenshots go; target/e2e by default). The script serves its own host
// pages from another port (another origin, as a course page is). Checks that
// - a widget opens with a pinned pair as a share link does: beside inline
//   code, a <template data-pinned> program; Run runs it first, pins its run,
//   then runs the code, and the memory view draws the comparison (the
//   pinned run's outline, faint and dashed, both peaks marked, the change
//   written "peak A → B, -N%", the counts side by side);
// - a lesson's widget with pinned="ZERO_GRAD=False" runs the lesson with
//   that control first and overlays its loss curve in the widget's charts
//   panel (panels=charts), steps side by side;
// - Pin by keyboard in the widget pins a finished run, and the next run
//   compares; Unpin takes it away;
// - the transport's pass buttons, by keyboard, stop at each step's
//   backward (as many stops as the loop has steps) and move the graph to
//   that step;
// - the widget's graph names the program's tensors, its node details mark
//   storage shared by two saved tensors, a live tensor puts the widget's
//   editor cursor on its line, and a shape mismatch draws the failed node
//   with the message;
// - every export downloads from the framed widget, by keyboard: graph SVG
//   and PNG, trace JSON, memory CSV and SVG;
// - the memory view and the charts zoom as one in the widget
//   (panels=code,graph,memory,charts): s in the memory view shows the
//   cursor's step, the charts the same step, with that step's forward and
//   backward marked once; 0 shows the whole run in both; the wheel over
//   the memory view and + in the charts zoom both to the same steps;
// - "open in gradscope ↗" is in the first view, before any engine (embed.js
//   builds it from the widget's settings): read from widgets out of view,
//   it opens what the app's link opens once the app has loaded (the same
//   address, title and settings: the share link's JSON inflated from both
//   is the same text, for a lesson's pinned pair, plain inline code, and
//   code with a file and a pinned program);
// - "open in gradscope ↗" carries what the widget shows as a share link:
//   inline code with its pinned program (the link's fragment read back),
//   and a lesson's pinned pair, which the page opens (following the link)
//   with the pinned run's note and, on Run, the same comparison;
// - a bad pinned setting is refused inside the widget, saying why.
// Exits non-zero on any failure.
import { launch } from "./browser.mjs";
import { createServer } from "node:http";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
import {
  check, compareCounts, settings, trainingLoop, TIMEOUT, waitReady, FORWARD, NO_GRAD, NAMED, MISMATCH,
} from "./page.mjs";

const { url: site, shots } = settings("widget_views.mjs");

/// Text as a page's source writes it inside an element (no markup).
const escape = (text) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;");

/// The course page: one widget per section, each loaded when scrolled to.
const COURSE = `<!doctype html><meta charset="utf-8"><title>a course page</title>
<link rel="icon" href="data:,"><script src="${site}widget.js" defer></script>
<h1>No grad, no graph</h1>
<gradscope-widget id="pair" panels="code,graph,memory" device="cpu" height="560">
  <template data-pinned>
${escape(FORWARD)}  </template>
${escape(NO_GRAD)}</gradscope-widget>
<div style="height: 1400px">Read on.</div>
<gradscope-widget id="lesson" lesson="forgot-zero-grad" pinned="ZERO_GRAD=False, STEPS=4"
  panels="graph,memory,charts" device="cpu" height="820"></gradscope-widget>
<div style="height: 1400px">Read on.</div>
<gradscope-widget id="free" panels="code,graph,memory,charts" device="cpu" height="860">print("edit me")</gradscope-widget>
<div style="height: 1400px">Read on.</div>
<gradscope-widget id="files" panels="code,console" device="auto" height="360">
  <template data-file="model.py">
    def scale(t):
        return t * 2
  </template>
  <template data-pinned>
    import torch
    print(torch.ones(2))
  </template>
  import torch
  from model import scale
  print(scale(torch.ones(3)) &lt; 3)
</gradscope-widget>`;

const BAD = `<!doctype html><meta charset="utf-8"><title>bad pins</title>
<link rel="icon" href="data:,"><script src="${site}widget.js" defer></script>
<gradscope-widget lesson="forgot-zero-grad" pinned="MOMENTUM=0.9" height="200"></gradscope-widget>
<gradscope-widget pinned="ZERO_GRAD=False" height="200">print(1)</gradscope-widget>`;

const pages = { "/": COURSE, "/bad.html": BAD };
const host = createServer((req, res) => {
  const body = pages[new URL(req.url, "http://x").pathname];
  res.writeHead(body ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
  res.end(body ?? "not here");
});
await new Promise((resolve) => host.listen(0, "127.0.0.1", resolve));
const hostUrl = `http://127.0.0.1:${host.address().port}/`;
check(new URL(hostUrl).origin !== new URL(site).origin, `the course page (${hostUrl}) is on another origin than the site (${site})`);

/// The widget `id`'s frame, once it has loaded.
async function frameOf(page, id) {
  const element = page.locator(`gradscope-widget#${id}`);
  await element.scrollIntoViewIfNeeded();
  const handle = await element.locator("iframe").elementHandle({ timeout: TIMEOUT });
  const frame = await handle.contentFrame();
  await frame.waitForLoadState("domcontentloaded");
  return frame;
}

const status = (frame) => frame.getByTestId("status").textContent();

async function waitStatus(frame, test, what, arg = null) {
  await frame.waitForFunction(test, arg, { timeout: TIMEOUT }).catch(async (err) => {
    throw new Error(`${what}: ${err.message} (status "${await status(frame)}")`);
  });
}
const ready = () => (document.querySelector("[data-testid=status]")?.textContent ?? "").startsWith("ready");
const ended = () => {
  const s = document.querySelector("[data-testid=status]")?.textContent ?? "";
  return s === "finished" || s.startsWith("raised");
};

/// Waits for a pair's second run to end: the comparison drawn, the status ended.
async function waitCompared(frame, testid) {
  // A function, not a string: the site's CSP refuses eval in its frame.
  await waitStatus(frame, (testid) => {
    const s = document.querySelector("[data-testid=status]")?.textContent ?? "";
    return !!document.querySelector(`[data-testid=${testid}]`) && (s === "finished" || s.startsWith("raised"));
  }, `the pair's comparison (${testid}) never appeared`, testid);
  await frame.waitForTimeout(400);
}

/// Puts `text` in the widget's editor, runs it (Ctrl+Enter) and waits for its end.
async function run(page, frame, text) {
  const editor = frame.locator(".editor-main .cm-content");
  await editor.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
  await editor.click();
  await page.keyboard.press("Control+Enter");
  await frame.waitForFunction(() => (document.querySelector("[data-testid=status]")?.textContent ?? "") === "running",
    null, { timeout: 10_000 }).catch(() => {});
  await waitStatus(frame, ended, "the run never ended");
  await frame.waitForTimeout(400);
  return status(frame);
}

/// The comparison's counts as { label: [pinned, current, change] }.
const counts = (frame) => frame.getByTestId("compare-counts").evaluate((table) => {
  const labels = [...table.querySelectorAll("thead th")].map((th) => th.dataset.label);
  const rows = [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
  return Object.fromEntries(labels.map((label, k) => [label, rows.map((row) => row[k])]));
});

/// Presses the widget's button `testid` by keyboard; returns the download.
async function exported(page, frame, testid) {
  await frame.getByTestId(testid).focus();
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 15_000 }),
    page.keyboard.press("Enter"),
  ]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/// The widget's position: the event and the program line there.
async function where(frame) {
  const text = await frame.getByTestId("position").textContent();
  const [, event, len, line] = /^event (\d+) \/ (\d+)(?: · line (\d+))?$/.exec(text) ?? [];
  return { event: Number(event), len: Number(len), line: line === undefined ? null : Number(line) };
}

/// Presses the transport's pass button `testid` by keyboard until it is
/// disabled; the positions it stopped at.
async function passStops(page, frame, testid) {
  const stops = [];
  const button = frame.getByTestId(testid);
  for (let i = 0; i < 50 && await button.isEnabled(); i++) {
    const before = (await where(frame)).event;
    await button.focus();
    await page.keyboard.press("Enter");
    await frame.waitForFunction((before) => !document.querySelector("[data-testid=position]")?.textContent
      .startsWith(`event ${before} `), before, { timeout: 5000 });
    stops.push(await where(frame));
  }
  return stops;
}

/// The memory view's zoom (start, end), the loss chart's step axis, and
/// how many ticks of a kind the memory view draws.
const memoryZoom = async (frame) => (await frame.getByTestId("memory-zoom").getAttribute("data-zoom")).split(",").map(Number);
const chartSteps = (frame) => frame.locator("[data-testid=loss-chart] [data-testid=charts-steps]").textContent();
const marks = (frame, kind) => frame.locator(`[data-testid=marks-${kind}] path`)
  .evaluateAll((paths) => (paths[0]?.getAttribute("d") ?? "").split("M").length - 1);
/// The steps the charts show, first and last (from 1), of `steps`.
const shownSteps = (text, steps) => {
  if (text === `steps 1–${steps}`) return [1, steps];
  const one = new RegExp(`^step (\\d+) of ${steps}$`).exec(text);
  if (one) return [Number(one[1]), Number(one[1])];
  const some = new RegExp(`^steps (\\d+)–(\\d+) of ${steps}$`).exec(text);
  return some ? [Number(some[1]), Number(some[2])] : null;
};

/// The settings in a share link's fragment (`#v1=` then deflated JSON in
/// base64url), read as the page reads them.
const linkSettings = (href) => {
  const data = /#v1=([A-Za-z0-9_-]+)$/.exec(href)?.[1];
  return data === undefined ? null : JSON.parse(inflateRawSync(Buffer.from(data, "base64url")).toString("utf8"));
};

/// A link's address before its fragment, and the settings JSON in its
/// fragment as text (null without one).
const linkParts = (href) => {
  const [base, data] = href.split("#v1=");
  return { base, json: data === undefined ? null : inflateRawSync(Buffer.from(data, "base64url")).toString("utf8") };
};

/// The widget `id`'s "open in gradscope ↗" in its first view, read
/// without scrolling to it (so its app has not loaded), and the status
/// line beside it.
async function firstViewLink(page, id) {
  const handle = await page.locator(`gradscope-widget#${id} iframe`).elementHandle({ timeout: TIMEOUT });
  const frame = await handle.contentFrame();
  const open = frame.getByTestId("open-in-page");
  await open.waitFor({ state: "attached", timeout: TIMEOUT });
  const link = { href: await open.getAttribute("href"), title: await open.getAttribute("title") };
  return { ...link, status: await status(frame) };
}

/// Checks that the app's link in `frame` opens what `first` (the first
/// view's) did: the same address and title, and the same settings.
async function sameLink(frame, first, what) {
  const open = frame.getByTestId("open-in-page");
  const app = { href: await open.getAttribute("href"), title: await open.getAttribute("title") };
  const [a, b] = [linkParts(first.href), linkParts(app.href)];
  check(a.base === b.base && a.json === b.json && first.title === app.title,
    `${what}: the app's link opens what the first view's did (${a.base}, ${a.json?.length ?? 0}-byte settings, "${app.title}")`);
}

const ownPeak = async (frame) => (await frame.locator("[data-testid=memory-peak] text").textContent()).replace(/^peak /, "");

const browser = await launch();
let failed = false;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  await page.goto(hostUrl, { waitUntil: "domcontentloaded", timeout: TIMEOUT });

  // ---------------------------------- the first view's link, before any engine
  console.log("\"open in gradscope\" in the first view of widgets out of view:");
  const FIRST_STATUS = "the engine loads when this widget is in view";
  const firstLinks = {};
  for (const id of ["lesson", "free", "files"]) {
    firstLinks[id] = await firstViewLink(page, id);
    const { href, status: said } = firstLinks[id];
    check(said === FIRST_STATUS, `widget ${id} has its link before its engine loads (status "${said}"): ${href.slice(0, 70)}...`);
  }
  const firstLesson = linkParts(firstLinks.lesson.href);
  check(firstLesson.base === `${site}?lesson=forgot-zero-grad` && JSON.parse(firstLesson.json ?? "{}").pinned?.code.includes("STEPS = 4\n"),
    "the lesson's carries its pinned pair");
  const firstFiles = JSON.parse(linkParts(firstLinks.files.href).json ?? "{}");
  check(firstFiles.device === "webgpu" && firstFiles.files?.[0]?.name === "model.py" && firstFiles.pinned?.code === "import torch\nprint(torch.ones(2))\n"
    && firstFiles.code.endsWith("print(scale(torch.ones(3)) < 3)\n"),
    "inline code's carries its file, its pinned program and the device auto stands for");

  // ---------------------------------------------- a pinned pair beside code
  console.log("a widget opening with a pinned program beside its code:");
  const pair = await frameOf(page, "pair");
  // The first view (embed.js) draws the note as the app does; the app may
  // have replaced it already.
  await pair.locator(".pinned-program").waitFor({ timeout: TIMEOUT });
  const firstNote = await pair.locator(".pinned-program").textContent();
  check(firstNote.includes("Run runs it first") && firstNote.includes("sigmoid().sigmoid()"),
    "the pinned program is shown above the code from the first view on");
  await waitStatus(pair, ready, "the widget's engine never became ready");
  const note = await pair.getByTestId("pinned-program").textContent();
  check(note.includes("Pinned program from the widget: Run runs it first and pins it") && note.includes("h = (x @ w).sigmoid()"),
    `the app shows it read-only above the code: "${note.slice(0, 80)}..."`);
  const pairHref = await pair.getByTestId("open-in-page").getAttribute("href");
  const pairLink = linkSettings(pairHref);
  check(pairHref.startsWith(`${site}#v1=`) && pairLink?.code.includes("with torch.no_grad():")
    && pairLink.pinned?.code.includes("h = (x @ w).sigmoid()") && !pairLink.pinned.code.includes("no_grad")
    && pairLink.device === "cpu" && pairLink.lesson === undefined,
    `"open in gradscope" carries the code and its pinned program (${pairHref.length} bytes)`);
  await pair.getByTestId("run").click();
  await waitCompared(pair, "compare-counts");
  check(await status(pair) === "finished", "the pinned program ran, then the code beside it");
  check(await pair.getByTestId("pinned-program").count() === 0, "the note goes once the pinned run is pinned");
  check(await pair.getByTestId("pin-run").textContent() === "Unpin", "the memory view's button offers Unpin");
  const outline = pair.locator("[data-testid=pinned-overlay] path.outline");
  check((await outline.getAttribute("d"))?.startsWith("M0.0,"), "the pinned run's total is outlined over the memory chart");
  const look = await outline.evaluate((path) => {
    const style = getComputedStyle(path);
    return { dash: style.strokeDasharray, opacity: Number(style.opacity), fill: style.fill };
  });
  check(look.dash !== "none" && look.opacity < 1 && look.fill === "none",
    `faint and dashed: stroke-dasharray ${look.dash}, opacity ${look.opacity}`);
  const noGradPeak = await ownPeak(pair);
  const pinnedPeak = (await pair.locator("[data-testid=pinned-peak] text").textContent()).replace(/^pinned /, "");
  const peakText = await pair.getByTestId("compare-peak").textContent();
  const change = peakText.match(/^peak (.+) → (.+), (-\d+%)$/);
  check(change && change[1] === pinnedPeak && change[2] === noGradPeak,
    `both peaks marked and the change written, smaller under no_grad: "${peakText}"`);
  const table = await counts(pair);
  console.log(Object.entries(table).map(([k, v]) => `    | ${k}: ${v.join(" | ")}`).join("\n"));
  check(Number(table["graph nodes"][0]) >= 5 && table["graph nodes"][1] === "0" && table["graph nodes"][2] === "-100%",
    `graph nodes side by side: ${table["graph nodes"]}`);
  check(table["saved for backward"][0] !== "0 B" && table["saved for backward"][1] === "0 B",
    `saved for backward side by side: ${table["saved for backward"]}`);
  await page.locator("gradscope-widget#pair").screenshot({ path: join(shots, "widget-views-pair.png") });

  console.log("the memory view's exports from the framed widget:");
  const memorySvg = await exported(page, pair, "export-memory-svg");
  const memoryText = memorySvg.bytes.toString("utf8");
  check(memorySvg.name === "memory.svg" && memoryText.startsWith("<svg") && memoryText.includes(peakText),
    `memory.svg downloads, carrying the comparison (${memorySvg.bytes.length} bytes)`);
  const csv = await exported(page, pair, "export-memory-csv");
  const rows = csv.bytes.toString("utf8").trim().split("\n");
  check(csv.name === "memory.csv" && rows[0].endsWith(",total,reserved,line,name") && rows.length > 3,
    `memory.csv downloads: ${rows.length - 1} rows under "${rows[0]}"`);

  // ------------------------------------------- a lesson's pinned controls
  console.log("a lesson's widget with pinned=\"ZERO_GRAD=False, STEPS=4\":");
  const lesson = await frameOf(page, "lesson");
  await waitStatus(lesson, ready, "the lesson widget's engine never became ready");
  await sameLink(lesson, firstLinks.lesson, "the lesson's pinned pair");
  const lessonNote = await lesson.getByTestId("pinned-program").textContent();
  check(lessonNote.includes("ZERO_GRAD = False") && lessonNote.includes("STEPS = 4"),
    `without a code panel the note stands over the views: "${lessonNote.trim().slice(0, 100)}"`);
  await lesson.getByTestId("run").click();
  await waitCompared(lesson, "pinned-loss");
  const lessonTable = await counts(lesson);
  console.log(Object.entries(lessonTable).map(([k, v]) => `    | ${k}: ${v.join(" | ")}`).join("\n"));
  check(lessonTable["steps"][0] === "4" && lessonTable["steps"][1] === "5", `steps side by side (4 pinned, 5 shipped): ${lessonTable["steps"]}`);
  check(lessonTable["last loss"]?.[2]?.endsWith("%"), `last losses side by side: ${lessonTable["last loss"]}`);
  const legend = await lesson.getByTestId("pinned-loss-legend").textContent();
  check(legend.includes("pinned run's loss"), `the charts panel overlays the pinned loss: "${legend.trim()}"`);
  const lossAxis = await lesson.locator("[data-testid=loss-chart] .axis.end").textContent();
  check(lossAxis === "steps 1–5", `both losses over the longer run's steps: "${lossAxis}"`);
  await page.locator("gradscope-widget#lesson").screenshot({ path: join(shots, "widget-views-lesson-pair.png") });

  console.log("\"open in gradscope\" from the lesson's widget:");
  const open = lesson.getByTestId("open-in-page");
  const lessonHref = await open.getAttribute("href");
  const lessonLink = linkSettings(lessonHref);
  check(lessonHref.startsWith(`${site}?lesson=forgot-zero-grad#v1=`) && lessonLink?.lesson === "forgot-zero-grad"
    && lessonLink.code.includes("ZERO_GRAD = True\n") && lessonLink.pinned?.code.includes("ZERO_GRAD = False\n")
    && lessonLink.pinned.code.includes("STEPS = 4\n"),
    `the link carries the lesson and its pinned pair: ${lessonHref.slice(0, 60)}... (${lessonHref.length} bytes)`);
  const [full] = await Promise.all([context.waitForEvent("page", { timeout: TIMEOUT }), open.click()]);
  full.on("pageerror", (err) => problems.push(`opened page error: ${err.message}`));
  await full.waitForLoadState("domcontentloaded");
  await waitReady(full);
  check(full.url() === lessonHref, "following it opens the page at that address");
  const opened = await full.getByTestId("link-notice").textContent();
  check(opened.includes("Opened a shared comparison"), `the page says it opened a comparison: "${opened.slice(0, 60)}..."`);
  const fullNote = await full.getByTestId("pinned-program").textContent();
  check(fullNote.includes("ZERO_GRAD = False") && fullNote.includes("STEPS = 4"), "the page shows the pinned program above the code");
  const fullCode = await full.locator(".editor-main:not([hidden]) .cm-content").textContent();
  check(fullCode.includes("ZERO_GRAD = True") && fullCode.includes("STEPS = 5"), "and the lesson's code as the widget showed it");
  await full.getByTestId("run").click();
  await full.waitForFunction(() => {
    const s = document.querySelector("[data-testid=status]")?.textContent ?? "";
    return !!document.querySelector("[data-testid=compare-counts]") && (s === "finished" || s.startsWith("raised"));
  }, null, { timeout: TIMEOUT });
  await full.waitForTimeout(400);
  const fullTable = await compareCounts(full);
  check(JSON.stringify(fullTable["steps"]?.slice(0, 2)) === JSON.stringify(lessonTable["steps"].slice(0, 2))
    && JSON.stringify(fullTable["graph nodes"]) === JSON.stringify(lessonTable["graph nodes"]),
    `Run in the page compares as the widget did: steps ${fullTable["steps"]}, graph nodes ${fullTable["graph nodes"]}`);
  await full.screenshot({ path: join(shots, "widget-views-opened.png") });
  await full.close();

  // ---------------------------------------------------- one free widget
  const free = await frameOf(page, "free");
  await waitStatus(free, ready, "the third widget's engine never became ready");
  await sameLink(free, firstLinks.free, "inline code");

  console.log("pin and compare by keyboard:");
  check(await run(page, free, trainingLoop(0.05, 6)) === "finished", "a 6-step training loop finished");

  console.log("one zoom for the widget's memory view and charts:");
  check(await chartSteps(free) === "steps 1–6" && JSON.stringify(await memoryZoom(free)) === "[0,1]",
    "both show the whole run at first");
  const memoryView = free.getByTestId("memory-zoom");
  await memoryView.scrollIntoViewIfNeeded();
  await memoryView.focus();
  await page.keyboard.press("s");
  await free.waitForTimeout(200);
  const [s0, s1] = await memoryZoom(free);
  check(s1 === 1 && s0 > 0.7, `s in the memory view shows the last step: ${s0.toFixed(4)} to ${s1}`);
  check(await chartSteps(free) === "step 6 of 6", `the charts show the same step: "${await chartSteps(free)}"`);
  const stepMarks = { forward: await marks(free, "forward"), backward: await marks(free, "backward") };
  check(stepMarks.forward === 1 && stepMarks.backward === 1, `that step's passes are marked once: ${JSON.stringify(stepMarks)}`);
  await page.locator("gradscope-widget#free").screenshot({ path: join(shots, "widget-views-zoom-step.png") });
  await page.keyboard.press("0");
  await free.waitForTimeout(200);
  check(JSON.stringify(await memoryZoom(free)) === "[0,1]" && await chartSteps(free) === "steps 1–6"
    && await free.getByTestId("charts-zoom-whole").count() === 0, "0 returns both to the whole run");
  const box = await memoryView.boundingBox();
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height / 2);
  for (let k = 0; k < 3; k++) {
    await page.mouse.wheel(0, -120);
    await free.waitForTimeout(100);
  }
  await free.waitForTimeout(200);
  const [w0, w1] = await memoryZoom(free);
  const wheeled = await chartSteps(free);
  const [first, last] = shownSteps(wheeled, 6) ?? [];
  const wheelMarks = await marks(free, "forward");
  console.log(`  measured: after the wheel, memory ${w0.toFixed(4)} to ${w1.toFixed(4)}, charts "${wheeled}", ${wheelMarks} forward marks`);
  check(w0 > 0 && w1 < 1 && w1 - w0 < 0.5, "the wheel over the memory view zooms it");
  check(first !== undefined && last - first + 1 < 6 && Math.abs(wheelMarks - (last - first + 1)) <= 1,
    `and the charts to the same steps: "${wheeled}" for ${wheelMarks} forward passes`);
  await free.getByTestId("charts-zoom").focus();
  await page.keyboard.press("0");
  await page.keyboard.press("+");
  await page.keyboard.press("+");
  await free.waitForTimeout(200);
  const [p0, p1] = await memoryZoom(free);
  const plussed = await chartSteps(free);
  check(p0 > 0 && p1 < 1 && shownSteps(plussed, 6) && plussed !== "steps 1–6",
    `0 then + + in the charts zoom both again: charts "${plussed}", memory ${p0.toFixed(4)} to ${p1.toFixed(4)}`);
  await free.getByTestId("charts-zoom-whole").click();
  await free.waitForTimeout(200);
  check(JSON.stringify(await memoryZoom(free)) === "[0,1]" && await chartSteps(free) === "steps 1–6",
    "the charts' whole-run button shows the whole run in both");
  const pin = free.getByTestId("pin-run");
  check(await pin.textContent() === "Pin" && await pin.isEnabled(), "the finished run can be pinned");
  await pin.focus();
  await page.keyboard.press("Enter");
  await free.waitForFunction(() => document.querySelector("[data-testid=pin-run]")?.textContent === "Unpin", null, { timeout: 5000 });
  const pinnedNote = await free.getByTestId("compare-note").textContent();
  check(/^Pinned this run \(\d+ events\)/.test(pinnedNote), `Enter pins it: "${pinnedNote}"`);
  check(await run(page, free, trainingLoop(0.2, 10)) === "finished", "a 10-step run with a higher learning rate finished");
  check(await free.getByTestId("pinned-overlay").count() === 1 && await free.getByTestId("pinned-loss").count() === 1,
    "its memory and loss are drawn over the pinned run's");
  const freeTable = await counts(free);
  check(freeTable["steps"][0] === "6" && freeTable["steps"][1] === "10", `steps side by side: ${freeTable["steps"]}`);

  console.log("the transport's pass buttons:");
  const backwards = await free.getByTestId("marks-backward").getAttribute("data-count");
  check(backwards === "10", `the memory view marks 10 backward passes (${backwards})`);
  const end = await where(free);
  check(end.event === end.len && await free.getByTestId("transport-pass-next").isDisabled(),
    `at the end (event ${end.event}) there is no next pass`);
  const back = await passStops(page, free, "transport-pass-back");
  console.log(`    | back: ${back.map((s) => `${s.event}@${s.line}`).join(" ")}`);
  check(back.length === 11 && back.at(-1).event === 0, `back from the end: 10 stops, then the start (${back.length} presses)`);
  check(back.slice(0, -1).every((s, i) => s.line === 8 && (i === 0 || s.event < back[i - 1].event)),
    "each stop is a step's loss.backward() (line 8), earlier each time");
  const summaries = [];
  const forward = [];
  const next = free.getByTestId("transport-pass-next");
  for (let i = 0; i < 10; i++) {
    const before = (await where(free)).event;
    await next.focus();
    await page.keyboard.press(i % 2 ? "Enter" : "Space");
    await free.waitForFunction((before) => !document.querySelector("[data-testid=position]")?.textContent
      .startsWith(`event ${before} `), before, { timeout: 5000 });
    await free.waitForTimeout(150);
    forward.push((await where(free)).event);
    summaries.push(await free.evaluate(() => document.querySelector("[data-testid=graph-passes] span")?.textContent ?? ""));
  }
  check(JSON.stringify(forward) === JSON.stringify(back.slice(0, -1).map((s) => s.event).reverse()),
    `forward (Space and Enter) stops where back did: ${forward.join(" ")}`);
  console.log(`    | the graph at each: ${summaries.map((s) => `"${s}"`).join(", ")}`);
  check(summaries.at(-1).startsWith("9 earlier graphs"), `at the last step the graph sums up 9 earlier: "${summaries.at(-1)}"`);
  await page.locator("gradscope-widget#free").screenshot({ path: join(shots, "widget-views-passes.png") });
  await pin.click();
  await free.waitForFunction(() => !document.querySelector("[data-testid=pinned-overlay]"), null, { timeout: 5000 });
  check(await free.getByTestId("compare-counts").count() === 0 && await free.getByTestId("pinned-loss").count() === 0,
    "Unpin takes the comparison away");

  console.log("names, node details and memory by line:");
  check(await run(page, free, NAMED) === "finished", "the named program finished");
  const boxes = await free.locator("[data-testid=graph] g.node").evaluateAll((gs) =>
    gs.map((g) => ({ node: g.dataset.node, label: g.querySelector(".label")?.textContent ?? "" })));
  const labelled = (node, name) => boxes.some((b) => b.node === node && b.label === name);
  check(labelled("AccumulateGrad", "x") && labelled("MmBackward0", "y") && labelled("MulBackward0", "z")
    && labelled("SumBackward0", "loss"), `the graph names x, y, z and loss: ${boxes.map((b) => `${b.node}:${b.label}`).join(" ")}`);
  await free.locator("[data-testid=graph] g.node[data-node=MulBackward0]").first().click();
  const details = await free.getByTestId("node-details").textContent();
  check(details.includes("the program calls it z") && details.includes("same storage as self (counted once)"),
    `node details name z and mark y saved twice as one storage: "${details.slice(0, 120)}..."`);
  await free.locator("[data-testid=live-tensor][data-name=y]").click();
  await free.waitForFunction(() => document.querySelector(".cm-activeLineGutter")?.textContent === "4", null, { timeout: 5000 })
    .catch(() => {});
  const gutter = await free.evaluate(() => document.querySelector(".cm-activeLineGutter")?.textContent);
  check(gutter === "4", `choosing the live tensor y puts the widget's editor cursor on line 4 (gutter says ${gutter})`);
  await page.locator("gradscope-widget#free").screenshot({ path: join(shots, "widget-views-names.png") });

  console.log("the graph's exports from the framed widget:");
  const svg = await exported(page, free, "export-graph-svg");
  const svgText = svg.bytes.toString("utf8");
  check(svg.name === "graph.svg" && svgText.startsWith("<svg") && svgText.includes("MmBackward0"),
    `graph.svg downloads (${svg.bytes.length} bytes)`);
  const png = await exported(page, free, "export-graph-png");
  check(png.name === "graph.png" && png.bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    `graph.png downloads (${png.bytes.length} bytes, ${png.bytes.readUInt32BE(16)} x ${png.bytes.readUInt32BE(20)})`);
  const trace = await exported(page, free, "export-trace-json");
  const perfetto = JSON.parse(trace.bytes.toString("utf8"));
  check(trace.name === "gradscope-trace.json" && perfetto.traceEvents.some((e) => e.name === "MmBackward0"),
    `the trace downloads as Perfetto JSON (${perfetto.traceEvents.length} events)`);

  console.log("the graph at the error:");
  const raised = await run(page, free, MISMATCH);
  check(raised.startsWith("raised"), `the mismatch raised ("${raised}")`);
  const failedNode = await free.locator("[data-testid=graph] g.node.failed").evaluateAll((gs) =>
    gs.map((g) => `${g.dataset.node}: ${g.querySelector(".label")?.textContent}`));
  check(JSON.stringify(failedNode) === JSON.stringify(["RuntimeError: z = h @ w"]), `the failed node: ${failedNode}`);
  const error = await free.getByTestId("graph-error").textContent();
  check(error.includes("mm: mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)"), `the message under the graph: "${error}"`);
  await page.locator("gradscope-widget#free").screenshot({ path: join(shots, "widget-views-error.png") });

  console.log("the first view's link against the app's, for code with a file and a pinned program:");
  const files = await frameOf(page, "files");
  await waitStatus(files, ready, "the fourth widget's engine never became ready");
  await sameLink(files, firstLinks.files, "code, model.py and a pinned program");
  check(problems.length === 0, `no page errors${problems.length ? `: ${problems.join("; ")}` : ""}`);

  console.log("bad pinned settings:");
  const bad = await context.newPage();
  await bad.goto(`${hostUrl}bad.html`, { waitUntil: "domcontentloaded", timeout: TIMEOUT });
  const errorIn = async (n) => {
    const handle = await bad.locator("gradscope-widget").nth(n).locator("iframe").elementHandle({ timeout: TIMEOUT });
    const frame = await handle.contentFrame();
    await frame.getByTestId("widget-error").waitFor({ timeout: TIMEOUT });
    return frame.getByTestId("widget-error").textContent();
  };
  const unknown = await errorIn(0);
  check(unknown.includes('lesson "forgot-zero-grad" has no control named "MOMENTUM" (controls: ZERO_GRAD, STEPS, LR)'),
    `an unknown control: "${unknown}"`);
  const beside = await errorIn(1);
  check(beside.includes("<template data-pinned>"), `pinned= beside code: "${beside}"`);
  await bad.screenshot({ path: join(shots, "widget-views-bad.png") });
} catch (err) {
  failed = true;
  console.error(`widget views e2e: FAILED: ${err.message}`);
} finally {
  await browser.close();
  host.close();
}
if (!failed) console.log("widget views e2e: passed");
process.exit(failed ? 1 : 0);
