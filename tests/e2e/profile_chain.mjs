// A profiler, not a test: runs tests/bench/chain.py (or GRADSCOPE_PROGRAM)
// in a fresh engine worker of a served site under Chromium's CPU profiler
// (the DevTools protocol's Profiler domain, attached to the worker's target)
// and prints where the worker's time went: the functions with the most
// self time and the most inclusive time. With a worker module that keeps
// its `name` section (wasm-bindgen's output before wasm-opt, which drops
// it), wasm functions show by their Rust names.
//
// Env: GRADSCOPE_URL (the served site); GRADSCOPE_PROGRAM (a Python file,
// default tests/bench/chain.py); GRADSCOPE_TOP (rows, default 40);
// GRADSCOPE_PROFILE_OUT (write the .cpuprofile there, for DevTools).
//
// With GRADSCOPE_PAGE_URLS (served sites, comma-separated) it profiles
// nothing: it runs the program in each site's page (the playground, whose
// views take every event on the main thread, as a learner's run does) in
// interleaved rounds, GRADSCOPE_RUNS of them (default 5), and prints each
// site's printed figures (the chain's us/op) and their median.
import { readFileSync, writeFileSync } from "node:fs";
import { launch } from "./browser.mjs";
import { run as runInPage, waitReady } from "./page.mjs";

const url = process.env.GRADSCOPE_URL;
const pageUrls = process.env.GRADSCOPE_PAGE_URLS?.split(",").filter(Boolean);
if (!url && !pageUrls) {
  console.error("profile_chain.mjs: set GRADSCOPE_URL (or GRADSCOPE_PAGE_URLS)");
  process.exit(2);
}
const program = readFileSync(process.env.GRADSCOPE_PROGRAM ?? new URL("../bench/chain.py", import.meta.url), "utf8");
const top = Number(process.env.GRADSCOPE_TOP ?? 40);

if (pageUrls) {
  await inPages(pageUrls, Number(process.env.GRADSCOPE_RUNS ?? 5));
  process.exit(0);
}

