//! Every matmul kernel (the hand-written three and each register-tiled
//! family member) against the CPU's `bmm` on odd, tall, wide, 1xN, Nx1 and
//! batched shapes over contiguous, transposed, broadcast and stepped
//! operands, natively (lavapipe in CI) and on WebGPU in Chromium; the
//! tuner's choice by injected timings, and the real tuner's choice on the
//! adapter at hand, against the CPU.
// Test bodies and their helpers: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

use gradscope_core::Tensor;
use gradscope_wgpu::{GpuDevice, MatmulKernel};

/// `[batch, m, k, n]`: odd, tall, wide, 1xN, Nx1, batched, and one past a
/// 128x128 tile in both directions with k past two 16-steps.
const SHAPES: [[usize; 4]; 8] = [
    [3, 17, 33, 19],
    [1, 300, 21, 7],
    [1, 6, 23, 290],
    [1, 1, 70, 200],
    [1, 200, 70, 1],
    [5, 33, 18, 65],
    [1, 131, 37, 129],
    [2, 0, 4, 3],
];

/// Operand layouts the core passes: row-major, transposed, one matrix
/// broadcast over the batch (stride 0), and every other row and column of a
/// larger matrix at an offset.
const KINDS: [&str; 4] = ["contiguous", "transposed", "broadcast", "stepped"];

/// Deterministic values in ±[0.5, 2.5).
fn values(len: usize, seed: u32) -> Vec<f32> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let magnitude = 0.5 + 2.0 * ((state >> 8) as f32 / (1u32 << 24) as f32);
            if state & 1 == 0 {
                magnitude
            } else {
                -magnitude
            }
        })
        .collect()
}

/// A `[batch, rows, cols]` operand of `kind` and the storage it views.
fn operand(kind: &str, batch: usize, rows: usize, cols: usize, seed: u32) -> (Tensor, Vec<f32>) {
    let make = |shape: &[usize]| {
        let data = values(shape.iter().product(), seed);
        (Tensor::from_vec(data.clone(), shape).expect("tensor"), data)
    };
    match kind {
        "contiguous" => make(&[batch, rows, cols]),
        "transposed" => {
            let (t, data) = make(&[batch, cols, rows]);
            (t.transpose(1, 2).expect("view"), data)
        }
        "broadcast" => {
            let (t, data) = make(&[1, rows, cols]);
            (t.expand(&[batch, rows, cols]).expect("view"), data)
        }
        "stepped" => {
            let (t, data) = make(&[batch, 2 * rows + 1, 2 * cols + 1]);
            let view = t
                .slice(1, Some(1), None, 2)
                .and_then(|v| v.slice(2, Some(1), None, 2))
                .expect("view");
            (view, data)
        }
        other => panic!("unknown operand kind {other}"),
    }
}

/// Where `got` differs from `want` by more than float32 rounding of a sum
/// of `k` products below 2.5 * 2.5 in any order allows.
fn mismatch(what: &str, got: &[f32], want: &[f32], k: usize) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!(
            "{what}: {} elements, expected {}",
            got.len(),
            want.len()
        ));
    }
    let atol = 6.25 * k as f32 * 4e-7;
    got.iter()
        .zip(want)
        .position(|(g, w)| (g - w).abs() > atol + 1e-5 * w.abs() || g.is_nan())
        .map(|i| format!("{what}: element {i} is {}, expected {}", got[i], want[i]))
}

