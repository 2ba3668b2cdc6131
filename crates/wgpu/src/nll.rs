//! `nll_loss` with class-index targets: `shaders/nll.wgsl` (forward) and
//! `shaders/nll_backward.wgsl` (the backward's coefficients).

use gradscope_core::backend::NllGeometry;
use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, float_word, stride_word, word};
use crate::pipeline::{Access, KernelSpec};

const SOURCE: &str = include_str!("../../../shaders/nll.wgsl");

const LOSS_BINDINGS: &[Access] = &[
    Access::Read,
    Access::Read,
    Access::Read,
    Access::ReadWrite,
    Access::Read,
];

/// One loss per target.
const EACH: KernelSpec = KernelSpec {
    entry_point: "nll_each",
    label: "gradscope::nll::each",
    source: SOURCE,
    bindings: LOSS_BINDINGS,
};

/// The losses' sum over a divisor, by one workgroup.
const SUM: KernelSpec = KernelSpec {
    entry_point: "nll_sum",
    label: "gradscope::nll::sum",
    source: SOURCE,
    bindings: LOSS_BINDINGS,
};

const COEFFICIENTS: KernelSpec = KernelSpec {
    entry_point: "nll_backward_coefficients",
    label: "gradscope::nll_backward::coefficients",
    source: include_str!("../../../shaders/nll_backward.wgsl"),
    bindings: &[Access::Read, Access::Read, Access::ReadWrite, Access::Read],
};

/// The number of targets, checking the index buffer holds them and the
/// weight one per class.
fn targets_of(g: NllGeometry, targets: &GpuBuffer, weight: Option<&GpuBuffer>) -> Result<usize> {
    let count = g
        .batch
        .checked_mul(g.spatial)
        .ok_or_else(|| Error::Backend("GPU nll_loss: too many targets".into()))?;
    if targets.len() != count {
        return Err(Error::Backend(format!(
            "GPU nll_loss: {} target indices for {count} targets",
            targets.len()
        )));
    }
    if let Some(w) = weight
        && w.len() != g.classes
    {
        return Err(Error::Backend(format!(
            "GPU nll_loss: a weight of {} for {} classes",
            w.len(),
            g.classes
        )));
    }
    Ok(count)
}

impl GpuDevice {
    /// `nll_loss`'s forward: `x` read through `layout` as `[batch, classes,
    /// spatial]`, `targets` from [`GpuDevice::upload_indices`]. With
    /// `divisor` one element, the losses' sum over it; without, one loss
    /// per target.
    pub fn nll_loss(
        &self,
        x: &GpuBuffer,
        layout: &Layout,
        targets: &GpuBuffer,
        weight: Option<&GpuBuffer>,
        geometry: NllGeometry,
        divisor: Option<f32>,
    ) -> Result<GpuBuffer> {
        let count = targets_of(geometry, targets, weight)?;
        let g = geometry;
        if layout.shape() != [g.batch, g.classes, g.spatial] {
            return Err(Error::Backend(format!(
                "GPU nll_loss: x read as {:?}, not [{}, {}, {}]",
                layout.shape(),
                g.batch,
                g.classes,
                g.spatial
            )));
        }
        check_in_bounds("nll_loss", layout, x.len())?;
        let s = layout.strides();
        let metadata = [
            word(count)?,
            word(g.classes)?,
            word(g.spatial.max(1))?,
            word(layout.offset())?,
            stride_word(s[0])?,
            stride_word(s[1])?,
            stride_word(s[2])?,
            u32::from(weight.is_some()),
            float_word(divisor.unwrap_or(1.0)),
        ];
        let spec = if divisor.is_some() { &SUM } else { &EACH };
        let out = self.alloc(if divisor.is_some() { 1 } else { count }, spec.label)?;
        let weight = weight.unwrap_or(x);
        let buffers = [&x.buffer, &targets.buffer, &weight.buffer, &out.buffer];
        match divisor {
            Some(_) => self.launch(spec, &buffers, &metadata, [1, 1, 1])?,
            None if count > 0 => self.launch(spec, &buffers, &metadata, self.grid(count)?)?,
            None => {}
        }
        Ok(out)
    }

    /// `nll_loss`'s backward coefficients, contiguous `[batch, classes,
    /// spatial]`: `-weight[t]` at each target's class, 0 elsewhere.
    pub fn nll_coefficients(
        &self,
        targets: &GpuBuffer,
        weight: Option<&GpuBuffer>,
        geometry: NllGeometry,
    ) -> Result<GpuBuffer> {
        let g = geometry;
        targets_of(g, targets, weight)?;
        let numel = g
            .batch
            .checked_mul(g.classes)
            .and_then(|n| n.checked_mul(g.spatial))
            .ok_or_else(|| Error::Backend("GPU nll_loss: too many coefficients".into()))?;
        let metadata = [
            word(numel)?,
            word(g.classes)?,
            word(g.spatial.max(1))?,
            u32::from(weight.is_some()),
        ];
        let out = self.alloc(numel, COEFFICIENTS.label)?;
        if numel > 0 {
            let weight = weight.unwrap_or(targets);
            self.launch(
                &COEFFICIENTS,
                &[&targets.buffer, &weight.buffer, &out.buffer],
                &metadata,
                self.grid(numel)?,
            )?;
        }
        Ok(out)
    }
}
