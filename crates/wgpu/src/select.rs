//! PyTorch's `where` with broadcasting: `shaders/select.wgsl`.

use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, coalesce_many, stride_word, word};
use crate::pipeline::{Access, KernelSpec};

const WHERE: KernelSpec = KernelSpec {
    entry_point: "select_where",
    label: "gradscope::select::where",
    source: include_str!("../../../shaders/select.wgsl"),
    bindings: &[
        Access::Read,
        Access::Read,
        Access::Read,
        Access::ReadWrite,
        Access::Read,
    ],
};

impl GpuDevice {
    /// `lhs` where the float32 mask `condition` is nonzero, else `rhs`, into a
    /// new contiguous buffer; the three layouts already broadcast to one shape.
    pub fn where_cond(
        &self,
        condition: (&GpuBuffer, &Layout),
        lhs: (&GpuBuffer, &Layout),
        rhs: (&GpuBuffer, &Layout),
    ) -> Result<GpuBuffer> {
        let operands = [("condition", condition), ("lhs", lhs), ("rhs", rhs)];
        let shape = condition.1.shape();
        for (what, (buffer, layout)) in operands {
            if layout.shape() != shape {
                return Err(Error::Backend(format!(
                    "GPU where on layouts of different shapes {shape:?} and {:?}; \
                     broadcast them first",
                    layout.shape()
                )));
            }
            check_in_bounds(&format!("where: {what}"), layout, buffer.len())?;
        }
        let strides: Vec<&[isize]> = operands.iter().map(|(_, (_, l))| l.strides()).collect();
        let (merged, strides) = coalesce_many(shape, &strides);
        let numel = condition.1.numel();
        let mut metadata = vec![word(merged.len())?, word(numel)?];
        for (_, (_, layout)) in operands {
            metadata.push(word(layout.offset())?);
        }
        for &dim in &merged {
            metadata.push(word(dim)?);
        }
        for operand in &strides {
            for &stride in operand {
                metadata.push(stride_word(stride)?);
            }
        }
        let out = self.alloc(numel, WHERE.label)?;
        if numel > 0 {
            let grid = self.grid(numel)?;
            self.launch(
                &WHERE,
                &[
                    &condition.0.buffer,
                    &lhs.0.buffer,
                    &rhs.0.buffer,
                    &out.buffer,
                ],
                &metadata,
                grid,
            )?;
        }
        Ok(out)
    }
}
