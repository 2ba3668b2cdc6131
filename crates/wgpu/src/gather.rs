//! Gather and scatter by storage positions: `shaders/gather.wgsl`.

use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::word;
use crate::pipeline::{Access, KernelSpec};

const TAKE: KernelSpec = KernelSpec {
    entry_point: "gather_take",
    label: "gradscope::gather::take",
    source: include_str!("../../../shaders/gather.wgsl"),
    bindings: &[Access::Read, Access::Read, Access::ReadWrite, Access::Read],
};

const PUT: KernelSpec = KernelSpec {
    entry_point: "gather_put",
    label: "gradscope::gather::put",
    source: include_str!("../../../shaders/gather.wgsl"),
    bindings: &[Access::Read, Access::Read, Access::ReadWrite, Access::Read],
};

/// The plan `gather_put` follows (see `shaders/gather.wgsl`): the writes
/// grouped by the element they land on, and how many groups there are.
///
/// Sources aimed at one element stay in their original order, so a sum
/// rounds as the CPU's sequential loop rounds it.
fn put_plan(positions: &[usize], reads: &[usize]) -> Result<(Vec<u32>, usize)> {
    if positions.len() != reads.len() {
        return Err(Error::Backend(format!(
            "GPU put: {} positions but {} reads",
            positions.len(),
            reads.len()
        )));
    }
    let mut order: Vec<usize> = (0..positions.len()).collect();
    order.sort_by_key(|&i| positions[i]);
    let mut targets = Vec::new();
    let mut starts = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        if targets.last() != Some(&positions[i]) {
            targets.push(positions[i]);
            starts.push(k);
        }
    }
    starts.push(order.len());
    let mut plan = Vec::with_capacity(2 * targets.len() + 1 + order.len());
    for value in targets
        .iter()
        .chain(&starts)
        .copied()
        .chain(order.iter().map(|&i| reads[i]))
    {
        plan.push(word(value)?);
    }
    Ok((plan, targets.len()))
}

/// Fails unless every position lies in `0..len`.
fn check_positions(what: &str, positions: &[usize], len: usize) -> Result<()> {
    match positions.iter().find(|&&p| p >= len) {
        Some(p) => Err(Error::Backend(format!(
            "GPU {what}: position {p} in a buffer of {len}"
        ))),
        None => Ok(()),
    }
}

impl GpuDevice {
    /// `src`'s elements at storage `positions`, into a new contiguous
    /// buffer as long as `positions`.
    pub fn take(&self, src: &GpuBuffer, positions: &[usize]) -> Result<GpuBuffer> {
        check_positions("take", positions, src.len())?;
        let numel = positions.len();
        let out = self.alloc(numel, TAKE.label)?;
        if numel > 0 {
            let words = positions
                .iter()
                .map(|&p| word(p))
                .collect::<Result<Vec<u32>>>()?;
            let positions = self.upload_indices(&words)?;
            self.launch(
                &TAKE,
                &[&src.buffer, &positions.buffer, &out.buffer],
                &[word(numel)?, 0],
                self.grid(numel)?,
            )?;
        }
        Ok(out)
    }

    /// A contiguous copy of `base` read through `layout`, with `src`'s
    /// elements at storage positions `reads` added (or, without `add`,
    /// written) at the copy's `positions`, in order.
    pub fn put(
        &self,
        base: &GpuBuffer,
        layout: &Layout,
        src: &GpuBuffer,
        positions: &[usize],
        reads: &[usize],
        add: bool,
    ) -> Result<GpuBuffer> {
        check_positions("put", positions, layout.numel())?;
        check_positions("put", reads, src.len())?;
        let out = self.copy(base, layout)?;
        let (plan, groups) = put_plan(positions, reads)?;
        if groups > 0 {
            let plan = self.upload_indices(&plan)?;
            self.launch(
                &PUT,
                &[&src.buffer, &plan.buffer, &out.buffer],
                &[word(groups)?, u32::from(add)],
                self.grid(groups)?,
            )?;
        }
        Ok(out)
    }
}
