// What every e2e script launches: Debian's headless Chromium, quiet (no
// background fetches, updates or sync), and, asked for, WebGPU through
// SwiftShader.
import { chromium } from "playwright-core";

/// Chromium's flags for a test run.
export const BASE_ARGS = [
  "--headless=new", "--no-sandbox", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-quic", "--disable-dev-shm-usage",
];

/// The flags that give a page WebGPU (SwiftShader's adapter).
export const WEBGPU_ARGS = ["--enable-unsafe-webgpu", "--enable-webgpu-developer-features"];

/// A headless Chromium with `BASE_ARGS`, plus `WEBGPU_ARGS` when `webgpu`.
export function launch({ webgpu = false } = {}) {
  const args = webgpu ? [...BASE_ARGS, ...WEBGPU_ARGS] : BASE_ARGS;
  return chromium.launch({ executablePath: "/usr/bin/chromium", args, headless: true });
}

/// A headless Chromium with `BASE_ARGS` on a profile kept in `dir`, as a
/// learner's browser keeps one: its HTTP cache, and V8's cache of compiled
/// wasm beside it, outlive a page (a `newContext` is a fresh incognito one).
/// Returns the persistent context; its `browser()` can trace.
export function launchWithProfile(dir) {
  return chromium.launchPersistentContext(dir, {
    executablePath: "/usr/bin/chromium", args: BASE_ARGS, headless: true, viewport: { width: 1280, height: 800 },
  });
}
