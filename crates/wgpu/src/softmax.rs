//! `softmax` and `log_softmax` along one axis: `shaders/softmax.wgsl`.

use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, coalesce, stride_word, word};
use crate::pipeline::{Access, KernelSpec};

const SOURCE: &str = include_str!("../../../shaders/softmax.wgsl");

/// One invocation per row.
const SERIAL: KernelSpec = KernelSpec {
    entry_point: "softmax_serial",
    label: "gradscope::softmax::serial",
    source: SOURCE,
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

/// A workgroup of 256 per row.
const TREE: KernelSpec = KernelSpec {
    entry_point: "softmax_tree",
    label: "gradscope::softmax::tree",
    source: SOURCE,
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

/// Invocations per workgroup of `softmax_serial`.
const SERIAL_GROUP: usize = 64;

/// Rows this short go to one invocation each: a workgroup of 256 would idle.
const SERIAL_MAX_LEN: usize = 64;

impl GpuDevice {
    /// `softmax` (with `log`, `log_softmax`) along axis `dim` of the elements
    /// `layout` selects from `src`, into a new contiguous buffer in the
    /// layout's shape. A 0-dim layout is one row of one element.
    pub fn softmax(
        &self,
        src: &GpuBuffer,
        layout: &Layout,
        dim: usize,
        log: bool,
    ) -> Result<GpuBuffer> {
        let rank = layout.rank();
        if dim >= rank.max(1) {
            return Err(Error::Backend(format!(
                "GPU softmax: axis {dim} of a rank-{rank} layout"
            )));
        }
        check_in_bounds("softmax", layout, src.len())?;
        let (shape, strides) = (layout.shape(), layout.strides());
        let (len, dim_stride) = match rank {
            0 => (1, 0),
            _ => (shape[dim], strides[dim]),
        };
        let kept = |v: &[usize]| -> Vec<usize> {
            v.iter()
                .enumerate()
                .filter(|(d, _)| *d != dim)
                .map(|(_, &x)| x)
                .collect()
        };
        let kept_strides: Vec<isize> = strides
            .iter()
            .enumerate()
            .filter(|(d, _)| *d != dim)
            .map(|(_, &x)| x)
            .collect();
        let kept_shape = kept(shape);
        let rows: usize = kept_shape.iter().product();
        let inner: usize = shape.get(dim + 1..).unwrap_or(&[]).iter().product();
        let (kept_shape, kept_strides) = coalesce(&kept_shape, &kept_strides);
        let mut metadata = vec![
            word(rows)?,
            word(len)?,
            word(inner.max(1))?,
            word(layout.offset())?,
            stride_word(dim_stride)?,
            u32::from(log),
            word(kept_shape.len())?,
        ];
        for &size in &kept_shape {
            metadata.push(word(size)?);
        }
        for &stride in &kept_strides {
            metadata.push(stride_word(stride)?);
        }
        let numel = layout.numel();
        let serial = len <= SERIAL_MAX_LEN;
        let spec = if serial { &SERIAL } else { &TREE };
        let out = self.alloc(numel, spec.label)?;
        if numel > 0 {
            let grid = if serial {
                self.grid_for_groups(rows.div_ceil(SERIAL_GROUP))?
            } else {
                self.grid_for_groups(rows)?
            };
            self.launch(spec, &[&src.buffer, &out.buffer], &metadata, grid)?;
        }
        Ok(out)
    }
}