/// `kernel` on `a @ b` read back, against the CPU's `bmm`.
async fn check_kernel(
    dev: &GpuDevice,
    kernel: MatmulKernel,
    [batch, m, k, n]: [usize; 4],
    (ka, kb): (&str, &str),
) -> Result<(), String> {
    let e = |e: gradscope_core::Error| e.to_string();
    let (a, a_data) = operand(ka, batch, m, k, 1);
    let (b, b_data) = operand(kb, batch, k, n, 2);
    let (ga, gb) = (
        dev.upload(&a_data).map_err(e)?,
        dev.upload(&b_data).map_err(e)?,
    );
    let what = format!(
        "{} [{batch},{m},{k}] {ka} @ [{batch},{k},{n}] {kb}",
        kernel.name()
    );
    let out = dev
        .matmul_with(kernel, &ga, a.layout(), &gb, b.layout())
        .map_err(|err| format!("{what}: {err}"))?;
    let got = dev.read(&out).await.map_err(e)?;
    let want = a.bmm(&b).map_err(e)?.to_vec::<f32>();
    mismatch(&what, &got, &want, k).map_or(Ok(()), Err)
}

/// Every kernel that fits the adapter's limits on `shapes`, each shape with
/// `pairs` pairs of operand layouts (with two, every kind meets every shape
/// on each side). Returns the products checked.
async fn check_every_kernel(
    dev: &GpuDevice,
    shapes: &[[usize; 4]],
    pairs: usize,
) -> Result<usize, String> {
    let mut checked = 0;
    for kernel in MatmulKernel::every().filter(|k| dev.fits_matmul(*k)) {
        progress(kernel.name());
        for (s, shape) in shapes.iter().enumerate() {
            for pair in 0..pairs {
                let ka = KINDS[(s + 2 * pair) % KINDS.len()];
                let kb = KINDS[(s + 2 * pair + 1) % KINDS.len()];
                check_kernel(dev, kernel, *shape, (ka, kb)).await?;
                checked += 1;
            }
        }
    }
    Ok(checked)
}

/// Where no tuning runs (the browser, CPU adapters), what
/// `GpuDevice::matmul` does: `MatmulKernel::for_output`'s kernel (the
/// 16x16 baseline and the family's 32x32, 64x64 and 128x128 tiles on these
/// sizes), with the CPU's result. Returns the kernels used.
async fn check_untuned_choice(dev: &GpuDevice) -> Result<Vec<&'static str>, String> {
    let e = |e: gradscope_core::Error| e.to_string();
    let mut used = Vec::new();
    for (batch, m, n) in [(1, 64, 256), (1, 512, 512), (4, 500, 490), (1, 2048, 1030)] {
        let k = 9;
        let a = Tensor::from_vec(values(batch * m * k, 5), &[batch, m, k]).map_err(e)?;
        let b = Tensor::from_vec(values(batch * k * n, 6), &[batch, k, n]).map_err(e)?;
        let ga = dev.upload(&a.to_vec::<f32>()).map_err(e)?;
        let gb = dev.upload(&b.to_vec::<f32>()).map_err(e)?;
        let out = dev.matmul(&ga, a.layout(), &gb, b.layout()).map_err(e)?;
        let want = MatmulKernel::for_output(batch, m, n);
        if out.label() != format!("gradscope::matmul::{}", want.name()) {
            return Err(format!(
                "[{batch},{m},{n}]: {} ran, expected {}",
                out.label(),
                want.name()
            ));
        }
        let got = dev.read(&out).await.map_err(e)?;
        let what = format!("{} on [{batch},{m},{k}] @ [{batch},{k},{n}]", want.name());
        if let Some(err) = mismatch(&what, &got, &a.bmm(&b).map_err(e)?.to_vec::<f32>(), k) {
            return Err(err);
        }
        used.push(want.name());
    }
    Ok(used)
}

