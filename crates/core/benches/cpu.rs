//! Criterion benchmarks for issue 4's CPU workloads, so their figures can be
//! tracked from commit to commit: `cargo bench -p gradscope-core --bench cpu`.
//! The same workloads as `gradscope bench` (crates/cli/src/bench.rs), which
//! also runs PyTorch's side; keep the two in step.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    missing_debug_implementations
)]

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{Criterion, Throughput};
    use gradscope_core::ops::nn_loss::NllLossOptions;
    use gradscope_core::ops::random::{manual_seed, uniform};
    use gradscope_core::optim::{Adam, AdamOptions, Optimizer};
    use gradscope_core::{DType, Result, Tensor};

    /// Ops in the chain workload's forward: 1000 times a multiply and an add.
    const CHAIN_OPS: u64 = 2000;

    /// `x = ones(4)` requiring grad; 1000 times `y = y * 1.0001 + 0.0001`;
    /// `y.sum().backward()`.
    fn chain() -> Result<()> {
        let x = Tensor::ones(&[4]).requires_grad_(true);
        let (a, b) = (Tensor::scalar(1.0001), Tensor::scalar(0.0001));
        let mut y = x.clone();
        for _ in 0..CHAIN_OPS / 2 {
            y = y.mul(&a)?.add(&b)?;
        }
        y.sum()?.backward()
    }

    /// Linear 784-256, ReLU, 256-256, ReLU, 256-10 with PyTorch's default
    /// init ranges, a batch of 64 random inputs, Adam at lr 1e-3.
    struct Mlp {
        layers: Vec<(Tensor, Tensor)>,
        x: Tensor,
        y: Tensor,
        opt: Adam,
    }

    impl Mlp {
        fn new() -> Result<Self> {
            manual_seed(0);
            let mut layers = vec![];
            let mut params = vec![];
            for (fan_in, fan_out) in [(784i64, 256i64), (256, 256), (256, 10)] {
                let bound = 1.0 / (fan_in as f64).sqrt();
                let w = uniform(&[fan_out, fan_in], -bound, bound, DType::Float32)?
                    .requires_grad_(true);
                let b = uniform(&[fan_out], -bound, bound, DType::Float32)?.requires_grad_(true);
                params.extend([w.clone(), b.clone()]);
                layers.push((w, b));
            }
            let x = Tensor::randn(&[64, 784], DType::Float32)?;
            let y = Tensor::randint(0, 10, &[64])?;
            let opt = Adam::new(params, AdamOptions::default())?;
            Ok(Self { layers, x, y, opt })
        }

        /// zero_grad, forward, loss, backward, step.
        fn step(&mut self) -> Result<()> {
            self.opt.zero_grad(true)?;
            let mut h = self.x.clone();
            for (i, (w, b)) in self.layers.iter().enumerate() {
                h = h.linear(w, Some(b))?;
                if i + 1 < self.layers.len() {
                    h = h.relu()?;
                }
            }
            h.cross_entropy(&self.y, &NllLossOptions::default())?
                .backward()?;
            self.opt.step()
        }
    }

    pub fn benches(c: &mut Criterion) {
        let mut group = c.benchmark_group("cpu");
        // Per element of throughput: one of chain's 2000 forward ops.
        group.throughput(Throughput::Elements(CHAIN_OPS));
        group.bench_function("chain", |b| b.iter(|| chain().unwrap()));
        group.throughput(Throughput::Elements(1));
        let mut mlp = Mlp::new().unwrap();
        group.bench_function("mlp_step", |b| b.iter(|| mlp.step().unwrap()));
        group.finish();
    }
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_group!(cpu, native::benches);
#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(cpu);

/// Criterion needs a native clock and threads; a wasm32 build has no bench.
#[cfg(target_arch = "wasm32")]
fn main() {}
