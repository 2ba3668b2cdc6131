//! Prototype: a *synchronous* Rust function reads a WebGPU buffer back in the
//! browser, by suspending the wasm stack on the `mapAsync` promise through
//! JSPI (WebAssembly JavaScript Promise Integration), with wasm-bindgen
//! 0.2.130's own `jspi` / `suspending` attributes.
//!
//! Exports (all driven by `run.mjs` through `index.html`):
//! - `init()` (plain async export): adapter and device, kept in a thread-local.
//! - `init_sync()` (`jspi`): the same, but written as synchronous Rust.
//! - `run_sync(data)` (`jspi`): upload, double on the GPU, read back synchronously.
//! - `bench(n, len)` (`jspi`): `n` synchronous readbacks of `len` floats, timed.
//! - `plain_readback()` (no `jspi`): what happens without a promising boundary.
//! - `via_js_frame()` (`jspi`): a JS frame between `promising` and the suspension.
//! - `hold_borrow_across_suspension()` (`jspi`) and `poke()`: re-entrancy
//!   while suspended against a `RefCell` borrow held across the suspension.

// The `jspi` and `suspending` attributes are marked experimental by
// wasm-bindgen 0.2.130 with a `#[deprecated]` note on every use.
#![allow(deprecated)]

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wgpu::util::DeviceExt;

#[wasm_bindgen(inline_js = "
export function suspend_on(p) { return p; }
export function now() { return performance.now(); }
export function call_js_then_wasm(f) { return f(); }
")]
extern "C" {
    /// (a) Our own suspending import: the JS body returns the promise, and
    /// the glue wraps it in `new WebAssembly.Suspending(...)`, so the wasm
    /// caller resumes with what the promise resolved to. `catch` turns a
    /// rejection into `Err(reason)`.
    #[wasm_bindgen(catch, suspending)]
    fn suspend_on(promise: &js_sys::Promise) -> Result<JsValue, JsValue>;

    fn now() -> f64;

    /// A plain (non-suspending) JS import that calls back into wasm.
    fn call_js_then_wasm(f: &js_sys::Function) -> JsValue;
}

/// The device and queue. wgpu's handles are `Clone` (reference counted), so
/// callers clone them out instead of holding the borrow across a suspension.
struct Gpu {
    adapter: String,
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// Made once: SwiftShader compiles pipelines slowly, and the round trip
    /// is what is measured.
    double: wgpu::ComputePipeline,
}

thread_local! {
    static GPU: RefCell<Option<Gpu>> = const { RefCell::new(None) };
}

fn err(msg: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&msg.to_string())
}

async fn make_gpu() -> Result<Gpu, JsValue> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions::default())
        .await
        .map_err(|e| err(format!("no adapter: {e}")))?;
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor::default())
        .await
        .map_err(|e| err(format!("no device: {e}")))?;
    let info = adapter.get_info();
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("double"),
        source: wgpu::ShaderSource::Wgsl(DOUBLE.into()),
    });
    let double = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("double"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    Ok(Gpu {
        adapter: format!("{} ({:?})", info.name, info.backend),
        device,
        queue,
        double,
    })
}

fn store(gpu: Gpu) -> String {
    let name = gpu.adapter.clone();
    GPU.with(|g| *g.borrow_mut() = Some(gpu));
    name
}

/// Ordinary async export: the way the worker sets up the device today.
#[wasm_bindgen]
pub async fn init() -> Result<String, JsValue> {
    Ok(store(make_gpu().await?))
}

/// The same set-up as *synchronous* Rust: the async wgpu calls become a JS
/// promise (`future_to_promise`, driven by wasm-bindgen-futures' executor
/// from the microtask queue while this stack is suspended) and we suspend on it.
#[wasm_bindgen(jspi)]
pub fn init_sync() -> Result<String, JsValue> {
    let promise = wasm_bindgen_futures::future_to_promise(async {
        let gpu = make_gpu().await?;
        Ok(JsValue::from_str(&store(gpu)))
    });
    let name = suspend_on(&promise)?;
    name.as_string()
        .ok_or_else(|| err("init_sync: not a string"))
}

