//! `gradscope bench`: the benchmark workloads (chain, mlp), timed here and, in the same
//! run, in PyTorch (`tests/bench/torch_bench.py`) when a Python with torch is
//! given, so the figures sit side by side.

use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use gradscope_core::ops::nn_loss::NllLossOptions;
use gradscope_core::ops::random::{manual_seed, uniform};
use gradscope_core::optim::{Adam, AdamOptions, Optimizer};
use gradscope_core::{DType, Tensor, ledger, trace};
use serde_json::{Value, json};

use crate::args::{self, Long};

/// Ops in the chain workload's forward: 1000 times a multiply and an add.
const CHAIN_OPS: usize = 2000;

/// `x = ones(4)` requiring grad; 1000 times `y = y * 1.0001 + 0.0001`;
/// `y.sum().backward()`.
fn chain() -> gradscope_core::Result<()> {
    let x = Tensor::ones(&[4]).requires_grad_(true);
    let (a, b) = (Tensor::scalar(1.0001), Tensor::scalar(0.0001));
    let mut y = x.clone();
    for _ in 0..CHAIN_OPS / 2 {
        y = y.mul(&a)?.add(&b)?;
    }
    y.sum()?.backward()
}

/// The mlp workload's model and data: Linear 784-256, ReLU, 256-256, ReLU,
/// 256-10 with PyTorch's default init ranges; a batch of 64 random inputs.
pub(crate) struct Mlp {
    layers: Vec<(Tensor, Tensor)>,
    x: Tensor,
    y: Tensor,
    opt: Adam,
}

impl Mlp {
    pub(crate) fn new() -> gradscope_core::Result<Self> {
        manual_seed(0);
        let mut layers = vec![];
        let mut params = vec![];
        for (fan_in, fan_out) in [(784i64, 256i64), (256, 256), (256, 10)] {
            // kaiming_uniform(a=sqrt(5)) gives U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
            let bound = 1.0 / (fan_in as f64).sqrt();
            let w =
                uniform(&[fan_out, fan_in], -bound, bound, DType::Float32)?.requires_grad_(true);
            let b = uniform(&[fan_out], -bound, bound, DType::Float32)?.requires_grad_(true);
            params.extend([w.clone(), b.clone()]);
            layers.push((w, b));
        }
        let x = Tensor::randn(&[64, 784], DType::Float32)?;
        let y = Tensor::randint(0, 10, &[64])?;
        let opt = Adam::new(params, AdamOptions::default())?;
        Ok(Self { layers, x, y, opt })
    }

    fn forward(&self) -> gradscope_core::Result<Tensor> {
        let mut h = self.x.clone();
        for (i, (w, b)) in self.layers.iter().enumerate() {
            h = h.linear(w, Some(b))?;
            if i + 1 < self.layers.len() {
                h = h.relu()?;
            }
        }
        h.cross_entropy(&self.y, &NllLossOptions::default())
    }

    /// zero_grad, forward, loss, backward, step.
    pub(crate) fn step(&mut self) -> gradscope_core::Result<()> {
        self.opt.zero_grad(true)?;
        self.forward()?.backward()?;
        self.opt.step()
    }
}

/// Best time of `runs` runs of `f`, in seconds: the least disturbed run.
pub(crate) fn best_of(
    runs: usize,
    mut f: impl FnMut() -> gradscope_core::Result<()>,
) -> Result<f64> {
    f()?; // warm up allocator and caches
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        f()?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok(best)
}

fn gradscope_cpu(runs: usize) -> Result<Vec<Value>> {
    let chain_s = best_of(runs, chain)?;
    // The same workload while a subscriber records every event: what the
    // trace costs when the page is watching.
    let traced_s = best_of(runs, || trace::record(chain).0)?;
    // What emission costs with no subscriber: the check every emission
    // point makes. Called through an opaque pointer so the loop cannot be
    // hoisted away; inlined into an op it is cheaper still.
    const CALLS: u32 = 10_000_000;
    let check: fn() -> bool = std::hint::black_box(trace::is_recording);
    let emit_s = best_of(3, || {
        let mut seen = 0u32;
        for _ in 0..CALLS {
            seen += u32::from(check());
        }
        std::hint::black_box(seen);
        Ok(())
    })?;
    let mut mlp = Mlp::new()?;
    let mlp_s = best_of(runs, || mlp.step())?;
    let before = ledger::saved_for_backward_bytes();
    let loss = mlp.forward()?;
    let saved = ledger::saved_for_backward_bytes() - before;
    drop(loss);
    Ok(vec![
        json!({"name": "chain", "unit": "us/op", "value": chain_s * 1e6 / CHAIN_OPS as f64}),
        json!({"name": "mlp", "unit": "ms/step", "value": mlp_s * 1e3}),
        json!({"name": "saved", "unit": "bytes", "value": saved}),
        json!({"name": "emit_unsubscribed", "unit": "ns/call", "value": emit_s * 1e9 / f64::from(CALLS)}),
        json!({"name": "chain_traced", "unit": "us/op", "value": traced_s * 1e6 / CHAIN_OPS as f64}),
    ])
}