/// Which kernel the check reached, where a slow browser run shows it.
fn progress(kernel: &str) {
    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::console_log!("{:.1} s: {kernel}", js_sys::Date::now() / 1e3 % 1e4);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = kernel;
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::rc::Rc;

    use gradscope_core::ops::nn_conv::Conv2dOptions;
    use gradscope_core::{Device, DeviceBackend, Error, Layout, Tensor};
    use gradscope_wgpu::{
        GpuBuffer, GpuDevice, MatmulKernel, SizeClass, TILE_SHAPES, WEBGPU_DEFAULT_SHAPES,
        matmul_sources, pick_fastest, tuned_matmul_kernels,
    };

    use super::{check_every_kernel, mismatch, values};

    fn device() -> Option<GpuDevice> {
        match pollster::block_on(GpuDevice::new()) {
            Ok(dev) => {
                eprintln!("adapter: {} ({})", dev.adapter_name(), dev.backend_name());
                Some(dev)
            }
            Err(e) => {
                let required = std::env::var_os("GRADSCOPE_REQUIRE_GPU").is_some()
                    || std::env::var_os("CI").is_some();
                assert!(!required, "a GPU is required but: {e}");
                eprintln!("skipped: no adapter ({e})");
                None
            }
        }
    }

    #[test]
    fn matmul_generated_sources_validate() {
        let sources = matmul_sources();
        assert_eq!(sources.len(), 1 + TILE_SHAPES.len());
        for (name, source) in sources {
            let module = naga::front::wgsl::parse_str(source)
                .unwrap_or_else(|e| panic!("{}", e.emit_to_string_with_path(source, name)));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::default(),
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{}", e.emit_to_string_with_path(source, name)));
            for entry in &module.entry_points {
                assert!(entry.name.starts_with("matmul_"), "{name}: {}", entry.name);
            }
            // What SwiftShader (Chromium's software WebGPU) builds in
            // seconds rather than minutes (matmul_tiled.rs): one branch,
            // the uniform prefetch guard, and no boolean kept per element.
            if name != "matmul.wgsl" {
                assert_eq!(source.matches("if ").count(), 1, "{name}: branches");
                assert_eq!(
                    source.matches("bool").count(),
                    1,
                    "{name}: slot()'s flag only"
                );
            }
        }
    }

    #[test]
    fn matmul_every_candidate_matches_cpu() {
        let Some(dev) = device() else { return };
        let checked = pollster::block_on(check_every_kernel(&dev, &super::SHAPES, 2))
            .unwrap_or_else(|e| panic!("{e}"));
        // Every kernel within WebGPU's default limits runs everywhere.
        let fitting = MatmulKernel::every()
            .filter(|k| dev.fits_matmul(*k))
            .count();
        assert!(
            fitting >= MatmulKernel::ALL.len() + WEBGPU_DEFAULT_SHAPES,
            "{fitting} kernels fit"
        );
        assert_eq!(checked, fitting * super::SHAPES.len() * 2);
    }

    #[test]
    fn matmul_tuner_picks_fastest_valid_candidate() {
        let candidates: Vec<MatmulKernel> = MatmulKernel::every().collect();
        // Made-up timings: the family's third member is fastest, but the
        // adapter rejects it; the next fastest valid one must win.
        let seconds = |k: MatmulKernel| -> Result<f64, Error> {
            match k {
                MatmulKernel::Register(s) if s == TILE_SHAPES[2] => {
                    Err(Error::Backend("rejected".into()))
                }
                MatmulKernel::Register(s) if s == TILE_SHAPES[5] => Ok(0.002),
                MatmulKernel::Register(s) if s == TILE_SHAPES[1] => Ok(f64::NAN),
                MatmulKernel::Tiled => Ok(0.003),
                _ => Ok(0.010),
            }
        };
        let mut timed = Vec::new();
        let pick = pick_fastest(&candidates, |k| {
            timed.push(k);
            seconds(k)
        });
        assert_eq!(pick, Some(MatmulKernel::Register(TILE_SHAPES[5])));
        assert_eq!(timed, candidates, "every candidate is timed once");
        // Nothing valid: no pick, so the caller keeps its fallback.
        assert_eq!(
            pick_fastest(&candidates, |_| Err(Error::Backend("no".into()))),
            None
        );
        assert_eq!(pick_fastest(&[], |_| Ok(1.0)), None);
    }

    #[test]
    fn matmul_tuner_on_this_adapter_matches_cpu_and_caches() {
        let Some(dev) = device() else { return };
        let (batch, m, k, n) = (2, 96, 80, 72);
        let a = values(batch * m * k, 3);
        let b = values(batch * k * n, 4);
        let (al, bl) = (
            Layout::contiguous(&[batch, m, k]),
            Layout::contiguous(&[batch, k, n]),
        );
        let (ga, gb) = (dev.upload(&a).unwrap(), dev.upload(&b).unwrap());
        let chosen = dev.tune_matmul(&ga, &al, &gb, &bl).expect("tune");
        assert!(dev.matmul_candidates().contains(&chosen), "{chosen:?}");
        let class = SizeClass::of(&al, &bl).unwrap();
        assert!(
            tuned_matmul_kernels()
                .iter()
                .any(|(name, c, kernel)| name == dev.adapter_name()
                    && *c == class
                    && *kernel == chosen)
        );
        // The class's next product reuses the choice without timing.
        let (ga2, gb2) = (dev.upload(&b).unwrap(), dev.upload(&a).unwrap());
        let (al2, bl2) = (
            Layout::contiguous(&[batch, 90, 75]),
            Layout::contiguous(&[batch, 75, 70]),
        );
        assert_eq!(SizeClass::of(&al2, &bl2).unwrap(), class);
        assert_eq!(dev.tune_matmul(&ga2, &al2, &gb2, &bl2).unwrap(), chosen);

        let out = dev.matmul_with(chosen, &ga, &al, &gb, &bl).unwrap();
        let got = pollster::block_on(dev.read(&out)).unwrap();
        let ta = Tensor::from_vec(a, &[batch, m, k]).unwrap();
        let tb = Tensor::from_vec(b, &[batch, k, n]).unwrap();
        let want = ta.bmm(&tb).unwrap().to_vec::<f32>();
        if let Some(err) = mismatch(chosen.name(), &got, &want, k) {
            panic!("{err}");
        }
    }

    /// Batched matmul, `linear`'s fused bias (addmm) and convolution's
    /// im2col product, as the engine runs them on `webgpu` tensors, go
    /// through `GpuDevice::matmul`'s choice: each result is the buffer the
    /// chosen kernel wrote (the choice by output size on an untuned
    /// adapter, the tuner's among the candidates on a GPU), equal to the
    /// CPU's.
    #[test]
    fn matmul_engine_ops_take_the_chosen_kernel() {
        let Some(dev) = device() else { return };
        let tunes = dev.tunes_matmul();
        let candidates: Vec<&str> = dev.matmul_candidates().iter().map(|k| k.name()).collect();
        gradscope_core::device::set_gpu(Rc::new(dev) as Rc<dyn DeviceBackend>);
        let tensor = |shape: &[usize], seed| {
            Tensor::from_vec(values(shape.iter().product(), seed), shape).unwrap()
        };
        let gpu = |t: &Tensor| t.to_device(Device::WebGpu).unwrap();
        let check = |what: &str, got: Tensor, want: Tensor, [batch, m, k, n]: [usize; 4]| {
            let label = {
                let buffer = got.storage().device_buffer().unwrap().expect("on the GPU");
                let buffer = buffer
                    .as_any()
                    .downcast_ref::<GpuBuffer>()
                    .expect("a GPU buffer");
                buffer.label()
            };
            let kernel = label.strip_prefix("gradscope::matmul::").unwrap_or(label);
            if tunes {
                assert!(candidates.contains(&kernel), "{what}: {label}");
            } else {
                assert_eq!(
                    kernel,
                    MatmulKernel::for_output(batch, m, n).name(),
                    "{what}"
                );
                assert!(
                    kernel.starts_with('t'),
                    "{what}: {kernel} is not the family's"
                );
            }
            let got = got.to_device(Device::Cpu).unwrap().to_vec::<f32>();
            if let Some(err) = mismatch(what, &got, &want.to_vec::<f32>(), k) {
                panic!("{err}");
            }
        };

        let (a, b) = (tensor(&[4, 500, 9], 7), tensor(&[4, 9, 490], 8));
        let got = gpu(&a).bmm(&gpu(&b)).unwrap();
        check("bmm", got, a.bmm(&b).unwrap(), [4, 500, 9, 490]);

        let (x, w, bias) = (
            tensor(&[512, 40], 9),
            tensor(&[520, 40], 10),
            tensor(&[520], 11),
        );
        let got = gpu(&x).linear(&gpu(&w), Some(&gpu(&bias))).unwrap();
        let want = x.linear(&w, Some(&bias)).unwrap();
        check("linear with bias", got, want, [1, 512, 40, 520]);

        // [2, 8, 34, 34] by 64 3x3 filters: [2, 64, 72] @ [2, 72, 32 * 32].
        let (x, w) = (tensor(&[2, 8, 34, 34], 12), tensor(&[64, 8, 3, 3], 13));
        let options = Conv2dOptions::default();
        let got = gpu(&x).conv2d(&gpu(&w), None, &options).unwrap();
        let want = x.conv2d(&w, None, &options).unwrap();
        check("conv2d", got, want, [2, 64, 72, 1024]);
    }

    #[test]
    fn matmul_untuned_adapter_takes_choice_by_output_size() {
        let Some(dev) = device() else { return };
        if dev.tunes_matmul() {
            eprintln!("skipped: {} tunes its matmuls", dev.adapter_name());
            return;
        }
        let used =
            pollster::block_on(super::check_untuned_choice(&dev)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            used,
            [
                "tiled",
                "t32x32_4x4_k16_v4",
                "t64x64_4x4_k16_v4",
                "t128x128_8x8_k8_v4"
            ]
        );
    }
}

