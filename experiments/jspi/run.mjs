// Serves this directory (pages) and the built pkg/, opens index.html in
// Debian's headless Chromium with WebGPU (SwiftShader) and prints the log.
// Env: JSPI_PKG (wasm-bindgen's out dir; default /work/main/target/jspi/pkg).
// Exits non-zero unless both the worker and the page read [2,4,6] back.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkg = process.env.JSPI_PKG ?? "/work/main/target/jspi/pkg";
// JSPI_MODE: "" (JSPI, worker then page), "nojspi-raw" or "nojspi-polyfill"
// (page only: a browser without JSPI, simulated by deleting or replacing it).
const mode = process.env.JSPI_MODE ?? "";
// The e2e tests' playwright-core (tests/e2e/node_modules); no browser download.
const { chromium } = createRequire(join(here, "../../tests/e2e/package.json"))("playwright-core");

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
  const file = path.startsWith("/pkg/") ? join(pkg, path.slice(5)) : join(here, path === "/" ? "index.html" : path);
  if (path === "/favicon.ico") return res.writeHead(204).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/`;

const args = [
  "--headless=new", "--no-sandbox", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-quic", "--disable-dev-shm-usage",
  "--enable-unsafe-webgpu", "--enable-webgpu-developer-features",
];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args, headless: true });
let text = "";
try {
  const page = await browser.newPage();
  page.on("console", (m) => { if (m.type() === "error") console.log(`console.error: ${m.text()}`); });
  page.on("pageerror", (e) => console.log(`pageerror: ${e.message}`));
  await page.goto(mode ? `${url}?mode=${mode}` : url);
  await page.waitForFunction(() => document.title === "finished", null, { timeout: 120_000 }).catch((e) => console.log(`timed out: ${e.message}`));
  text = await page.locator("#log").textContent();
  console.log(`chromium ${browser.version()}`);
  console.log(text);
} finally {
  await browser.close();
  server.close();
}
const ok = mode
  ? text.includes("[page] done") // the no-JSPI modes report what fails; they pass by finishing
  : ["[worker]", "[page]"].every((who) => text.includes(`${who} run_sync([1,2,3]): [2,4,6]`));
console.log(ok ? `PASS${mode ? ` (${mode}: finished)` : ": synchronous readback returned [2,4,6] in the worker and on the page"}` : "FAIL");
process.exit(ok ? 0 : 1);