type Handles = (wgpu::Device, wgpu::Queue, wgpu::ComputePipeline);

fn gpu() -> Result<Handles, JsValue> {
    GPU.with(|g| {
        g.borrow()
            .as_ref()
            .map(|g| (g.device.clone(), g.queue.clone(), g.double.clone()))
            .ok_or_else(|| err("call init() first"))
    })
}

const DOUBLE: &str = "
@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&x)) { x[id.x] = x[id.x] * 2.0; }
}";

/// Uploads `data`, doubles it with a compute shader, copies it to a
/// MAP_READ buffer and returns the submission's staging buffer.
fn enqueue_double((device, queue, pipeline): &Handles, data: &[f32]) -> wgpu::Buffer {
    let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    let size = bytes.len() as u64;
    let storage = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("x"),
        contents: &bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("staging"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: storage.as_entire_binding(),
        }],
    });
    let mut enc = device.create_command_encoder(&Default::default());
    {
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.dispatch_workgroups((data.len() as u32).div_ceil(64), 1, 1);
    }
    enc.copy_buffer_to_buffer(&storage, 0, &staging, 0, size);
    queue.submit([enc.finish()]);
    staging
}

/// (the point) A synchronous readback: `map_async`, then suspend this wasm
/// stack until its callback has run, then read the mapped range. The map
/// callback is a wasm-bindgen closure that wgpu registers with the
/// `mapAsync` promise's `.then`; it runs from the event loop *while this
/// stack is suspended*, and resolves the promise we are suspended on.
fn read_sync(staging: &wgpu::Buffer) -> Result<Vec<f32>, JsValue> {
    read_sync_with(staging, suspend_on)
}

type Suspend = fn(&js_sys::Promise) -> Result<JsValue, JsValue>;

