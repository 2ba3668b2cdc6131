//! Batched matrix products over strided operands: `shaders/matmul.wgsl`.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use gradscope_core::{Error, Layout, Result};

use crate::buffer::GpuBuffer;
use crate::device::GpuDevice;
use crate::launch::{check_in_bounds, stride_word, word};
use crate::matmul_tiled::{TILE_SHAPES, TileShape};
use crate::pipeline::{Access, KernelSpec};

const SOURCE: &str = include_str!("../../../shaders/matmul.wgsl");
const BINDINGS: &[Access] = &[Access::Read, Access::Read, Access::ReadWrite, Access::Read];

/// The matmul kernels: the three hand-written ones of `shaders/matmul.wgsl`
/// (the baseline) and the register-tiled family generated per
/// [`TileShape`] (`matmul_tiled.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatmulKernel {
    /// One invocation per output, operands read from storage for every term.
    Naive,
    /// 16x16 tiles of both operands staged in workgroup memory.
    Tiled,
    /// 64x64 outputs per workgroup, 4x4 per invocation in registers.
    RegisterBlocked,
    /// One kernel of the register-tiled family.
    Register(TileShape),
}

impl MatmulKernel {
    /// The hand-written kernels, the baseline: naive, 16x16-tiled, 64x64
    /// register-blocked.
    pub const ALL: [MatmulKernel; 3] = [
        MatmulKernel::Naive,
        MatmulKernel::Tiled,
        MatmulKernel::RegisterBlocked,
    ];

    /// Every kernel in ladder order: [`MatmulKernel::ALL`], then the
    /// register-tiled family ([`TILE_SHAPES`]; its last members need more
    /// than WebGPU's default limits and run where
    /// [`GpuDevice::fits_matmul`]).
    pub fn every() -> impl Iterator<Item = MatmulKernel> {
        let family = TILE_SHAPES.iter().map(|s| MatmulKernel::Register(*s));
        Self::ALL.into_iter().chain(family)
    }

    /// Its name in benchmark output: `naive`, `tiled`, `register_blocked`,
    /// or the family member's, e.g. `t128x128_8x8_k8_v4`.
    pub fn name(self) -> &'static str {
        match self {
            MatmulKernel::Naive => "naive",
            MatmulKernel::Tiled => "tiled",
            MatmulKernel::RegisterBlocked => "register_blocked",
            MatmulKernel::Register(shape) => shape.name,
        }
    }

    /// The kernel of that name.
    pub fn named(name: &str) -> Option<Self> {
        Self::every().find(|k| k.name() == name)
    }

    fn spec(self) -> Result<&'static KernelSpec> {
        match self {
            MatmulKernel::Naive => Ok(&NAIVE),
            MatmulKernel::Tiled => Ok(&TILED),
            MatmulKernel::RegisterBlocked => Ok(&BLOCKED),
            MatmulKernel::Register(shape) => family_spec(shape),
        }
    }

    /// Whether a device with these limits can run it (the family's largest
    /// tiles need WebGPU's default 256 invocations and 16 KiB).
    pub fn fits(self, limits: &wgpu::Limits) -> bool {
        match self {
            MatmulKernel::Register(shape) => shape.fits(limits),
            _ => true,
        }
    }

    /// The kernel for a `[batch, m, n]` output where no tuning ran: in the
    /// browser (which cannot block to time candidates), on CPU adapters
    /// (lavapipe, SwiftShader), or for a size the tuner has not met. It
    /// keeps to kernels within WebGPU's default limits, which every adapter
    /// offers.
    ///
    /// By how many workgroups each tile size would give. On an NVIDIA
    /// H200 (132 SMs; `tests/bench/h200_ladder.txt`): from 128 tiles of
    /// 128x128 on (n = 2048: 21.2 TFLOP/s) those were fastest of the
    /// kernels WebGPU's default limits allow; at n = 1024 (256 tiles of
    /// 64x64) 64x64 tiles gave 10.1 against 7.5; at n = 512 (256 tiles of
    /// 32x32) 32x32 tiles gave 1.08 against the 16x16 kernel's 0.36; at
    /// n = 256 the 16x16 kernel was as fast as any (0.61).
    pub fn for_output(batch: usize, m: usize, n: usize) -> Self {
        let tiles = |side: usize| {
            batch
                .saturating_mul(m.div_ceil(side))
                .saturating_mul(n.div_ceil(side))
        };
        if tiles(128) >= LARGE_FROM_TILES {
            MatmulKernel::Register(TILE_SHAPES[LARGE])
        } else if tiles(64) >= MEDIUM_FROM_TILES {
            MatmulKernel::Register(TILE_SHAPES[MEDIUM])
        } else if tiles(32) >= SMALL_FROM_TILES {
            MatmulKernel::Register(TILE_SHAPES[SMALL])
        } else {
            MatmulKernel::Tiled
        }
    }

    /// Output rows and columns one workgroup covers.
    fn tile(self) -> (usize, usize) {
        match self {
            MatmulKernel::Naive => (8, 8),
            MatmulKernel::Tiled => (16, 16),
            MatmulKernel::RegisterBlocked => (64, 64),
            MatmulKernel::Register(shape) => (shape.bm as usize, shape.bn as usize),
        }
    }
}

/// Tiles of each size from which [`MatmulKernel::for_output`] takes it:
/// 128x128, 64x64 and 32x32 outputs per workgroup.
const LARGE_FROM_TILES: usize = 128;
const MEDIUM_FROM_TILES: usize = 256;
const SMALL_FROM_TILES: usize = 128;
/// [`TILE_SHAPES`] indices of the fallback's small, medium and large kernels.
const SMALL: usize = 0;
const MEDIUM: usize = 1;
const LARGE: usize = 5;

