//! Running a case: its Jacobian against finite differences on the CPU, or
//! its float32 gradients on the GPU against the CPU's float64 ones.

use std::rc::Rc;

use super::Case;
use super::inputs::{SplitMix64, fnv1a};
use crate::autograd::Node;
use crate::autograd::gradcheck::{GradcheckOptions, jacobian_errors, node_op};
use crate::{Op, Result, Tensor};

/// What one case measured.
#[derive(Clone, Debug)]
pub struct Row {
    /// The case's name.
    pub name: String,
    /// The `grad_fn` of the call's result (`None` when it has none).
    pub node: Option<String>,
    /// The op of that node, from the op enums.
    pub op: Option<Op>,
    /// Every op the call's graph ran backward through.
    pub graph_ops: Vec<Op>,
    /// The inputs' shapes.
    pub shapes: Vec<Vec<usize>>,
    /// The largest absolute difference between the two gradients.
    pub max_abs_error: f64,
    /// The largest relative difference between the two gradients.
    pub max_rel_error: f64,
    /// Whether every gradient was within tolerance.
    pub passed: bool,
    /// Why the check could not run, when it could not.
    pub error: Option<String>,
}

impl Row {
    /// A row for `case` before it ran: nothing measured, not passed.
    fn of(case: &Case) -> Self {
        Row {
            name: case.name.clone(),
            node: None,
            op: None,
            graph_ops: vec![],
            shapes: case.inputs.iter().map(|i| i.shape.clone()).collect(),
            max_abs_error: 0.0,
            max_rel_error: 0.0,
            passed: false,
            error: None,
        }
    }
}

/// Runs one case: the call once for its node, then PyTorch's gradcheck
/// over every input. A call without a `grad_fn` fails: it would check
/// nothing.
pub fn check(case: &Case) -> Row {
    let mut row = Row::of(case);
    let options = GradcheckOptions {
        eps: case.eps.unwrap_or(GradcheckOptions::default().eps),
        ..GradcheckOptions::default()
    };
    let outcome = case.leaves().and_then(|leaves| {
        let output = (case.f)(&leaves)?;
        if let Some(node) = output.grad_fn() {
            row.node = Some(node.name().to_string());
            row.op = node_op(&node).cloned();
            row.graph_ops = graph_ops(&node);
        }
        jacobian_errors(&case.f, &leaves, options)
    });
    match outcome {
        Ok(errors) => {
            for e in &errors {
                row.max_abs_error = nan_max(row.max_abs_error, e.max_abs_error);
                row.max_rel_error = nan_max(row.max_rel_error, e.max_rel_error);
            }
            row.passed = row.node.is_some() && errors.iter().all(|e| e.passed);
            if row.node.is_none() {
                row.error = Some("the result has no grad_fn".into());
            }
        }
        Err(err) => row.error = Some(err.to_string()),
    }
    row
}

/// Absolute tolerance of the GPU's float32 gradients against the CPU's
/// float64 ones.
pub const GPU_ATOL: f64 = 1e-4;
/// Relative tolerance of the same comparison.
pub const GPU_RTOL: f64 = 1e-3;

/// Runs one case on the GPU: forward and backward in float32 there with a
/// seeded cotangent, against the same backward in float64 on the CPU (which
/// [`check`] holds to finite differences). A result that leaves the GPU, or
/// a call that cannot run there, fails the row.
pub fn check_on_gpu(case: &Case) -> Row {
    use crate::{DType, Device as On};

    let mut row = Row::of(case);
    let outcome = (|| -> Result<bool> {
        let leaves = case.leaves()?;
        let reference = (case.f)(&leaves)?;
        let mut rng = SplitMix64::new(fnv1a(format!("{} cotangent", case.name).as_bytes()));
        let cotangent: Vec<f64> = (0..reference.numel())
            .map(|_| 4.0 * rng.unit() - 2.0)
            .collect();
        let weights = Tensor::from_vec(cotangent.clone(), reference.shape())?;
        reference.mul(&weights)?.sum()?.backward()?;

        let on_gpu: Vec<Tensor> = leaves
            .iter()
            .map(|l| {
                Ok(l.detach()
                    .to_dtype(DType::Float32)?
                    .to_device(On::WebGpu)?
                    .requires_grad_(true))
            })
            .collect::<Result<_>>()?;
        // Tensors the call makes itself land on the GPU too.
        crate::device::set_default_device(On::WebGpu);
        let output = (case.f)(&on_gpu);
        crate::device::set_default_device(On::Cpu);
        let output = output?;
        if let Some(node) = output.grad_fn() {
            row.node = Some(node.name().to_string());
            row.op = node_op(&node).cloned();
            row.graph_ops = graph_ops(&node);
        }
        if output.device() != On::WebGpu {
            return Err(crate::Error::Backend(format!(
                "the result is on {}, not the GPU",
                output.device()
            )));
        }
        let weights = Tensor::from_vec(
            cotangent.iter().map(|&v| v as f32).collect::<Vec<_>>(),
            output.shape(),
        )?
        .to_device(On::WebGpu)?;
        output.mul(&weights)?.sum()?.backward()?;

        let mut passed = true;
        for (cpu, gpu) in leaves.iter().zip(&on_gpu) {
            let want = cpu.grad().map(|g| g.to_vec::<f64>());
            let got = gpu
                .grad()
                .map(|g| g.to_device(On::Cpu)?.to_dtype(DType::Float64))
                .transpose()?
                .map(|g| g.to_vec::<f64>());
            let (want, got) = match (want, got) {
                (Some(want), Some(got)) if want.len() == got.len() => (want, got),
                (None, None) => continue,
                (want, got) => {
                    return Err(crate::Error::Backend(format!(
                        "the GPU gave {} gradient values where the CPU gave {}",
                        got.map_or(0, |g| g.len()),
                        want.map_or(0, |w| w.len())
                    )));
                }
            };
            for (w, g) in want.iter().zip(&got) {
                let abs = (w - g).abs();
                row.max_abs_error = nan_max(row.max_abs_error, abs);
                if w.abs() > GPU_ATOL {
                    row.max_rel_error = nan_max(row.max_rel_error, abs / w.abs());
                }
                passed &= abs <= GPU_ATOL + GPU_RTOL * w.abs();
            }
        }
        Ok(passed)
    })();
    crate::device::set_default_device(crate::Device::Cpu);
    match outcome {
        Ok(passed) => {
            row.passed = passed && row.node.is_some();
            if row.node.is_none() {
                row.error = Some("the result has no grad_fn".into());
            }
        }
        Err(err) => row.error = Some(err.to_string()),
    }
    row
}

fn nan_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// The ops of every node reachable from `root`, with an explicit stack.
fn graph_ops(root: &Rc<Node>) -> Vec<Op> {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = vec![root.clone()];
    let mut ops = vec![];
    while let Some(node) = stack.pop() {
        if !seen.insert(node.id()) {
            continue;
        }
        if let Some(op) = node_op(&node) {
            ops.push(op.clone());
        }
        stack.extend(node.next_functions().iter().flatten().cloned());
    }
    ops
}
