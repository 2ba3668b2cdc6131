// Measures the engine worker's start-up in headless Chromium: how long the
// worker takes to make the Python interpreter and import torch (the
// `startup_ms` of its ready message), over several fresh workers.
//
// Env: GRADSCOPE_URL (the served site); GRADSCOPE_RUNS (default 7).
import { launch } from "./browser.mjs";

const url = process.env.GRADSCOPE_URL;
const runs = Number(process.env.GRADSCOPE_RUNS ?? 7);
if (!url) {
  console.error("startup.mjs: set GRADSCOPE_URL");
  process.exit(2);
}
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.route(url + "__startup.html", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>start-up</title>" }));
  await page.goto(url + "__startup.html");
  const times = [];
  for (let i = 0; i < runs; i++) {
    const ready = await page.evaluate((src) => new Promise((resolve, reject) => {
      const started = performance.now();
      const worker = new Worker(src, { type: "module" });
      worker.onmessage = (e) => {
        // Long replies come as UTF-8 bytes (protocol.rs, SMALL_REPLY_BYTES).
        const reply = JSON.parse(typeof e.data === "string" ? e.data : new TextDecoder().decode(e.data));
        if (reply.type !== "ready") return reject(new Error(JSON.stringify(reply)));
        resolve({ startup: reply.startup_ms, total: performance.now() - started });
        worker.terminate();
      };
      worker.onerror = (e) => reject(new Error(e.message));
    }), url + "worker.js");
    times.push(ready);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const fmt = (xs) => xs.map((x) => Math.round(x)).join(", ");
  console.log(`interpreter start (startup_ms): median ${Math.round(median(times.map((t) => t.startup)))} ms [${fmt(times.map((t) => t.startup))}]`);
  console.log(`worker created to ready (fetch, compile, start): median ${Math.round(median(times.map((t) => t.total)))} ms [${fmt(times.map((t) => t.total))}]`);
} finally {
  await browser.close();
}
