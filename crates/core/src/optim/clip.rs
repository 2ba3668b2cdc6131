//! `torch.nn.utils.clip_grad_norm_` and `clip_grad_value_`.

use crate::error::Result;
use crate::grad_mode::GradModeGuard;
use crate::ops::arith::Scalar;
use crate::tensor::Tensor;

/// Scales all gradients so their joint `norm_type` norm is at most
/// `max_norm`, and returns the norm before clipping, as PyTorch's
/// `clip_grad_norm_(parameters, max_norm, norm_type=2.0)`.
pub fn clip_grad_norm_(params: &[Tensor], max_norm: f64, norm_type: f64) -> Result<f64> {
    let _no_grad = GradModeGuard::internal(false);
    let grads: Vec<Tensor> = params.iter().filter_map(Tensor::grad).collect();
    if grads.is_empty() {
        return Ok(0.0);
    }
    let norms = grads
        .iter()
        .map(|g| g.norm(norm_type, None, false)?.item())
        .collect::<Result<Vec<f64>>>()?;
    let total = if norm_type.is_infinite() {
        norms.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    } else {
        norms
            .iter()
            .map(|n| n.powf(norm_type))
            .sum::<f64>()
            .powf(1.0 / norm_type)
    };
    // PyTorch clamps the coefficient at 1 rather than branching, so small
    // norms leave gradients untouched bit for bit... up to the multiply.
    let coef = (max_norm / (total + 1e-6)).min(1.0);
    for g in &grads {
        g.mul_(&Tensor::scalar(coef))?;
    }
    // Measured again rather than assumed, so a lesson's claim about the
    // clipped norm checks what the gradients now hold.
    crate::trace::emit(|| gradscope_trace::EventKind::GradClipped {
        total_norm: total,
        clipped_norm: joint_norm(&grads, norm_type),
        max_norm,
    });
    Ok(total)
}

/// The joint `norm_type` norm of `grads`' current values, in f64.
fn joint_norm(grads: &[Tensor], norm_type: f64) -> f64 {
    let values = grads.iter().flat_map(|g| g.to_vec::<f64>());
    if norm_type.is_infinite() {
        values.map(f64::abs).fold(0.0, f64::max)
    } else {
        values
            .map(|v| v.abs().powf(norm_type))
            .sum::<f64>()
            .powf(1.0 / norm_type)
    }
}

/// Clamps every gradient element to `[-clip_value, clip_value]`, PyTorch's
/// `clip_grad_value_`.
pub fn clip_grad_value_(params: &[Tensor], clip_value: f64) -> Result<()> {
    let _no_grad = GradModeGuard::internal(false);
    for g in params.iter().filter_map(Tensor::grad) {
        let bound = (
            Some(Scalar::Float(-clip_value)),
            Some(Scalar::Float(clip_value)),
        );
        g.apply_inplace("clamp_", |t| t.clamp(bound.0, bound.1))?;
    }
    Ok(())
}
