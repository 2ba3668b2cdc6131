//! The kernels on WebGPU in headless Chromium, against the CPU: the same
//! shaders as natively, through the browser's WGSL compiler (Tint), with the
//! async readback the browser requires. Native coverage is tests/kernels.rs
//! and tests/props.rs.
#![cfg(target_arch = "wasm32")]

use gradscope_core::ops::UnaryOp;
use gradscope_core::ops::unary::GeluApproximate;
use gradscope_core::{Layout, ReduceKernel, Tensor};
use gradscope_wgpu::{GpuDevice, MatmulKernel};
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn values(len: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 37 % 23) as f32 - 11.0) * 0.37)
        .collect()
}

fn close(what: &str, got: &[f32], want: &[f32], rtol: f32, atol: f32) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} elements, expected {}",
            got.len(),
            want.len()
        ));
    }
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = if w.is_nan() {
            g.is_nan()
        } else if w.is_infinite() {
            g == w
        } else {
            (g - w).abs() <= atol + rtol * w.abs()
        };
        if !ok {
            return Err(format!("{what}: element {i} is {g}, expected {w}"));
        }
    }
    Ok(())
}

fn cpu<E: std::fmt::Display>(r: Result<Tensor, E>) -> Result<Vec<f32>, String> {
    r.map(|t| t.to_vec::<f32>()).map_err(|e| e.to_string())
}

async fn check(dev: &GpuDevice) -> Result<(), String> {
    let e = |e: gradscope_core::Error| e.to_string();
    // A transposed 7x9 view with special values.
    let mut data = values(63);
    data[0] = f32::NAN;
    data[1] = f32::INFINITY;
    data[2] = -0.0;
    let base = Tensor::from_vec(data.clone(), &[9, 7]).map_err(e)?;
    let x = base.transpose(0, 1).map_err(e)?;
    let layout = x.layout().clone();
    let buffer = dev.upload(&data).map_err(e)?;

    let copied = dev.copy(&buffer, &layout).map_err(e)?;
    let want = cpu(x.contiguous())?;
    close(
        "copy",
        &dev.read(&copied).await.map_err(e)?,
        &want,
        0.0,
        0.0,
    )?;

    let ops: [(UnaryOp, Result<Tensor, gradscope_core::Error>); 6] = [
        (UnaryOp::Sign, x.sign()),
        (UnaryOp::Relu, x.relu()),
        (UnaryOp::Erf, x.erf()),
        (
            UnaryOp::Gelu(GeluApproximate::None),
            x.gelu(GeluApproximate::None),
        ),
        (UnaryOp::Tanh, x.tanh()),
        (UnaryOp::Log, x.log()),
    ];
    for (op, want) in ops {
        let out = dev
            .unary(&op, &buffer, &layout)
            .map_err(e)?
            .ok_or("no kernel")?;
        let got = dev.read(&out).await.map_err(e)?;
        close(&format!("{op:?}"), &got, &cpu(want)?, 4e-6, 5e-7)?;
    }

    let sum = dev.reduce(
        ReduceKernel::Sum,
        &buffer,
        &Layout::contiguous(&[9, 7]),
        &[1],
    );
    let got = dev.read(&sum.map_err(e)?).await.map_err(e)?;
    close("sum", &got, &cpu(base.sum_dim(&[1], false))?, 1e-5, 1e-5)?;
    let max = dev.reduce(ReduceKernel::Max, &buffer, &layout, &[1]);
    let got = dev.read(&max.map_err(e)?).await.map_err(e)?;
    close("max", &got, &cpu(x.amax(&[1], false))?, 0.0, 0.0)?;

    let a = Tensor::from_vec(values(2 * 33 * 70), &[2, 70, 33]).map_err(e)?;
    let a = a.transpose(1, 2).map_err(e)?;
    let b = Tensor::from_vec(values(70 * 65), &[1, 70, 65]).map_err(e)?;
    let b = b.expand(&[2, 70, 65]).map_err(e)?;
    let want = cpu(a.bmm(&b))?;
    let ab = dev.upload(&values(2 * 33 * 70)).map_err(e)?;
    let bb = dev.upload(&values(70 * 65)).map_err(e)?;
    for kernel in MatmulKernel::ALL {
        let out = dev
            .matmul_with(kernel, &ab, a.layout(), &bb, b.layout())
            .map_err(e)?;
        let got = dev.read(&out).await.map_err(e)?;
        close(kernel.name(), &got, &want, 1e-5, 1e-4)?;
    }
    Ok(())
}

#[wasm_bindgen_test]
async fn kernels_match_cpu_on_webgpu() {
    let result = match GpuDevice::new().await {
        Ok(dev) => {
            console_log!("adapter: {} ({})", dev.adapter_name(), dev.backend_name());
            check(&dev).await
        }
        Err(e) => Err(e.to_string()),
    };
    assert_eq!(result, Ok(()));
}
