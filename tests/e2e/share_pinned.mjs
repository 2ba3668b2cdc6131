// End-to-end: issue 27's share link with a pinned pair, the transport's
// pass buttons, and the training charts' zoom, in Debian's headless
// Chromium.
//
// Env: GRADSCOPE_URL (the served site); GRADSCOPE_SHOTS (where the
// screenshots go; target/e2e by default). Checks that
// - Share with a run pinned puts both programs in the link (the JSON
//   inflated from it holds the pinned run's code as `pinned.code`);
// - the link opened in a fresh page shows the current program in the
//   editor and the pinned one read-only above it, and says neither ran;
//   Run runs the pinned one, pins it, then runs the current one: the loss
//   curves overlay and the counts compare 6 steps with 10;
// - a link made before pins could travel still opens, with no pinned note;
// - the transport's "◀ pass" / "pass ▶", reached with Tab and pressed with
//   Enter, stop where the graph's pass buttons stop;
// - the charts zoom with the memory view's keys (+, -, arrows, s, 0), the
//   wheel, and the "all steps" button, the axis saying which steps show.
// Exits non-zero on any failure.
import { launch } from "./browser.mjs";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { check, compareCounts as counts, editor, run, settings, trainingLoop as train, TIMEOUT, waitReady } from "./page.mjs";

const { url, shots } = settings("share_pinned.mjs");

/// The trace position the transport shows.
async function position(page) {
  const text = await page.getByTestId("position").textContent();
  return Number(text.match(/^event (\d+)/)[1]);
}

/// Presses `testid`'s button from the keyboard: Tab until it has focus,
/// then Enter; returns the Tabs it took.
async function tabTo(page, testid, from) {
  await page.locator(from).focus();
  for (let tabs = 1; tabs <= 40; tabs++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement?.dataset?.testid ?? "");
    if (focused === testid) {
      await page.keyboard.press("Enter");
      return tabs;
    }
  }
  throw new Error(`Tab never reached ${testid}`);
}

const OLD_LINK = "#v1=ASQA2_97ImNvZGUiOiJwcmludCgxKVxuIiwiZGV2aWNlIjoiY3B1In0";