/// The family's pipelines' specs, built once per process: WGSL text,
/// entry point and label per [`TileShape`], in [`TILE_SHAPES`] order.
static FAMILY_SOURCES: LazyLock<Vec<(String, String, String)>> = LazyLock::new(|| {
    TILE_SHAPES
        .iter()
        .map(|shape| {
            (
                shape.wgsl(),
                shape.entry_point(),
                format!("gradscope::matmul::{}", shape.name),
            )
        })
        .collect()
});

static FAMILY_SPECS: LazyLock<Vec<KernelSpec>> = LazyLock::new(|| {
    FAMILY_SOURCES
        .iter()
        .map(|(source, entry_point, label)| KernelSpec {
            entry_point,
            label,
            source,
            bindings: BINDINGS,
        })
        .collect()
});

/// Specs of shapes outside [`TILE_SHAPES`] ([`TileShape::parse`]), built
/// on first use and kept for the process: a benchmark exploring shapes
/// makes a handful.
static OTHER_SPECS: LazyLock<Mutex<HashMap<TileShape, &'static KernelSpec>>> =
    LazyLock::new(Mutex::default);

fn family_spec(shape: TileShape) -> Result<&'static KernelSpec> {
    if let Some(index) = TILE_SHAPES.iter().position(|s| *s == shape) {
        return Ok(&FAMILY_SPECS[index]);
    }
    if !shape.is_consistent() {
        return Err(Error::Backend(format!(
            "GPU matmul tile shape {shape:?} is not a consistent register tiling"
        )));
    }
    let mut other = OTHER_SPECS.lock().unwrap_or_else(PoisonError::into_inner);
    Ok(other.entry(shape).or_insert_with(|| {
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        Box::leak(Box::new(KernelSpec {
            entry_point: leak(shape.entry_point()),
            label: leak(format!("gradscope::matmul::{}", shape.name)),
            source: leak(shape.wgsl()),
            bindings: BINDINGS,
        }))
    }))
}

/// The WGSL of every kernel the device may build: the hand-written file and
/// each family member's generated module, for validation.
pub fn matmul_sources() -> Vec<(&'static str, &'static str)> {
    let mut all = vec![("matmul.wgsl", SOURCE)];
    for (shape, (source, _, _)) in TILE_SHAPES.iter().zip(FAMILY_SOURCES.iter()) {
        all.push((shape.name, source.as_str()));
    }
    all
}

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
        let kernel = match fixed {
            Some(kernel) => kernel,
            None => self.choose_matmul(dims, lhs, lhs_layout, rhs, rhs_layout)?,
        };
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

    pub(crate) fn launch_matmul(
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
        let spec = kernel.spec()?;
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
        if !kernel.fits(&self.device.limits()) {
            return Err(Error::Backend(format!(
                "GPU matmul kernel {} needs more workgroup memory or invocations than this adapter has",
                kernel.name()
            )));
        }
        let max = self.max_groups() as usize;
        let (rows, cols) = kernel.tile();
        let (x, y) = (n.div_ceil(cols), m.div_ceil(rows));
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
#[derive(Clone, Copy, Debug)]
pub(crate) struct MatmulDims {
    pub batch: usize,
    pub m: usize,
    pub k: usize,
    pub n: usize,
}

impl MatmulDims {
    pub(crate) fn of(lhs: &Layout, rhs: &Layout) -> Result<Self> {
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
    use super::{LARGE, MEDIUM, MatmulKernel, SMALL};
    use crate::matmul_tiled::{TILE_SHAPES, WEBGPU_DEFAULT_SHAPES};

    #[test]
    fn matmul_fallback_by_output_size() {
        assert_eq!(TILE_SHAPES[SMALL].name, "t32x32_4x4_k16_v4");
        assert_eq!(TILE_SHAPES[MEDIUM].name, "t64x64_4x4_k16_v4");
        assert_eq!(TILE_SHAPES[LARGE].name, "t128x128_8x8_k8_v4");
        // The fallback runs in browsers: only kernels WebGPU's defaults allow.
        assert!(
            [SMALL, MEDIUM, LARGE]
                .iter()
                .all(|&i| i < WEBGPU_DEFAULT_SHAPES)
        );
        let [small, medium, large] =
            [SMALL, MEDIUM, LARGE].map(|i| MatmulKernel::Register(TILE_SHAPES[i]));
        // The mlp benchmark's products: 64x256 outputs are 16 tiles of 32.
        assert_eq!(MatmulKernel::for_output(1, 64, 256), MatmulKernel::Tiled);
        assert_eq!(MatmulKernel::for_output(1, 256, 256), MatmulKernel::Tiled);
        assert_eq!(MatmulKernel::for_output(1, 512, 512), small);
        assert_eq!(MatmulKernel::for_output(1, 1024, 1024), medium);
        assert_eq!(MatmulKernel::for_output(1, 2048, 1024), large);
        // A batch counts its tiles too.
        assert_eq!(MatmulKernel::for_output(16, 256, 256), medium);
        assert_eq!(MatmulKernel::for_output(0, 64, 64), MatmulKernel::Tiled);
    }

    #[test]
    fn matmul_kernels_named_uniquely() {
        assert_eq!(MatmulKernel::every().count(), 3 + TILE_SHAPES.len());
        for kernel in MatmulKernel::every() {
            assert_eq!(MatmulKernel::named(kernel.name()), Some(kernel));
        }
    }
}
