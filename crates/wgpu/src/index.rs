//! `index_select` and `embedding`: `shaders/index.wgsl`.

use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, coalesce, stride_word, word};
use crate::pipeline::{Access, KernelSpec};

const SELECT: KernelSpec = KernelSpec {
    entry_point: "index_select",
    label: "gradscope::index::select",
    source: include_str!("../../../shaders/index.wgsl"),
    bindings: &[Access::Read, Access::Read, Access::ReadWrite, Access::Read],
};

impl GpuDevice {
    /// The elements `layout` selects from `src` with axis `dim` walked in the
    /// order of `indices` (from [`GpuDevice::upload_indices`], each checked
    /// against the axis), into a new contiguous buffer shaped as the layout
    /// with that axis as long as `indices`.
    pub fn index_select(
        &self,
        src: &GpuBuffer,
        layout: &Layout,
        dim: usize,
        indices: &GpuBuffer,
    ) -> Result<GpuBuffer> {
        let (shape, strides) = (layout.shape(), layout.strides());
        if dim >= shape.len() {
            return Err(Error::Backend(format!(
                "GPU index_select: axis {dim} of a rank-{} layout",
                shape.len()
            )));
        }
        check_in_bounds("index_select", layout, src.len())?;
        let count = indices.len();
        let (outer_shape, outer_strides) = coalesce(&shape[..dim], &strides[..dim]);
        let (inner_shape, inner_strides) = coalesce(&shape[dim + 1..], &strides[dim + 1..]);
        let outer_len: usize = shape[..dim].iter().product();
        let inner_len: usize = shape[dim + 1..].iter().product();
        let numel = outer_len
            .checked_mul(count)
            .and_then(|n| n.checked_mul(inner_len))
            .ok_or_else(|| Error::Backend("GPU index_select: too many elements".into()))?;
        let mut metadata = vec![
            word(numel)?,
            word(count)?,
            word(inner_len.max(1))?,
            word(layout.offset())?,
            stride_word(strides[dim])?,
            word(outer_shape.len())?,
            word(inner_shape.len())?,
        ];
        for (dims, steps) in [
            (&outer_shape, &outer_strides),
            (&inner_shape, &inner_strides),
        ] {
            for &size in dims.iter() {
                metadata.push(word(size)?);
            }
            for &stride in steps.iter() {
                metadata.push(stride_word(stride)?);
            }
        }
        let out = self.alloc(numel, SELECT.label)?;
        if numel > 0 {
            self.launch(
                &SELECT,
                &[&src.buffer, &indices.buffer, &out.buffer],
                &metadata,
                self.grid(numel)?,
            )?;
        }
        Ok(out)
    }
}
