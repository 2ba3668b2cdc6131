//! Adam's update as one pass over contiguous buffers: the same arithmetic,
//! in the same order and element type, as the op-by-op update in
//! `optim/adam.rs` (PyTorch's single-tensor path), so the results are
//! bit-for-bit equal, without the dozen temporaries that path allocates.

use super::{CpuBuffer, Float};

/// Adam's per-step constants in `f64`; each is rounded to the element type
/// once, as a wrapped Python number is when it meets a tensor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AdamConstants {
    /// `1 - beta1`: the weight of `exp_avg.lerp_(grad, 1 - beta1)`.
    pub one_minus_beta1: f64,
    /// `beta2`.
    pub beta2: f64,
    /// `1 - beta2`.
    pub one_minus_beta2: f64,
    /// `sqrt(1 - beta2^step)`.
    pub bias_correction2_sqrt: f64,
    /// `eps`.
    pub eps: f64,
    /// `-lr / (1 - beta1^step)`.
    pub neg_step_size: f64,
    /// Adam's L2 penalty added to the gradient (0 for none or AdamW).
    pub weight_decay: f64,
    /// AdamW's factor on the parameter before the update (`1 - lr * wd`),
    /// or `None`.
    pub decay_factor: Option<f64>,
}

/// Updates `param`, `exp_avg` and `exp_avg_sq` in place from `grad`; the
/// four buffers have one float dtype and equal lengths. Returns false
/// (touching nothing) when they do not, so the caller can take the general path.
pub(crate) fn adam_update(
    param: &mut CpuBuffer,
    grad: &CpuBuffer,
    exp_avg: &mut CpuBuffer,
    exp_avg_sq: &mut CpuBuffer,
    c: &AdamConstants,
) -> bool {
    match (param, grad, exp_avg, exp_avg_sq) {
        (CpuBuffer::F32(p), CpuBuffer::F32(g), CpuBuffer::F32(m), CpuBuffer::F32(v)) => {
            update(p, g, m, v, c)
        }
        (CpuBuffer::F64(p), CpuBuffer::F64(g), CpuBuffer::F64(m), CpuBuffer::F64(v)) => {
            update(p, g, m, v, c)
        }
        _ => false,
    }
}

fn update<T: Float>(p: &mut [T], g: &[T], m: &mut [T], v: &mut [T], c: &AdamConstants) -> bool {
    let n = p.len();
    if g.len() != n || m.len() != n || v.len() != n {
        return false;
    }
    let t = |x: f64| T::from_f64(x);
    let (c1, b2, c2) = (t(c.one_minus_beta1), t(c.beta2), t(c.one_minus_beta2));
    let (bc2, eps, step) = (t(c.bias_correction2_sqrt), t(c.eps), t(c.neg_step_size));
    // One loop per weight-decay variant, so the common one (none) has no
    // branch in its body and vectorises.
    let moments = move |g: T, m: &mut T, v: &mut T| {
        *m = *m + (g - *m) * c1;
        *v = *v * b2 + (g * g) * c2;
        let denom = v.sqrt() / bc2 + eps;
        (*m / denom) * step
    };
    let all = p.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut());
    match c.decay_factor {
        Some(d) => {
            let d = t(d);
            for (((p, &g), m), v) in all {
                *p = *p * d;
                *p = *p + moments(g, m, v);
            }
        }
        None if c.weight_decay != 0.0 => {
            let wd = t(c.weight_decay);
            for (((p, &g), m), v) in all {
                // grad.add(param, alpha=weight_decay): x + alpha * y.
                *p = *p + moments(g + wd * *p, m, v);
            }
        }
        None => {
            for (((p, &g), m), v) in all {
                *p = *p + moments(g, m, v);
            }
        }
    }
    true
}
