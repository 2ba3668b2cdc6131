//! Recording one kernel dispatch, and the metadata every strided kernel shares.

use gradscope_core::{Error, Layout, Result};
use wgpu::util::DeviceExt;

use crate::device::GpuDevice;
use crate::pipeline::KernelSpec;

/// Invocations per workgroup of the elementwise kernels (`WORKGROUP_SIZE` in
/// their shaders).
pub(crate) const ELEMENTWISE_GROUP: u32 = 64;

impl GpuDevice {
    /// Records `spec` over `buffers` (in binding order) with `metadata` bound
    /// last, on a grid of `groups` workgroups, into the current batch.
    ///
    /// The metadata buffer is filled at creation, so it cannot be overwritten
    /// before the batch runs.
    pub(crate) fn launch(
        &self,
        spec: &KernelSpec,
        buffers: &[&wgpu::Buffer],
        metadata: &[u32],
        groups: [u32; 3],
    ) -> Result<()> {
        self.check_lost()?;
        let kernel = self.pipelines.get(&self.device, spec);
        let metadata = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(spec.label),
                contents: bytemuck::cast_slice(metadata),
                usage: wgpu::BufferUsages::STORAGE,
            });
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .copied()
            .chain([&metadata])
            .zip(0u32..)
            .map(|(buffer, binding)| wgpu::BindGroupEntry {
                binding,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(spec.label),
            layout: &kernel.bind_group_layout,
            entries: &entries,
        });
        self.record(|encoder| {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(spec.label),
                timestamp_writes: None,
            });
            pass.set_pipeline(&kernel.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
        });
        self.check_errors(spec.label)
    }

    /// The per-dimension workgroup limit.
    pub(crate) fn max_groups(&self) -> u32 {
        self.device
            .limits()
            .max_compute_workgroups_per_dimension
            .max(1)
    }

    /// Workgroups `[x, y, 1]` covering `items` workgroups' worth of work, `x`
    /// within the per-dimension limit; shaders skip the surplus.
    pub(crate) fn grid_for_groups(&self, groups: usize) -> Result<[u32; 3]> {
        let max = self.max_groups();
        let x = groups.clamp(1, max as usize);
        let y = groups.div_ceil(x).max(1);
        match (u32::try_from(x), u32::try_from(y)) {
            (Ok(x), Ok(y)) if y <= max => Ok([x, y, 1]),
            _ => Err(Error::Backend(format!(
                "GPU dispatch of {groups} workgroups exceeds {max}x{max}"
            ))),
        }
    }

    /// The grid for one invocation per element, [`ELEMENTWISE_GROUP`] per workgroup.
    pub(crate) fn grid(&self, numel: usize) -> Result<[u32; 3]> {
        self.grid_for_groups(numel.div_ceil(ELEMENTWISE_GROUP as usize))
    }
}

/// Fails unless every element the layout reaches lies in `0..len`.
pub(crate) fn check_in_bounds(what: &str, layout: &Layout, len: usize) -> Result<()> {
    if layout.numel() == 0 {
        return Ok(());
    }
    if layout.strides().len() != layout.rank() {
        return Err(Error::Backend(format!(
            "GPU {what}: layout of shape {:?} has {} strides",
            layout.shape(),
            layout.strides().len()
        )));
    }
    let (mut low, mut high) = (layout.offset() as i128, layout.offset() as i128);
    for (&dim, &stride) in layout.shape().iter().zip(layout.strides()) {
        let reach = (dim as i128 - 1) * stride as i128;
        if reach < 0 {
            low += reach;
        } else {
            high += reach;
        }
    }
    if low < 0 || high >= len as i128 {
        return Err(Error::Backend(format!(
            "GPU {what}: layout {:?} strides {:?} offset {} reaches elements \
             {low}..={high} of a buffer of {len}",
            layout.shape(),
            layout.strides(),
            layout.offset()
        )));
    }
    Ok(())
}

/// A size or index as a metadata word.
pub(crate) fn word(value: usize) -> Result<u32> {
    u32::try_from(value).map_err(|_| too_large(value))
}

