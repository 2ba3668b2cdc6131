//! gradscope's GPU backend: WGSL compute kernels from `shaders/` run through
//! wgpu, on Vulkan natively and on WebGPU in the browser.
//!
//! Work is encoded and submitted without waiting; nothing comes back to the
//! CPU until [`GpuDevice::read`] asks for it.

mod binary;
mod buffer;
mod device;
mod oneshot;
mod pipeline;

pub use buffer::GpuBuffer;
pub use device::GpuDevice;
