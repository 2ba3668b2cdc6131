// End-to-end: the embeddable widget in Debian's headless Chromium.
//
// Env: GRADSCOPE_URL (the site, which sends its Content-Security-Policy),
// GRADSCOPE_HOST_URL (another origin serving the demo article, web/embed-demo.html,
// with the loader fetched from the site), GRADSCOPE_HOST_DIR (the folder that
// origin serves: the test writes its page of bad widgets there),
// GRADSCOPE_SHOTS (the screenshots' folder).
//
// Loads the article, checks that the widget below the fold loads nothing of
// the engine until it is scrolled to and that what it loaded before is within
// the 150 KB budget, runs both widgets and checks each one's graph and memory
// view, the height messages, the errors for bad settings, that code from the
// address never runs before Run (and a lesson's autorun does), that nothing
// from the address is evaluated, and that the site's CSP is sent and holds.
// Exits non-zero on any failure.
import { launch } from "./browser.mjs";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const site = process.env.GRADSCOPE_URL;
const host = process.env.GRADSCOPE_HOST_URL;
const hostDir = process.env.GRADSCOPE_HOST_DIR;
const shots = process.env.GRADSCOPE_SHOTS;
if (!site || !host || !hostDir || !shots) {
  console.error("widget.mjs: set GRADSCOPE_URL, GRADSCOPE_HOST_URL, GRADSCOPE_HOST_DIR and GRADSCOPE_SHOTS");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

const TIMEOUT = 60_000;
const RUN_TIMEOUT = 180_000;
const BUDGET = 150_000; // xtask/src/web.rs WIDGET_BUDGET_GZ
// What loading the engine means: the yew app, the editor and the worker.
const ENGINE = /\/(pkg\/|worker\.js|editor\.js)/;

function check(condition, message) {
  if (!condition) throw new Error(message);
  console.log(`  ok: ${message}`);
}

/// A page that records requests (with their frame), console errors, CSP
/// violations in any frame, and the height messages the top page receives.
async function openPage(browser, viewport) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`);
    });
    if (window.top === window) {
      window.__heights = [];
      window.addEventListener("message", (e) => {
        if (e.data && e.data.type === "gradscope:height") window.__heights.push({ origin: e.origin, height: e.data.height });
      });
    }
  });
  const page = await context.newPage();
  const requests = [];
  const problems = [];
  page.on("request", (r) => requests.push({ url: r.url(), frame: r.frame(), at: Date.now() }));
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`); });
  const done = () => check(problems.length === 0, `no errors or CSP violations${problems.length ? ": " + problems.join("; ") : ""}`);
  return { page, requests, problems, done };
}

const frameOf = (page, part) => page.frames().find((f) => f.url().includes("embed.html") && f.url().includes(part));

async function waitFrame(page, part) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const frame = frameOf(page, part);
    if (frame) return frame;
    if (Date.now() > deadline) throw new Error(`no widget frame with ${part}`);
    await page.waitForTimeout(50);
  }
}

/// Waits for the widget's status line to say the engine is `ready`, or
/// that a run has `ended`.
async function waitStatus(frame, want, what, timeout = TIMEOUT) {
  await frame.waitForFunction((want) => {
    const s = document.querySelector("[data-testid=status]")?.textContent ?? "";
    return want === "ready" ? s.startsWith("ready") : s === "finished" || s.startsWith("raised");
  }, want, { timeout }).catch(async (err) => {
    throw new Error(`${what}: ${err.message}\nwidget text: ${await frame.textContent("body")}`);
  });
}
const READY = "ready";
const ENDED = "ended";

/// What a widget's view shows after a run: graph nodes and memory bands.
async function views(frame) {
  return {
    nodes: await frame.locator("[data-testid=graph] g.node").count(),
    bands: await frame.locator("[data-testid=memory-chart] path.band").count(),
    peak: await frame.locator("[data-testid=memory-peak]").count(),
  };
}

