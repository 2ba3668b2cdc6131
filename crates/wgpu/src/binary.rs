//! Elementwise binary ops with broadcasting: `shaders/binary.wgsl`.

use gradscope_core::backend::CompareKernel;
use gradscope_core::{BinaryOp, Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, coalesce_many, stride_word, word};
use crate::pipeline::{Access, KernelSpec};

/// The strided kernel: any two layouts of one shape into a contiguous output.
const STRIDED: KernelSpec = KernelSpec {
    entry_point: "binary_strided",
    label: "gradscope::binary::strided",
    source: include_str!("../../../shaders/binary.wgsl"),
    bindings: &[Access::Read, Access::Read, Access::ReadWrite, Access::Read],
};

impl GpuDevice {
    /// `op(lhs, rhs)` elementwise into a new contiguous buffer.
    ///
    /// Both layouts must already be broadcast to the output shape (stride 0
    /// where an operand repeats). The kernel joins the current batch; nothing
    /// waits for it.
    pub fn binary(
        &self,
        op: BinaryOp,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
    ) -> Result<GpuBuffer> {
        self.binary_code(op.code(), lhs, lhs_layout, rhs, rhs_layout)
    }

    /// `op(lhs, rhs)` elementwise as a mask of `1.0` (true) and `0.0`, into
    /// a new contiguous buffer; layouts as [`GpuDevice::binary`].
    pub fn compare(
        &self,
        op: CompareKernel,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
    ) -> Result<GpuBuffer> {
        self.binary_code(op.code(), lhs, lhs_layout, rhs, rhs_layout)
    }

    fn binary_code(
        &self,
        code: u32,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
    ) -> Result<GpuBuffer> {
        let metadata = binary_metadata(code, lhs, lhs_layout, rhs, rhs_layout)?;
        let numel = lhs_layout.numel();
        let out = self.alloc(numel, STRIDED.label)?;
        if numel == 0 {
            return Ok(out);
        }
        let grid = self.grid(numel)?;
        self.launch(
            &STRIDED,
            &[&lhs.buffer, &rhs.buffer, &out.buffer],
            &metadata,
            grid,
        )?;
        Ok(out)
    }
}

/// The metadata words of `shaders/binary.wgsl` (table at the top of that file),
/// after checking the layouts agree on a shape and stay inside their buffers.
fn binary_metadata(
    code: u32,
    lhs: &GpuBuffer,
    lhs_layout: &Layout,
    rhs: &GpuBuffer,
    rhs_layout: &Layout,
) -> Result<Vec<u32>> {
    if lhs_layout.shape() != rhs_layout.shape() {
        return Err(Error::Backend(format!(
            "GPU binary op on layouts of different shapes {:?} and {:?}; broadcast them first",
            lhs_layout.shape(),
            rhs_layout.shape()
        )));
    }
    check_in_bounds("binary op: lhs", lhs_layout, lhs.len())?;
    check_in_bounds("binary op: rhs", rhs_layout, rhs.len())?;
    let (shape, strides) = coalesce_many(
        lhs_layout.shape(),
        &[lhs_layout.strides(), rhs_layout.strides()],
    );
    let mut words = Vec::with_capacity(5 + 3 * shape.len());
    words.extend([
        code,
        word(shape.len())?,
        word(lhs_layout.numel())?,
        word(lhs_layout.offset())?,
        word(rhs_layout.offset())?,
    ]);
    for &dim in &shape {
        words.push(word(dim)?);
    }
    for operand in &strides {
        for &stride in operand {
            words.push(stride_word(stride)?);
        }
    }
    Ok(words)
}
