// A benchmark, not a test: two builds of the engine's worker side by side in
// one headless Chromium, rounds interleaved (A, B, A, B, ...) so that load on
// the machine falls on both alike. Each round starts a fresh worker, reads its
// interpreter start (`startup_ms`) and runs tests/bench/chain.py on the CPU.
//
// Env: GRADSCOPE_URL_A and GRADSCOPE_URL_B (two served sites, e.g. `cargo
// xtask serve` and a copy with another pkg/gradscope_webworker_bg.wasm);
// GRADSCOPE_RUNS (rounds, default 5). Prints medians and every figure.
import { readFileSync } from "node:fs";
import { launch } from "./browser.mjs";

const sites = { A: process.env.GRADSCOPE_URL_A, B: process.env.GRADSCOPE_URL_B };
const runs = Number(process.env.GRADSCOPE_RUNS ?? 5);
if (!sites.A || !sites.B) {
  console.error("worker_ab.mjs: set GRADSCOPE_URL_A and GRADSCOPE_URL_B");
  process.exit(2);
}
const chain = readFileSync(new URL("../bench/chain.py", import.meta.url), "utf8");

/// One fresh worker of `url`: its start and the chain's figure.
async function round(page, url) {
  return page.evaluate(([src, source]) => new Promise((resolve, reject) => {
    const worker = new Worker(src, { type: "module" });
    let startup = null;
    let stdout = "";
    worker.onmessage = (e) => {
      // Long replies come as UTF-8 bytes (protocol.rs, SMALL_REPLY_BYTES).
      const reply = JSON.parse(typeof e.data === "string" ? e.data : new TextDecoder().decode(e.data));
      if (reply.type === "ready") {
        startup = reply.startup_ms;
        worker.postMessage(JSON.stringify({ type: "run_program", source, device: "cpu" }));
      } else if (reply.type === "stdout") {
        stdout += reply.text;
      } else if (reply.type === "finished" || reply.type === "error") {
        worker.terminate();
        const us = stdout.match(/chain: ([0-9.]+) us/);
        if (!us) reject(new Error(`no chain figure: ${JSON.stringify(reply).slice(0, 300)} ${stdout}`));
        else resolve({ startup, us: Number(us[1]) });
      }
    };
    worker.onerror = (e) => reject(new Error(e.message));
  }), [url + "worker.js", chain]);
}

const browser = await launch();
try {
  const figures = { A: [], B: [] };
  const pages = {};
  for (const [name, url] of Object.entries(sites)) {
    pages[name] = await browser.newPage();
    await pages[name].route(url + "__ab.html", (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>a/b</title>" }));
    await pages[name].goto(url + "__ab.html");
  }
  for (let i = 0; i < runs; i++) {
    for (const name of i % 2 === 0 ? ["A", "B"] : ["B", "A"]) {
      figures[name].push(await round(pages[name], sites[name]));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [name, rows] of Object.entries(figures)) {
    const start = rows.map((r) => r.startup);
    const us = rows.map((r) => r.us);
    console.log(`${name} ${sites[name]}: start median ${Math.round(median(start))} ms [${start.map(Math.round).join(", ")}]; ` +
      `chain median ${median(us).toFixed(2)} us/op [${us.join(", ")}]`);
  }
} finally {
  await browser.close();
}
