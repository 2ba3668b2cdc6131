//! Batched matrix products over strided operands: `shaders/matmul.wgsl`.

use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, stride_word, word};
use crate::pipeline::{Access, KernelSpec};

const SOURCE: &str = include_str!("../../../shaders/matmul.wgsl");
const BINDINGS: &[Access] = &[Access::Read, Access::Read, Access::ReadWrite, Access::Read];

/// The matmul kernels, slowest to fastest: the ladder of the GPU benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatmulKernel {
    /// One invocation per output, operands read from storage for every term.
    Naive,
    /// 16x16 tiles of both operands staged in workgroup memory.
    Tiled,
    /// 64x64 outputs per workgroup, 4x4 per invocation in registers.
    RegisterBlocked,
}

impl MatmulKernel {
    /// Every kernel, in ladder order.
    pub const ALL: [MatmulKernel; 3] = [
        MatmulKernel::Naive,
        MatmulKernel::Tiled,
        MatmulKernel::RegisterBlocked,
    ];

    /// Its name in benchmark output: `naive`, `tiled`, `register_blocked`.
    pub fn name(self) -> &'static str {
        match self {
            MatmulKernel::Naive => "naive",
            MatmulKernel::Tiled => "tiled",
            MatmulKernel::RegisterBlocked => "register_blocked",
        }
    }

    fn spec(self) -> &'static KernelSpec {
        match self {
            MatmulKernel::Naive => &NAIVE,
            MatmulKernel::Tiled => &TILED,
            MatmulKernel::RegisterBlocked => &BLOCKED,
        }
    }

    /// The kernel for a `[batch, m, n]` output: register blocking where
    /// its 64x64 tiles are enough workgroups to fill a GPU, else 16x16
    /// tiles. On an NVIDIA H100 (132 SMs) at n = 256 the register-blocked
    /// kernel ran 16 workgroups at 183 GFLOP/s and the tiled one 541; from
    /// n = 1024 (256 tiles) on they were even, and past it register
    /// blocking led (`gradscope bench --suite gpu`).
    pub fn for_output(batch: usize, m: usize, n: usize) -> Self {
        let tiles = batch
            .saturating_mul(m.div_ceil(64))
            .saturating_mul(n.div_ceil(64));
        if tiles >= BLOCKED_FROM_TILES {
            MatmulKernel::RegisterBlocked
        } else {
            MatmulKernel::Tiled
        }
    }

    /// Output rows and columns one workgroup covers.
    fn tile(self) -> usize {
        match self {
            MatmulKernel::Naive => 8,
            MatmulKernel::Tiled => 16,
            MatmulKernel::RegisterBlocked => 64,
        }
    }
}

/// Register-blocked 64x64 output tiles from which [`MatmulKernel::for_output`]
/// picks that kernel.
const BLOCKED_FROM_TILES: usize = 256;

const NAIVE: KernelSpec = KernelSpec {
    entry_point: "matmul_naive",
    label: "gradscope::matmul::naive",
    source: SOURCE,
    bindings: BINDINGS,
};

const TILED: KernelSpec = KernelSpec {
    entry_point: "matmul_tiled",
    label: "gradscope::matmul::tiled",
    source: SOURCE,
    bindings: BINDINGS,
};

const BLOCKED: KernelSpec = KernelSpec {
    entry_point: "matmul_blocked",
    label: "gradscope::matmul::register_blocked",
    source: SOURCE,
    bindings: BINDINGS,
};

impl GpuDevice {
    /// `lhs[b] @ rhs[b]` for `lhs` of shape `[batch, m, k]` and `rhs` of
    /// shape `[batch, k, n]`, each read through its strides, into a new
    /// contiguous `[batch, m, n]`, with the kernel
    /// [`MatmulKernel::for_output`] picks (or the one
    /// [`GpuDevice::fix_matmul_kernel`] fixed; the ladder benchmark,
    /// `bench::matmul_ladder`, measures all three).
    pub fn matmul(
        &self,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
    ) -> Result<GpuBuffer> {
        let dims = MatmulDims::of(lhs_layout, rhs_layout)?;
        let fixed = *self
            .matmul_kernel
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let kernel = fixed.unwrap_or_else(|| MatmulKernel::for_output(dims.batch, dims.m, dims.n));
        self.launch_matmul(kernel, dims, lhs, lhs_layout, rhs, rhs_layout)
    }

