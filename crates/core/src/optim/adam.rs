//! `torch.optim.Adam` and `torch.optim.AdamW`.

use super::{Optimizer, assign, checked, state_like};
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
