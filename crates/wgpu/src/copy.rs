//! Strided copy into a contiguous buffer: `shaders/copy.wgsl`.

use gradscope_core::{Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::strided_metadata;
use crate::pipeline::{Access, KernelSpec};

const STRIDED: KernelSpec = KernelSpec {
    entry_point: "copy_strided",
    label: "gradscope::copy::strided",
    source: include_str!("../../../shaders/copy.wgsl"),
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

impl GpuDevice {
    /// The elements `layout` selects from `src`, in row-major order, as a new
    /// contiguous buffer (PyTorch's `contiguous()` / `clone()`).
    pub fn copy(&self, src: &GpuBuffer, layout: &Layout) -> Result<GpuBuffer> {
        let metadata = strided_metadata("copy", 0, [0.0; 2], layout, src.len())?;
        let numel = layout.numel();
        let out = self.alloc(numel, STRIDED.label)?;
        if numel > 0 {
            let grid = self.grid(numel)?;
            self.launch(&STRIDED, &[&src.buffer, &out.buffer], &metadata, grid)?;
        }
        Ok(out)
    }
}
