//! `gradcheck`: backward formulas against central differences in float64,
//! as PyTorch's `torch.autograd.gradcheck`.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// Tolerances and step of [`gradcheck`], PyTorch's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradcheckOptions {
    /// Perturbation for the central differences.
    pub eps: f64,
    /// Absolute tolerance.
    pub atol: f64,
    /// Relative tolerance.
    pub rtol: f64,
}

impl Default for GradcheckOptions {
    fn default() -> Self {
        Self {
            eps: 1e-6,
            atol: 1e-5,
            rtol: 1e-3,
        }
    }
}

/// Perturbations and seeds go where the inputs live: a float64 check on
/// the CPU while the default device is the GPU.
fn on_inputs_device(inputs: &[Tensor]) -> crate::device::Scope {
    crate::device::Scope::new(
        inputs
            .first()
            .map_or(crate::device::current(), Tensor::device),
    )
}

/// Checks `f`'s backward against finite differences for every input that
/// requires grad; `Ok(())` when they agree, PyTorch's `GradcheckError`
/// message otherwise. Inputs should be float64 leaves.
///
/// ```
/// use gradscope_core::Tensor;
/// use gradscope_core::autograd::gradcheck::{gradcheck, GradcheckOptions};
/// let x = Tensor::from_vec(vec![0.5f64, -1.0, 2.0], &[3])?.requires_grad_(true);
/// gradcheck(|t| t[0].mul(&t[0])?.exp(), &[x], GradcheckOptions::default())?;
/// # Ok::<(), gradscope_core::Error>(())
/// ```
pub fn gradcheck(
    f: impl Fn(&[Tensor]) -> Result<Tensor>,
    inputs: &[Tensor],
    options: GradcheckOptions,
) -> Result<()> {
    let _on = on_inputs_device(inputs);
    let output = f(inputs)?;
    let n_out = output.numel();
    for (i, input) in inputs.iter().enumerate() {
        if !input.requires_grad() {
            continue;
        }
        if input.dtype() != DType::Float64 {
            return Err(Error::GradcheckFailed(format!(
                "Input #{i} requires gradient and is not a double precision floating point. \
                 gradcheck runs in float64."
            )));
        }
        let analytical = analytical_jacobian(&f, inputs, i, n_out)?;
        let numerical = numerical_jacobian(&f, inputs, i, n_out, options.eps)?;
        let mismatch = analytical.iter().zip(&numerical).any(|(a, n)| {
            (a - n).abs().is_nan() || (a - n).abs() > options.atol + options.rtol * n.abs()
        });
        if mismatch {
            return Err(Error::GradcheckFailed(format!(
                "Jacobian mismatch for output 0 with respect to input {i},\n\
                 numerical:{}\nanalytical:{}\n",
                matrix(&numerical, n_out),
                matrix(&analytical, n_out)
            )));
        }
    }
    Ok(())
}

/// How far one input's analytical Jacobian (from backward) lies from the
/// numerical one (central differences): what [`gradcheck`] judges, as
/// figures for a report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JacobianError {
    /// The input's position.
    pub input: usize,
    /// The largest `|analytical - numerical|` over the Jacobian's entries.
    pub max_abs_error: f64,
    /// The largest `|analytical - numerical| / |numerical|` over the entries
    /// whose numerical value exceeds `atol`: smaller entries are judged by
    /// the absolute error alone, as PyTorch's `atol + rtol * |numerical|` does,
    /// and dividing by them would report noise. 0 when no entry is that large.
    pub max_rel_error: f64,
    /// PyTorch's verdict: every entry within `atol + rtol * |numerical|`
    /// (a NaN anywhere fails).
    pub passed: bool,
}

/// The figures behind [`gradcheck`]'s verdict, one per input that requires
/// grad, instead of a verdict: for tables of many ops. Errors only when `f`
/// fails or an input that requires grad is not float64.
///
/// ```
/// use gradscope_core::Tensor;
/// use gradscope_core::autograd::gradcheck::{jacobian_errors, GradcheckOptions};
/// let x = Tensor::from_vec(vec![0.5f64, -1.0, 2.0], &[3])?.requires_grad_(true);
/// let errors = jacobian_errors(|t| t[0].exp(), &[x], GradcheckOptions::default())?;
/// assert!(errors[0].passed && errors[0].max_abs_error < 1e-6);
/// # Ok::<(), gradscope_core::Error>(())
/// ```
pub fn jacobian_errors(
    f: impl Fn(&[Tensor]) -> Result<Tensor>,
    inputs: &[Tensor],
    options: GradcheckOptions,
) -> Result<Vec<JacobianError>> {
    let _on = on_inputs_device(inputs);
    let output = f(inputs)?;
    let n_out = output.numel();
    let mut errors = vec![];
    for (i, input) in inputs.iter().enumerate() {
        if !input.requires_grad() {
            continue;
        }
        if input.dtype() != DType::Float64 {
            return Err(Error::GradcheckFailed(format!(
                "Input #{i} requires gradient and is not a double precision floating point. \
                 gradcheck runs in float64."
            )));
        }
        let analytical = analytical_jacobian(&f, inputs, i, n_out)?;
        let numerical = numerical_jacobian(&f, inputs, i, n_out, options.eps)?;
        let mut error = JacobianError {
            input: i,
            max_abs_error: 0.0,
            max_rel_error: 0.0,
            passed: true,
        };
        for (a, n) in analytical.iter().zip(&numerical) {
            let diff = (a - n).abs();
            // `f64::max` drops NaN; a NaN must show in the figures too.
            error.max_abs_error = nan_max(error.max_abs_error, diff);
            if n.abs() > options.atol || diff.is_nan() {
                error.max_rel_error = nan_max(error.max_rel_error, diff / n.abs());
            }
            if diff.is_nan() || diff > options.atol + options.rtol * n.abs() {
                error.passed = false;
            }
        }
        errors.push(error);
    }
    Ok(errors)
}

