//! Reductions over any axes: `shaders/reduce.wgsl`.

use gradscope_core::{Error, Layout, ReduceKernel, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, coalesce, stride_word, word};
use crate::pipeline::{Access, KernelSpec};

const SOURCE: &str = include_str!("../../../shaders/reduce.wgsl");

/// A workgroup of 256 per output, folding as a tree in shared memory.
const TREE: KernelSpec = KernelSpec {
    entry_point: "reduce_tree",
    label: "gradscope::reduce::tree",
    source: SOURCE,
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

/// One invocation per output, folding in order.
const SERIAL: KernelSpec = KernelSpec {
    entry_point: "reduce_serial",
    label: "gradscope::reduce::serial",
    source: SOURCE,
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

/// Invocations per workgroup of `reduce_serial`.
const SERIAL_GROUP: usize = 64;

/// Folds this short go to one invocation each: a workgroup of 256 would idle.
const SERIAL_MAX_FOLD: usize = 64;

impl GpuDevice {
    /// `op` over the axes `dims` (sorted, distinct) of the elements `layout`
    /// selects, into a new contiguous buffer shaped as `layout` without those
    /// axes. No axes copies; all axes gives one element; an empty fold gives
    /// the identity (0, -inf, +inf, 1). NaN wins in max and min.
    pub fn reduce(
        &self,
        op: ReduceKernel,
        src: &GpuBuffer,
        layout: &Layout,
        dims: &[usize],
    ) -> Result<GpuBuffer> {
        let rank = layout.rank();
        if dims.iter().any(|&d| d >= rank) || dims.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Error::Backend(format!(
                "GPU reduce: axes {dims:?} are not sorted, distinct axes of a rank-{rank} layout"
            )));
        }
        check_in_bounds("reduce", layout, src.len())?;
        let (mut kept_shape, mut kept_strides) = (Vec::new(), Vec::new());
        let (mut red_shape, mut red_strides) = (Vec::new(), Vec::new());
        for (d, (&size, &stride)) in layout.shape().iter().zip(layout.strides()).enumerate() {
            if dims.contains(&d) {
                red_shape.push(size);
                red_strides.push(stride);
            } else {
                kept_shape.push(size);
                kept_strides.push(stride);
            }
        }
        let out_len: usize = kept_shape.iter().product();
        let red_len: usize = red_shape.iter().product();
        let (kept_shape, kept_strides) = coalesce(&kept_shape, &kept_strides);
        let (red_shape, red_strides) = coalesce(&red_shape, &red_strides);
        let mut metadata = vec![
            op.code(),
            word(out_len)?,
            word(red_len)?,
            word(layout.offset())?,
            word(kept_shape.len())?,
            word(red_shape.len())?,
        ];
        for (shape, strides) in [(&kept_shape, &kept_strides), (&red_shape, &red_strides)] {
            for &size in shape {
                metadata.push(word(size)?);
            }
            for &stride in strides {
                metadata.push(stride_word(stride)?);
            }
        }
        let serial = red_len <= SERIAL_MAX_FOLD;
        let spec = if serial { &SERIAL } else { &TREE };
        let out = self.alloc(out_len, spec.label)?;
        if out_len > 0 {
            let grid = if serial {
                self.grid_for_groups(out_len.div_ceil(SERIAL_GROUP))?
            } else {
                self.grid_for_groups(out_len)?
            };
            self.launch(spec, &[&src.buffer, &out.buffer], &metadata, grid)?;
        }
        Ok(out)
    }
}