/// The frame's document height against the height its iframe was given.
async function fits(page, frame) {
  const inner = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  const outer = await (await frame.frameElement()).evaluate((f) => f.getBoundingClientRect().height - 2);
  return { inner, outer, ok: Math.abs(inner - outer) <= 1 };
}

// WebGPU (SwiftShader): device="auto" picks it inside a cross-origin frame.
const browser = await launch({ webgpu: true });
try {
  // ---------------------------------------------------------------- the demo
  {
    console.log(`demo article at ${host} (widgets from ${site}), 1280x800:`);
    const { page, requests, done } = await openPage(browser, { width: 1280, height: 800 });
    const start = Date.now();
    const responses = [];
    page.on("response", (r) => responses.push(r));
    // Not the load event: it also waits on every widget frame's own loads,
    // which passed 30 s once on a loaded machine; the frames are awaited below.
    await page.goto(host, { waitUntil: "domcontentloaded", timeout: TIMEOUT });
    const first = await waitFrame(page, "lesson=forgot-zero-grad");
    const second = await waitFrame(page, "code=");
    await first.getByTestId("title").waitFor({ timeout: TIMEOUT });
    const firstView = Date.now() - start;
    check((await first.getByTestId("title").textContent()).startsWith("Lesson 3 ·"), "widget 1 shows the lesson's title at once");
    await second.getByTestId("code-preview").waitFor({ timeout: TIMEOUT });
    check((await second.getByTestId("code-preview").textContent()).startsWith("import torch\n\nw = torch.randn(4, 3"),
      "widget 2 shows its inline program (indentation removed) before any engine");
    check(await second.getByTestId("run").isEnabled(), "widget 2 offers Run before the engine loads");

    const embedResponse = responses.find((r) => r.url().includes("embed.html"));
    const csp = (await embedResponse.allHeaders())["content-security-policy"] ?? "";
    const scripts = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src"));
    check(scripts === "script-src 'self' 'wasm-unsafe-eval'",
      `embed.html is served with the site's CSP (${csp.slice(0, 60)}…)`);

    await waitStatus(first, READY, "widget 1 (in view) never became ready");
    const firstReady = Date.now() - start;
    console.log(`  measured: widget 1 first view ${firstView} ms, engine ready ${firstReady} ms after navigation ` +
      `(${await first.getByTestId("status").textContent()})`);
    // Widget 1 loading its engine must not make widget 2 load its own.
    await page.waitForTimeout(1500);
    const early = requests.filter((r) => r.frame === second);
    const engineEarly = early.filter((r) => ENGINE.test(r.url));
    check(early.length > 0 && engineEarly.length === 0,
      `widget 2, out of view, loaded no engine (${early.length} requests: ${early.map((r) => new URL(r.url).pathname).join(" ")})`);

    // What the widget loads before its engine: the loader and widget 2's requests so far.
    let total = 0;
    const parts = [];
    for (const r of responses) {
      const url = r.url();
      const mine = r.frame() === second || url.endsWith("/widget.js");
      if (!mine || !url.startsWith(site)) continue;
      // Widget 2 asks for the files widget 1 already has, and the server
      // answers "304 Not Modified" (its ETags): the browser's copy is the
      // file, so count the file as served in full.
      const body = r.status() === 304 ? Buffer.from(await (await fetch(url)).arrayBuffer()) : await r.body();
      const gz = gzipSync(body, { level: 9 }).length;
      total += gz;
      parts.push(`${new URL(url).pathname} ${gz}`);
    }
    check(total > 0 && total <= BUDGET, `before its engine the widget loaded ${total} bytes gzipped, within ${BUDGET} (${parts.join(", ")})`);

    const heights = await page.evaluate(() => window.__heights);
    check(heights.length >= 2 && heights.every((h) => h.origin === new URL(site).origin && h.height > 0),
      `the host page received height messages from the widgets' origin (${heights.map((h) => h.height).join(", ")})`);
    for (const [name, frame] of [["widget 1", first], ["widget 2", second]]) {
      const f = await fits(page, frame);
      check(f.ok, `${name}'s frame is as tall as its page (${f.outer} px for ${f.inner} px)`);
    }

    // Scroll widget 2 into view: now, and only now, it loads its engine.
    const scrolledAt = Date.now();
    await page.locator("gradscope-widget").nth(1).scrollIntoViewIfNeeded();
    await waitStatus(second, READY, "widget 2 never became ready after scrolling to it");
    const secondReady = Date.now() - scrolledAt;
    const engineLoads = requests.filter((r) => r.frame === second && ENGINE.test(r.url));
    check(engineLoads.length > 0 && engineLoads.every((r) => r.at >= scrolledAt),
      `widget 2 loaded its engine after it was scrolled into view (${engineLoads.map((r) => new URL(r.url).pathname).join(" ")})`);
    console.log(`  measured: widget 2 engine ready ${secondReady} ms after it came into view`);

    // Run both at once; each has its own worker. A frame out of view gets
    // no animation frames (Chromium throttles offscreen cross-origin
    // frames), so each widget draws what its worker sent once it is seen.
    const widgets = page.locator("gradscope-widget");
    await widgets.nth(0).scrollIntoViewIfNeeded();
    await first.getByTestId("run").click();
    const ran = Date.now();
    await widgets.nth(1).scrollIntoViewIfNeeded();
    await second.getByTestId("run").click();
    await waitStatus(second, ENDED, "widget 2's run never ended", RUN_TIMEOUT);
    await widgets.nth(0).scrollIntoViewIfNeeded();
    await waitStatus(first, ENDED, "widget 1's run never ended", RUN_TIMEOUT);
    console.log(`  measured: both runs ended within ${Date.now() - ran} ms`);
    check(await first.getByTestId("status").textContent() === "finished", "widget 1's lesson ran to its end");
    check(await first.getByTestId("device").inputValue() === "webgpu"
      && (await first.locator("[data-testid=device] option[value=webgpu]").textContent()).startsWith("WebGPU ·"),
      `widget 1 (device="auto") chose ${await first.locator("[data-testid=device] option[value=webgpu]").textContent()}`);
    check(await second.getByTestId("device").inputValue() === "cpu", 'widget 2 (device="cpu") ran on the CPU');
    check(await second.getByTestId("status").textContent() === "finished", "widget 2's program ran to its end");
    for (const [name, frame] of [["widget 1", first], ["widget 2", second]]) {
      const v = await views(frame);
      check(v.nodes > 0 && v.bands >= 1 && v.peak === 1, `${name} shows its graph (${v.nodes} nodes) and memory view (${v.bands} bands, a peak)`);
    }
    const out = await second.getByTestId("console").textContent();
    check(out.includes("grad_fn=<SumBackward0>") && out.includes("torch.Size([4, 3])"), "widget 2's console shows what the program printed");
    check((await first.getByTestId("console").count()) === 0, "widget 1 shows only the panels it was given (no console)");

    // Independence: stepping one back leaves the other where it is.
    const before = await second.getByTestId("position").textContent();
    await first.getByRole("button", { name: "back one statement" }).click();
    check(!/^event (\d+) \/ \1/.test(await first.getByTestId("position").textContent()), "widget 1 stepped back");
    check(await second.getByTestId("position").textContent() === before, "widget 2 stayed at its end");
    await page.locator("gradscope-widget").nth(0).screenshot({ path: join(shots, "widget-lesson.png") });
    await page.locator("gradscope-widget").nth(1).scrollIntoViewIfNeeded();
    await page.locator("gradscope-widget").nth(1).screenshot({ path: join(shots, "widget-inline.png") });
    console.log(`  screenshots: ${join(shots, "widget-lesson.png")}, ${join(shots, "widget-inline.png")}`);

    // A narrow page: the frames stack their panels, post their new height, and grow.
    const wide = await fits(page, second);
    await page.setViewportSize({ width: 480, height: 800 });
    await page.waitForFunction(() => true);
    const deadline = Date.now() + 10_000;
    let narrow = await fits(page, second);
    while ((!narrow.ok || narrow.outer <= wide.outer) && Date.now() < deadline) {
      await page.waitForTimeout(100);
      narrow = await fits(page, second);
    }
    check(narrow.ok && narrow.outer > wide.outer, `at 480 px the frame follows its page's new height (${wide.outer} -> ${narrow.outer} px)`);
    await page.locator("gradscope-widget").nth(1).screenshot({ path: join(shots, "widget-inline-480.png") });
    done();
    await page.context().close();
  }

  // ------------------------------------- Run pressed before the widget is seen
  {
    console.log("Run pressed on a widget out of view:");
    const { page, requests, done } = await openPage(browser, { width: 900, height: 700 });
    writeFileSync(join(hostDir, "run-offscreen.html"), `<!doctype html><meta charset="utf-8"><title>below</title>
      <link rel="icon" href="data:,"><script src="${site}widget.js" defer></script>
      <div style="height: 2000px">A long article.</div>
      <gradscope-widget panels="code,console,graph" device="cpu" height="360">print(sum(range(10)))</gradscope-widget>`);
    await page.goto(`${host}run-offscreen.html`, { waitUntil: "domcontentloaded", timeout: TIMEOUT });
    const frame = await waitFrame(page, "code=");
    await frame.getByTestId("run").waitFor({ state: "attached", timeout: TIMEOUT });
    await page.waitForTimeout(1000);
    check(!requests.some((r) => r.frame === frame && ENGINE.test(r.url)), "out of view, the widget loaded no engine");
    // A click from script: no scrolling, the frame stays out of view.
    const pressed = Date.now();
    await frame.evaluate(() => document.querySelector("[data-testid=run]").click());
    const deadline = Date.now() + TIMEOUT;
    while (!requests.some((r) => r.frame === frame && r.url.endsWith("_bg.wasm") && r.url.includes("webworker"))) {
      if (Date.now() > deadline) throw new Error("Run did not load the engine");
      await page.waitForTimeout(100);
    }
    check(true, `Run loaded the engine while the widget was out of view (worker requested ${Date.now() - pressed} ms after the click)`);
    await page.locator("gradscope-widget").scrollIntoViewIfNeeded();
    await waitStatus(frame, ENDED, "the run asked for before the app loaded never ended");
    check((await frame.getByTestId("console").textContent()).includes("45"), "and the program ran once the engine was ready");
    done();
    await page.context().close();
  }

  // ------------------------------------------------------------- bad settings
  {
    console.log("bad settings, on a host page:");
    const { page, done } = await openPage(browser, { width: 900, height: 900 });
    const long = "x = 1\n".repeat(2000);
    const body = `<!doctype html><meta charset="utf-8"><title>bad widgets</title><link rel="icon" href="data:,">
      <script src="${site}widget.js"></script>
      <gradscope-widget lesson="no-such-lesson" height="200"></gradscope-widget>
      <gradscope-widget lesson="forgot-zero-grad" panels="code,bogus" height="200"></gradscope-widget>
      <gradscope-widget lesson="forgot-zero-grad" height="tall"></gradscope-widget>
      <gradscope-widget lesson="${"a".repeat(300)}"></gradscope-widget>
      <gradscope-widget>${long}</gradscope-widget>`;
    // Served by the host's server: a page Playwright made up would not be
    // on the loopback address space, and Chromium would refuse it the loader.
    writeFileSync(join(hostDir, "bad-widgets.html"), body);
    // The frames are waited for one by one below, with their own timeouts;
    // the page's load event (every frame loaded) once took over Playwright's
    // default 30 s on a loaded CI machine.
    await page.goto(`${host}bad-widgets.html`, { waitUntil: "domcontentloaded", timeout: TIMEOUT });
    const frameError = async (part) => {
      const frame = await waitFrame(page, part);
      const error = frame.getByTestId("widget-error");
      await error.waitFor({ timeout: TIMEOUT });
      return error.textContent();
    };
    const unknown = await frameError("lesson=no-such-lesson");
    check(unknown.includes('there is no lesson named "no-such-lesson"'), `unknown lesson: "${unknown}"`);
    const panel = await frameError("bogus");
    check(panel.includes('there is no panel named "bogus"'), `unknown panel: "${panel}"`);
    const height = await frameError("height=tall");
    check(height.includes('height is "tall"'), `malformed height: "${height}"`);
    const widgets = page.locator("gradscope-widget");
    const oversized = await widgets.nth(3).locator(".error").textContent();
    check(oversized.includes("lesson attribute is 300 characters long"), `oversized attribute: "${oversized}"`);
    const longCode = await widgets.nth(4).locator(".error").textContent();
    check(longCode.includes("program is 12000 characters long"), `oversized program: "${longCode}"`);
    const f = await fits(page, frameOf(page, "no-such-lesson"));
    check(f.ok && f.outer > 20, `the error frame is sized to its message (${f.outer} px), never blank`);
    await page.screenshot({ path: join(shots, "widget-errors.png"), fullPage: true });
    done();
    await page.context().close();
  }

  // ------------------------------------- embed.html alone: autorun and safety
  {
    console.log("embed.html on its own:");
    const { page, requests, done } = await openPage(browser, { width: 900, height: 600 });
    // Code from the address waits for Run, even when autorun is asked for.
    await page.goto(`${site}embed.html?code=${encodeURIComponent("print(6 * 7)\n")}&autorun=true&panels=code,console&hide=steps,device`);
    await page.getByTestId("code-preview").or(page.locator(".cm-content")).first().waitFor({ timeout: TIMEOUT });
    // The step buttons and the pass buttons: two groups, both hidden.
    const stepGroups = await page.locator(".transport .steps").evaluateAll((groups) => groups.map((g) => g.offsetParent === null));
    check(stepGroups.length === 2 && stepGroups.every((hidden) => hidden) && !(await page.locator(".device-menu").isVisible())
      && (await page.getByTestId("run").isVisible()), "hide=steps,device hides the step and pass buttons and the device menu, not Run");
    await waitStatus(page.mainFrame(), READY, "the engine never became ready");
    await page.waitForTimeout(1500);
    check((await page.getByTestId("status").textContent()).startsWith("ready"), "code from the address did not run by itself (autorun is for lessons)");
    check(!(await page.getByTestId("console").textContent()).includes("42"), "and printed nothing");
    await page.getByTestId("run").click();
    await waitStatus(page.mainFrame(), ENDED, "the run never ended");
    check((await page.getByTestId("console").textContent()).includes("42"), "Run runs it");

    // A built-in lesson with autorun runs at once.
    await page.goto(`${site}embed.html?lesson=graph-lifecycle&autorun=1&panels=graph,memory&device=cpu`);
    await waitStatus(page.mainFrame(), ENDED, "the autorun lesson never ran", RUN_TIMEOUT);
    const v = await views(page.mainFrame());
    check(v.nodes > 0 && v.bands >= 1, `a lesson with autorun ran by itself and drew its graph (${v.nodes} nodes)`);

    // Nothing from the address is evaluated or parsed as HTML.
    const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    await page.goto(`${site}embed.html?code=${encodeURIComponent(payload)}&panels=code`);
    await page.getByTestId("code-preview").waitFor({ timeout: TIMEOUT }).catch(() => {});
    await waitStatus(page.mainFrame(), READY, "the engine never became ready");
    check(await page.evaluate(() => window.__pwned === undefined && document.querySelectorAll("img, main script").length === 0),
      "markup in code= stays text: no element made, nothing run");
    check((await page.locator(".cm-content").innerText()).includes("<img src=x"), "the editor shows it as the program's text");
    await page.goto(`${site}embed.html?lesson=${encodeURIComponent("<b>x</b>")}`);
    const error = await page.getByTestId("widget-error").textContent();
    check(error.includes('"<b>x</b>"') && (await page.locator("main b").count()) === 0, "a lesson name with markup is quoted as text");
    check(requests.every((r) => new URL(r.url).origin === new URL(site).origin), "the widget fetched only from its own origin");
    done();
    await page.context().close();
  }
  console.log("widget e2e: passed");
} catch (err) {
  console.error(`widget e2e: FAILED: ${err.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