#[cfg(target_arch = "wasm32")]
mod web {
    use gradscope_wgpu::{GpuDevice, MatmulKernel, WEBGPU_DEFAULT_SHAPES};
    use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

    wasm_bindgen_test_configure!(run_in_browser);

    // Every kernel that fits the adapter's limits, through Tint, in
    // headless Chromium (SwiftShader in CI). The family's earlier form
    // (an if per store, five values per staged element held across the k
    // loop) did not finish building on SwiftShader within 170-300 s; see
    // matmul_tiled.rs for the measurements and the form that builds.
    #[wasm_bindgen_test]
    async fn matmul_every_candidate_matches_cpu_on_webgpu() {
        let result = match GpuDevice::new().await {
            Ok(dev) => {
                console_log!("adapter: {} ({})", dev.adapter_name(), dev.backend_name());
                // SwiftShader compiles and runs every kernel on the CPU:
                // one pair of layouts per shape keeps the run in the
                // browser's time limit (natively every pair runs).
                let fitting = MatmulKernel::every()
                    .filter(|k| dev.fits_matmul(*k))
                    .count();
                console_log!("{fitting} kernels fit");
                // Every kernel within WebGPU's default limits, at least.
                assert!(fitting >= MatmulKernel::ALL.len() + WEBGPU_DEFAULT_SHAPES);
                super::check_every_kernel(&dev, &super::SHAPES, 1)
                    .await
                    .map(|checked| {
                        console_log!("{checked} products checked");
                        assert_eq!(checked, fitting * super::SHAPES.len());
                    })
            }
            Err(e) => Err(e.to_string()),
        };
        assert_eq!(result, Ok(()));
    }

    /// The page's matmuls: no timing in the browser, so the choice by
    /// output size, family kernels included, with the CPU's result.
    #[wasm_bindgen_test]
    async fn matmul_untuned_choice_in_browser_matches_cpu() {
        let dev = GpuDevice::new().await.expect("a WebGPU adapter");
        assert!(!dev.tunes_matmul());
        let used = super::check_untuned_choice(&dev).await;
        assert_eq!(
            used.as_deref(),
            Ok(&[
                "tiled",
                "t32x32_4x4_k16_v4",
                "t64x64_4x4_k16_v4",
                "t128x128_8x8_k8_v4"
            ][..])
        );
    }
}
