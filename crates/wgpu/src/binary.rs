//! Elementwise binary ops with broadcasting: `shaders/binary.wgsl`.

use gradscope_core::{BinaryOp, Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::pipeline::{Access, KernelSpec};

/// Invocations per workgroup; `WORKGROUP_SIZE` in the shader.
const WORKGROUP_SIZE: u32 = 64;

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
    /// where an operand repeats). The kernel is encoded and submitted; nothing
    /// waits for it.
    pub fn binary(
        &self,
        op: BinaryOp,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
    ) -> Result<GpuBuffer> {
        let metadata = binary_metadata(op, lhs, lhs_layout, rhs, rhs_layout)?;
        let numel = lhs_layout.numel();
        let out = self.alloc(numel, STRIDED.label)?;
        if numel == 0 {
            return Ok(out);
        }
        let grid = self.grid(numel)?;
        let metadata_buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(STRIDED.label),
            size: 4 * metadata.len() as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.queue
            .write_buffer(&metadata_buffer, 0, bytemuck::cast_slice(&metadata));

        let kernel = self.pipelines.get(&self.device, &STRIDED);
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(STRIDED.label),
            layout: &kernel.bind_group_layout,
            entries: &[&lhs.buffer, &rhs.buffer, &out.buffer, &metadata_buffer]
                .into_iter()
                .zip(0u32..)
                .map(|(buffer, binding)| wgpu::BindGroupEntry {
                    binding,
                    resource: buffer.as_entire_binding(),
                })
                .collect::<Vec<_>>(),
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some(STRIDED.label),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(STRIDED.label),
                timestamp_writes: None,
            });
            pass.set_pipeline(&kernel.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(grid.0, grid.1, 1);
        }
        self.queue.submit([encoder.finish()]);
        self.check_errors(STRIDED.label)?;
        Ok(out)
    }

    /// Workgroups `(x, y)` covering `numel` invocations, `x` within the
    /// per-dimension limit; the shader skips the surplus.
    fn grid(&self, numel: usize) -> Result<(u32, u32)> {
        let max = self
            .device
            .limits()
            .max_compute_workgroups_per_dimension
            .max(1);
        let groups = numel.div_ceil(WORKGROUP_SIZE as usize);
        let x = groups.min(max as usize);
        let y = groups.div_ceil(x);
        match (u32::try_from(x), u32::try_from(y)) {
            (Ok(x), Ok(y)) if y <= max => Ok((x, y)),
            _ => Err(Error::Backend(format!(
                "GPU dispatch of {numel} elements exceeds {max}x{max} workgroups"
            ))),
        }
    }
}

/// The metadata words of `shaders/binary.wgsl` (table at the top of that file),
/// after checking the layouts agree on a shape and stay inside their buffers.
fn binary_metadata(
    op: BinaryOp,
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
    let numel = lhs_layout.numel();
    if numel > 0 {
        check_in_bounds("lhs", lhs_layout, lhs.len())?;
        check_in_bounds("rhs", rhs_layout, rhs.len())?;
    }
    let rank = lhs_layout.rank();
    let mut words = Vec::with_capacity(5 + 3 * rank);
    words.push(op.code());
    words.push(to_u32(rank)?);
    words.push(to_u32(numel)?);
    words.push(to_u32(lhs_layout.offset())?);
    words.push(to_u32(rhs_layout.offset())?);
    for &dim in lhs_layout.shape() {
        words.push(to_u32(dim)?);
    }
    for layout in [lhs_layout, rhs_layout] {
        for &stride in layout.strides() {
            let stride = i32::try_from(stride).map_err(|_| too_large(stride))?;
            words.push(u32::from_ne_bytes(stride.to_ne_bytes()));
        }
    }
    Ok(words)
}

/// Fails unless every element the layout reaches lies in `0..len`.
fn check_in_bounds(name: &str, layout: &Layout, len: usize) -> Result<()> {
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
            "GPU binary op: {name} layout {:?} strides {:?} offset {} reaches elements \
             {low}..={high} of a buffer of {len}",
            layout.shape(),
            layout.strides(),
            layout.offset()
        )));
    }
    Ok(())
}

fn to_u32(value: usize) -> Result<u32> {
    u32::try_from(value).map_err(|_| too_large(value))
}

fn too_large(value: impl std::fmt::Display) -> Error {
    Error::Backend(format!(
        "GPU kernel metadata value {value} does not fit in 32 bits"
    ))
}
