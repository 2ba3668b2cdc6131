//! The GPU benchmark, for `gradscope bench --suite gpu` and the
//! `gpu_ladder` example: every matmul kernel and the tuner's choice on
//! square float32 products (the ladder), and an MLP and a small CNN
//! training step on the GPU beside the same steps on the CPU.

use std::rc::Rc;
use std::time::{Duration, Instant};

use gradscope_core::device::{self, Scope};
use gradscope_core::ops::nn_conv::Conv2dOptions;
use gradscope_core::ops::nn_loss::NllLossOptions;
use gradscope_core::ops::nn_pool::Pool2dOptions;
use gradscope_core::ops::random::{manual_seed, uniform};
use gradscope_core::optim::{Adam, AdamOptions, Optimizer};
use gradscope_core::{DType, Device, DeviceBackend, Layout, Result, Tensor};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::matmul::MatmulKernel;

/// One rung of the ladder: a kernel at one size.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderPoint {
    /// The kernel's name (`naive`, `tiled`, `register_blocked`, or a
    /// family member's such as `t128x128_8x8_k8_v4`).
    pub kernel: &'static str,
    /// Whether this rung is the tuner's choice at this size (the kernel
    /// it picked, timed again).
    pub tuned: bool,
    /// The product is `n x n` by `n x n`.
    pub n: usize,
    /// Products timed after the warm-up.
    pub runs: u32,
    /// Mean seconds per product, from the first dispatch to the device idle.
    pub seconds: f64,
    /// `2 n^3` floating-point operations per second, in billions.
    pub gflops: f64,
    /// Largest `|out - ref| / max|ref|` against the 16x16 tiled kernel's
    /// result on the same operands: every rung computes the same product.
    pub rel_diff_vs_tiled: f64,
}

/// Time spent per rung, after the warm-up: enough runs to average out the
/// submission, at most [`MAX_RUNS`].
const TARGET: Duration = Duration::from_millis(300);
const MAX_RUNS: u32 = 20;

/// Seconds per product of `kernel` on `a @ b`: one run to build its
/// pipeline and warm the device, then up to [`MAX_RUNS`] recorded in one
/// batch and timed until the device is idle.
fn time_kernel(
    device: &GpuDevice,
    kernel: MatmulKernel,
    (a, b): (&GpuBuffer, &GpuBuffer),
    layout: &Layout,
) -> Result<(u32, f64, GpuBuffer)> {
    let once = || device.matmul_with(kernel, a, layout, b, layout);
    let out = once()?;
    device.wait()?;
    let start = Instant::now();
    drop(once()?);
    device.wait()?;
    let first = start.elapsed();
    let runs = (TARGET.as_secs_f64() / first.as_secs_f64().max(1e-9))
        .clamp(1.0, f64::from(MAX_RUNS)) as u32;
    let start = Instant::now();
    for _ in 0..runs {
        drop(once()?);
    }
    device.wait()?;
    Ok((runs, start.elapsed().as_secs_f64() / f64::from(runs), out))
}

/// Every kernel of `kernels` at each size in `sizes`, in order, then the
/// tuner's choice (tuned on the spot, whatever the adapter) at that size.
pub fn matmul_ladder_of(
    device: &GpuDevice,
    sizes: &[usize],
    kernels: &[MatmulKernel],
) -> Result<Vec<LadderPoint>> {
    let mut points = Vec::new();
    for &n in sizes {
        let data = |seed: usize| -> Vec<f32> {
            (0..n * n)
                .map(|i| (((i * 7919 + seed * 104_729) % 1013) as f32 / 1013.0) - 0.5)
                .collect()
        };
        let a = device.upload(&data(1))?;
        let b = device.upload(&data(2))?;
        let layout = Layout::contiguous(&[1, n, n]);
        let reference = device.matmul_with(MatmulKernel::Tiled, &a, &layout, &b, &layout)?;
        let reference = pollster::block_on(device.read(&reference))?;
        let scale = reference
            .iter()
            .fold(0f32, |m, x| m.max(x.abs()))
            .max(f32::MIN_POSITIVE);
        let tuned = device.tune_matmul(&a, &layout, &b, &layout)?;
        let rungs = kernels.iter().map(|k| (*k, false)).chain([(tuned, true)]);
        for (kernel, tuned) in rungs {
            let (runs, seconds, out) = time_kernel(device, kernel, (&a, &b), &layout)?;
            let got = pollster::block_on(device.read(&out))?;
            let diff = got.iter().zip(&reference).fold(0f32, |m, (g, r)| {
                if (g - r).is_nan() {
                    f32::INFINITY
                } else {
                    m.max((g - r).abs())
                }
            });
            points.push(LadderPoint {
                kernel: kernel.name(),
                tuned,
                n,
                runs,
                seconds,
                gflops: 2.0 * (n as f64).powi(3) / seconds / 1e9,
                rel_diff_vs_tiled: f64::from(diff / scale),
            });
        }
    }
    Ok(points)
}

