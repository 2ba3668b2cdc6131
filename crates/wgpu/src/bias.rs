//! `a @ b + bias` on one buffer: the product, then `shaders/bias.wgsl`
//! adds the bias in place (what `linear` runs).

use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, stride_word, word};
use crate::pipeline::{Access, KernelSpec};

const ADD_BIAS: KernelSpec = KernelSpec {
    entry_point: "bias_add",
    label: "gradscope::matmul::bias",
    source: include_str!("../../../shaders/bias.wgsl"),
    bindings: &[Access::ReadWrite, Access::Read, Access::Read],
};

impl GpuDevice {
    /// `lhs[b] @ rhs[b] + bias` as [`GpuDevice::matmul`], with `bias` read
    /// through `bias_layout`, a `[batch, m, n]` view that repeats over the
    /// batch (batch stride 0, or a batch of 1).
    pub fn matmul_bias(
        &self,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
        bias: &GpuBuffer,
        bias_layout: &Layout,
    ) -> Result<GpuBuffer> {
        let out = self.matmul(lhs, lhs_layout, rhs, rhs_layout)?;
        let &[batch, m, n] = bias_layout.shape() else {
            return Err(Error::Backend(format!(
                "GPU matmul bias needs a [batch, m, n] layout, got {:?}",
                bias_layout.shape()
            )));
        };
        let strides = bias_layout.strides();
        if (batch > 1 && strides[0] != 0) || out.len() != batch * m * n {
            return Err(Error::Backend(format!(
                "GPU matmul bias of shape {:?} (strides {strides:?}) does not fit the product",
                bias_layout.shape()
            )));
        }
        check_in_bounds("matmul bias", bias_layout, bias.len())?;
        if out.is_empty() {
            return Ok(out);
        }
        let metadata = [
            word(out.len())?,
            word(m)?,
            word(n)?,
            word(bias_layout.offset())?,
            stride_word(strides[1])?,
            stride_word(strides[2])?,
        ];
        let grid = self.grid(out.len())?;
        self.launch(&ADD_BIAS, &[&out.buffer, &bias.buffer], &metadata, grid)?;
        Ok(out)
    }
}