fn torch_baseline(python: &str) -> Result<Vec<Value>> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/bench/torch_bench.py"
    );
    let out = Command::new(python)
        .arg(script)
        .output()
        .with_context(|| format!("could not run {python} {script}"))?;
    if !out.status.success() {
        bail!("{script} failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let parsed: Value =
        serde_json::from_slice(&out.stdout).context("torch_bench.py printed no JSON")?;
    Ok(parsed.as_array().cloned().unwrap_or_default())
}

/// `gradscope bench [--suite cpu|gpu] [--json] [--runs N] [--baseline PYTHON]
/// [--sizes N,N...] [--peak-gflops X]`.
pub fn main(args: &[String]) -> Result<()> {
    let mut json_out = false;
    let mut runs = 20;
    let mut baseline = None;
    let mut suite = "cpu";
    let mut sizes = vec![256, 512];
    let mut peak_gflops = None;
    let mut parser = args::parser(args);
    while let Some(arg) = args::next(&mut parser).map_err(anyhow::Error::msg)? {
        match arg {
            Long("json") => json_out = true,
            Long("suite") => match args::value(&mut parser, "--suite needs a name")
                .map_err(anyhow::Error::msg)?
                .as_str()
            {
                "cpu" => suite = "cpu",
                "gpu" => suite = "gpu",
                other => bail!("unknown suite '{other}' (this build has: cpu, gpu)"),
            },
            Long("sizes") => {
                let list = args::value(&mut parser, "--sizes needs N,N,...")
                    .map_err(anyhow::Error::msg)?;
                sizes = list
                    .split(',')
                    .map(|n| n.trim().parse::<usize>())
                    .collect::<Result<_, _>>()
                    .with_context(|| format!("bad --sizes '{list}'"))?;
            }
            Long("peak-gflops") => {
                let v = args::value(&mut parser, "--peak-gflops needs a number")
                    .map_err(anyhow::Error::msg)?;
                peak_gflops = Some(
                    v.parse::<f64>()
                        .with_context(|| format!("bad --peak-gflops '{v}'"))?,
                );
            }
            Long("runs") => {
                runs = args::value(&mut parser, "--runs needs a number")
                    .map_err(anyhow::Error::msg)?
                    .parse()?
            }
            Long("baseline") => {
                baseline = Some(
                    args::value(&mut parser, "--baseline needs a python")
                        .map_err(anyhow::Error::msg)?,
                )
            }
            other => bail!("unknown argument for bench: {}", args::shown(&other)),
        }
    }
    if suite == "gpu" {
        let options = crate::bench_gpu::GpuOptions {
            sizes,
            runs: runs.min(10),
            peak_gflops,
        };
        let report = crate::bench_gpu::run(&options)?;
        if json_out {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            crate::bench_gpu::print(&report);
        }
        return Ok(());
    }
    let ours = gradscope_cpu(runs)?;
    let theirs = match &baseline {
        Some(python) => torch_baseline(python)?,
        None => vec![],
    };
    let report = json!({"suite": "cpu", "gradscope": ours, "pytorch": theirs});
    if json_out {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "{:<20}{:>16}{:>16}{:>10}",
        "workload", "gradscope", "pytorch", "ratio"
    );
    for w in &ours {
        let name = w["name"].as_str().unwrap_or("?");
        let value = w["value"].as_f64().unwrap_or(f64::NAN);
        let unit = w["unit"].as_str().unwrap_or("");
        let base = theirs
            .iter()
            .find(|t| t["name"] == name.trim_end_matches("_traced"))
            .and_then(|t| t["value"].as_f64());
        // Byte counts are integers; times keep three decimals.
        let show = |v: f64| match unit {
            "bytes" => format!("{v:.0} B"),
            _ => format!("{v:.3} {unit}"),
        };
        let (base_s, ratio) = match base {
            Some(b) => (show(b), format!("{:.3}", value / b)),
            None => ("-".into(), "-".into()),
        };
        println!("{name:<20}{:>16}{base_s:>16}{ratio:>10}", show(value));
    }
    Ok(())
}