fn read_sync_with(staging: &wgpu::Buffer, suspend: Suspend) -> Result<Vec<f32>, JsValue> {
    let mut resolve_slot: Option<js_sys::Function> = None;
    let mapped = js_sys::Promise::new(&mut |resolve, _reject| resolve_slot = Some(resolve));
    let resolve = resolve_slot.ok_or_else(|| err("Promise executor did not run"))?;
    let outcome: std::rc::Rc<RefCell<Option<Result<(), wgpu::BufferAsyncError>>>> =
        Default::default();
    let slot = outcome.clone();
    staging.map_async(wgpu::MapMode::Read, .., move |r| {
        *slot.borrow_mut() = Some(r);
        let _ = resolve.call0(&JsValue::UNDEFINED);
    });
    suspend(&mapped)?;
    let result = outcome.borrow_mut().take();
    match result {
        Some(Ok(())) => {}
        Some(Err(e)) => return Err(err(format!("map failed: {e}"))),
        None => return Err(err("resumed before the map callback ran")),
    }
    let out = {
        let view = staging
            .get_mapped_range(..)
            .map_err(|e| err(format!("get_mapped_range: {e}")))?;
        view.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    staging.unmap();
    Ok(out)
}

/// Upload, double, read back: synchronous Rust, reached through `promising`.
#[wasm_bindgen(jspi)]
pub fn run_sync(data: Vec<f32>) -> Result<Vec<f32>, JsValue> {
    let staging = enqueue_double(&gpu()?, &data);
    read_sync(&staging)
}

/// `n` synchronous round trips of `len` floats; returns milliseconds per
/// round trip as `[upload+dispatch+readback total, readback only]`.
#[wasm_bindgen(jspi)]
pub fn bench(n: u32, len: u32) -> Result<Vec<f64>, JsValue> {
    let handles = gpu()?;
    let data: Vec<f32> = (0..len).map(|i| i as f32).collect();
    let (mut total, mut readback) = (0.0, 0.0);
    for _ in 0..n {
        let t0 = now();
        let staging = enqueue_double(&handles, &data);
        let t1 = now();
        let out = read_sync(&staging)?;
        let t2 = now();
        if out.get(1).copied() != Some(2.0) && len > 1 {
            return Err(err(format!("wrong result {:?}", &out[..2])));
        }
        total += t2 - t0;
        readback += t2 - t1;
    }
    Ok(vec![total / n as f64, readback / n as f64])
}

/// `n` suspensions on an already resolved promise: the cost of JSPI's
/// suspend/resume itself (plus wasm-bindgen's shadow-stack evacuation),
/// in milliseconds per suspension.
#[wasm_bindgen(jspi)]
pub fn bench_suspend(n: u32) -> Result<f64, JsValue> {
    let resolved = js_sys::Promise::resolve(&JsValue::from(1));
    let t0 = now();
    for _ in 0..n {
        suspend_on(&resolved)?;
    }
    Ok((now() - t0) / n as f64)
}

/// Not `jspi`: the glue exports it as is, so there is no promising boundary
/// and the suspending import must fail (WebAssembly.SuspendError).
#[wasm_bindgen]
pub fn plain_readback() -> Result<Vec<f32>, JsValue> {
    run_sync(vec![1.0, 2.0, 3.0])
}

/// A `jspi` export that calls JS, which calls back into wasm, which suspends:
/// JSPI cannot suspend a stack with JS frames in it.
#[wasm_bindgen(jspi)]
pub fn via_js_frame() -> JsValue {
    let f = Closure::<dyn FnMut() -> JsValue>::new(|| match run_sync(vec![1.0]) {
        Ok(v) => JsValue::from_str(&format!("ok {v:?}")),
        // Debug shows the JS error's class and message.
        Err(e) => JsValue::from_str(&format!("Err({e:?})")),
    });
    call_js_then_wasm(f.as_ref().unchecked_ref())
}

thread_local! {
    static STATE: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Holds a `RefCell` borrow across the suspension (what an interpreter
/// holding `&mut self` across `download` does).
#[wasm_bindgen(jspi)]
pub fn hold_borrow_across_suspension() -> Result<Vec<f32>, JsValue> {
    STATE.with(|s| {
        let mut state = s.borrow_mut();
        state.push(1);
        let out = run_sync(vec![5.0])?;
        state.push(2);
        Ok(out)
    })
}

/// A plain export touching the same state: called by JS while the export
/// above is suspended, it finds the state borrowed.
#[wasm_bindgen]
pub fn poke() -> Result<u32, JsValue> {
    STATE.with(|s| match s.try_borrow_mut() {
        Ok(mut state) => {
            state.push(9);
            Ok(state.len() as u32)
        }
        Err(e) => Err(err(format!("re-entered while suspended: {e}"))),
    })
}

/// The same readback through wasm-bindgen's own primitive,
/// `js_sys::futures::jspi_block_on_promise` (no inline JS of ours).
#[wasm_bindgen(jspi)]
pub fn run_sync_builtin(data: Vec<f32>) -> Result<Vec<f32>, JsValue> {
    let staging = enqueue_double(&gpu()?, &data);
    read_sync_with(&staging, js_sys::futures::jspi_block_on_promise)
}

/// A readback inside a task spawned with `spawn_local`, the way
/// crates/webworker handles a message today; `done` gets the outcome.
fn spawn_readback(done: js_sys::Function) {
    wasm_bindgen_futures::spawn_local(async move {
        let text = match run_sync(vec![7.0]) {
            Ok(v) => format!("ok {v:?}"),
            Err(e) => format!("Err({e:?})"),
        };
        let _ = done.call1(&JsValue::NULL, &JsValue::from_str(&text));
    });
}

/// `spawn_local` called from a `jspi` export: wasm-bindgen enters the task's
/// polls through `WebAssembly.promising`, so it may suspend.
#[wasm_bindgen(jspi)]
pub fn spawn_from_jspi(done: js_sys::Function) {
    spawn_readback(done);
}

/// `spawn_local` called from a plain export (as from the worker's `onmessage`
/// closure today): the task is polled from a microtask with no promising frame.
#[wasm_bindgen]
pub fn spawn_from_plain(done: js_sys::Function) {
    spawn_readback(done);
}
