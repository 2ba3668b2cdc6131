//! The table of cases, by op family.

mod arith;
mod matmul;
mod nn;
mod reduce;
mod select_index_join;
mod unary;
mod view;

pub use unary::unary_case;

use super::Case;
use super::inputs::real;
use crate::ops::UnaryOp;
use crate::{Device, Result, Tensor};

/// A 1-D constant of a case (running statistics, class weights) with the
/// dtype and device of `like`, so the case runs on the GPU in float32 too.
pub(super) fn constant(like: &Tensor, values: Vec<f64>) -> Result<Tensor> {
    let n = values.len();
    Tensor::from_vec(values, &[n])?
        .to_dtype(like.dtype())?
        .to_device(like.device())
}

/// An int64 tensor of `values` (indices, targets).
pub(super) fn ints(values: &[i64], shape: &[usize]) -> Result<Tensor> {
    Tensor::from_vec(values.to_vec(), shape)
}

/// The gradient of `f` at `x`, with graph, against fixed output weights:
/// a function whose last op is `f`'s backward, so the backward op itself
/// is checked (double backward).
pub(super) fn first_grad(x: &Tensor, f: impl Fn(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    // A leaf of its own: numerical differentiation passes plain tensors.
    let x = if x.requires_grad() {
        x.clone()
    } else {
        x.detach().requires_grad_(true)
    };
    let y = f(&x)?;
    // Squared, so the gradient depends on x through the backward op.
    let out = y.mul(&y)?.sum()?;
    let grads = crate::autograd::grad(&[out], &[x], None, None, true, false)?;
    grads
        .into_iter()
        .next()
        .flatten()
        .ok_or(crate::Error::NoGradFn)
}

/// The rows for `device`: on the GPU, the float64 round trips give way to
/// a round trip through the CPU (`to(device)`'s own backward).
pub fn cases_on(device: Device) -> Vec<Case> {
    match device {
        Device::Cpu => cases(),
        Device::WebGpu => {
            let mut rows: Vec<Case> = cases()
                .into_iter()
                .filter(|c| !c.name.starts_with("to (float64"))
                .collect();
            // Back to the input's own device: the CPU reference is the
            // identity, the GPU's last node copies from the CPU.
            rows.push(Case::new(
                "to (webgpu -> cpu -> webgpu)",
                vec![real(&[2, 3])],
                |t| t[0].to_device(Device::Cpu)?.to_device(t[0].device()),
            ));
            rows
        }
    }
}

/// Every row, in the order of the ops' families.
pub fn cases() -> Vec<Case> {
    let mut cases = arith::cases();
    cases.extend(UnaryOp::ALL.iter().map(|&op| unary_case(op)));
    cases.extend(reduce::cases());
    cases.extend(view::cases());
    cases.extend(select_index_join::cases());
    cases.extend(matmul::cases());
    cases.extend(nn::cases());
    cases
}

/// The last of `pieces` (of a split or unbind).
pub(super) fn last(pieces: Vec<Tensor>) -> Result<Tensor> {
    pieces.into_iter().next_back().ok_or(crate::Error::NoGradFn)
}
