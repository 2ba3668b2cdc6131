//! gradscope's Web Worker: the engine runs here, off the page's main thread,
//! and talks to the page only through [`Request`] and [`Reply`] messages.
//!
//! `web/worker.js` loads this module; its start function installs the
//! message handler, makes the Python interpreter, and announces
//! [`Reply::Ready`].

mod gpu;
mod lesson;
mod program;

use gradscope_trace::{Reply, Request};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Sends one reply to the page as a JSON string.
pub(crate) fn post(reply: &Reply) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    match serde_json::to_string(reply) {
        Ok(json) => {
            if let Err(err) = scope.post_message(&JsValue::from_str(&json)) {
                web_sys::console::error_2(&"gradscope worker: postMessage failed".into(), &err);
            }
        }
        Err(err) => web_sys::console::error_1(&format!("gradscope worker: {err}").into()),
    }
}

/// Installs the message handler; runs when `worker.js` initialises the module.
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
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let handler = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        match serde_json::from_str::<Request>(&text) {
            Ok(request) => wasm_bindgen_futures::spawn_local(handle(request)),
            Err(err) => post(&Reply::Error {
                kind: "ValueError".into(),
                message: format!("gradscope worker: bad request {text:?}: {err}"),
                line: None,
                traceback: None,
            }),
        }
    });
    scope.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    handler.forget();
    let startup_ms = program::start_runtime();
    post(&Reply::Ready { startup_ms });
}

async fn handle(request: Request) {
    match request {
        Request::ProbeDevices => post(&Reply::Devices {
            webgpu: gpu::probe().await,
        }),
        Request::RunProgram {
            source,
            device,
            memory_budget,
        } => program::run(&source, device, memory_budget).await,
        Request::CheckLesson { slug } => post(&lesson::check(&slug)),
    }
}
