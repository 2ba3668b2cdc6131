//! The GPU for `--device webgpu` and for programs that ask for `webgpu`:
//! natively, wgpu on Vulkan (Mesa lavapipe in tests).

use std::rc::Rc;

use gradscope_core::DeviceBackend;

/// Lets the engine open the GPU the first time anything asks for it, so
/// CPU-only runs never start a Vulkan instance.
pub fn register() {
    gradscope_core::device::set_gpu_opener(Box::new(|| {
        let gpu = pollster::block_on(gradscope_wgpu::GpuDevice::new())?;
        Ok(Rc::new(gpu) as Rc<dyn DeviceBackend>)
    }));
}
