// The experiments, shared by the page (main.js) and the worker (worker.js).
// Each logs one line; `done` is the log's last line.
import init_glue, * as m from "./pkg/jspi_proto.js";

export async function probe(log) {
  const line = (k, v) => log(`${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  const attempt = async (k, f) => {
    try { line(k, await f()); } catch (e) { line(k, `THREW ${e?.constructor?.name}: ${e?.message ?? e}`); }
  };
  line("jspi", typeof WebAssembly.Suspending === "function" && typeof WebAssembly.promising === "function");
  line("webgpu", !!globalThis.navigator?.gpu);
  await init_glue();
  // Device set-up written as synchronous Rust (jspi export + future_to_promise).
  await attempt("init_sync", () => m.init_sync());
  // The point: a synchronous Rust function that reads a GPU buffer back.
  await attempt("run_sync([1,2,3])", async () => Array.from(await m.run_sync(new Float32Array([1, 2, 3]))));
  // Round-trip time: one run warms up, then the measured runs.
  await m.bench(5, 3);
  await attempt("bench 200 x 3 floats [total ms, readback ms]", () => m.bench(200, 3).then(Array.from));
  await attempt("bench 50 x 1M floats [total ms, readback ms]", () => m.bench(50, 1 << 20).then(Array.from));
  // The same measured from JS around each promising call (adds the promise hop).
  {
    const n = 200, t0 = performance.now();
    for (let i = 0; i < n; i++) await m.run_sync(new Float32Array([1, 2, 3]));
    line("JS-timed await run_sync() x200, ms each", ((performance.now() - t0) / n).toFixed(3));
  }
  // Pitfalls.
  await attempt("plain export (no promising) suspending", () => m.plain_readback());
  await attempt("JS frame between promising and suspension", () => m.via_js_frame());
  {
    const pending = m.hold_borrow_across_suspension(); // suspends; returns a Promise
    await attempt("poke() while the borrow is held across the suspension", () => m.poke());
    await attempt("hold_borrow_across_suspension result", () => pending.then(Array.from));
    await attempt("poke() after it finished", () => m.poke());
  }
  {
    // Two promising calls in flight at once: both suspend, both finish.
    const [a, b] = await Promise.all([m.run_sync(new Float32Array([10])), m.run_sync(new Float32Array([20]))]);
    line("two concurrent run_sync", [Array.from(a), Array.from(b)]);
  }
  log("done");
}