/// Runs `program` in each site's page, `rounds` times, interleaved (the
/// order turned each round, so load on the machine falls on all alike).
async function inPages(urls, rounds) {
  const browser = await launch();
  try {
    const pages = [];
    for (const site of urls) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(site);
      await waitReady(page);
      // A first run stops the worker's warm-up rounds, which would
      // otherwise run beside another page's measured run.
      await runInPage(page, "print(1)\n");
      pages.push(page);
    }
    const figures = urls.map(() => []);
    for (let round = 0; round < rounds; round++) {
      const order = urls.map((_, i) => i);
      if (round % 2 === 1) order.reverse();
      for (const i of order) {
        const status = await runInPage(pages[i], program);
        const text = await pages[i].getByTestId("console").textContent();
        const figure = Number(/([0-9.]+) us per forward op/.exec(text)?.[1]);
        if (status !== "finished" || !Number.isFinite(figure)) throw new Error(`${urls[i]}: ${status}: ${text.slice(0, 300)}`);
        figures[i].push(figure);
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    urls.forEach((site, i) => console.log(`${site}: chain in the page median ${median(figures[i]).toFixed(2)} us/op [${figures[i].join(", ")}]`));
  } finally {
    await browser.close();
  }
}

const browser = await launch();
try {
  const page = await browser.newPage();
  await page.route(url + "__profile.html", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>profile</title>" }));
  await page.goto(url + "__profile.html");

  // The browser's session finds the worker's target; its protocol is
  // reached through Target.sendMessageToTarget (a session not flattened
  // into the browser's, which Playwright's sessions do not route).
  const cdp = await browser.newBrowserCDPSession();
  let nextId = 1;
  const pending = new Map();
  let workerSession = null;
  cdp.on("Target.receivedMessageFromTarget", ({ sessionId, message }) => {
    if (sessionId !== workerSession) return;
    const msg = JSON.parse(message);
    const waiter = pending.get(msg.id);
    if (waiter) {
      pending.delete(msg.id);
      if (msg.error) waiter.reject(new Error(JSON.stringify(msg.error)));
      else waiter.resolve(msg.result);
    }
  });
  const inWorker = (method, params = {}) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    cdp.send("Target.sendMessageToTarget", {
      sessionId: workerSession, message: JSON.stringify({ id, method, params }),
    }).catch(reject);
  });

  // Start a worker and wait for its ready message (and the rehearsal, so
  // the warm-up's rounds do not run inside the profile).
  const startup = await page.evaluate((src) => new Promise((resolve, reject) => {
    const worker = new Worker(src, { type: "module" });
    window.__worker = worker;
    window.__stdout = "";
    window.__done = null;
    window.__messages = { count: 0, bytes: 0 };
    worker.onmessage = (e) => {
      window.__messages.count += 1;
      window.__messages.bytes += typeof e.data === "string" ? e.data.length : e.data.byteLength;
      const reply = JSON.parse(typeof e.data === "string" ? e.data : new TextDecoder().decode(e.data));
      if (reply.type === "ready") resolve(reply.startup_ms);
      else if (reply.type === "stdout") window.__stdout += reply.text;
      else if (reply.type === "finished" || reply.type === "error") window.__done = reply;
    };
    worker.onerror = (e) => reject(new Error(e.message));
  }), url + "worker.js");
  console.log(`interpreter start: ${Math.round(startup)} ms`);

  const { targetInfos } = await cdp.send("Target.getTargets");
  const target = targetInfos.find((t) => t.type === "worker" && t.url.endsWith("worker.js"));
  if (!target) throw new Error(`no worker target in ${JSON.stringify(targetInfos.map((t) => [t.type, t.url]))}`);
  ({ sessionId: workerSession } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false }));
  await inWorker("Profiler.enable");
  await inWorker("Profiler.setSamplingInterval", { interval: 100 });

  const run = async (profiled) => {
    if (profiled) await inWorker("Profiler.start");
    await page.evaluate((source) => {
      window.__stdout = "";
      window.__done = null;
      window.__messages = { count: 0, bytes: 0 };
      window.__worker.postMessage(JSON.stringify({ type: "run_program", source, device: "cpu" }));
    }, program);
    await page.waitForFunction(() => window.__done !== null, null, { timeout: 300_000 });
    const profile = profiled ? (await inWorker("Profiler.stop")).profile : null;
    const [done, stdout, messages] = await page.evaluate(() => [window.__done, window.__stdout, window.__messages]);
    if (done.type === "error") throw new Error(`the program raised ${done.kind}: ${done.message}`);
    return { stdout: `${stdout.trim()} (${messages.count} replies, ${(messages.bytes / 1e6).toFixed(1)} MB)`, profile };
  };
  const plain = await run(false);
  console.log(`unprofiled: ${plain.stdout}`);
  const { stdout, profile } = await run(true);
  console.log(`profiled:   ${stdout}`);
  if (process.env.GRADSCOPE_PROFILE_OUT) writeFileSync(process.env.GRADSCOPE_PROFILE_OUT, JSON.stringify(profile));

  // Self and inclusive time by function name, from the samples.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => n.callFrame.functionName || `(anonymous ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber})`;
  const self = new Map();
  const total = new Map();
  let all = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]) / 1000;
    all += dt;
    let node = byId.get(profile.samples[i]);
    self.set(name(node), (self.get(name(node)) ?? 0) + dt);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const f = name(byId.get(id));
      if (seen.has(f)) continue;
      seen.add(f);
      total.set(f, (total.get(f) ?? 0) + dt);
    }
  }
  const table = (title, map) => {
    console.log(`\n${title} (ms of ${all.toFixed(0)} sampled, %):`);
    for (const [f, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${ms.toFixed(1).padStart(9)} ${(100 * ms / all).toFixed(1).padStart(5)}%  ${f.slice(0, 160)}`);
    }
  };
  table("self time", self);
  table("inclusive time", total);
} finally {
  await browser.close();
}