/// [`matmul_ladder_of`] over every kernel the device fits
/// ([`MatmulKernel::every`]).
pub fn matmul_ladder(device: &GpuDevice, sizes: &[usize]) -> Result<Vec<LadderPoint>> {
    let kernels: Vec<MatmulKernel> = MatmulKernel::every()
        .filter(|k| device.fits_matmul(*k))
        .collect();
    matmul_ladder_of(device, sizes, &kernels)
}

/// A training workload: zero_grad, forward, loss, backward, Adam step.
trait Model {
    fn loss(&self) -> Result<Tensor>;
    fn optimizer(&mut self) -> &mut Adam;
}

/// Linear layers with PyTorch's default init ranges (kaiming_uniform with
/// a = sqrt(5) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weight and bias).
fn linear_params(fan_in: i64, fan_out: i64) -> Result<(Tensor, Tensor)> {
    let bound = 1.0 / (fan_in as f64).sqrt();
    let w = uniform(&[fan_out, fan_in], -bound, bound, DType::Float32)?.requires_grad_(true);
    let b = uniform(&[fan_out], -bound, bound, DType::Float32)?.requires_grad_(true);
    Ok((w, b))
}

/// The mlp workload of `gradscope bench`: Linear 784-256, ReLU, 256-256,
/// ReLU, 256-10, cross-entropy on a batch of 64 random inputs.
struct Mlp {
    layers: Vec<(Tensor, Tensor)>,
    x: Tensor,
    y: Tensor,
    opt: Adam,
}

impl Mlp {
    fn new() -> Result<Self> {
        manual_seed(0);
        let layers = [(784, 256), (256, 256), (256, 10)]
            .into_iter()
            .map(|(i, o)| linear_params(i, o))
            .collect::<Result<Vec<_>>>()?;
        let params = layers
            .iter()
            .flat_map(|(w, b)| [w.clone(), b.clone()])
            .collect();
        Ok(Self {
            layers,
            x: Tensor::randn(&[64, 784], DType::Float32)?,
            y: Tensor::randint(0, 10, &[64])?,
            opt: Adam::new(params, AdamOptions::default())?,
        })
    }
}

impl Model for Mlp {
    fn loss(&self) -> Result<Tensor> {
        let mut h = self.x.clone();
        for (i, (w, b)) in self.layers.iter().enumerate() {
            h = h.linear(w, Some(b))?;
            if i + 1 < self.layers.len() {
                h = h.relu()?;
            }
        }
        h.cross_entropy(&self.y, &NllLossOptions::default())
    }
    fn optimizer(&mut self) -> &mut Adam {
        &mut self.opt
    }
}

/// A small CNN on MNIST-sized inputs: Conv 1-16 3x3 pad 1, ReLU, AvgPool 2,
/// Conv 16-32 3x3 pad 1, ReLU, AvgPool 2, Linear 1568-10, cross-entropy on a
/// batch of 32. Convolution is im2col plus the matmul on the GPU.
struct Cnn {
    convs: Vec<(Tensor, Tensor)>,
    fc: (Tensor, Tensor),
    x: Tensor,
    y: Tensor,
    opt: Adam,
}

