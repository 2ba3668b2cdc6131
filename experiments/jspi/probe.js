// The experiments, shared by the page (main.js) and the worker (worker.js).
// Each logs one line; `done` is the log's last line.
import init_glue, * as m from "./pkg/jspi_proto.js";

export async function probe(log, mode = "") {
  const line = (k, v) => log(`${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  const attempt = async (k, f) => {
    try { line(k, await f()); } catch (e) { line(k, `THREW ${e?.constructor?.name}: ${e?.message ?? e}`); }
  };
  line("jspi", typeof WebAssembly.Suspending === "function" && typeof WebAssembly.promising === "function");
  line("webgpu", !!globalThis.navigator?.gpu);
  if (mode === "nojspi-raw") {
    // A browser without JSPI (Firefox < 153, Safari today): the glue's
    // import object calls `new WebAssembly.Suspending(...)` at init.
    delete WebAssembly.Suspending;
    delete WebAssembly.promising;
  } else if (mode === "nojspi-polyfill") {
    // Identity stand-ins: a suspending import returns its Promise unawaited,
    // a promising export runs to completion synchronously.
    WebAssembly.Suspending = function (f) { return f; };
    WebAssembly.promising = (f) => (...a) => { try { return Promise.resolve(f(...a)); } catch (e) { return Promise.reject(e); } };
  }
  line("mode", mode || "jspi");
  try { await init_glue(); } catch (e) { line("init_glue", `THREW ${e?.constructor?.name}: ${e?.message}`); log("done"); return; }
  if (mode) {
    await attempt("init_sync", () => m.init_sync());
    await attempt("init (async export)", () => m.init());
    await attempt("run_sync([1,2,3])", async () => Array.from(await m.run_sync(new Float32Array([1, 2, 3]))));
    log("done");
    return;
  }
  // Device set-up written as synchronous Rust (jspi export + future_to_promise).
  await attempt("init_sync", () => m.init_sync());
  // The point: a synchronous Rust function that reads a GPU buffer back.
  await attempt("run_sync([1,2,3])", async () => Array.from(await m.run_sync(new Float32Array([1, 2, 3]))));
  await attempt("run_sync_builtin([1,2,3]) (js_sys::futures::jspi_block_on_promise)", async () => Array.from(await m.run_sync_builtin(new Float32Array([1, 2, 3]))));
  await attempt("spawn_local from a jspi export", () => new Promise((r) => m.spawn_from_jspi(r)));
  {
    // Its SuspendError escapes the task's poll as an uncaught error and the
    // task never finishes: catch the global error, give up after 2 s.
    let uncaught = null;
    const onError = (e) => { uncaught = e.message; e.preventDefault(); };
    globalThis.addEventListener("error", onError);
    await attempt("spawn_local from a plain export", () => Promise.race([
      new Promise((r) => m.spawn_from_plain(r)),
      new Promise((r) => setTimeout(() => r(`no result after 2 s; uncaught error: ${uncaught}`), 2000)),
    ]));
    globalThis.removeEventListener("error", onError);
  }
  // Round-trip time: one run warms up, then the measured runs.
  await m.bench(5, 3);
  await attempt("bench 200 x 3 floats [total ms, readback ms]", () => m.bench(200, 3).then(Array.from));
  await attempt("bench 50 x 1M floats [total ms, readback ms]", () => m.bench(50, 1 << 20).then(Array.from));
  await attempt("JSPI suspend+resume on a resolved promise, ms each (x10000)", () => m.bench_suspend(10000));
  await attempt("JS baseline: await mapAsync round trip, 3 floats, [total ms, readback ms] (x200)", () => jsBaseline(200));
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

/// The same work as `bench` in plain JavaScript WebGPU, no wasm: what the
/// readback costs on this adapter without JSPI.
async function jsBaseline(n) {
  const adapter = await navigator.gpu.requestAdapter();
  const device = await adapter.requestDevice();
  const data = new Float32Array([0, 1, 2]);
  const module = device.createShaderModule({ code: `
@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&x)) { x[id.x] = x[id.x] * 2.0; }
}` });
  const pipeline = device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: "main" } });
  let total = 0, readback = 0;
  for (let i = 0; i < n + 5; i++) {
    const t0 = performance.now();
    const storage = device.createBuffer({ size: 12, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(storage, 0, data);
    const staging = device.createBuffer({ size: 12, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const bind = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: storage } }] });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline); pass.setBindGroup(0, bind); pass.dispatchWorkgroups(1); pass.end();
    enc.copyBufferToBuffer(storage, 0, staging, 0, 12);
    device.queue.submit([enc.finish()]);
    const t1 = performance.now();
    await staging.mapAsync(GPUMapMode.READ);
    const out = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    if (out[1] !== 2) throw new Error(`wrong ${out}`);
    const t2 = performance.now();
    if (i >= 5) { total += t2 - t0; readback += t2 - t1; }
  }
  return [total / n, readback / n];
}