const browser = await launch();
let failed = false;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  await page.goto(url);
  await waitReady(page);

  console.log("share a pinned pair:");
  const PINNED = train(0.05, 6);
  const CURRENT = train(0.2, 10);
  check(await run(page, PINNED) === "finished", "a 6-step training run finished");
  await page.getByTestId("pin-run").click();
  check(await run(page, CURRENT) === "finished", "a 10-step run with a higher learning rate finished");
  await page.getByTestId("share").click();
  const link = await page.getByTestId("share-url").inputValue();
  check(link.startsWith(url + "#v1="), `Share makes a v1 link (${link.length} bytes)`);
  const settings = JSON.parse(inflateRawSync(Buffer.from(link.slice(url.length + 4), "base64url")).toString());
  check(settings.code === CURRENT && settings.pinned?.code === PINNED && settings.pinned?.device === "cpu",
    "the link holds both programs: the current as code, the pinned run's as pinned.code");

  console.log("open it elsewhere:");
  const reader = await context.newPage();
  reader.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  await reader.goto(link);
  await waitReady(reader);
  const note = reader.getByTestId("pinned-program");
  check(await note.count() === 1, "the pinned program is shown beside the code");
  check((await note.locator("pre").textContent()) === PINNED, "read-only, as it ran (lr 0.05, 6 steps)");
  check((await editor(reader).textContent()).includes("0.2 * w.grad"), "the editor holds the current program");
  const notice = await reader.getByTestId("link-notice").textContent();
  check(notice.includes("Run runs the pinned one first"), `the bar says what Run does: "${notice.slice(0, 70)}..."`);
  check(await reader.getByTestId("pinned-loss").count() === 0, "nothing has run yet");
  await reader.getByTestId("run").click();
  await reader.waitForFunction(() =>
    !document.querySelector("[data-testid=pinned-program]")
    && document.querySelector("[data-testid=status]")?.textContent === "finished"
    && document.querySelector("[data-testid=pin-run]")?.textContent === "Unpin",
  null, { timeout: TIMEOUT });
  await reader.waitForTimeout(400);
  check(true, "Run ran the pinned program, pinned it, ran the current one");
  check(await reader.getByTestId("pinned-loss").count() === 1, "the pinned run's loss is drawn under this run's");
  check(await reader.getByTestId("link-notice").count() === 0, "the bar that said nothing had run is gone");
  const pair = await counts(reader);
  check(pair["steps"][0] === "6" && pair["steps"][1] === "10", `the counts compare them: steps ${pair["steps"]}`);
  await reader.screenshot({ path: join(shots, "share-pinned.png") });
  // Share again from the reader: the pair travels on.
  await reader.getByTestId("share").click();
  const again = await reader.getByTestId("share-url").inputValue();
  const settings2 = JSON.parse(inflateRawSync(Buffer.from(again.slice(url.length + 4), "base64url")).toString());
  check(settings2.pinned?.code === PINNED && settings2.code === CURRENT, "sharing from there carries the same pair");

  console.log("an old link:");
  const old = await context.newPage();
  await old.goto(url + OLD_LINK);
  await waitReady(old);
  check((await editor(old).textContent()).includes("print(1)"), "a link made before pins travelled opens its code");
  check(await old.getByTestId("pinned-program").count() === 0, "with no pinned note");
  await old.close();

  console.log("the transport steps by pass:");
  // The reader shows the 10-step run, live at its end.
  const end = await position(reader);
  const tabs = await tabTo(reader, "transport-pass-back", "[data-testid=run]");
  await reader.waitForFunction((end) => !document.querySelector("[data-testid=position]")
    ?.textContent.startsWith(`event ${end} `), end, { timeout: 5000 });
  const back = await position(reader);
  check(back < end, `Tab (${tabs}) then Enter on "◀ pass" moves back from ${end} to ${back}`);
  const label = await reader.getByTestId("transport-pass-back").getAttribute("aria-label");
  check(label === "back to the previous step's backward", `it is labelled: "${label}"`);
  // The same stops as the graph's buttons: the transport's, then the graph's.
  const stops = [];
  for (let k = 0; k < 3; k++) {
    await reader.getByTestId("transport-pass-back").click();
    await reader.waitForTimeout(100);
    stops.push(await position(reader));
  }
  await reader.getByTestId("scrub").fill(String(back));
  await reader.waitForTimeout(200);
  const graphStops = [];
  for (let k = 0; k < 3; k++) {
    await reader.getByTestId("previous-pass").click();
    await reader.waitForTimeout(100);
    graphStops.push(await position(reader));
  }
  check(JSON.stringify(stops) === JSON.stringify(graphStops) && stops[0] < back,
    `"◀ pass" stops where the graph's does: ${stops} / ${graphStops}`);
  await reader.getByTestId("transport-pass-next").focus();
  await reader.keyboard.press("Enter");
  await reader.waitForTimeout(100);
  const forward = await position(reader);
  await reader.getByTestId("scrub").fill(String(graphStops[2]));
  await reader.waitForTimeout(200);
  await reader.getByTestId("next-pass").click();
  await reader.waitForTimeout(100);
  check(forward === await position(reader) && forward > graphStops[2],
    `"pass ▶" stops where the graph's does: ${graphStops[2]} → ${forward}`);

  console.log("the charts zoom:");
  const zoomed = reader.getByTestId("charts-zoom");
  const axis = () => reader.locator("[data-testid=loss-chart] [data-testid=charts-steps]").textContent();
  check(await axis() === "steps 1–10", "every step at first");
  await zoomed.focus();
  await reader.keyboard.press("+");
  await reader.keyboard.press("+");
  const closer = await axis();
  check(/^steps \d+–\d+ of 10$/.test(closer), `+ twice zooms in: "${closer}"`);
  await reader.keyboard.press("ArrowRight");
  await reader.keyboard.press("ArrowRight");
  const panned = await axis();
  check(panned !== closer && /of 10$/.test(panned), `the arrows pan: "${panned}"`);
  check(await reader.getByTestId("charts-zoom-whole").count() === 1, "an 'all steps' button appears");
  await reader.keyboard.press("0");
  check(await axis() === "steps 1–10", "0 shows every step again");
  // s: the step at the cursor (the transport is at a pass's backward).
  await reader.keyboard.press("s");
  const one = await axis();
  check(/^step \d+ of 10$/.test(one), `s shows the step at the cursor: "${one}"`);
  check(await reader.locator("[data-testid=loss-chart] line.cursor").count() === 1, "with the cursor on it");
  await reader.keyboard.press("0");
  const box = await reader.locator("[data-testid=loss-chart]").boundingBox();
  await reader.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
  for (let k = 0; k < 3; k++) await reader.mouse.wheel(0, -100);
  await reader.waitForTimeout(200);
  const wheeled = await axis();
  check(/^steps? \d+(–\d+)? of 10$/.test(wheeled), `the wheel zooms about the pointer: "${wheeled}"`);
  const lastStep = Number(wheeled.match(/(\d+) of 10$/)[1]);
  check(lastStep >= 8, `toward the pointer's end of the run (the last step shown: ${lastStep})`);
  check(await reader.getByTestId("pinned-loss").count() === 1, "the pinned loss is drawn zoomed too");
  await reader.locator(".panel.charts").screenshot({ path: join(shots, "charts-zoom.png") });
  await reader.getByTestId("charts-zoom-whole").click();
  check(await axis() === "steps 1–10", "the 'all steps' button shows every step again");

  check(problems.length === 0, `no page errors${problems.length ? ": " + problems.join("; ") : ""}`);
} catch (err) {
  failed = true;
  console.error(`FAILED: ${err.message}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
