//! `torch.optim.SGD`.

use super::{Optimizer, assign, checked, state_like};
use crate::error::{Error, Result};
use crate::grad_mode::GradModeGuard;
use crate::ops::arith::Scalar;
use crate::tensor::Tensor;

/// SGD's hyperparameters, PyTorch's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgdOptions {
    /// Learning rate.
    pub lr: f64,
    /// Momentum factor.
    pub momentum: f64,
    /// Dampening for momentum.
    pub dampening: f64,
    /// L2 penalty.
    pub weight_decay: f64,
    /// Nesterov momentum.
    pub nesterov: bool,
}

impl Default for SgdOptions {
    fn default() -> Self {
        Self {
            lr: 1e-3,
            momentum: 0.0,
            dampening: 0.0,
            weight_decay: 0.0,
            nesterov: false,
        }
    }
}

/// PyTorch's `torch.optim.SGD(params, lr, momentum, dampening, weight_decay, nesterov)`.
#[derive(Debug)]
pub struct Sgd {
    params: Vec<Tensor>,
    options: SgdOptions,
    momentum_buffers: Vec<Option<Tensor>>,
}

impl Sgd {
    /// An SGD optimizer over `params`, with PyTorch's checks.
    pub fn new(params: Vec<Tensor>, options: SgdOptions) -> Result<Self> {
        if options.nesterov && (options.momentum <= 0.0 || options.dampening != 0.0) {
            return Err(Error::NesterovMomentum);
        }
        let params = checked(params)?;
        let momentum_buffers = vec![None; params.len()];
        Ok(Self {
            params,
            options,
            momentum_buffers,
        })
    }
}

impl Optimizer for Sgd {
    fn step(&mut self) -> Result<()> {
        let _no_grad = GradModeGuard::internal(false);
        let o = self.options;
        for (p, buf) in self.params.iter().zip(&mut self.momentum_buffers) {
            let Some(grad) = p.grad() else { continue };
            let mut d_p = grad;
            if o.weight_decay != 0.0 {
                d_p = d_p.add_alpha(p, Scalar::Float(o.weight_decay))?;
            }
            if o.momentum != 0.0 {
                let b = match buf {
                    None => {
                        let b = state_like(p)?;
                        assign(&b, &d_p)?;
                        b
                    }
                    Some(b) => {
                        let next = b
                            .mul(&Tensor::scalar(o.momentum))?
                            .add_alpha(&d_p, Scalar::Float(1.0 - o.dampening))?;
                        assign(b, &next)?;
                        b.clone()
                    }
                };
                *buf = Some(b.clone());
                d_p = if o.nesterov {
                    d_p.add_alpha(&b, Scalar::Float(o.momentum))?
                } else {
                    b
                };
            }
            assign(p, &p.add_alpha(&d_p, Scalar::Float(-o.lr))?)?;
        }
        super::emit_step("SGD", &self.params);
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
