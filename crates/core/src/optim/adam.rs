//! `torch.optim.Adam` and `torch.optim.AdamW`.

use std::rc::Rc;

use super::{Optimizer, assign, checked, state_like};
use crate::backend::AdamStep;
use crate::cpu::adam::{AdamConstants, adam_update};
use crate::error::Result;
use crate::grad_mode::GradModeGuard;
use crate::ops::arith::Scalar;
use crate::tensor::Tensor;

/// Adam's hyperparameters, PyTorch's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamOptions {
    /// Learning rate.
    pub lr: f64,
    /// Coefficients for the running averages of the gradient and its square.
    pub betas: (f64, f64),
    /// Added to the denominator for numerical stability.
    pub eps: f64,
    /// Weight decay: an L2 penalty for Adam, decoupled for AdamW.
    pub weight_decay: f64,
    /// AdamW's decoupled weight decay instead of Adam's L2 penalty.
    pub decoupled: bool,
}

impl Default for AdamOptions {
    fn default() -> Self {
        Self {
            lr: 1e-3,
            betas: (0.9, 0.999),
            eps: 1e-8,
            weight_decay: 0.0,
            decoupled: false,
        }
    }
}

impl AdamOptions {
    /// AdamW's defaults (weight decay 0.01, decoupled).
    pub fn adamw() -> Self {
        Self {
            weight_decay: 1e-2,
            decoupled: true,
            ..Self::default()
        }
    }
}

#[derive(Debug)]
struct State {
    step: u32,
    exp_avg: Tensor,
    exp_avg_sq: Tensor,
}

/// PyTorch's `torch.optim.Adam` (and `AdamW` with [`AdamOptions::adamw`]).
#[derive(Debug)]
pub struct Adam {
    params: Vec<Tensor>,
    options: AdamOptions,
    state: Vec<Option<State>>,
}

impl Adam {
    /// An Adam optimizer over `params`.
    pub fn new(params: Vec<Tensor>, options: AdamOptions) -> Result<Self> {
        let params = checked(params)?;
        let state = (0..params.len()).map(|_| None).collect();
        Ok(Self {
            params,
            options,
            state,
        })
    }
}

/// The update of one parameter in one pass over its buffers, when nobody
/// records a trace and the parameter, its gradient and both moments are
/// whole contiguous buffers of one float dtype in four distinct storages.
/// Returns false, having changed nothing, when the op-by-op path must run:
/// a recorded trace shows that path's ops and temporaries, as PyTorch's
/// single-tensor Adam allocates them; the values are the same bit for bit.
fn fused_step(p: &Tensor, grad: &Tensor, s: &State, o: &AdamOptions) -> Result<bool> {
    if crate::trace::is_recording() {
        return Ok(false);
    }
    let tensors = [p, grad, &s.exp_avg, &s.exp_avg_sq];
    let whole = |t: &Tensor| {
        let l = t.layout();
        // The storage's length, not its host copy's: reading that would
        // bring a GPU storage's values back from the device.
        l.is_contiguous() && l.offset() == 0 && l.numel() == t.storage().len()
    };
    let distinct = tensors.iter().enumerate().all(|(i, a)| {
        tensors[i + 1..]
            .iter()
            .all(|b| !Rc::ptr_eq(a.storage(), b.storage()))
    });
    let same = tensors
        .iter()
        .all(|t| t.dtype() == p.dtype() && t.shape() == p.shape());
    if !(distinct && same && p.dtype().is_float() && tensors.iter().all(|t| whole(t))) {
        return Ok(false);
    }
    let (beta1, beta2) = o.betas;
    let step = s.step as i32;
    let decoupled = o.decoupled && o.weight_decay != 0.0;
    let constants = AdamConstants {
        one_minus_beta1: 1.0 - beta1,
        beta2,
        one_minus_beta2: 1.0 - beta2,
        bias_correction2_sqrt: (1.0 - beta2.powi(step)).sqrt(),
        eps: o.eps,
        neg_step_size: -(o.lr / (1.0 - beta1.powi(step))),
        weight_decay: if o.decoupled { 0.0 } else { o.weight_decay },
        decay_factor: decoupled.then_some(1.0 - o.lr * o.weight_decay),
    };
    let step = AdamStep {
        one_minus_beta1: constants.one_minus_beta1,
        beta2: constants.beta2,
        one_minus_beta2: constants.one_minus_beta2,
        bias_correction2_sqrt: constants.bias_correction2_sqrt,
        eps: constants.eps,
        neg_step_size: constants.neg_step_size,
        weight_decay: constants.weight_decay,
        decay_factor: constants.decay_factor,
    };
    // The op-by-op path writes the parameter twice with decoupled decay.
    let writes = if decoupled { 2 } else { 1 };
    let storages = tensors.map(|t| &**t.storage());
    let fused =
        |k: &dyn crate::kernels::Kernels| Ok(k.adam_step(storages, &step, writes)?.then_some(true));
    if crate::kernels::run_or_on(p.device(), fused, || Ok(false))? {
        return Ok(true);
    }
    if decoupled {
        // The op-by-op path writes the parameter twice (decay, then
        // update); its version counter says so too.
        drop(p.storage().data_mut());
    }
    let grad_data = grad.storage().data();
    let done = adam_update(
        &mut p.storage().data_mut(),
        &grad_data,
        &mut s.exp_avg.storage().data_mut(),
        &mut s.exp_avg_sq.storage().data_mut(),
        &constants,
    );
    if !done {
        return Err(crate::Error::Backend(
            "internal error: fused Adam got mismatched buffers".into(),
        ));
    }
    Ok(true)
}

