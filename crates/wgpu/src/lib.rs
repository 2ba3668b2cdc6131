//! gradscope's GPU backend: WGSL compute kernels from `shaders/` run through
//! wgpu, on Vulkan natively and on WebGPU in the browser.
//!
//! Work is recorded into batches of many dispatches and submitted without
//! waiting; nothing comes back to the CPU until [`GpuDevice::read`] (or the
//! core's `DeviceBackend::download`) asks for it. Freed buffers go to a
//! caching allocator ([`GpuDevice::memory_stats`], [`GpuDevice::empty_cache`]).

mod alloc;
mod backend;
mod binary;
mod buffer;
mod copy;
mod device;
mod launch;
mod oneshot;
mod pipeline;
mod reduce;
mod unary;

pub use alloc::MemoryStats;
pub use buffer::GpuBuffer;
pub use device::GpuDevice;
