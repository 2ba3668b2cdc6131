//! The kernels on WebGPU in headless Chromium, against the CPU: the same
//! shaders as natively, through the browser's WGSL compiler (Tint), with the
//! async readback the browser requires. Native coverage is tests/kernels.rs
//! and tests/props.rs.
#![cfg(target_arch = "wasm32")]

use gradscope_core::cpu::conv::{Window2d, col2im, im2col};
use gradscope_core::ops::UnaryOp;
use gradscope_core::ops::unary::GeluApproximate;
use gradscope_core::{BinaryOp, Layout, ReduceKernel, Tensor};
use gradscope_wgpu::{GpuDevice, MatmulKernel, ScatterPart};
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

    let ops: [(UnaryOp, Result<Tensor, gradscope_core::Error>); 8] = [
        (UnaryOp::Sign, x.sign()),
        (UnaryOp::Log1p, x.log1p()),
        (UnaryOp::Expm1, x.expm1()),
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

/// The kernels behind views' backward, indexing and convolution, and pow:
/// scatter, take, put, im2col, col2im.
async fn check_scatter_gather_conv(dev: &GpuDevice) -> Result<(), String> {
    let e = |e: gradscope_core::Error| e.to_string();
    let data = values(63);
    let buffer = dev.upload(&data).map_err(e)?;
    let base = Tensor::from_vec(data.clone(), &[9, 7]).map_err(e)?;

    // x ** y with negative bases and integer and fractional exponents.
    let exponents: Vec<f32> = (0..63).map(|i| [2.0, 3.0, 0.5, -1.0, 1.5][i % 5]).collect();
    let exponents_buffer = dev.upload(&exponents).map_err(e)?;
    let y = Tensor::from_vec(exponents, &[9, 7]).map_err(e)?;
    let dense = Layout::contiguous(&[9, 7]);
    let out = dev
        .binary(BinaryOp::Pow, &buffer, &dense, &exponents_buffer, &dense)
        .map_err(e)?;
    let got = dev.read(&out).await.map_err(e)?;
    close("pow", &got, &cpu(base.pow(&y))?, 1e-5, 0.0)?;

    // A transposed view written into every other row of zeros [4, 9].
    let view = base
        .slice(0, Some(0), Some(4), 1)
        .map_err(e)?
        .transpose(0, 1)
        .map_err(e)?;
    let target = Layout::contiguous(&[14, 4]).slice(0, 0, 7, 2);
    let out = dev
        .scatter(
            56,
            &[ScatterPart {
                src: &buffer,
                layout: view.layout(),
                target: &target,
            }],
        )
        .map_err(e)?;
    let mut want = vec![0.0f32; 56];
    let picked = view.contiguous().map_err(e)?.to_vec::<f32>();
    for (at, v) in target.indices().zip(picked) {
        want[at] = v;
    }
    close(
        "scatter",
        &dev.read(&out).await.map_err(e)?,
        &want,
        0.0,
        0.0,
    )?;

    // Take with repeats; put folding repeats in order.
    let positions = [62usize, 0, 5, 5, 31];
    let out = dev.take(&buffer, &positions).map_err(e)?;
    let want: Vec<f32> = positions.iter().map(|&p| data[p]).collect();
    close("take", &dev.read(&out).await.map_err(e)?, &want, 0.0, 0.0)?;
    let (at, reads) = ([3usize, 3, 60, 3, 0], [1usize, 2, 3, 4, 5]);
    let out = dev
        .put(&buffer, &dense, &buffer, &at, &reads, true)
        .map_err(e)?;
    let mut want = data.clone();
    for (&o, &r) in at.iter().zip(&reads) {
        want[o] += data[r];
    }
    close("put", &dev.read(&out).await.map_err(e)?, &want, 0.0, 0.0)?;

    // im2col and col2im of a [1, 9, 7] image, padded, strided, dilated.
    let window = Window2d {
        kernel: [2, 3],
        stride: [2, 1],
        padding: [1, 1],
        dilation: [1, 2],
    };
    let windows = [5, 5];
    let cols = dev
        .im2col(&buffer, &dense, [1, 9, 7], &window, windows)
        .map_err(e)?;
    let want_cols = im2col(&data, [1, 1, 9, 7], &window, windows);
    close(
        "im2col",
        &dev.read(&cols).await.map_err(e)?,
        &want_cols,
        0.0,
        0.0,
    )?;
    let back = dev
        .col2im(
            &cols,
            &Layout::contiguous(&[1, 6, 25]),
            [1, 9, 7],
            &window,
            windows,
        )
        .map_err(e)?;
    let want_back = col2im(&want_cols, [1, 1, 9, 7], &window, windows);
    close(
        "col2im",
        &dev.read(&back).await.map_err(e)?,
        &want_back,
        0.0,
        0.0,
    )?;
    Ok(())
}

#[wasm_bindgen_test]
async fn scatter_gather_conv_match_cpu_on_webgpu() {
    let result = match GpuDevice::new().await {
        Ok(dev) => check_scatter_gather_conv(&dev).await,
        Err(e) => Err(e.to_string()),
    };
    assert_eq!(result, Ok(()));
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