    /// Makes every matmul use `kernel` (`None`: the choice by size again),
    /// so a benchmark can time a workload under each in one run.
    pub fn fix_matmul_kernel(&self, kernel: Option<MatmulKernel>) {
        *self
            .matmul_kernel
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = kernel;
    }

    /// [`GpuDevice::matmul`] with a chosen kernel.
    pub fn matmul_with(
        &self,
        kernel: MatmulKernel,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
    ) -> Result<GpuBuffer> {
        let dims = MatmulDims::of(lhs_layout, rhs_layout)?;
        self.launch_matmul(kernel, dims, lhs, lhs_layout, rhs, rhs_layout)
    }

    fn launch_matmul(
        &self,
        kernel: MatmulKernel,
        MatmulDims { batch, m, k, n }: MatmulDims,
        lhs: &GpuBuffer,
        lhs_layout: &Layout,
        rhs: &GpuBuffer,
        rhs_layout: &Layout,
    ) -> Result<GpuBuffer> {
        check_in_bounds("matmul: lhs", lhs_layout, lhs.len())?;
        check_in_bounds("matmul: rhs", rhs_layout, rhs.len())?;
        let numel = batch
            .checked_mul(m)
            .and_then(|bm| bm.checked_mul(n))
            .ok_or_else(|| Error::Backend("GPU matmul output size overflows".into()))?;
        let spec = kernel.spec();
        let out = self.alloc(numel, spec.label)?;
        if numel == 0 {
            return Ok(out);
        }
        let mut metadata = vec![word(batch)?, word(m)?, word(k)?, word(n)?];
        for layout in [lhs_layout, rhs_layout] {
            metadata.push(word(layout.offset())?);
            for &stride in layout.strides() {
                metadata.push(stride_word(stride)?);
            }
        }
        let max = self.max_groups() as usize;
        let (x, y) = (n.div_ceil(kernel.tile()), m.div_ceil(kernel.tile()));
        if x > max || y > max {
            return Err(Error::Backend(format!(
                "GPU matmul of {m}x{n} outputs needs {y}x{x} workgroups, past the limit of {max}"
            )));
        }
        let grid = [word(x)?, word(y)?, word(batch.min(max))?];
        self.launch(
            spec,
            &[&lhs.buffer, &rhs.buffer, &out.buffer],
            &metadata,
            grid,
        )?;
        Ok(out)
    }
}

/// The sizes of `[batch, m, k] @ [batch, k, n]`, read once from the two
/// layouts: the kernel choice and the launch both need them.
#[derive(Clone, Copy)]
struct MatmulDims {
    batch: usize,
    m: usize,
    k: usize,
    n: usize,
}

impl MatmulDims {
    fn of(lhs: &Layout, rhs: &Layout) -> Result<Self> {
        let (&[batch, m, k], &[batch2, k2, n]) = (lhs.shape(), rhs.shape()) else {
            return Err(Error::Backend(format!(
                "GPU matmul needs [batch, m, k] and [batch, k, n] layouts, got {:?} and {:?}",
                lhs.shape(),
                rhs.shape()
            )));
        };
        if batch != batch2 || k != k2 {
            return Err(Error::Backend(format!(
                "GPU matmul of mismatched shapes {:?} and {:?}",
                lhs.shape(),
                rhs.shape()
            )));
        }
        Ok(MatmulDims { batch, m, k, n })
    }
}

#[cfg(test)]
mod tests {
    use super::MatmulKernel;

    #[test]
    fn small_outputs_take_16x16_tiles_and_large_ones_register_blocking() {
        // The mlp benchmark's products: 64x256 outputs are 4 tiles of 64.
        assert_eq!(MatmulKernel::for_output(1, 64, 256), MatmulKernel::Tiled);
        assert_eq!(MatmulKernel::for_output(1, 512, 512), MatmulKernel::Tiled);
        assert_eq!(
            MatmulKernel::for_output(1, 1024, 1024),
            MatmulKernel::RegisterBlocked
        );
        // A batch counts its tiles too.
        assert_eq!(
            MatmulKernel::for_output(16, 256, 256),
            MatmulKernel::RegisterBlocked
        );
        assert_eq!(MatmulKernel::for_output(0, 64, 64), MatmulKernel::Tiled);
    }
}
