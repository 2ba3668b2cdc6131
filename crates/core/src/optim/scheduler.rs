//! Learning-rate schedulers, `torch.optim.lr_scheduler`.

use super::Optimizer;

/// What every scheduler offers: PyTorch's `LRScheduler.step()` and
/// `get_last_lr()`.
pub trait LrScheduler {
    /// Advances one epoch and sets the optimizer's learning rate.
    fn step(&mut self, optimizer: &mut dyn Optimizer);
    /// The learning rate set by the last step.
    fn last_lr(&self) -> f64;
}

/// PyTorch's `StepLR(optimizer, step_size, gamma=0.1)`.
#[derive(Clone, Debug, PartialEq)]
pub struct StepLr {
    base_lr: f64,
    step_size: u32,
    gamma: f64,
    epoch: u32,
    last: f64,
}

impl StepLr {
    /// Starts from the optimizer's current learning rate.
    pub fn new(optimizer: &dyn Optimizer, step_size: u32, gamma: f64) -> Self {
        let base_lr = optimizer.lr();
        Self {
            base_lr,
            step_size: step_size.max(1),
            gamma,
            epoch: 0,
            last: base_lr,
        }
    }
}

impl LrScheduler for StepLr {
    fn step(&mut self, optimizer: &mut dyn Optimizer) {
        self.epoch += 1;
        self.last = self.base_lr * self.gamma.powi((self.epoch / self.step_size) as i32);
        optimizer.set_lr(self.last);
    }

    fn last_lr(&self) -> f64 {
        self.last
    }
}

/// PyTorch's `CosineAnnealingLR(optimizer, T_max, eta_min=0)`, in its
/// closed form.
#[derive(Clone, Debug, PartialEq)]
pub struct CosineAnnealingLr {
    base_lr: f64,
    t_max: u32,
    eta_min: f64,
    epoch: u32,
    last: f64,
}

impl CosineAnnealingLr {
    /// Starts from the optimizer's current learning rate.
    pub fn new(optimizer: &dyn Optimizer, t_max: u32, eta_min: f64) -> Self {
        let base_lr = optimizer.lr();
        Self {
            base_lr,
            t_max: t_max.max(1),
            eta_min,
            epoch: 0,
            last: base_lr,
        }
    }
}

impl LrScheduler for CosineAnnealingLr {
    fn step(&mut self, optimizer: &mut dyn Optimizer) {
        self.epoch += 1;
        let phase = std::f64::consts::PI * f64::from(self.epoch) / f64::from(self.t_max);
        self.last = self.eta_min + (self.base_lr - self.eta_min) * (1.0 + phase.cos()) / 2.0;
        optimizer.set_lr(self.last);
    }

    fn last_lr(&self) -> f64 {
        self.last
    }
}
