//! `gradscope`: runs gradscope's engine headlessly.

mod args;
mod bench;
mod bench_gpu;
mod gpu;
mod gradcheck;
mod lessons;
mod outputs;
mod run;

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use args::{Long, Short, Value};
use gradscope_core::Tensor;
use gradscope_trace::format::tensor_str;
use gradscope_trace::{GraphState, NodeStatus};

const USAGE: &str = "\
gradscope: see what autograd really does

Usage:
  gradscope demo [--trace]   run the skeleton computation and print its result and graph
  gradscope run FILE.py      run a PyTorch program on gradscope's engine (see `gradscope run --help`)
  gradscope lessons [--check] [--only SLUG]
                             run the lessons and check their claims (see `gradscope lessons --help`)
  gradscope gradcheck [--device cpu|webgpu] [--only NAME] [--json]
                             check every op's backward against finite differences
                             (see `gradscope gradcheck --help`)
  gradscope bench [--suite cpu|gpu] [--json] [--runs N] [--baseline PYTHON]
                             time the benchmark workloads (beside PyTorch with --baseline;
                             gpu: the matmul ladder [--sizes 256,512] [--peak-gflops X]
                             and the mlp step on the GPU beside the CPU)
  gradscope --version        print the version
  gradscope --help           print this text";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    gpu::register();
    match run(&args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("gradscope: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// The command the first argument names, given the arguments after it.
fn run(args: &[String]) -> Result<ExitCode> {
    let mut parser = args::parser(args);
    let first = args::next(&mut parser).map_err(anyhow::Error::msg)?;
    let command = match first {
        Some(Value(command)) => command.to_string_lossy().into_owned(),
        Some(Long("version") | Short('V')) => {
            println!("gradscope {}", env!("CARGO_PKG_VERSION"));
            return Ok(ExitCode::SUCCESS);
        }
        Some(Long("help") | Short('h')) | None => {
            println!("{USAGE}");
            return Ok(ExitCode::SUCCESS);
        }
        Some(other) => bail!("unknown command '{}'\n\n{USAGE}", args::shown(&other)),
    };
    let rest = args::rest(&mut parser).map_err(anyhow::Error::msg)?;
    match command.as_str() {
        "run" => Ok(run::main(&rest)),
        "lessons" => Ok(lessons::main(&rest)),
        "gradcheck" => Ok(gradcheck::main(&rest)),
        "demo" => demo(&rest).map(|()| ExitCode::SUCCESS),
        "bench" => bench::main(&rest).map(|()| ExitCode::SUCCESS),
        other => bail!("unknown command '{other}'\n\n{USAGE}"),
    }
}

/// `gradscope demo [--trace]`: the walking skeleton's computation, printed
/// as the page shows it; with `--trace`, the engine's events after it.
fn demo(args: &[String]) -> Result<()> {
    let mut print_trace = false;
    let mut parser = args::parser(args);
    while let Some(arg) = args::next(&mut parser).map_err(anyhow::Error::msg)? {
        match arg {
            Long("trace") => print_trace = true,
            Long("help") | Short('h') => {
                println!("{USAGE}");
                return Ok(());
            }
            other => bail!("unexpected argument '{}' for demo", args::shown(&other)),
        }
    }
    let (result, events) = gradscope_core::trace::record(|| -> Result<(Tensor, Tensor)> {
        let x = Tensor::ones(&[2, 2]).requires_grad_(true);
        let y = x.add(&Tensor::scalar(2.0))?;
        let z = y.mul(&y)?.mul(&Tensor::scalar(3.0))?;
        let out = z.mean()?;
        out.backward()?;
        Ok((out, x))
    });
    let (out, x) = result.context("the demo computation failed")?;
    let grad = x.grad().context("x.grad is None after backward")?;
    println!("x = torch.ones(2, 2, requires_grad=True)");
    println!("y = x + 2; z = y * y * 3; out = z.mean(); out.backward()");
    println!("out = {}", tensor_str(&[out.item()?], &[]));
    println!(
        "x.grad = {}",
        tensor_str(&grad.to_vec::<f64>(), grad.shape())
    );
    println!("graph (backward order):");
    let graph = GraphState::at(&events);
    let mut nodes: Vec<_> = graph.nodes.values().collect();
    nodes.sort_by(|a, b| b.sequence_nr.cmp(&a.sequence_nr).then(a.id.cmp(&b.id)));
    for node in nodes {
        let next: Vec<String> = node
            .next
            .iter()
            .map(|n| match n.and_then(|id| graph.nodes.get(&id)) {
                Some(target) => target.name.clone(),
                None => "None".into(),
            })
            .collect();
        let state = match node.status {
            NodeStatus::Pending => "pending",
            NodeStatus::Executed => "executed",
            NodeStatus::Released => "executed, saved tensors freed",
        };
        println!("  {} -> [{}] ({state})", node.name, next.join(", "));
    }
    if print_trace {
        for event in &events {
            println!("{event:?}");
        }
    }
    Ok(())
}