/// The op whose backward `node` runs; `None` for a leaf's `AccumulateGrad`
/// and for a custom function's node. A gradcheck report uses it to name the
/// ops a checked function's graph exercised, from the op enums themselves.
pub fn node_op(node: &super::Node) -> Option<&crate::ops::Op> {
    match &node.kind {
        super::NodeKind::Op(op) => Some(op),
        super::NodeKind::AccumulateGrad(_)
        | super::NodeKind::Inplace(_)
        | super::NodeKind::Custom(_)
        | super::NodeKind::CopySlices(_)
        | super::NodeKind::AsStrided(_)
        | super::NodeKind::Zeros(_) => None,
    }
}

fn nan_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// Jacobian row by row: one backward per output element with a one-hot
/// gradient. Entry `[k * n_out + j]` is d out_j / d in_k.
fn analytical_jacobian(
    f: &impl Fn(&[Tensor]) -> Result<Tensor>,
    inputs: &[Tensor],
    i: usize,
    n_out: usize,
) -> Result<Vec<f64>> {
    let n_in = inputs[i].numel();
    let mut jac = vec![0.0; n_in * n_out];
    for j in 0..n_out {
        let saved: Vec<Option<Tensor>> = inputs.iter().map(Tensor::grad).collect();
        inputs.iter().for_each(|t| t.set_grad(None));
        let output = f(inputs)?;
        let mut onehot = vec![0.0f64; n_out];
        onehot[j] = 1.0;
        let onehot = Tensor::from_vec(onehot, output.shape())?;
        let onehot = onehot.to_dtype(output.dtype())?;
        if output.requires_grad() {
            output.backward_with(Some(&onehot), None, false)?;
        }
        if let Some(g) = inputs[i].grad() {
            for (k, v) in g.to_vec::<f64>().into_iter().enumerate() {
                jac[k * n_out + j] = v;
            }
        }
        inputs.iter().zip(saved).for_each(|(t, g)| t.set_grad(g));
    }
    Ok(jac)
}

fn numerical_jacobian(
    f: &impl Fn(&[Tensor]) -> Result<Tensor>,
    inputs: &[Tensor],
    i: usize,
    n_out: usize,
    eps: f64,
) -> Result<Vec<f64>> {
    let base = inputs[i].to_vec::<f64>();
    let shape = inputs[i].shape().to_vec();
    let mut jac = vec![0.0; base.len() * n_out];
    // Grad mode stays on: gradgradcheck's function computes a gradient.
    for k in 0..base.len() {
        let eval = |delta: f64| -> Result<Vec<f64>> {
            let mut data = base.clone();
            data[k] += delta;
            let mut args = inputs.to_vec();
            args[i] = Tensor::from_vec(data, &shape)?.requires_grad_(inputs[i].requires_grad());
            Ok(f(&args)?.to_vec::<f64>())
        };
        let (plus, minus) = (eval(eps)?, eval(-eps)?);
        for j in 0..n_out {
            jac[k * n_out + j] = (plus[j] - minus[j]) / (2.0 * eps);
        }
    }
    Ok(jac)
}

fn matrix(values: &[f64], cols: usize) -> String {
    values
        .chunks(cols.max(1))
        .map(|row| {
            row.iter()
                .map(|v| format!("{v:.4}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .map(|row| format!("\n[{row}]"))
        .collect()
}

/// Checks second derivatives, as PyTorch's `gradgradcheck`: for fixed
/// pseudo-random output gradients `v`, each input's gradient of
/// `<f(inputs), v>` (built with `create_graph`) is itself gradchecked.
pub fn gradgradcheck(
    f: impl Fn(&[Tensor]) -> Result<Tensor>,
    inputs: &[Tensor],
    options: GradcheckOptions,
) -> Result<()> {
    let _on = on_inputs_device(inputs);
    let output = f(inputs)?;
    // A fixed sequence in [-1, 1]: deterministic, and not symmetric enough
    // to hide a wrong sign.
    let v: Vec<f64> = (0..output.numel())
        .map(|k| ((k * 7 + 3) % 11) as f64 / 5.0 - 1.0)
        .collect();
    let v = Tensor::from_vec(v, output.shape())?.to_dtype(output.dtype())?;
    let wrt: Vec<usize> = (0..inputs.len())
        .filter(|&i| inputs[i].requires_grad())
        .collect();
    for &i in &wrt {
        let first_grad = |t: &[Tensor]| -> Result<Tensor> {
            let out = f(t)?;
            let targets: Vec<Tensor> = wrt.iter().map(|&j| t[j].clone()).collect();
            let grads = super::grad(&[out], &targets, Some(&[Some(v.clone())]), None, true, true)?;
            let position = wrt.iter().position(|&j| j == i).unwrap_or(0);
            match grads.into_iter().nth(position).flatten() {
                Some(g) => Ok(g),
                None => Ok(Tensor::zeros(t[i].shape()).to_dtype(t[i].dtype())?),
            }
        };
        gradcheck(first_grad, inputs, options)?;
    }
    Ok(())
}
