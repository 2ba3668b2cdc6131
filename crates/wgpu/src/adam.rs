//! Adam's (and AdamW's) step as one kernel, in place: `shaders/adam.wgsl`.

use gradscope_core::backend::AdamStep;
use gradscope_core::{Error, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{float_word, word};
use crate::pipeline::{Access, KernelSpec};

const STEP: KernelSpec = KernelSpec {
    entry_point: "adam_step",
    label: "gradscope::adam::step",
    source: include_str!("../../../shaders/adam.wgsl"),
    bindings: &[
        Access::ReadWrite,
        Access::Read,
        Access::ReadWrite,
        Access::ReadWrite,
        Access::Read,
    ],
};

impl GpuDevice {
    /// One Adam update of `param`, `exp_avg` and `exp_avg_sq` in place from
    /// `grad` (four equally long, distinct buffers); each constant is
    /// rounded to float32 once, as the CPU's fused float32 update does.
    pub fn adam_step(
        &self,
        param: &GpuBuffer,
        grad: &GpuBuffer,
        exp_avg: &GpuBuffer,
        exp_avg_sq: &GpuBuffer,
        step: &AdamStep,
    ) -> Result<()> {
        let len = param.len();
        if [grad, exp_avg, exp_avg_sq].iter().any(|b| b.len() != len) {
            return Err(Error::Backend(format!(
                "GPU Adam step over buffers of {len}, {}, {} and {} elements",
                grad.len(),
                exp_avg.len(),
                exp_avg_sq.len()
            )));
        }
        let buffers = [
            &param.buffer,
            &grad.buffer,
            &exp_avg.buffer,
            &exp_avg_sq.buffer,
        ];
        for (i, a) in buffers.iter().enumerate() {
            if buffers[i + 1..].contains(a) {
                return Err(Error::Backend(
                    "GPU Adam step: the four buffers must be distinct".into(),
                ));
            }
        }
        let (variant, decay) = match step.decay_factor {
            Some(d) => (2, d),
            None if step.weight_decay != 0.0 => (1, 1.0),
            None => (0, 1.0),
        };
        let c = |v: f64| float_word(v as f32);
        let metadata = [
            word(len)?,
            variant,
            c(step.one_minus_beta1),
            c(step.beta2),
            c(step.one_minus_beta2),
            c(step.bias_correction2_sqrt),
            c(step.eps),
            c(step.neg_step_size),
            c(step.weight_decay),
            c(decay),
        ];
        if len > 0 {
            self.launch(&STEP, &buffers, &metadata, self.grid(len)?)?;
        }
        Ok(())
    }
}