impl Cnn {
    fn new() -> Result<Self> {
        manual_seed(0);
        let mut convs = Vec::new();
        for (cin, cout) in [(1i64, 16i64), (16, 32)] {
            let bound = 1.0 / ((cin * 9) as f64).sqrt();
            let w =
                uniform(&[cout, cin, 3, 3], -bound, bound, DType::Float32)?.requires_grad_(true);
            let b = uniform(&[cout], -bound, bound, DType::Float32)?.requires_grad_(true);
            convs.push((w, b));
        }
        let fc = linear_params(32 * 7 * 7, 10)?;
        let mut params: Vec<Tensor> = convs
            .iter()
            .flat_map(|(w, b)| [w.clone(), b.clone()])
            .collect();
        params.extend([fc.0.clone(), fc.1.clone()]);
        Ok(Self {
            convs,
            fc,
            x: Tensor::randn(&[32, 1, 28, 28], DType::Float32)?,
            y: Tensor::randint(0, 10, &[32])?,
            opt: Adam::new(params, AdamOptions::default())?,
        })
    }
}

impl Model for Cnn {
    fn loss(&self) -> Result<Tensor> {
        let conv = Conv2dOptions {
            padding: [1, 1],
            ..Conv2dOptions::default()
        };
        let mut h = self.x.clone();
        for (w, b) in &self.convs {
            h = h
                .conv2d(w, Some(b), &conv)?
                .relu()?
                .avg_pool2d(&Pool2dOptions::new(2))?;
        }
        h.flatten(1, -1)?
            .linear(&self.fc.0, Some(&self.fc.1))?
            .cross_entropy(&self.y, &NllLossOptions::default())
    }
    fn optimizer(&mut self) -> &mut Adam {
        &mut self.opt
    }
}

/// Best seconds of `runs` steps (after one warm-up step), each step waited
/// for on `gpu` when given so that the time covers the device's work.
fn best_step(model: &mut dyn Model, runs: usize, gpu: Option<&GpuDevice>) -> Result<f64> {
    let mut step = || -> Result<()> {
        model.optimizer().zero_grad(true)?;
        model.loss()?.backward()?;
        model.optimizer().step()?;
        gpu.map_or(Ok(()), GpuDevice::wait)
    };
    step()?;
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        step()?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok(best)
}

/// One training workload's best step on each side, in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTimes {
    /// `mlp` or `cnn`.
    pub workload: &'static str,
    /// On the CPU.
    pub cpu: f64,
    /// On the GPU, matmuls as [`GpuDevice::matmul`] chooses them.
    pub gpu: f64,
    /// On the GPU with every matmul the 64x64 register-blocked baseline
    /// (the kernel before the family and the tuner).
    pub gpu_baseline: f64,
}

/// The mlp and cnn steps on the CPU and on `gpu` (made the engine's GPU),
/// best of `runs` each.
pub fn training_steps(gpu: Rc<GpuDevice>, runs: usize) -> Result<Vec<StepTimes>> {
    device::set_gpu(gpu.clone() as Rc<dyn DeviceBackend>);
    type Make = fn() -> Result<Box<dyn Model>>;
    let workloads: [(&str, Make); 2] = [
        ("mlp", || Ok(Box::new(Mlp::new()?) as Box<dyn Model>)),
        ("cnn", || Ok(Box::new(Cnn::new()?) as Box<dyn Model>)),
    ];
    let mut all = Vec::new();
    for (workload, make) in workloads {
        let cpu = best_step(&mut *make()?, runs, None)?;
        let on_gpu = |kernel: Option<MatmulKernel>| -> Result<f64> {
            let _on = Scope::new(Device::WebGpu);
            gpu.fix_matmul_kernel(kernel);
            let best = make().and_then(|mut m| best_step(&mut *m, runs, Some(&gpu)));
            gpu.fix_matmul_kernel(None);
            best
        };
        let gpu_baseline = on_gpu(Some(MatmulKernel::RegisterBlocked))?;
        let gpu_s = on_gpu(None)?;
        all.push(StepTimes {
            workload,
            cpu,
            gpu: gpu_s,
            gpu_baseline,
        });
    }
    Ok(all)
}