impl Optimizer for Adam {
    fn step(&mut self) -> Result<()> {
        let _no_grad = GradModeGuard::internal(false);
        let o = self.options;
        let (beta1, beta2) = o.betas;
        for (p, state) in self.params.iter().zip(&mut self.state) {
            let Some(mut grad) = p.grad() else { continue };
            if state.is_none() {
                *state = Some(State {
                    step: 0,
                    exp_avg: state_like(p)?,
                    exp_avg_sq: state_like(p)?,
                });
            }
            let Some(s) = state.as_mut() else { continue };
            s.step += 1;
            if fused_step(p, &grad, s, &o)? {
                continue;
            }
            if o.weight_decay != 0.0 {
                if o.decoupled {
                    assign(p, &p.mul(&Tensor::scalar(1.0 - o.lr * o.weight_decay))?)?;
                } else {
                    grad = grad.add_alpha(p, Scalar::Float(o.weight_decay))?;
                }
            }
            // exp_avg.lerp_(grad, 1 - beta1): PyTorch's lerp for weight < 0.5.
            let avg = s
                .exp_avg
                .add(&grad.sub(&s.exp_avg)?.mul(&Tensor::scalar(1.0 - beta1))?)?;
            assign(&s.exp_avg, &avg)?;
            let sq = s
                .exp_avg_sq
                .mul(&Tensor::scalar(beta2))?
                .add(&grad.mul(&grad)?.mul(&Tensor::scalar(1.0 - beta2))?)?;
            assign(&s.exp_avg_sq, &sq)?;
            let bias_correction1 = 1.0 - beta1.powi(s.step as i32);
            let bias_correction2 = 1.0 - beta2.powi(s.step as i32);
            let step_size = o.lr / bias_correction1;
            let denom = s
                .exp_avg_sq
                .sqrt()?
                .div(&Tensor::scalar(bias_correction2.sqrt()))?
                .add(&Tensor::scalar(o.eps))?;
            let update = s.exp_avg.div(&denom)?.mul(&Tensor::scalar(-step_size))?;
            assign(p, &p.add(&update)?)?;
        }
        let name = if o.decoupled { "AdamW" } else { "Adam" };
        super::emit_step(name, &self.params);
        Ok(())
    }

    fn params(&self) -> &[Tensor] {
        &self.params
    }

    fn lr(&self) -> f64 {
        self.options.lr
    }

    fn set_lr(&mut self, lr: f64) {
        self.options.lr = lr;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;

    /// Three steps of each configuration, once through the fused pass and
    /// once op by op (which a recorded trace selects): the same bits.
    #[test]
    fn adam_fused_matches_op_by_op() {
        let configs = [
            AdamOptions::default(),
            AdamOptions {
                lr: 0.01,
                betas: (0.8, 0.99),
                weight_decay: 0.1,
                ..Default::default()
            },
            AdamOptions::adamw(),
        ];
        for dtype in [DType::Float32, DType::Float64] {
            for options in configs {
                let run = |recorded: bool| -> Result<(Vec<f64>, u64)> {
                    crate::ops::random::manual_seed(3);
                    let w = Tensor::randn(&[5, 7], dtype)?.requires_grad_(true);
                    let mut opt = Adam::new(vec![w.clone()], options)?;
                    for _ in 0..3 {
                        opt.zero_grad(true)?;
                        w.mul(&w)?.sin()?.sum()?.backward()?;
                        if recorded {
                            crate::trace::record(|| opt.step()).0?;
                        } else {
                            opt.step()?;
                        }
                    }
                    Ok((w.to_vec::<f64>(), w.storage().version()))
                };
                let (fused, fused_version) = run(false).unwrap();
                let (plain, plain_version) = run(true).unwrap();
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fused), bits(&plain), "{dtype} {options:?}");
                assert_eq!(fused_version, plain_version, "{dtype} {options:?}");
            }
        }
    }
}
