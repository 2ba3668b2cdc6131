//! WebGPU in the worker: whether programs can use it, and opening it for
//! the engine's `webgpu` device.
//!
//! Python is synchronous and WebGPU is not: opening the device and reading a
//! GPU tensor back both wait on promises. The worker runs every message from
//! a JSPI export (`on_message`), so these waits suspend the wasm stack until
//! the promise settles instead of blocking the thread.

use std::cell::RefCell;
use std::rc::Rc;

use gradscope_core::{DeviceBackend, Error, Result};
use gradscope_trace::protocol::WebGpu;
use gradscope_wgpu::GpuDevice;
use wasm_bindgen::JsValue;

/// Why programs cannot use WebGPU in a browser without JSPI.
const NO_JSPI: &str = "this browser lacks WebAssembly JavaScript Promise Integration, \
                       which reading GPU results back into Python needs";

/// Reads `name` off the worker's global object.
fn global(name: &str) -> JsValue {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// Whether JavaScript Promise Integration is real here: `WebAssembly.Suspending`
/// exists and is not the stand-in `worker.js` installs where it is missing
/// (so that the module loads at all).
fn has_jspi() -> bool {
    let suspending = js_sys::Reflect::get(&global("WebAssembly"), &JsValue::from_str("Suspending"))
        .is_ok_and(|s| s.is_function());
    suspending && !global("__gradscopeJspiStandIn").is_truthy()
}

/// Whether `navigator.gpu` exists in this worker.
fn has_navigator_gpu() -> bool {
    js_sys::Reflect::get(&global("navigator"), &JsValue::from_str("gpu"))
        .is_ok_and(|gpu| !gpu.is_undefined() && !gpu.is_null())
}

/// Why this browser cannot give programs a GPU before even asking for an
/// adapter, if it cannot.
fn missing() -> Option<&'static str> {
    if !has_jspi() {
        Some(NO_JSPI)
    } else if !has_navigator_gpu() {
        Some("this browser does not offer WebGPU")
    } else {
        None
    }
}

/// The reason to show for a failed opening: wgpu lists every backend it did
/// not try, and the page needs the gist.
fn reason(err: &Error) -> String {
    match err {
        Error::Backend(message) if message.starts_with("no GPU adapter") => {
            "the browser offered no WebGPU adapter".into()
        }
        other => other.to_string(),
    }
}

/// Asks the browser for an adapter, and says why none can be used. An
/// adapter found becomes the engine's `webgpu` device, so the programs that
/// follow use the device the menu names.
pub(crate) async fn probe() -> WebGpu {
    if let Some(why) = missing() {
        gradscope_core::device::set_gpu_unavailable(why);
        return WebGpu::Unavailable { reason: why.into() };
    }
    match GpuDevice::new().await {
        Ok(device) => {
            let found = WebGpu::Available {
                adapter: device.adapter_name().to_string(),
                backend: device.backend_name().to_string(),
            };
            gradscope_core::device::set_gpu(Rc::new(device));
            found
        }
        Err(err) => {
            let reason = reason(&err);
            gradscope_core::device::set_gpu_unavailable(reason.clone());
            WebGpu::Unavailable { reason }
        }
    }
}

/// Lets the engine open the GPU the first time a program asks for one
/// before the page probed (`torch.ones(2, device='webgpu')` on a CPU run).
pub(crate) fn register_opener() {
    gradscope_core::device::set_gpu_opener(Box::new(open_blocking));
}

/// Opens the GPU synchronously: the adapter and device requests run as a
/// task while this stack suspends on it (JSPI).
// wasm-bindgen marks its JSPI support experimental with `#[deprecated]`.
#[allow(deprecated)]
fn open_blocking() -> Result<Rc<dyn DeviceBackend>> {
    if let Some(why) = missing() {
        return Err(Error::DeviceUnavailable { reason: why.into() });
    }
    let slot: Rc<RefCell<Option<Result<GpuDevice>>>> = Rc::default();
    let filled = slot.clone();
    let opening = wasm_bindgen_futures::future_to_promise(async move {
        let opened = GpuDevice::new().await;
        *filled.borrow_mut() = Some(opened);
        Ok(JsValue::UNDEFINED)
    });
    js_sys::futures::jspi_block_on_promise(&opening).map_err(|e| Error::DeviceUnavailable {
        reason: format!("opening WebGPU failed: {e:?}"),
    })?;
    let opened = slot.borrow_mut().take();
    match opened {
        Some(Ok(device)) => Ok(Rc::new(device)),
        Some(Err(err)) => Err(Error::DeviceUnavailable {
            reason: reason(&err),
        }),
        None => Err(Error::DeviceUnavailable {
            reason: NO_JSPI.into(),
        }),
    }
}
