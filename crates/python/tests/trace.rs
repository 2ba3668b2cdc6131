//! What the Python `torch.nn`, `torch.optim`, checkpointing and
//! `record_function` leave in the trace and the ledger, which the lessons
//! measure: named ranges, optimizer steps, zero_grad, clipping,
//! recomputation, and optimizer state counted as such.

#![allow(clippy::panic)]

use gradscope_core::ledger::{self, Category};
use gradscope_python::Runtime;
use gradscope_trace::EventKind;

fn record(source: &str) -> Vec<EventKind> {
    let mut rt = Runtime::new();
    let (out, events) = gradscope_core::trace::record(|| rt.run(source));
    if let Some(err) = out.error {
        panic!("raised {}: {}", err.type_name, err.message);
    }
    events.into_iter().map(|e| e.kind).collect()
}

#[test]
fn record_function_emits_named_ranges() {
    let kinds = record(
        "import torch\nfrom torch.profiler import record_function\n\
         with record_function('train'):\n    x = torch.ones(2) * 2\n\
         @record_function('eval')\ndef f():\n    return torch.zeros(1)\nf()\n",
    );
    let ranges: Vec<String> = kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::RangeBegan { name } => Some(format!("+{name}")),
            EventKind::RangeEnded { name } => Some(format!("-{name}")),
            _ => None,
        })
        .collect();
    assert_eq!(ranges, ["+train", "-train", "+eval", "-eval"]);
}

#[test]
fn optimizer_emits_steps_zero_grad_and_clipping() {
    let kinds = record(
        "import torch\nm = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)\n\
         for _ in range(2):\n    opt.zero_grad()\n    m(torch.ones(3, 2)).sum().backward()\n\
         \x20   torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5)\n    opt.step()\n",
    );
    let steps: Vec<(&str, u64)> = kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::OptimizerStep { optimizer, updated } => Some((optimizer.as_str(), *updated)),
            _ => None,
        })
        .collect();
    assert_eq!(steps, [("SGD", 2), ("SGD", 2)]);
    let zero_grads = kinds
        .iter()
        .filter(|k| matches!(k, EventKind::ZeroGrad { set_to_none: true }))
        .count();
    assert_eq!(zero_grads, 2);
    let clipped: Vec<(f64, f64)> = kinds
        .iter()
        .filter_map(|k| match k {
            EventKind::GradClipped {
                total_norm,
                clipped_norm,
                max_norm,
            } => Some((*total_norm / *max_norm, *clipped_norm)),
            _ => None,
        })
        .collect();
    assert_eq!(clipped.len(), 2);
    for (ratio, after) in clipped {
        assert!(ratio > 1.0, "the gradients were above max_norm");
        assert!(
            (after - 0.5).abs() < 1e-5,
            "clipped to max_norm, got {after}"
        );
    }
}

#[test]
fn optimizer_state_counts_as_optimizer_state() {
    let mut rt = Runtime::new();
    let out = rt.run(
        "import torch\nm = torch.nn.Linear(4, 4)\nopt = torch.optim.Adam(m.parameters())\n\
         m(torch.ones(2, 4)).sum().backward()\nopt.step()\n\
         import sys\nsys.kept = (m, opt)\n",
    );
    assert!(out.error.is_none(), "{:?}", out.error);
    // `sys.kept` holds the model and optimizer past the run's globals.
    let stats = ledger::stats();
    // Adam keeps two moments per parameter: (16 + 4) floats each.
    assert_eq!(stats.current(Category::OptimizerState), 2 * 20 * 4);
    assert_eq!(stats.current(Category::Parameter), 20 * 4);
}

#[test]
fn checkpoint_recomputes_in_backward() {
    let kinds = record(
        "import torch\nfrom torch.utils.checkpoint import checkpoint\n\
         x = torch.ones(3, requires_grad=True)\n\
         y = checkpoint(lambda t: (t * 2).exp().sin(), x, use_reentrant=False)\ny.sum().backward()\n",
    );
    let began = kinds
        .iter()
        .filter(|k| matches!(k, EventKind::RecomputeBegan { .. }))
        .count();
    assert_eq!(began, 1);
}
