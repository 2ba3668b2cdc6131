//! WebGPU in the worker: whether programs can use it, and the GPU backend's
//! elementwise kernels checked against the CPU.

use gradscope_core::{BinaryOp, Layout};
use gradscope_trace::protocol::WebGpu;
use gradscope_wgpu::GpuDevice;
use wasm_bindgen::JsValue;

/// Whether `WebAssembly.Suspending` exists: reading GPU results back into
/// synchronous Python needs JavaScript Promise Integration.
fn has_jspi() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("WebAssembly"))
        .and_then(|wasm| js_sys::Reflect::get(&wasm, &JsValue::from_str("Suspending")))
        .is_ok_and(|s| s.is_function())
}

/// Asks the browser for an adapter, and says why none can be used.
pub(crate) async fn probe() -> WebGpu {
    if !has_jspi() {
        return WebGpu::Unavailable {
            reason: "this browser lacks WebAssembly JavaScript Promise Integration, \
                     which reading GPU results back into Python needs"
                .into(),
        };
    }
    if !has_navigator_gpu() {
        return WebGpu::Unavailable {
            reason: "this browser does not offer WebGPU".into(),
        };
    }
    match GpuDevice::new().await {
        Ok(device) => WebGpu::Available {
            adapter: device.adapter_name().to_string(),
            backend: device.backend_name().to_string(),
        },
        // wgpu lists every backend it did not try; the page needs the gist.
        Err(gradscope_core::Error::Backend(message)) if message.starts_with("no GPU adapter") => {
            WebGpu::Unavailable {
                reason: "the browser offered no WebGPU adapter".into(),
            }
        }
        Err(err) => WebGpu::Unavailable {
            reason: err.to_string(),
        },
    }
}

/// Whether `navigator.gpu` exists in this worker.
fn has_navigator_gpu() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("navigator"))
        .and_then(|navigator| js_sys::Reflect::get(&navigator, &JsValue::from_str("gpu")))
        .is_ok_and(|gpu| !gpu.is_undefined() && !gpu.is_null())
}

/// `z = (x + 2) * (x + 2) * 3` for `x = ones(2, 2)` by `shaders/binary.wgsl`,
/// compared with the CPU's 27; a sentence for the console.
pub(crate) async fn elementwise_check() -> String {
    match elementwise().await {
        Ok((adapter, max_abs_diff)) => format!(
            "webgpu: autograd ran on the CPU; the GPU backend's elementwise kernels \
             (z = y * y * 3 by shaders/binary.wgsl) ran on {adapter}: \
             max |GPU - CPU| = {max_abs_diff}"
        ),
        Err(err) => format!("webgpu: the GPU check failed: {err}"),
    }
}

async fn elementwise() -> gradscope_core::Result<(String, f32)> {
    let device = GpuDevice::new().await?;
    let shape = [2, 2];
    let dense = Layout::contiguous(&shape);
    let scalar = |v: f32| -> gradscope_core::Result<_> {
        Ok((
            device.upload(&[v])?,
            Layout::contiguous(&[]).broadcast_to(&shape)?,
        ))
    };
    let x = device.upload(&[1.0; 4])?;
    let (two, two_layout) = scalar(2.0)?;
    let (three, three_layout) = scalar(3.0)?;
    let y = device.binary(BinaryOp::Add, &x, &dense, &two, &two_layout)?;
    let yy = device.binary(BinaryOp::Mul, &y, &dense, &y, &dense)?;
    let z = device.binary(BinaryOp::Mul, &yy, &dense, &three, &three_layout)?;
    let z = device.read(&z).await?;
    let max_abs_diff = z.iter().map(|v| (v - 27.0).abs()).fold(0.0, f32::max);
    Ok((device.adapter_name().to_string(), max_abs_diff))
}