/// A signed stride as a metadata word (i32 bit-cast to u32).
pub(crate) fn stride_word(stride: isize) -> Result<u32> {
    let stride = i32::try_from(stride).map_err(|_| too_large(stride))?;
    Ok(u32::from_ne_bytes(stride.to_ne_bytes()))
}

/// An `f32` parameter as a metadata word (bit-cast).
pub(crate) fn float_word(value: f32) -> u32 {
    value.to_bits()
}

pub(crate) fn too_large(value: impl std::fmt::Display) -> Error {
    Error::Backend(format!(
        "GPU kernel metadata value {value} does not fit in 32 bits"
    ))
}

/// `shape` and `strides` with size-1 dimensions dropped and neighbours that
/// walk memory as one dimension merged, so kernels peel fewer coordinates.
/// The elements and their row-major order are unchanged.
pub(crate) fn coalesce(shape: &[usize], strides: &[isize]) -> (Vec<usize>, Vec<isize>) {
    let (shape, mut strides) = coalesce_many(shape, &[strides]);
    (shape, strides.pop().unwrap_or_default())
}

/// [`coalesce`] for several operands read over one shape: neighbours merge
/// only where they merge in every operand.
pub(crate) fn coalesce_many(
    shape: &[usize],
    strides: &[&[isize]],
) -> (Vec<usize>, Vec<Vec<isize>>) {
    let mut out_shape: Vec<usize> = Vec::with_capacity(shape.len());
    let mut out_strides: Vec<Vec<isize>> = vec![Vec::with_capacity(shape.len()); strides.len()];
    for (d, &dim) in shape.iter().enumerate() {
        if dim == 1 {
            continue;
        }
        let merges = !out_shape.is_empty()
            && strides
                .iter()
                .zip(&out_strides)
                .all(|(s, out)| out.last().copied() == Some(s[d].saturating_mul(dim as isize)));
        if merges {
            if let Some(last) = out_shape.last_mut() {
                *last *= dim;
            }
            for (s, out) in strides.iter().zip(out_strides.iter_mut()) {
                if let Some(last) = out.last_mut() {
                    *last = s[d];
                }
            }
        } else {
            out_shape.push(dim);
            for (s, out) in strides.iter().zip(out_strides.iter_mut()) {
                out.push(s[d]);
            }
        }
    }
    (out_shape, out_strides)
}

/// Metadata of a one-operand strided kernel (`copy.wgsl`, `unary.wgsl`):
/// `[op, rank, numel, offset, param0, param1, shape.., strides..]`, after
/// checking the layout stays inside a buffer of `len` elements.
pub(crate) fn strided_metadata(
    what: &str,
    op: u32,
    params: [f32; 2],
    layout: &Layout,
    len: usize,
) -> Result<Vec<u32>> {
    check_in_bounds(what, layout, len)?;
    let (shape, strides) = coalesce(layout.shape(), layout.strides());
    let mut words = Vec::with_capacity(6 + 2 * shape.len());
    words.extend([
        op,
        word(shape.len())?,
        word(layout.numel())?,
        word(layout.offset())?,
        float_word(params[0]),
        float_word(params[1]),
    ]);
    for &dim in &shape {
        words.push(word(dim)?);
    }
    for &stride in &strides {
        words.push(stride_word(stride)?);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coalesce_merges_dense_runs_only() {
        assert_eq!(coalesce(&[2, 3, 4], &[12, 4, 1]), (vec![24], vec![1]));
        assert_eq!(coalesce(&[2, 1, 4], &[4, 99, 1]), (vec![8], vec![1]));
        // A transpose does not merge.
        assert_eq!(coalesce(&[3, 2], &[1, 3]), (vec![3, 2], vec![1, 3]));
        // A broadcast inner dimension does not merge with its neighbour.
        assert_eq!(coalesce(&[3, 4], &[1, 0]), (vec![3, 4], vec![1, 0]));
        // Two broadcast dimensions merge into one of stride 0.
        assert_eq!(coalesce(&[3, 4], &[0, 0]), (vec![12], vec![0]));
        assert_eq!(coalesce(&[1, 1], &[5, 5]), (vec![], vec![]));
    }
}
