//! Strided elementwise maths on float32: `shaders/unary.wgsl`.

use gradscope_core::ops::UnaryOp;
use gradscope_core::ops::unary::GeluApproximate;
use gradscope_core::{Layout, Result, Scalar};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::strided_metadata;
use crate::pipeline::{Access, KernelSpec};

const STRIDED: KernelSpec = KernelSpec {
    entry_point: "unary_strided",
    label: "gradscope::unary::strided",
    source: include_str!("../../../shaders/unary.wgsl"),
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

/// The shader's op code and its two `f32` parameters, or `None` for an op
/// the kernel does not compute (`to(dtype)`: the GPU holds float32 only).
/// Ops without attributes take their code from their row in core's table
/// ([`UnaryOp::wgsl_code`]); the others are coded here with their
/// parameters.
pub(crate) fn unary_code(op: &UnaryOp) -> Option<(u32, [f32; 2])> {
    // Bounds and attributes arrive as f64 and compute in float32, as the
    // CPU's float32 kernel converts them.
    let bound = |s: Option<Scalar>, absent: f32| s.map_or(absent, |s| s.to_f64() as f32);
    if let Some(code) = op.wgsl_code() {
        return Some((code, [0.0; 2]));
    }
    Some(match *op {
        UnaryOp::Gelu(GeluApproximate::None) => (12, [0.0; 2]),
        UnaryOp::Gelu(GeluApproximate::Tanh) => (13, [0.0; 2]),
        UnaryOp::LeakyRelu { negative_slope } => (14, [negative_slope as f32, 0.0]),
        UnaryOp::Softplus { beta, threshold } => (15, [beta as f32, threshold as f32]),
        UnaryOp::Clamp { min, max } => (
            16,
            [bound(min, f32::NEG_INFINITY), bound(max, f32::INFINITY)],
        ),
        UnaryOp::ClampMin(min) => (16, [bound(Some(min), 0.0), f32::INFINITY]),
        UnaryOp::ClampMax(max) => (16, [f32::NEG_INFINITY, bound(Some(max), 0.0)]),
        // `to`, and an op whose row has no `wgsl` code yet: the host computes it.
        _ => return None,
    })
}

impl GpuDevice {
    /// `op` on each element `layout` selects from `src`, into a new
    /// contiguous buffer; `None` for an op without a GPU kernel (`to(dtype)`).
    pub fn unary(
        &self,
        op: &UnaryOp,
        src: &GpuBuffer,
        layout: &Layout,
    ) -> Result<Option<GpuBuffer>> {
        let Some((code, params)) = unary_code(op) else {
            return Ok(None);
        };
        let metadata = strided_metadata("unary op", code, params, layout, src.len())?;
        let numel = layout.numel();
        let out = self.alloc(numel, STRIDED.label)?;
        if numel > 0 {
            let grid = self.grid(numel)?;
            self.launch(&STRIDED, &[&src.buffer, &out.buffer], &metadata, grid)?;
        }
        Ok(Some(out))
    }
}
