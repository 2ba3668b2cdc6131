//! The standard library beyond what the interpreter starts with, and our
//! packages around torch, fetched the first time a program imports one of
//! their modules: three files beside the worker's wasm (`pkg/stdlib-HASH.bin`
//! and `pkg/packages-HASH.bin`, each named by its content so that browsers
//! may keep it for good; the first holds what programs commonly import, the
//! second the rest of `Lib`, the third `numpy`, `matplotlib` and `tqdm`),
//! each read by a synchronous request when a module in it is first imported.
//!
//! Synchronous because `import` is: the request happens inside a running
//! Python program, which cannot yield to the event loop. A worker may make
//! synchronous requests (a page's main thread may not), they work in every
//! browser, with or without JSPI, and they go through the HTTP cache; JSPI,
//! which GPU readback uses, would suspend the run instead, but only where
//! the browser has JSPI and only inside a promising export, while this
//! works wherever the worker runs. The worker is blocked meanwhile, as it
//! is for the whole run anyway.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{XmlHttpRequest, XmlHttpRequestResponseType};

/// Lets the runtime fetch the file; call before making it.
pub(crate) fn register() {
    gradscope_python::set_stdlib_fetch(fetch);
}

fn fetch(name: &str) -> Result<Vec<u8>, String> {
    let url = format!("pkg/{name}");
    let failed = |err: JsValue| format!("GET {url}: {}", describe(&err));
    let request = XmlHttpRequest::new().map_err(failed)?;
    request
        .open_with_async("GET", &url, false)
        .map_err(failed)?;
    request.set_response_type(XmlHttpRequestResponseType::Arraybuffer);
    request.send().map_err(failed)?;
    let status = request.status().map_err(failed)?;
    if status != 200 {
        return Err(format!("GET {url}: HTTP {status}"));
    }
    let body = request.response().map_err(failed)?;
    let buffer = body
        .dyn_into::<js_sys::ArrayBuffer>()
        .map_err(|_| format!("GET {url}: the response is not bytes"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

fn describe(err: &JsValue) -> String {
    err.as_string()
        .or_else(|| {
            err.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| format!("{err:?}"))
}
