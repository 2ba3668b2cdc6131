//! gradscope's Web Worker: the engine runs here, off the page's main thread,
//! and talks to the page only through [`Request`] and [`Reply`] messages.
//!
//! `web/worker.js` loads this module; its start function makes the Python
//! interpreter and announces [`Reply::Ready`]; `worker.js` then hands each
//! message to [`on_message`], one at a time.

mod figures;
mod files;
mod gpu;
mod lesson;
mod program;
mod stdlib;

pub use program::warm_up_more;

use gradscope_trace::{Reply, Request};
use wasm_bindgen::prelude::*;
use web_sys::DedicatedWorkerGlobalScope;

/// Sends one reply to the page as JSON: a short one as a string, a long
/// one (a batch of trace events) as its UTF-8 bytes in a transferred
/// `Uint8Array`. A string crossed threads as a structured-clone copy and
/// was copied back into the page's wasm a piece at a time, converted from
/// UTF-16 each way: bytes are moved, not copied, and reach the page's
/// parser with one memcpy.
///
/// The JSON is written by `gradscope_trace::reply_json` (the events a run
/// streams by the hundred thousand, directly) into one buffer kept for the
/// worker's life (up to [`KEEP_JSON_BYTES`]), so a batch of half a
/// megabyte is not grown from empty each time.
pub(crate) fn post(reply: &Reply) {
    thread_local! {
        static JSON: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut json = JSON.take();
    json.clear();
    if let Err(err) = gradscope_trace::reply_json::write(&mut json, reply) {
        web_sys::console::error_1(&format!("gradscope worker: {err}").into());
        return;
    }
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let posted = if json.len() > gradscope_trace::protocol::SMALL_REPLY_BYTES {
        let bytes = js_sys::Uint8Array::from(json.as_slice());
        scope.post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()))
    } else {
        // serde_json and `reply_json` write UTF-8.
        let text = String::from_utf8_lossy(&json);
        scope.post_message(&JsValue::from_str(&text))
    };
    if let Err(err) = posted {
        web_sys::console::error_2(&"gradscope worker: postMessage failed".into(), &err);
    }
    if json.capacity() <= KEEP_JSON_BYTES {
        JSON.set(json);
    }
}

/// The largest reply buffer [`post`] keeps: a batch of events is about half a
/// megabyte; a rehearsal's whole trace may be more, and is not kept.
const KEEP_JSON_BYTES: usize = 8 << 20;

#[wasm_bindgen]
extern "C" {
    /// The worker's `performance` object.
    type Performance;
    /// `performance.now()`, in milliseconds.
    #[wasm_bindgen(method)]
    fn now(this: &Performance) -> f64;
}

thread_local! {
    /// `performance`, looked up once: read as a global on each call (a
    /// `js_namespace` binding), the chain in the worker ran 5.65 us/op
    /// against 4.65 this way (7 interleaved rounds, worker_ab.mjs).
    static PERFORMANCE: Option<Performance> =
        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
            .ok()
            .filter(|p| !p.is_undefined())
            .map(JsCast::unchecked_into);
}

/// The trace's clock in the worker: `performance.now()` in microseconds,
/// without `web_time`'s `Duration` arithmetic on each read.
fn performance_now_us() -> u64 {
    PERFORMANCE.with(|p| p.as_ref().map_or(0, |p| (p.now() * 1000.0) as u64))
}

/// Makes the interpreter; runs when `worker.js` initialises the module.
#[wasm_bindgen(start)]
pub fn start() {
    // A panic aborts the module (wasm32 has no unwinding); say where first,
    // so the page reports an engine bug instead of a bare `unreachable`.
    std::panic::set_hook(Box::new(|info| {
        let message = format!("the engine failed (a bug in gradscope, please report it): {info}");
        web_sys::console::error_1(&message.clone().into());
        post(&Reply::Error {
            kind: "RuntimeError".into(),
            message,
            line: gradscope_core::trace::current_line(),
            traceback: None,
        });
    }));
    if PERFORMANCE.with(Option::is_some) {
        gradscope_core::trace::set_clock(performance_now_us);
    }
    gpu::register_opener();
    stdlib::register();
    let startup_ms = program::start_runtime();
    post(&Reply::Ready { startup_ms });
}

// wasm-bindgen marks its JSPI support experimental with `#[deprecated]`,
// also on the items its macro generates beside the export: allowed for this
// module only.
#[allow(deprecated)]
mod entry {
    use super::{Reply, Request, handle, post};
    use wasm_bindgen::prelude::*;

    /// Handles one message from the page; `worker.js` calls it for each
    /// message in turn, waiting for the promise it returns before the next.
    ///
    /// It is a JSPI export (entered through `WebAssembly.promising`), so a
    /// program it runs may suspend while the GPU works: reading a GPU tensor
    /// into Python (`print`, `.item()`) waits on the buffer's map. The handling
    /// runs as a task spawned from here (inheriting the promising entry) and
    /// this call suspends until it is done, so the promise `worker.js` awaits
    /// settles only when the reply has been posted: one message at a time,
    /// never a second one entering the interpreter a suspended run holds.
    ///
    /// Without JSPI (the stand-ins `worker.js` installs) nothing suspends: the
    /// promise settles at once and the task runs on its own, as before, while
    /// GPU downloads fail with a typed error.
    #[wasm_bindgen(jspi)]
    pub fn on_message(text: String) {
        let request = match serde_json::from_str::<Request>(&text) {
            Ok(request) => request,
            Err(err) => {
                return post(&Reply::Error {
                    kind: "ValueError".into(),
                    message: format!("gradscope worker: bad request {text:?}: {err}"),
                    line: None,
                    traceback: None,
                });
            }
        };
        // A run's extra files ride in its message, beside the protocol's
        // fields (see `files`).
        let files = match request {
            Request::RunProgram { .. } => crate::files::in_message(&text),
            _ => Vec::new(),
        };
        let task = wasm_bindgen_futures::future_to_promise(async move {
            handle(request, files).await;
            Ok(JsValue::UNDEFINED)
        });
        if let Err(err) = js_sys::futures::jspi_block_on_promise(&task) {
            web_sys::console::error_2(&"gradscope worker: a message failed".into(), &err);
        }
    }
}

async fn handle(request: Request, files: Vec<files::ProgramFile>) {
    // A learner's request warms the code itself: the rounds stop.
    if matches!(
        request,
        Request::RunProgram { .. } | Request::CheckLesson { .. }
    ) {
        program::stop_warming();
    }
    match request {
        // The page asks for the devices as soon as it hears Ready; the
        // answer goes first, then the warm-up (the device menu does not
        // wait for it, a run does).
        Request::ProbeDevices => {
            post(&Reply::Devices {
                webgpu: gpu::probe().await,
            });
            program::warm_up();
        }
        Request::RunProgram {
            source,
            device,
            memory_budget,
        } => program::run(&source, &files, device, memory_budget),
        Request::CheckLesson { slug, device } => post(&lesson::check(&slug, device)),
        Request::Rehearse => program::rehearse(),
    }
}
