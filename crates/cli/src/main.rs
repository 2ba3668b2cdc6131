//! `gradscope`: runs gradscope's engine headlessly.

mod bench;
mod bench_gpu;
mod gpu;
mod gradcheck;
mod lessons;
mod outputs;
mod run;

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
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
    if args.first().is_some_and(|a| a == "run") {
        return run::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "lessons") {
        return lessons::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "gradcheck") {
        return gradcheck::main(&args[1..]);
    }
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("gradscope: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("--version" | "-V") => {
            println!("gradscope {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Some("--help" | "-h") | None => {
            println!("{USAGE}");
            Ok(())
        }
        Some("demo") => demo(args[1..].iter().any(|a| a == "--trace")),
        Some("bench") => bench::main(&args[1..]),
        Some(other) => bail!("unknown command '{other}'\n\n{USAGE}"),
    }
}

/// The walking skeleton's computation, printed as the page shows it.
fn demo(print_trace: bool) -> Result<()> {
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
