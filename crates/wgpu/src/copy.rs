//! Strided copy into a contiguous buffer, and scatter through a layout over
//! a zeroed one: `shaders/copy.wgsl`.

use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, coalesce_many, stride_word, strided_metadata, word};
use crate::pipeline::{Access, KernelSpec};

const STRIDED: KernelSpec = KernelSpec {
    entry_point: "copy_strided",
    label: "gradscope::copy::strided",
    source: include_str!("../../../shaders/copy.wgsl"),
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

const SCATTER: KernelSpec = KernelSpec {
    entry_point: "copy_scatter",
    label: "gradscope::copy::scatter",
    source: include_str!("../../../shaders/copy.wgsl"),
    bindings: &[Access::Read, Access::ReadWrite, Access::Read],
};

/// One source of [`GpuDevice::scatter`]: `src` read through `layout`, its
/// elements written in row-major order to the positions `target` (a layout
/// of the same shape over the result) reaches.
#[derive(Clone, Copy, Debug)]
pub struct ScatterPart<'a> {
    /// The buffer read.
    pub src: &'a GpuBuffer,
    /// How it is read.
    pub layout: &'a Layout,
    /// Where each element goes in the result.
    pub target: &'a Layout,
}

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

    /// A new contiguous buffer of `numel` elements, zero except where the
    /// parts write (PyTorch's `slice_backward`, `select_backward`, and `cat`
    /// and `stack`, one part per input). Parts are written in order.
    pub fn scatter(&self, numel: usize, parts: &[ScatterPart<'_>]) -> Result<GpuBuffer> {
        let out = self.alloc(numel, SCATTER.label)?;
        if numel == 0 {
            return Ok(out);
        }
        let covered = parts.iter().map(|p| p.target.numel()).sum::<usize>() == numel;
        if !covered {
            // Cached blocks hold old data; zero it in order with the batch.
            self.record(|encoder| encoder.clear_buffer(&out.buffer, 0, None));
        }
        for part in parts {
            let metadata = scatter_metadata(part, numel)?;
            let count = part.layout.numel();
            if count > 0 {
                self.launch(
                    &SCATTER,
                    &[&part.src.buffer, &out.buffer],
                    &metadata,
                    self.grid(count)?,
                )?;
            }
        }
        Ok(out)
    }
}

impl GpuDevice {
    /// Writes `src` read through `layout` into `dst` at the positions
    /// `target` reaches: an in-place op's store, on the device.
    pub fn write(
        &self,
        dst: &GpuBuffer,
        target: &Layout,
        src: &GpuBuffer,
        layout: &Layout,
    ) -> Result<()> {
        if std::ptr::eq(dst, src) || dst.buffer == src.buffer {
            return Err(Error::Backend(
                "GPU write: a buffer cannot be read and written by one kernel".into(),
            ));
        }
        let part = ScatterPart {
            src,
            layout,
            target,
        };
        let metadata = scatter_metadata(&part, dst.len())?;
        let count = layout.numel();
        if count > 0 {
            self.launch(
                &SCATTER,
                &[&src.buffer, &dst.buffer],
                &metadata,
                self.grid(count)?,
            )?;
        }
        Ok(())
    }
}

/// `copy_scatter`'s metadata, after checking that the part reads inside its
/// source, writes inside `numel` elements and writes no element twice.
fn scatter_metadata(part: &ScatterPart<'_>, numel: usize) -> Result<Vec<u32>> {
    let (layout, target) = (part.layout, part.target);
    if layout.shape() != target.shape() {
        return Err(Error::Backend(format!(
            "GPU scatter: a source of shape {:?} into a target of shape {:?}",
            layout.shape(),
            target.shape()
        )));
    }
    check_in_bounds("scatter", layout, part.src.len())?;
    check_in_bounds("scatter", target, numel)?;
    if !writes_each_once(target) {
        return Err(Error::Backend(format!(
            "GPU scatter: target strides {:?} over shape {:?} overlap",
            target.strides(),
            target.shape()
        )));
    }
    let (shape, strides) = coalesce_many(layout.shape(), &[layout.strides(), target.strides()]);
    let mut words = vec![
        0,
        word(shape.len())?,
        word(layout.numel())?,
        word(layout.offset())?,
        word(target.offset())?,
        0,
    ];
    for &dim in &shape {
        words.push(word(dim)?);
    }
    for stride in strides.iter().flatten() {
        words.push(stride_word(*stride)?);
    }
    Ok(words)
}

/// Whether no two positions of `layout` share an element: sorted by stride,
/// each dimension steps past everything the smaller ones reach.
pub(crate) fn writes_each_once(layout: &Layout) -> bool {
    let mut dims: Vec<(usize, usize)> = layout
        .shape()
        .iter()
        .zip(layout.strides())
        .filter(|(size, _)| **size > 1)
        .map(|(&size, &stride)| (stride.unsigned_abs(), size))
        .collect();
    dims.sort_unstable();
    let mut reach = 0usize;
    for (stride, size) in dims {
        if stride <= reach {
            return false;
        }
        reach = reach.saturating_add(stride.saturating_mul(size - 1));
    }
    true
}
