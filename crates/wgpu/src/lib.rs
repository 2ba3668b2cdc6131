//! gradscope's GPU backend: WGSL compute kernels from `shaders/` run through
//! wgpu, on Vulkan natively and on WebGPU in the browser.
//!
//! Work is recorded into batches of many dispatches and submitted without
//! waiting; nothing comes back to the CPU until [`GpuDevice::read`] (or the
//! core's `DeviceBackend::download`) asks for it. Freed buffers go to a
//! caching allocator ([`GpuDevice::memory_stats`], [`GpuDevice::empty_cache`]).

mod adam;
mod alloc;
mod backend;
#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
mod bias;
mod binary;
mod buffer;
mod conv;
mod copy;
mod device;
mod gather;
mod index;
mod launch;
mod matmul;
mod matmul_tiled;
mod matmul_tuner;
mod nll;
mod oneshot;
mod pipeline;
mod reduce;
mod select;
mod softmax;
mod unary;

pub use alloc::MemoryStats;
#[cfg(not(target_arch = "wasm32"))]
pub use bench::{LadderPoint, StepTimes, matmul_ladder, matmul_ladder_of, training_steps};
pub use buffer::GpuBuffer;
pub use copy::ScatterPart;
pub use device::GpuDevice;
pub use matmul::{MatmulKernel, matmul_sources};
pub use matmul_tiled::{TILE_SHAPES, TileShape, WEBGPU_DEFAULT_SHAPES};
pub use matmul_tuner::{SizeClass, pick_fastest, tuned_matmul_kernels};
pub use pipeline::{STRIDED_PRELUDE, shader_source};
